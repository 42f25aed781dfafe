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


class NotAnAct(UsageError):
    """Text that is not one of the trust layer's acts (join, deal, audit, verdict, absence) as written."""


class UnknownBot(UsageError):
    """A computer player the game does not have."""


class BadSetup(UsageError):
    """A game that cannot be made so (an unknown game, options or players its rules refuse, a chosen
    deal that does not give every hidden item), or a deal it cannot do (chance without a seed)."""


# -- a participant's request the game refuses, named by its reason: what a front end may tell apart
#    (each is still a UsageError, which every front end shows as one line)
class ParticipantError(UsageError):
    """A participant asked for what is not theirs to do, not now, or not in this game."""


class NotInGame(ParticipantError):
    """A name that is none of the game's participants."""


class NotStarted(ParticipantError):
    """A move before every participant has joined and the deal is posted."""


class NotYourTurn(ParticipantError):
    """An act another owes now, or one this participant may not sign (for another; an absence only
    others may record, or another signs first)."""


class ForbiddenMove(ParticipantError):
    """A move the rules forbid now, or one that does not say what it must (the value a coin commits)."""


class NoClock(ParticipantError):
    """An absence the game cannot time: it has no deadline policy, or the duty began with no signed time."""


class NothingOwed(ParticipantError):
    """An absence recorded against a party who owes no duty an absence answers for."""


class AbsenceUnderway(ParticipantError):
    """Another party's absence is being signed: it is signed to the end, or lapses, first."""


class TooEarly(ParticipantError):
    """An absence recorded before the duty's deadline and grace have passed by the signed times."""


class AbsenceDisputed(ParticipantError):
    """A co-signer's program finds another act for an absence than the one signed so far: it does not sign it."""


class ProofOwed(ParticipantError):
    """This program has a cheat to prove (a verdict) before it signs anything else."""


def error_text(exc: BaseException) -> str | None:
    """The one line a front end shows for an error of pbem's (or the engine's, `domain`), or for a file it
    could not read or write; None for anything else, which is a bug."""
    from engine.contract import RuleError  # the engine loads when an error is shown, not at start-up

    if isinstance(exc, (PbemError, RuleError)):
        return str(exc)
    if isinstance(exc, OSError):
        return f"{exc.strerror or exc}" + (f": {exc.filename}" if exc.filename else "")
    return None
