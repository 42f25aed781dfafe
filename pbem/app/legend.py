"""Each game's legend: what the drawing's marks mean, beside the board (the replay has none)."""

from __future__ import annotations

LEGENDS: dict[str, list[tuple[str, str]]] = {
    "sarcophagus": [
        ("Tiles", "piecepack tiles: a rank (A ace, 2-5, none for a null) and a suit. Suns are red, moons black, "
                  "crowns green, arms blue. A face-down tile shows its back, a 2x2 grid."),
        ("Positions", "rows 1 (the apex) to 6, tiles a-f from the left: 3b is row 3, second tile."),
        ("Coins", "a disc in its owner's colour along a tile's bottom edge; its value, or ? while still hidden."),
        ("Sarcophagus", "the three tiles under 5c, 6c and 6d (gold outline): taken by whoever claims the tiles "
                        "above them."),
        ("Fame", "the points of the tiles claimed so far; the final score adds the sets at the end."),
        ("Your move", "highlighted tiles take a coin: click one (or Tab to it and press Enter), choose the value, "
                      "then Sign and send."),
    ],
    "path-of-pharaohs": [
        ("The path", "from the start to Alexandria (13); locations 2, 4, 6, 8 and 10 have two spaces, A above B."),
        ("Markers", "a disc with the player's letter, in their colour; a dashed ring: moving this turn."),
        ("Mummy", "a dark space: a B space closed by a waking mummy (Sands of Time at 3 wakes the next)."),
        ("Pyramids", "each player's six positions: 1l 1m 1r at the base, 2l 2r, 3 on top; a number is the value "
                     "built there, with the cards under it."),
        ("Z", "a Zero Block Value: filling that position moves its owner 0."),
        ("Your hand", "card#slot: digits 0-9, W wild, Z zero, T thief, S sandstorm."),
        ("Your move", "highlighted positions and players can be chosen: click one (or Tab to it and press "
                      "Enter), choose the cards or the action card, then Sign and send."),
    ],
}


def legend(game: str) -> list[tuple[str, str]]:
    return LEGENDS.get(game, [("Board", "the game's view, as text.")])
