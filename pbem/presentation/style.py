"""How a terminal takes the board: colours or not, and which characters it can print (each game's
presentation draws with it; terminal.py puts the pieces together)."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from typing import TextIO


@dataclass(frozen=True)
class Style:
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
