"""What people read: the board in a terminal, what happened, who is next, the game log."""

from __future__ import annotations

from typing import Any

from engine.contract import DEALER, winners_text
from pbem.presentation.games import presentation
from pbem.presentation.style import Style, terminal_style
from pbem.protocol.replay import TABLE_DEALS, Replay


def who_is(rep: Replay, who: str) -> str:
    """A duty holder as people say it: the dealer is the referee, or any player at a table."""
    if who != DEALER:
        return who
    return rep.dealer_signer or TABLE_DEALS


def owed(rep: Replay) -> list[tuple[str, str, str]]:
    """Every act owed now, as (who, kind, words), its holder as people name them: the one list that the
    next line, `show --json` and `play` read. The dealer is the referee, or at a table any player's
    program; in referee mode the referee, holding every coin's opening, settles a tie-break or the audit."""
    duties = rep.duties()
    if rep.referee and duties and all(d.what == "open" for d in duties):
        return [(rep.referee, "open", presentation(rep.genesis.game).referee_opening(duties[0].detail))]
    return [(who_is(rep, d.who), d.what, d.detail) for d in duties]


def next_duty(rep: Replay) -> tuple[list[str], str, str] | None:
    """Who owes the next act (as people name them), its kind and its words; None when nothing is owed."""
    duties = owed(rep)
    if not duties:
        return None
    return list(dict.fromkeys(who for who, _, _ in duties)), duties[0][1], duties[0][2]


def next_line(rep: Replay) -> str:
    owed = next_duty(rep)
    if owed is None:
        return "Game over: " + result_text(rep) if rep.over else "Nothing is owed."
    holders, what, detail = owed
    return f"Next: {', '.join(holders)} ({what}: {detail})"


def result_text(rep: Replay) -> str:
    if rep.verdict:
        return str(rep.verdict)
    result = rep.outcome()
    if result is None:
        return "in progress"
    scores = ", ".join(f"{p} {s}" for p, s in result.scores.items())
    return f"{scores}; {winners_text(result.winners)}"


def board(rep: Replay, shown: dict[str, Any], style: Style | None = None) -> str:
    """One view of the game for a terminal: a header, the game's own drawing, and who is next."""
    made = f"created by {rep.genesis.author}" + (", who chose the deal" if rep.genesis.deal == "chosen" else "")
    header = f"{rep.game.title}, {rep.mode} mode, {', '.join(rep.players)}; entry {rep.seq}; {made}"
    drawing = presentation(rep.genesis.game).board_text(shown, style or terminal_style())
    return "\n".join([header, drawing, "", next_line(rep)])


def pregame_text(rep: Replay) -> str:
    """Before the deal there is no board: who created the game, how it is dealt, who has joined."""
    joined = [name for name in rep.joiners if name not in rep.awaiting_join]
    return "\n".join([
        f"{rep.game.title}, {rep.mode} mode, {', '.join(rep.players)}; created by {rep.genesis.author}; {rep.deal_text}",
        f"Joined: {', '.join([rep.genesis.author] + joined)}" + (f"; still to join: {', '.join(rep.awaiting_join)}"
                                                                 if rep.awaiting_join else ""),
        "", next_line(rep)])


def log_text(rep: Replay) -> str:
    """The game as readable movetext with a header, one entry a line, what it caused beneath."""
    g = rep.genesis
    options = " ".join(f"{k}={v}" for k, v in sorted(g.options.items())) or "defaults"
    header = [
        ("Game", g.game), ("GameId", g.game_id), ("Players", ", ".join(rep.players)),
        ("Dealer", f"referee {rep.referee}" if rep.referee else "table"), ("Options", options),
        ("CreatedBy", g.author), ("Deal", rep.deal_text), ("First", rep.first or "not drawn yet"),
        ("Entries", str(rep.seq)), ("Result", result_text(rep)), ("FinalHash", rep.head),
    ]
    lines = [f'[{key} "{value}"]' for key, value in header] + [""]
    events: dict[int, list[object]] = {}
    for seq, event in rep.events:
        events.setdefault(seq, []).append(event)
    for entry in rep.entries:
        lines.append(f"{entry.seq:>4}. {entry.author:<8} {entry.action}")
        if entry.note:
            lines.append(f'        {entry.author} says: "{entry.note}"')
        lines += [f"        {event}" for event in events.get(entry.seq, [])]
    return "\n".join(lines)
