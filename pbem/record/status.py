"""The status report's format: what `pbem status --json` writes (schemas/status.schema.json)."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class OwedDuty(_Model):
    party: Annotated[str, Field(description="Who owes: a participant's name, or 'the table' (table-mode deal).")]
    what: Annotated[str, Field(description="The kind of act owed: move, discard, open, reveal.")]
    since_entry: Annotated[int, Field(ge=0, description="The entry after which this party began to owe "
                                                        "(0: the genesis).")]
    since: Annotated[int | None, Field(description="Signed time of that entry (Unix seconds), if it has one.")]
    deadline: Annotated[int | None, Field(description="When the duty is due by the game's deadline policy "
                                                      "(Unix seconds, from the signed start).")] = None
    absent_from: Annotated[int | None, Field(description="From when the party may be recorded absent "
                                                         "(deadline plus grace).")] = None
    reminders: Annotated[list[int], Field(description="When reminders are due (Unix seconds).")] = []
    late: bool = False
    reminder_due: Annotated[bool, Field(description="A reminder time has come and the duty is not yet late.")] = False
    absent_due: Annotated[bool, Field(description="Past the deadline and the grace: an absence may be "
                                                  "recorded (`pbem absent`).")] = False
    recorder: Annotated[str | None, Field(description="Who records the party absent next (`pbem absent`) once "
                                                      "it is due: the referee, or the next of the other players "
                                                      "in seat order.")] = None
    mine: bool = False


class GameSummary(_Model):
    path: str
    game: str
    game_id: str
    players: list[str]
    referee: str | None
    keys: dict[str, str] = Field(description="Each participant's public key line, from the genesis.")
    entries: int
    finished: bool
    result: str | None
    deadline_hours: int | None
    deadlines: Annotated[bool, Field(description="The game has a deadline policy: absences can be recorded.")] = False
    absences: Annotated[list[str], Field(description="Every absence recorded, in words.")] = []
    duties: list[OwedDuty]
    me: list[str] = Field(default_factory=list, description="My names in this game (my keys in the roster).")
    shared: int | None = Field(default=None, description="The last entry every party has had by mail (None: no "
                                                         "mail of this game here); entries after it are not sent.")
    i_owe: bool = False


class Status(_Model):
    """What `pbem status --json` prints (schemas/status.schema.json)."""

    now: int = Field(description="The time the lateness was judged at (Unix seconds).")
    i_owe: bool = Field(description="Whether any of my names owes anything: the exit status is 1 then.")
    games: list[GameSummary]
    problems: list[str] = Field(default_factory=list, description="Files that could not be read or verified.")

