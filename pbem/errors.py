"""Every error pbem raises on purpose. The CLI turns any PbemError into one `Error: ...` line."""

from __future__ import annotations

import re

_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def printable(text: str) -> str:
    """Text from outside (a mail's attachment name, a key in a game file) made safe for a terminal: control
    characters, escapes and bidirectional overrides shown as \\xNN or \\uNNNN, so none can redraw the screen
    or dress up as pbem's own output. Line breaks stay (a usage message has them)."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}" if ord(m.group()) < 0x100 else f"\\u{ord(m.group()):04x}",
                        text)


class PbemError(Exception):
    """Base of the domain errors; the message is what the user reads (printable: see above)."""

    def __str__(self) -> str:
        return printable(super().__str__())


# -- files and formats
class RecordError(PbemError):
    """The game file cannot be read as a record: size, JSON, schema, format version."""


class UnknownFormat(RecordError):
    pass


class Unreadable(RecordError):
    """A file or mail pbem will not read: missing, not a regular file (a pipe, a device, a folder), too
    large, or not permitted (pbem.record.reading, the one gate every read passes)."""


# -- keys
class KeyProblem(PbemError):
    """A key file that is missing, unreadable, unsafe, of the wrong type, or locked."""


class WrongPassphrase(KeyProblem):
    pass


class NoPassphrase(KeyProblem):
    pass


class UnsafeKeyFile(KeyProblem):
    pass


# -- crypto
class SealError(PbemError):
    """An age blob that is malformed, tampered with, or not sealed to the given key."""


class NotForYou(SealError):
    pass


# -- verification: each names the entry, its author and the reason
class VerifyError(PbemError):
    """A record that fails verification at one entry (`seq` 0 is the genesis)."""

    def __init__(self, detail: str, seq: int | None = None, author: str | None = None):
        self.seq, self.author = seq, author
        where = "the genesis" if seq == 0 else f"entry {seq}" if seq is not None else "the record"
        by = f" by {author}" if author else ""
        super().__init__(f"{where}{by}: {detail}")


class BadSignature(VerifyError):
    """A signature that does not verify under its author's key."""


class UnknownSigner(VerifyError):
    """An author who is not in the roster."""


class WrongGame(VerifyError):
    """An entry that belongs to another game."""


class BrokenChain(VerifyError):
    """An entry whose `prev` is not the hash of the one before it."""


class BadSequence(VerifyError):
    """An entry whose `seq` is out of order."""


class NotOwed(VerifyError):
    """An act its author does not owe now."""


class IllegalMove(VerifyError):
    """An action the rules forbid."""


class BadOpening(VerifyError):
    """Opening does not match its commitment."""


class BadGenesis(VerifyError):
    """A malformed genesis."""


class AuditFailed(VerifyError):
    """The end-of-game audit failed: an opened value its owner could not have played."""


class Equivocation(VerifyError):
    """Two different entries signed for one seq."""


class Divergence(VerifyError):
    """Two files of one game that fork."""


class StaleFile(PbemError):
    """The file is older than one already seen for this game, or forked from it."""


class HistoryDamaged(PbemError):
    """This machine's record of a game's versions cannot be read: fail closed, say how to reset it."""


class UsageError(PbemError):
    """A command given something it cannot work with (a bad option, an unknown name)."""


class MovedOn(UsageError):
    """A move chosen on a view of an older position than the game now holds (two tabs on one game)."""


def error_text(exc: BaseException) -> str | None:
    """The one line a front end shows for an error of pbem's (or the engine's, `domain`), or for a file it
    could not read or write; None for anything else, which is a bug."""
    from engine.contract import RuleError  # the engine loads when an error is shown, not at start-up

    if isinstance(exc, (PbemError, RuleError)):
        return str(exc)
    if isinstance(exc, OSError):
        return f"{exc.strerror or exc}" + (f": {exc.filename}" if exc.filename else "")
    return None
