"""What a judge that serves browsers needs (pbem judge web, issue 36): a seat's view and the entries it may
sign, worked out by the referee for a player whose key only their browser holds, and a posted entry as the
turn a mail would carry.

The referee reads every hidden item (that is what a referee is for), so it can tell a player what that
player may see and which moves are legal; it cannot sign for them. Each offer says what the entry will
carry, and the browser builds it: it commits to and seals its own secrets, opens its own salts, signs.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.contract import DEALER, TURN_DUTIES
from pbem.crypto import Identity, PublicKey
from pbem.crypto.sshsig import SignatureInvalid, verify_signature
from pbem.errors import PbemError, UsageError
from pbem.presentation.games import presentation
from pbem.protocol.commitments import unb64
from pbem.protocol.replay import Replay
from pbem.protocol.session import Session
from pbem.record.canonical import canonical
from pbem.transport import armor, turns

JOIN_SAYS = ("Join the game: accept the invitation and add your share of randomness to the deal (a random "
             "number only your browser knows until it is signed).")


def owes(game: Replay, name: str, *kinds: str) -> bool:
    """Whether NAME owes a duty of one of these kinds now."""
    return any(d.who == name and d.what in kinds for d in game.duties())


def referee_session(game: Replay, identity: Identity) -> Session:
    """The referee's session on a game (its key opens every hidden item)."""
    if game.referee is None:
        raise UsageError("the game has no referee: a browser seat needs a judge that referees")
    return Session(game, game.referee, identity)


def _seat_knowledge(game: Replay, seat: str, referee: Session) -> Any:
    """What `seat` knows, as the referee can tell: the values of the items sealed to the seat."""
    known = referee.known()
    own = {key: known[key] for key, item in game.items.items() if seat in item.readers and key in known}
    return game.game.knowledge(game.state, seat, own, [])


def seat_view(game: Replay, seat: str, referee: Session) -> dict[str, Any]:
    """The game's view as `seat` sees it now (before the deal: the table as set up)."""
    if game.state is None:
        from pbem.presentation.html import drawn

        return game.game.view(drawn(game), None)
    return game.game.view(game.state, seat, _seat_knowledge(game, seat, referee))


def _opening(game: Replay, key: str) -> dict[str, Any]:
    item = game.items[key]
    return {"key": key, "sealed": item.sealed, "commitment": item.commitment, "binding": item.binding,
            "owner": item.owner, "committedAs": item.key}


def _template(game: Replay, seat: str, action: Any) -> dict[str, Any] | None:
    """What the entry of `action` carries besides its signature (as Session.entry_for makes it for a player),
    or None when it needs what only the dealer holds."""
    secrets = game.game.secrets(game.state, seat, action)
    if secrets.draws or secrets.shows or secrets.gives or secrets.restock:
        return None
    return {"action": game.game.format_action(game.game.public(action)),
            "commits": [[key, value] for key, value in secrets.commits],
            "opens": [_opening(game, key) for key, _ in secrets.opens]}


def seat_offers(game: Replay, seat: str, referee: Session) -> list[dict[str, Any]]:
    """The entries `seat` may sign now, each with what it says in words and what it carries."""
    duties = [d for d in game.duties() if d.who == seat]
    if any(d.what == "join" for d in duties):
        return [{"kind": "join", "notation": "join", "says": JOIN_SAYS, "target": None, "place": "", "option": "join",
                 "action": "join", "commits": [], "opens": [], "join": True}]
    if game.state is None or game.over:
        return []
    knowledge = _seat_knowledge(game, seat, referee)
    drawing = presentation(game.genesis.game)
    offers = []
    if owes(game, seat, *TURN_DUTIES):
        for action in game.game.legal_actions(game.state, seat, knowledge):
            template = _template(game, seat, action)
            if template is not None:
                notation = game.game.format_action(action)
                offers.append({"kind": "move", **drawing.html_choice(action, seat, notation), **template})
    elif owes(game, seat, "open"):
        for action in list(game.game.legal_actions(game.state, seat, knowledge))[:1]:
            template = _template(game, seat, action)
            if template is not None:
                notation = game.game.format_action(action)
                offers.append({"kind": "open", "notation": notation, "target": None, "place": "", "option": notation,
                               "says": f"Open your secrets as the rules now ask: {template['action']}.", **template})
    return offers


def page_data(game: Replay, seat: str, referee: Session) -> dict[str, Any]:
    """What a seat's page draws and offers, and what its entries must name (game, place, keys, time)."""
    drawing = presentation(game.genesis.game)
    shown = seat_view(game, seat, referee)
    assert game.referee is not None
    last_time = max([e.time for e in game.entries if e.time is not None] + [game.genesis.time or 0])
    return {
        "game": game.genesis.game, "title": game.game.title, "gameId": game.genesis.game_id,
        "genesisHash": game.hashes[0], "seq": game.seq, "head": game.head, "seat": seat,
        "players": list(game.players), "referee": game.referee,
        "keys": {name: key.line() for name, key in game.roster.items()},
        "meta": drawing.html_meta(shown), "board": drawing.html_board(shown),
        "offers": seat_offers(game, seat, referee), "over": bool(game.over),
        "sealedToMe": [_opening(game, key) for key, item in game.items.items()
                       if seat in item.readers and item.sealed is not None and item.value is None],
        "minTime": last_time if game.genesis.deadlines is not None else 0,
        "next": _next_text(game),
        "log": [{"seq": i, "author": e.author, "action": e.action, "note": e.note}
                for i, e in enumerate(game.entries, 1)][-12:],
    }


def _next_text(game: Replay) -> str:
    from pbem.presentation.terminal import next_line

    return str(next_line(game))


def dealer_name() -> str:
    return DEALER


def _invitation(game: str, players: list[tuple[str, PublicKey]], identity: Identity, options: list[str],
                deadlines: str | None) -> Replay:
    """The invitation of a table's game, signed by the judge as its creator and referee ("judge")."""
    from pbem.api.new_games import parse_options
    from pbem.protocol.genesis import new_game
    from pbem.record.deadlines import parse_policy

    parsed = parse_options(options)
    policy = parse_policy(game, deadlines) if deadlines else None
    return new_game(game, parsed, players, "judge", identity, ("judge", identity.public), None, None, None, policy)


def check_table(game: str, names: list[str], options: list[str], deadlines: str | None = None) -> None:
    """Refuse, before any link is given, a table whose game could not be made: an unknown game, option or
    deadline policy, a number of players the game does not take (made with throwaway keys, then dropped)."""
    _invitation(game, [(name, Identity.generate().public) for name in names], Identity.generate(), options, deadlines)


def make_table_game(game: str, identity: Identity, players: list[tuple[str, str]], options: list[str],
                    deadlines: str | None, games: Path) -> tuple[Replay, Path]:
    """A table's game once every seat has a key (`players`: name and key line, in turn order): the invitation
    signed by the judge, its own acts done, kept as its copy in the folder `games`."""
    from pbem.transport import copies
    from pbem.transport.store import Copies

    rep = _invitation(game, [(name, PublicKey.parse(line)) for name, line in players], identity, options, deadlines)
    Session(rep, "judge", identity).automatic()
    return rep, Copies(copies.folder(games)).put(rep)


def same_key(line: str, other: str) -> bool:
    """Whether two public key lines name one key (comments aside)."""
    return PublicKey.parse(line).same_key(PublicKey.parse(other))


HOLD_NAMESPACE = "pbem-web-hold"
"""The SSHSIG namespace of a browser's proof that it holds a seat's key: no entry can be one."""


def hold_message(table_id: str, seat: str, csrf: str) -> bytes:
    """What a browser signs to show it holds a seat's key, bound to its own page session."""
    return canonical({"purpose": HOLD_NAMESPACE, "table": table_id, "seat": seat, "session": csrf})


def holds_key(line: str, message: bytes, signature: str) -> bool:
    """Whether `signature` (standard base64 of an SSHSIG blob) is the key's over `message`."""
    try:
        verify_signature(PublicKey.parse(line), message, unb64(signature), HOLD_NAMESPACE)
    except (PbemError, SignatureInvalid):
        return False
    return True


def not_shared_beyond(game_id: str, seq: int | None) -> None:
    """Put back the mark of what every party has had by mail (None: nothing yet): a posted entry is read as
    a mail turn, and a mail turn went to every party, but a page posts to the judge alone, who mails it on."""
    from pbem.transport.copies import set_shared

    set_shared(game_id, seq)


def turn_mail_body(game: Replay, entry: dict[str, Any]) -> str:
    """One posted entry as the turn block a mail would carry after the game's last entry (the judge reads it
    as it reads any mail turn: it is checked there, not here)."""
    block = {"format": turns.FORMAT, "game_id": game.genesis.game_id, "genesis": game.hashes[0], "after": game.seq,
             "prev": game.head, "entries": [entry]}
    return armor.wrap(turns.LABEL, canonical(block))
