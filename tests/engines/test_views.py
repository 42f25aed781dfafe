"""What a view shows of the sarcophagus: each taken tile with the coins entombed on it, and no other."""

import random

from engine.sarcophagus.driver import FullInformation, deal, greedy_policy
from engine.sarcophagus.events import Placed, SarcophagusTaken
from engine.sarcophagus.geometry import pos_name
from engine.sarcophagus.state import DISCARDED, Options
from engine.sarcophagus.views import view


def _game_where_one_seat_takes_two_sarcophagus_tiles():
    for seed in range(500):
        rng = random.Random(seed)
        game = FullInformation(Options(), ["ann", "ben"], deal(rng), "ann")
        events = game.play({"ann": greedy_policy, "ben": greedy_policy}, rng)
        takers = [o for o in game.state.under_owner if o not in (None, DISCARDED)]
        taken = [e for e in events if isinstance(e, SarcophagusTaken)]
        if len(takers) > len(set(takers)) and sum(e.coins > 0 for e in taken) >= 2:
            return game, events
    raise AssertionError("no such game in 500 seeds")


def test_each_sarcophagus_tile_shows_only_the_coins_entombed_on_it():
    game, events = _game_where_one_seat_takes_two_sarcophagus_tiles()
    placed_on = {e.slot: e.pos for e in events if isinstance(e, Placed)}
    shown = view(game.state, "ann", game.known["ann"])["sarcophagus"]
    entombed = {pos_name(e.pos): e.coins for e in events if isinstance(e, SarcophagusTaken)}
    slots_seen = []
    for name, spot in shown.items():
        slots = [coin["slot"] for coin in spot["coins"]]
        assert len(slots) == entombed.get(name, 0)
        assert all(pos_name(placed_on[slot]) == name for slot in slots)
        assert all(coin["owner"] == spot["holder"] for coin in spot["coins"])
        slots_seen += slots
    assert len(slots_seen) == len(set(slots_seen)) >= 2
