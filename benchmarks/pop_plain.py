"""A plain model of Path of Pharaohs: the yardstick of benchmarks/pop_playouts.py (issue 26).

The same rules (docs/rules/path-of-pharaohs.md, as engine/path_of_pharaohs/ reads them) written
the straightforward way one would for a simulation: one mutable game object, lists changed in place,
every legal move listed in full at each choice, no caches, no events, no public/secret split. It plays
the random games the engine plays, from the same draws of the same generator (so the benchmark can
check it ends each seeded game as the engine does), and how many it plays a second is what "as fast
as a plain model" means.

    python benchmarks/pop_plain.py [--seconds 5]   # its games per second, and a check against the engine
"""

from __future__ import annotations

import argparse
import random
import time
from itertools import combinations

WILD, ZERO, THIEF, SANDSTORM = 11, 10, 12, 13
DECK_COUNTS = [6] * 10 + [5, 5, 5, 5]  # value cards 0-9, then Zero, Wild, Thief, Sandstorm
MIDDLE, UPPER, BASES = 1, (3, 4, 5), (0, 2)
BRIDGES = {3: (0, 1), 4: (1, 2), 5: (3, 4)}
POINTS = (0, 0, 0, 1, 1, 2)
DOUBLE = (2, 4, 6, 8, 10)
MUMMIES = (2, 4, 6, 8, 10)
A, B = 0, 1


def fillings(need: int, counts: list[int]) -> list[tuple[tuple[int, int], ...]]:
    """Every way to make `need` from the cards held (`counts` by card): one card, or two or three
    signed cards with none counting 0 and no two cancelling, each combination once in canonical order."""
    out: list[tuple[tuple[int, int], ...]] = []
    if counts[need]:
        out.append(((need, need),))
    if counts[WILD]:
        out.append(((WILD, need),))
    terms = [(v, s * v) for v in range(1, 10) if counts[v] for s in (1, -1)]
    if counts[WILD]:
        terms += [(WILD, x) for x in range(-9, 10) if x]
    terms.sort(key=lambda t: (-t[1], t[0]))

    def enough(cards: tuple[int, ...]) -> bool:
        return all(cards.count(c) <= counts[c] for c in cards)

    n = len(terms)
    for i in range(n):
        for k in range(i, n):
            if terms[i][1] + terms[k][1] == need and terms[i][1] != -terms[k][1] and enough((terms[i][0], terms[k][0])):
                out.append((terms[i], terms[k]))
        for j in range(i, n):
            if terms[i][1] == -terms[j][1]:
                continue
            for k in range(j, n):
                v1, v2, v3 = terms[i][1], terms[j][1], terms[k][1]
                if v1 + v2 + v3 == need and v3 != -v1 and v3 != -v2 and enough((terms[i][0], terms[j][0], terms[k][0])):
                    out.append((terms[i], terms[j], terms[k]))
    return out


def discards(held: list[tuple[int, int]], k: int) -> list[tuple[int, ...]]:
    """Every multiset of k cards from `held` ((card, copies), cards ascending): most of the first card first."""
    if k == 0:
        return [()]
    if not held:
        return []
    (card, copies), rest = held[0], held[1:]
    return [(card,) * n + tail for n in range(min(copies, k), -1, -1) for tail in discards(rest, k - n)]


class Game:
    def __init__(self, n: int, rng: random.Random):
        self.rng = rng
        self.deck = [card for card, count in enumerate(DECK_COUNTS) for _ in range(count)]
        rng.shuffle(self.deck)
        self.n = n
        self.turn = rng.choice(range(n))
        self.discard_pile: list[int] = []
        self.next_slot = 0
        self.hands: list[dict[int, int]] = [{} for _ in range(n)]  # slot -> card
        self.values: list[list[int | None]] = [[None] * 6 for _ in range(n)]  # what each position holds
        self.cards: list[list[list[int]]] = [[[] for _ in range(6)] for _ in range(n)]  # the cards on it
        self.zeros = [[False] * 6 for _ in range(n)]
        self.location, self.space = [0] * n, [None] * n
        self.storms = [False] * n
        self.sands = self.mummies = self.idle = 0
        self.winners: list[int] = []
        self.acts = 0

    # -- the dealer

    def draw_card(self) -> int | None:
        """The top card of the deck, the discards shuffled in first if it is empty (None if both are)."""
        if not self.deck:
            if not self.discard_pile:
                return None
            self.deck, self.discard_pile = self.discard_pile, []
            self.rng.shuffle(self.deck)
            self.acts += 1
        self.acts += 1
        return self.deck.pop(0)

    def deal_base(self, p: int, pos: int) -> None:
        while self.deck or any(card <= 9 for card in self.discard_pile):
            card = self.draw_card()
            assert card is not None
            if card <= 9:
                self.values[p][pos] = card
                self.cards[p][pos] = [card]
                return
            self.discard_pile.append(card)
            if card == SANDSTORM:
                self.advance_sands()

    def deal_bases(self, p: int) -> None:
        for base in BASES:
            if self.values[p][base] is None:
                self.deal_base(p, base)

    def deal(self, p: int, count: int) -> bool:
        dealt = False
        while count:
            if not self.deck:
                if not self.discard_pile:
                    return dealt
                self.deck, self.discard_pile = self.discard_pile, []
                self.rng.shuffle(self.deck)
                self.acts += 1
            k = min(count, len(self.deck))
            for card in self.deck[:k]:
                self.hands[p][self.next_slot] = card
                self.next_slot += 1
            del self.deck[:k]
            count -= k
            self.acts += 1
            dealt = True
        return dealt

    # -- the path

    def free_space(self, location: int) -> int | None:
        taken = [self.space[p] for p in range(self.n) if self.location[p] == location and self.space[p] is not None]
        if A not in taken:
            return A
        if location in DOUBLE and location not in MUMMIES[:self.mummies] and B not in taken:
            return B
        return None

    def fall_back(self, p: int, start: int) -> None:
        self.space[p] = None
        location, space = max(0, start), None
        while location > 0:
            space = self.free_space(location)
            if space is not None:
                break
            location -= 1
        self.location[p], self.space[p] = location, space

    def advance_sands(self) -> None:
        if self.mummies == len(MUMMIES):
            return
        self.sands += 1
        if self.sands < 3:
            return
        location = MUMMIES[self.mummies]
        self.mummies += 1
        self.sands = 0
        for p in range(self.n):
            if self.location[p] == location and self.space[p] == B:
                self.fall_back(p, location - 1)

    def fillable(self, p: int, pos: int) -> bool:
        if self.values[p][pos] is not None:
            return False
        below = BRIDGES.get(pos)
        return below is None or (self.values[p][below[0]] is not None and self.values[p][below[1]] is not None)

    # -- a turn

    def moves(self, me: int) -> list[tuple]:
        counts = [0] * 14
        for card in self.hands[me].values():
            counts[card] += 1
        out: list[tuple] = []
        for pos in (MIDDLE, *UPPER):
            if self.fillable(me, pos):
                if pos == MIDDLE:
                    ways = [((v, v),) for v in range(10) if counts[v]]
                    ways += [((WILD, v),) for v in range(10)] if counts[WILD] else []
                else:
                    left, right = BRIDGES[pos]
                    ways = fillings(abs(self.values[me][left] - self.values[me][right]), counts)
                out += [("build", pos, terms) for terms in ways]
        opponents = [p for p in range(self.n) if p != me]
        if counts[ZERO]:
            out += [("zero", p, pos) for p in opponents for pos in UPPER
                    if self.fillable(p, pos) and not self.zeros[p][pos]]
        if counts[THIEF]:
            out += [("thief", p) for p in opponents if self.hands[p]]
        if counts[SANDSTORM]:
            out += [("sandstorm", p) for p in opponents if not self.storms[p]]
        out.append(("stop",))
        return out

    def play_card(self, me: int, card: int) -> None:
        """The lowest slot holding the card leaves the hand."""
        hand = self.hands[me]
        del hand[min(slot for slot, held in hand.items() if held == card)]

    def build(self, me: int, pos: int, terms: tuple[tuple[int, int], ...]) -> None:
        for card, _ in terms:
            self.play_card(me, card)
        self.values[me][pos] = sum(value for _, value in terms)
        self.cards[me][pos] = [card for card, _ in terms]
        points = 0 if self.zeros[me][pos] else POINTS[pos]
        if pos == 5:
            for cards in self.cards[me]:
                self.discard_pile += cards
            self.discard_pile += [ZERO] * sum(self.zeros[me])
            self.values[me], self.cards[me], self.zeros[me] = [None] * 6, [[] for _ in range(6)], [False] * 6
            points += 2
        if points and self.location[me] < 13:
            self.location[me] = min(13, self.location[me] + points)
            self.space[me] = None
        if pos == 5:  # the new bases, once the marker has moved
            self.deal_bases(me)

    def take_place(self, me: int) -> None:
        location = self.location[me]
        if location == 0 or self.space[me] is not None:
            return
        space = self.free_space(location)
        bumped = None
        if space is None:
            space = B if location in DOUBLE and location not in MUMMIES[:self.mummies] else A
            bumped = next(p for p in range(self.n) if self.location[p] == location and self.space[p] == space)
        self.space[me] = space
        if bumped is not None:
            self.fall_back(bumped, location - 3)

    def take_turn(self) -> bool:
        """One player's turn; False once the game is over."""
        me, rng = self.turn, self.rng
        skipped = self.storms[me] or not self.hands[me]
        if not skipped:
            self.deal_bases(me)
        built = False
        if not skipped:
            while self.hands[me]:
                moves = self.moves(me)
                move = moves[int(rng.random() * len(moves))]
                self.acts += 1
                kind = move[0]
                if kind == "stop":
                    break
                if kind == "build":
                    self.build(me, move[1], move[2])
                    built = True
                elif kind == "zero":
                    self.play_card(me, ZERO)
                    self.zeros[move[1]][move[2]] = True
                elif kind == "thief":
                    self.play_card(me, THIEF)
                    self.discard_pile.append(THIEF)
                    victim = self.hands[move[1]]
                    steals = list(combinations(sorted(victim), min(2, len(victim))))
                    for slot in steals[int(rng.random() * len(steals))]:
                        self.hands[me][slot] = victim.pop(slot)
                    self.acts += 1
                else:
                    self.play_card(me, SANDSTORM)
                    self.storms[move[1]] = True
                    self.advance_sands()
        self.take_place(me)
        if self.location[me] == 13:
            self.winners = [me]
            return False
        if skipped:  # a skipped turn ends before its empty bases are dealt
            self.deal_bases(me)
        drew = self.deal(me, 3)
        hand = self.hands[me]
        if len(hand) > 7:
            held = sorted(set(hand.values()))
            k = len(hand) - 7
            choices = discards([(card, min(k, list(hand.values()).count(card))) for card in held], k)
            for card in choices[int(rng.random() * len(choices))]:
                self.play_card(me, card)
                self.discard_pile.append(card)
            self.acts += 1
        if self.storms[me]:
            self.storms[me] = False
            self.discard_pile.append(SANDSTORM)
        self.idle = 0 if built or drew else self.idle + 1
        if self.idle >= self.n:
            best = max(self.location)
            self.winners = [p for p in range(self.n) if self.location[p] == best]
            return False
        self.turn = (me + 1) % self.n
        return True

    def play(self) -> None:
        order = [(self.turn + i) % self.n for i in range(self.n)]
        for p in order:
            for base in BASES:
                self.deal_base(p, base)
        for p in order:
            self.deal(p, 5)
        while self.take_turn():
            pass


def random_game(n: int, rng: random.Random) -> Game:
    game = Game(n, rng)
    game.play()
    return game


def games_per_second(n: int, seconds: float, rounds: int = 5) -> float:
    """Best games per CPU-second over several rounds, as pop_playouts.py measures the engine."""
    rng, rates = random.Random(n), []
    for _ in range(rounds):
        count, start = 0, time.process_time()
        while (elapsed := time.process_time() - start) < seconds / rounds:
            random_game(n, rng)
            count += 1
        rates.append(count / elapsed)
    return max(rates)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per player count")
    args = parser.parse_args()
    for n in (3, 4, 6):
        print(f"{n} players (random): {games_per_second(n, args.seconds):.0f} games/s")


if __name__ == "__main__":
    main()
