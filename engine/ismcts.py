"""The parts of single-observer information-set MCTS (Cowling, Powley and Whitehouse, IEEE TCIAIG 2012)
that no game changes: the observer's tree, the selection by UCB against availability, and what a
search returns. Each game's search (engine/<game>/search.py) samples its own worlds and plays them."""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

K = TypeVar("K", bound=Hashable)
"""How the tree keys an action (the action itself, or its slot-free form)."""

EXPLORATION = 0.7
"""UCB's exploration constant; rewards are win shares in [0, 1]."""


class Node(Generic[K]):
    """A node of the observer's tree: reached by `mover` playing the action that keys it."""

    __slots__ = ("available", "children", "mover", "reward", "visits")

    def __init__(self, mover: str | None):
        self.mover = mover
        self.children: dict[K, Node[K]] = {}
        self.visits = 0
        self.reward = 0.0
        self.available = 0


@dataclass
class Result:
    """What a search found: the action, and the statistics of the root's actions (visits, mean reward),
    keyed as the tree keys them. (Not generic: mypyc's compiled engine cannot build a generic dataclass.)"""

    action: Any
    iterations: int
    seconds: float
    moves: dict[Any, tuple[int, float]] = field(default_factory=dict)


def select(node: Node[K], keys: Sequence[K], exploration: float = EXPLORATION) -> tuple[int, Node[K]]:
    """UCB over the children available in this world (`keys`, each a child already), each counted
    against its availability (how often it could be chosen, not how often its parent was visited)."""
    best = -1
    best_child: Node[K] | None = None
    best_score = -1.0
    children = node.children
    for i, key in enumerate(keys):
        child = children[key]
        child.available += 1
        score = child.reward / child.visits + exploration * math.sqrt(math.log(child.available) / child.visits)
        if score > best_score:
            best, best_child, best_score = i, child, score
    assert best_child is not None, "every option has a child with a positive score"
    return best, best_child


def credit(path: Sequence[Node[K]], winners: Sequence[str]) -> None:
    """Back-propagate one played-out world: each node on the path below the root is visited once more,
    and its mover gains their share of the win (a shared win splits it)."""
    share = 1 / len(winners)
    for node in path[1:]:
        node.visits += 1
        if node.mover in winners:
            node.reward += share


def credit_rewards(path: Sequence[Node[K]], rewards: dict[str, float]) -> None:
    """`credit` with a reward in [0, 1] for each player (their share of the win, or more graded)."""
    for node in path[1:]:
        node.visits += 1
        if node.mover is not None:
            node.reward += rewards.get(node.mover, 0.0)


def search(iterate: Callable[[Node[K]], None], seconds: float | None, iterations: int | None) -> Result:
    """Grow one tree by `iterate` (one sampled world each) for `seconds` of wall clock or, if given,
    `iterations` (at least one, however short the time); the root's most visited action wins."""
    root: Node[K] = Node(None)
    start = time.perf_counter()
    done = 0
    while True:
        iterate(root)
        done += 1
        if done == iterations or (iterations is None and time.perf_counter() - start >= (seconds or 0.0)):
            break
    elapsed = time.perf_counter() - start
    moves = {a: (n.visits, n.reward / n.visits if n.visits else 0.0) for a, n in root.children.items()}
    best = max(root.children.items(), key=lambda item: item[1].visits)[0]
    return Result(best, done, elapsed, moves)
