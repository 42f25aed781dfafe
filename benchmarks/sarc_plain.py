"""A plain model of Sarcophagus: the yardstick of benchmarks/engine_playouts.py (issue 26).

The same rules (docs/rules/sarcophagus.md, as engine/sarcophagus/rules.py reads them) written the
straightforward way one would for a simulation: one mutable game object, lists changed in place, a
turn as the rulebook tells it, every coin a small list of its owner, value and whether it is face up,
no bit masks, caches, events or public/secret split. It plays the random games the engine plays
(driver.random_game), from the same draws of the same generator, so the benchmark can check that it
ends each seeded game as the engine does; how many it plays a second is what "as fast as a plain
model" means.

    python benchmarks/sarc_plain.py [--seconds 5]   # its games per second
"""

from __future__ import annotations

import argparse
import random
import time

ROWS = 6
CELLS = [(r, c) for r in range(1, ROWS + 1) for c in range(1, r + 1)]
INDEX = {cell: i for i, cell in enumerate(CELLS)}
SARCOPHAGUS = [INDEX[(5, 3)], INDEX[(6, 3)], INDEX[(6, 4)]]
NULL, ACE = 0, 1
SUIT_BONUS = {0: 0, 1: 0, 2: 1, 3: 2, 4: 4}
DISCARDED = -1


def _existing(cells: list[tuple[int, int]]) -> list[int]:
    return [INDEX[cell] for cell in cells if cell in INDEX]


SIDES = [[_existing([(r - 1, c - 1), (r - 1, c)]), _existing([(r, c - 1)]), _existing([(r, c + 1)]),
          _existing([(r + 1, c), (r + 1, c + 1)])] for r, c in CELLS]
"""The positions touching each side of a tile: top, left, right, bottom."""
NEIGHBOURS = [sorted({q for side in sides for q in side}) for sides in SIDES]


class Game:
    def __init__(self, n: int, two_player: str, rng: random.Random, bottom_edge_free: bool = True):
        self.rng = rng
        self.bottom_edge_free = bottom_edge_free
        # the deal, as the setup rules say: two nulls join the 5s for the sarcophagus region
        nulls = [(suit, NULL) for suit in range(4)]
        rng.shuffle(nulls)
        region = nulls[:2] + [(suit, 5) for suit in range(4)]
        rest = nulls[2:] + [(suit, rank) for suit in range(4) for rank in range(1, 5)]
        rng.shuffle(region)
        rng.shuffle(rest)
        self.tiles = [region.pop() if pos in SARCOPHAGUS else rest.pop() for pos in range(21)]
        self.under = region
        first = rng.choice(range(n))
        # seats: who holds coins and takes turns (a player, or one suit of a player with 2 players, `seats`)
        if n > 2:
            self.seat_player, coins = list(range(n)), list(range(6))
        elif two_player == "pooled":
            self.seat_player, coins = [0, 1], sorted(list(range(6)) * 2)
        else:
            self.seat_player, coins = [0, 1, 0, 1], list(range(6))
        self.n = n
        self.hands = [list(coins) for _ in self.seat_player]
        self.claimed: list[list[tuple[int, int]]] = [[] for _ in self.seat_player]
        self.present = [True] * 21
        self.face_up = [False] * 21
        self.on_tile: list[list[list[int]]] = [[] for _ in range(21)]  # coins: [seat, value, face up]
        self.coins_placed: list[list[int]] = []
        self.under_owner: list[int | None] = [None, None, None]
        self.traps: list[int] = []
        self.turn = self.seat_player.index(first)
        self.acts = 0

    # -- reading the pyramid

    def free_sides(self, pos: int) -> int:
        free = 0
        for k, side in enumerate(SIDES[pos]):
            if k == 3 and CELLS[pos][0] == ROWS:
                free += self.bottom_edge_free
            elif not any(self.present[q] for q in side):
                free += 1
        return free

    def forced(self) -> int:
        return next(pos for pos in range(21) if self.present[pos])

    def reveal(self, positions: list[int]) -> None:
        if positions:
            for pos in positions:
                self.face_up[pos] = True
            self.acts += 1

    # -- claims

    def assess(self, pos: int) -> None:
        coins = self.on_tile[pos]
        if not coins:
            self.remove(pos, None)
            return
        count = [0] * len(self.hands)
        for seat, _, _ in coins:
            count[seat] += 1
        most = max(count)
        tied = [seat for seat in range(len(self.hands)) if count[seat] == most]
        if len(tied) == 1:
            self.remove(pos, tied[0])
            return
        hidden = [coin for coin in coins if coin[0] in tied and not coin[2]]
        if hidden:  # the tied coins are opened
            for coin in hidden:
                coin[2] = 1
            self.acts += 1
        totals = [sum(value for seat, value, _ in coins if seat == s) for s in tied]
        best = [s for s, total in zip(tied, totals) if total == max(totals)]
        self.remove(pos, best[0] if len(best) == 1 else None)

    def remove(self, pos: int, claimer: int | None) -> None:
        self.present[pos] = False
        coins, self.on_tile[pos] = self.on_tile[pos], []
        under = SARCOPHAGUS.index(pos) if pos in SARCOPHAGUS else None
        for seat, value, _ in coins:
            if under is None or seat != claimer:
                self.hands[seat].append(value)
                self.hands[seat].sort()
        if claimer is None:
            if under is not None:
                self.under_owner[under] = DISCARDED
            return
        tile = self.tiles[pos]
        self.claimed[claimer].append(tile)
        if under is not None:
            self.under_owner[under] = claimer
        if tile[1] == NULL:
            self.traps.append(claimer)

    def spring_traps(self) -> None:
        while self.traps:
            seat = self.traps.pop(0)
            held = self.claimed[seat]
            if any(tile[1] == ACE for tile in held):
                continue
            numbers = [tile for tile in held if tile[1] >= 2]
            if len(numbers) > 1:
                held.remove(numbers[int(self.rng.random() * len(numbers))])
                self.acts += 1
            elif numbers:
                held.remove(numbers[0])

    def cascade(self) -> None:
        """Every tile with 4 coins and 2 free sides is assessed, top row first, then left to right,
        recomputing after each removal (a sprung trap resolved first)."""
        while True:
            self.spring_traps()
            ready = [pos for pos in range(21)
                     if self.present[pos] and len(self.on_tile[pos]) == 4 and self.free_sides(pos) >= 2]
            if not ready:
                return
            self.assess(ready[0])

    # -- a turn

    def place(self, targets: list[int]) -> None:
        seat = self.turn
        values = sorted(set(self.hands[seat]))
        moves = [(pos, value) for pos in targets for value in values]
        pos, value = moves[int(self.rng.random() * len(moves))]
        self.hands[seat].remove(value)
        coin = [seat, value, 0]
        self.on_tile[pos].append(coin)
        self.coins_placed.append(coin)
        self.acts += 1
        self.reveal([q for q in NEIGHBOURS[pos] if self.present[q] and not self.face_up[q]])
        self.cascade()

    def take_turn(self) -> None:
        seat = self.turn
        if not self.hands[seat] and any(self.hands):
            self.turn = (seat + 1) % len(self.hands)  # no coins: pass
            return
        forced = self.forced()
        if not self.face_up[forced]:
            self.reveal([forced])
        if not self.hands[seat]:  # every coin played: the forced tile is assessed as it is
            self.turn = (seat + 1) % len(self.hands)
            self.assess(forced)
            self.cascade()
            return
        self.place([forced])
        if any(self.present):
            targets = [pos for pos in range(21) if self.present[pos] and self.face_up[pos]
                       and len(self.on_tile[pos]) < 4]
            if self.hands[seat] and targets:
                self.place(targets)
        self.turn = (seat + 1) % len(self.hands)

    def play(self) -> None:
        self.reveal([0])
        while any(self.present):
            self.take_turn()
        self.acts += 1  # the sarcophagus tiles revealed
        for k, tile in enumerate(self.under):
            owner = self.under_owner[k]
            if owner != DISCARDED:
                assert owner is not None
                self.claimed[owner].append(tile)
                if tile[1] == NULL:
                    self.traps.append(owner)
        self.spring_traps()
        if not all(coin[2] for coin in self.coins_placed):
            self.acts += 1  # the end audit opens every coin

    # -- the end

    def scores(self) -> tuple[list[int], list[int]]:
        """Each player's fame and how many tiles they hold."""
        fame, held = [0] * self.n, [0] * self.n
        for seat, tiles in enumerate(self.claimed):
            numbers = [tile for tile in tiles if tile[1] >= 2]
            per_suit = [sum(1 for tile in numbers if tile[0] == suit) for suit in range(4)]
            fame[self.seat_player[seat]] += sum(tile[1] for tile in numbers) + sum(SUIT_BONUS[k] for k in per_suit)
            held[self.seat_player[seat]] += len(tiles)
        return fame, held

    def winners(self) -> list[int]:
        fame, held = self.scores()
        leaders = [p for p in range(self.n) if fame[p] == max(fame)]
        return [p for p in leaders if held[p] == min(held[q] for q in leaders)]


def random_game(n: int, two_player: str, rng: random.Random, bottom_edge_free: bool = True) -> Game:
    game = Game(n, two_player, rng, bottom_edge_free)
    game.play()
    return game


CONFIGURATIONS = [(2, "pooled"), (2, "seats"), (3, "pooled"), (4, "pooled")]


def games_per_second(n: int, two_player: str, seconds: float, rounds: int = 5) -> float:
    """Best games per CPU-second over several rounds, as engine_playouts.py measures the engine."""
    rng, rates = random.Random(n), []
    for _ in range(rounds):
        count, start = 0, time.process_time()
        while (elapsed := time.process_time() - start) < seconds / rounds:
            random_game(n, two_player, rng)
            count += 1
        rates.append(count / elapsed)
    return max(rates)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per configuration")
    args = parser.parse_args()
    for n, two_player in CONFIGURATIONS:
        label = f"{n} players" + (f" ({two_player})" if n == 2 else "")
        print(f"{label} (random): {games_per_second(n, two_player, args.seconds):.0f} games/s")


if __name__ == "__main__":
    main()
