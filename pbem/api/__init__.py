"""The public library API: everything a front end does (the CLI, the judge, the app), in one module.

    from pbem import api

    game = api.open_game(Path("game.json"))          # read and verify from the first entry
    print(api.next_line(game))                       # "Next: ben (move: ...)"
    turn = api.play(Path("game.json"), "ben", ["3@1a"])
    print(turn.events, turn.written)

A game is a `Replay` (the record replayed and checked); a move is its notation, as a person types it.
Errors are `pbem.errors.PbemError` or `engine.contract.RuleError`, each with a message for a person.
docs/library.md walks through a whole game. Heavier parts (mail, the HTML page, export, the searches)
are imported by the functions that use them, so a front end's start-up stays fast."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine import find_game
from engine.contract import DEALER, Duty, RuleError, UnknownGame
from pbem.crypto import Identity, PublicKey
from pbem.crypto.keyring import (
    PASSPHRASE_ENV,
    add_key,
    create_key,
    key_dir,
    list_keys,
    load_identity,
    passphrase_given,
    read_public,
    unlock_key,
)
from pbem.errors import MovedOn, NoPassphrase, PbemError, UsageError
from pbem.playing import (
    DemoStep,
    TurnResult,
    act_in_session,
    create,
    create_signed,
    demo,
    owes,
    parse_move,
    parse_policy,
    signer_for,
    take_turn,
)
from pbem.playing import replay_file as _replay_file
from pbem.presentation.choices import Choice
from pbem.presentation.games import Presentation, presentation
from pbem.presentation.terminal import (
    Style,
    board,
    log_text,
    next_duty,
    next_line,
    owed,
    pregame_text,
    result_text,
    terminal_style,
)
from pbem.protocol.replay import Replay
from pbem.protocol.seen import Sighting, history_path, remember, remember_quietly, sighting
from pbem.protocol.session import Session
from pbem.protocol.verify import Checked, VerifyReport, verify
from pbem.protocol.verify import verify_files as _verify_files
from pbem.record.files import write_atomic
from pbem.record.gamefile import armor
from pbem.record.models import GameFile, from_json, payload_hash, to_json
from pbem.record.status import Status
from pbem.transport import advice, contacts, copies
from pbem.transport.status import collect, duty_text, late_line, line

if TYPE_CHECKING:
    from email.message import EmailMessage

    from pbem.presentation.export import Exported
    from pbem.record.deadlines import Clock
    from pbem.transport.imap import Connection as ImapConnection
    from pbem.transport.imap import Mailbox as ImapMailbox
    from pbem.transport.inbox import Report as InboxReport
    from pbem.transport.mail import Server
from pbem.api.games import (
    armored,
    choices_text,
    deadline_lines,
    export_entry,
    game_path,
    html_page,
    json_view,
    legal_moves,
    load,
    my_name,
    new_game,
    next_command,
    note_seen,
    open_game,
    play,
    referee,
    replay_asset,
    send_flag,
    sends_by_default,
    unsent_line,
    verify_files,
    view,
    viewer,
)
from pbem.api.hosting import (
    act,
    find_copy,
    game_names,
    game_title,
    history,
    legend,
    new_key,
    page_choices,
    seen_now,
    start_game,
    unsent,
)
from pbem.api.mail import (
    absent,
    add_contact,
    address_book,
    applied_mails,
    book_path,
    check_address,
    compose_mail,
    copies_in,
    duty_clocks,
    fetch_imap,
    games_folder,
    hash_chain,
    imap_connect,
    imap_mailbox,
    is_imap,
    is_name,
    mail_games,
    mail_turn,
    mailed_up_to,
    mark_mailed,
    parse_json,
    read_file,
    read_mail,
    read_record,
    send_mail,
    short_id,
    smtp_server,
    status,
    verify_record,
    write_file,
)

__all__ = [
    "DEALER",
    "PASSPHRASE_ENV",
    "Checked",
    "Choice",
    "DemoStep",
    "Duty",
    "GameFile",
    "Identity",
    "MovedOn",
    "NoPassphrase",
    "PbemError",
    "Presentation",
    "PublicKey",
    "Replay",
    "RuleError",
    "Session",
    "Sighting",
    "Status",
    "Style",
    "TurnResult",
    "UsageError",
    "VerifyReport",
    "absent",
    "act",
    "add_contact",
    "add_key",
    "address_book",
    "applied_mails",
    "armored",
    "board",
    "book_path",
    "check_address",
    "choices_text",
    "collect",
    "compose_mail",
    "copies_in",
    "create_key",
    "deadline_lines",
    "demo",
    "duty_clocks",
    "duty_text",
    "export_entry",
    "fetch_imap",
    "find_copy",
    "game_names",
    "game_path",
    "game_title",
    "games_folder",
    "hash_chain",
    "history",
    "history_path",
    "html_page",
    "imap_connect",
    "imap_mailbox",
    "is_imap",
    "is_name",
    "json_view",
    "key_dir",
    "late_line",
    "legal_moves",
    "legend",
    "line",
    "list_keys",
    "load",
    "load_identity",
    "log_text",
    "mail_games",
    "mail_turn",
    "mailed_up_to",
    "mark_mailed",
    "my_name",
    "new_game",
    "new_key",
    "next_command",
    "next_duty",
    "next_line",
    "note_seen",
    "open_game",
    "owes",
    "page_choices",
    "parse_json",
    "parse_move",
    "parse_policy",
    "passphrase_given",
    "play",
    "pregame_text",
    "presentation",
    "read_file",
    "read_mail",
    "read_public",
    "read_record",
    "referee",
    "remember",
    "replay_asset",
    "result_text",
    "seen_now",
    "send_flag",
    "send_mail",
    "sends_by_default",
    "short_id",
    "sighting",
    "signer_for",
    "smtp_server",
    "start_game",
    "status",
    "terminal_style",
    "to_json",
    "unlock_key",
    "unsent",
    "unsent_line",
    "verify_files",
    "verify_record",
    "view",
    "viewer",
    "write_file"
]

