"""How a terminal takes the board: colours or not, and which characters it can print (each game's
presentation draws with it; terminal.py puts the pieces together)."""

from __future__ import annotations

import os
import re
import sys
from typing import TextIO

from engine.frozen import Frozen

WIDTH = 78
"""The columns a board's text fills at most (an 80-column terminal, with a margin)."""
_COLOUR_CODES = re.compile(r"\x1b\[[0-9;]*m")


class Style(Frozen):
    """How a terminal can take the board: colours or not, and which characters it can print."""

    colour: bool = False
    encoding: str = "utf-8"

    def paint(self, text: str, colour: str | None) -> str:
        """Bold, in `colour` (a typer colour name, or "default" for the terminal's own)."""
        if not self.colour or not colour:
            return text
        import typer

        return typer.style(text, fg=None if colour == "default" else colour, bold=True)

    def symbol(self, wanted: str, fallback: str) -> str:
        """`wanted` where the terminal's encoding can print it, else the ASCII `fallback`."""
        try:
            wanted.encode(self.encoding)
        except (UnicodeEncodeError, LookupError):
            return fallback
        return wanted


def terminal_style(stream: TextIO | None = None) -> Style:
    """Colour only on a terminal, and never under NO_COLOR (https://no-color.org) or TERM=dumb."""
    stream = stream or sys.stdout
    colour = stream.isatty() and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"
    return Style(colour=colour, encoding=getattr(stream, "encoding", None) or "ascii")


def printed_length(text: str) -> int:
    """How many columns `text` takes on a terminal: the colour codes `Style.paint` adds take none."""
    return len(_COLOUR_CODES.sub("", text))


def wrap(text: str) -> list[str]:
    """A sentence wrapped at WIDTH by its printed length, its later lines indented by two."""
    if printed_length(text) <= WIDTH:
        return [text]
    lines, line, length = [], "", 0
    for word in text.split(" "):
        size = printed_length(word)
        if line and length + 1 + size > WIDTH:
            lines.append(line)
            line, length = "  " + word, 2 + size
        else:
            line, length = (line + " " + word, length + 1 + size) if line else (word, size)
    return lines + [line]

