"""The public library API: everything a front end does (the CLI, the judge, the app), in one module.

    from pbem import api

    game = api.open_game(Path("game.json"))          # read and verify from the first entry
    print(api.next_line(game))                       # "Next: ben (move: ...)"
    turn = api.play(Path("game.json"), "ben", ["3@1a"])
    print(turn.events, turn.written)

A game is a `Replay` (the record replayed and checked); a move is its notation, as a person types it.
Errors are `pbem.errors.PbemError` or `engine.contract.RuleError`, each with a message for a person.
docs/library.md walks through a whole game.

Each name is imported from the module that does the work when it is first used (PEP 562), so a command
loads only what it needs and starts fast; the API's own modules (games, new_games, turns, demo_game,
hosting, mail, browser) hold what is more than one call to the layers below. `__all__` is exactly what
the front ends (pbem.cli, pbem.app, pbem.judge) and docs/library.md use (tests/project/test_api.py checks it)."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the same names as _HOMES gives them at run time, for the type checker
    from engine.contract import DEALER as DEALER
    from engine.contract import RuleError as RuleError
    from pbem.api.demo_game import demo as demo
    from pbem.api.games import armored as armored
    from pbem.api.games import choices_text as choices_text
    from pbem.api.games import deadline_lines as deadline_lines
    from pbem.api.games import example_move as example_move
    from pbem.api.games import export_entry as export_entry
    from pbem.api.games import html_page as html_page
    from pbem.api.games import json_view as json_view
    from pbem.api.games import legal_moves as legal_moves
    from pbem.api.games import load as load
    from pbem.api.games import my_name as my_name
    from pbem.api.games import next_command as next_command
    from pbem.api.games import note_seen as note_seen
    from pbem.api.games import open_game as open_game
    from pbem.api.games import owes as owes
    from pbem.api.games import part_done as part_done
    from pbem.api.games import replay_asset as replay_asset
    from pbem.api.games import verify_files as verify_files
    from pbem.api.games import view as view
    from pbem.api.hosting import find_copy as find_copy
    from pbem.api.hosting import game_names as game_names
    from pbem.api.hosting import game_title as game_title
    from pbem.api.hosting import legend as legend
    from pbem.api.hosting import page_choices as page_choices
    from pbem.api.hosting import resume_checkpoint as resume_checkpoint
    from pbem.api.hosting import unsent as unsent
    from pbem.api.mail import absences_offered as absences_offered
    from pbem.api.mail import copies_in as copies_in
    from pbem.api.mail import duty_clocks as duty_clocks
    from pbem.api.mail import hash_chain as hash_chain
    from pbem.api.mail import imap_connect as imap_connect
    from pbem.api.mail import is_imap as is_imap
    from pbem.api.mail import mail_turn as mail_turn
    from pbem.api.mail import read_mail as read_mail
    from pbem.api.mail import read_mails as read_mails
    from pbem.api.mail import restore_copy as restore_copy
    from pbem.api.mail import send_mail as send_mail
    from pbem.api.mail import smtp_connection as smtp_connection
    from pbem.api.mail import status as status
    from pbem.api.new_games import new_game as new_game
    from pbem.api.new_games import start_game as start_game
    from pbem.api.turns import TurnResult as TurnResult
    from pbem.api.turns import absent as absent
    from pbem.api.turns import act as act
    from pbem.api.turns import parse_move as parse_move
    from pbem.api.turns import play as play
    from pbem.api.turns import referee as referee
    from pbem.crypto import Identity as Identity
    from pbem.crypto import PublicKey as PublicKey
    from pbem.crypto.keyring import PASSPHRASE_ENV as PASSPHRASE_ENV
    from pbem.crypto.keyring import add_key as add_key
    from pbem.crypto.keyring import create_key as create_key
    from pbem.crypto.keyring import key_dir as key_dir
    from pbem.crypto.keyring import list_keys as list_keys
    from pbem.crypto.keyring import load_identity as load_identity
    from pbem.crypto.keyring import passphrase_given as passphrase_given
    from pbem.crypto.keyring import read_public as read_public
    from pbem.crypto.keyring import unlock_key as unlock_key
    from pbem.errors import MovedOn as MovedOn
    from pbem.errors import NoPassphrase as NoPassphrase
    from pbem.errors import PbemError as PbemError
    from pbem.errors import UsageError as UsageError
    from pbem.presentation.choices import Choice as Choice
    from pbem.presentation.games import presentation as presentation
    from pbem.presentation.html import history as history
    from pbem.presentation.html import seen_now as seen_now
    from pbem.presentation.terminal import board as board
    from pbem.presentation.terminal import log_text as log_text
    from pbem.presentation.terminal import next_duty as next_duty
    from pbem.presentation.terminal import next_line as next_line
    from pbem.presentation.terminal import pregame_text as pregame_text
    from pbem.presentation.terminal import result_text as result_text
    from pbem.protocol.checkpoints import Checkpoint as Checkpoint
    from pbem.protocol.checkpoints import held as checkpoint_held
    from pbem.protocol.checkpoints import make as checkpoint
    from pbem.protocol.replay import Replay as Replay
    from pbem.protocol.seen import Sighting as Sighting
    from pbem.protocol.seen import history_path as history_path
    from pbem.protocol.seen import remember as remember
    from pbem.protocol.seen import sighting as sighting
    from pbem.protocol.session import Session as Session
    from pbem.protocol.verify import Checked as Checked
    from pbem.protocol.verify import verify as verify_record
    from pbem.record.canonical import parse_json as parse_json
    from pbem.record.deadlines import Clock as Clock
    from pbem.record.deadlines import now as clock_now
    from pbem.record.files import write_atomic as write_file
    from pbem.record.models import GameFile as GameFile
    from pbem.record.models import from_json as read_record
    from pbem.record.models import to_json as to_json
    from pbem.record.names import is_name as is_name
    from pbem.record.reading import read_file as read_file
    from pbem.record.status import Status as Status
    from pbem.transport.advice import my_names as keys_here
    from pbem.transport.advice import send_flag as send_flag
    from pbem.transport.advice import sends_by_default as sends_by_default
    from pbem.transport.advice import unsent_line as unsent_line
    from pbem.transport.contacts import add as add_contact
    from pbem.transport.contacts import book_path as book_path
    from pbem.transport.contacts import check_address as check_address
    from pbem.transport.contacts import load as address_book
    from pbem.transport.copies import folder as games_folder
    from pbem.transport.copies import mark_shared as mark_mailed
    from pbem.transport.copies import shared as mailed_up_to
    from pbem.transport.copies import short_id as short_id
    from pbem.transport.imap import fetch_to_spool as fetch_imap
    from pbem.transport.imap import parse_url as imap_mailbox
    from pbem.transport.inbox import parse as parse_mail
    from pbem.transport.lookup import resolve as game_path
    from pbem.transport.mail import Server as smtp_server
    from pbem.transport.mail import compose as compose_mail
    from pbem.transport.outcomes import Fate as Fate
    from pbem.transport.outcomes import MailOutcome as MailOutcome
    from pbem.transport.status import duty_text as duty_text
    from pbem.transport.status import line as line

_HOMES: dict[str, tuple[str, ...]] = {
    # module: the public names it holds; "api_name=its_name" where the API names it otherwise
    "engine.contract": ("DEALER", "RuleError"),
    "pbem.crypto": ("Identity", "PublicKey"),
    "pbem.crypto.keyring": ("PASSPHRASE_ENV", "add_key", "create_key", "key_dir", "list_keys", "load_identity",
                            "passphrase_given", "read_public", "unlock_key"),
    "pbem.errors": ("MovedOn", "NoPassphrase", "PbemError", "UsageError"),
    "pbem.presentation.choices": ("Choice",),
    "pbem.presentation.games": ("presentation",),
    "pbem.presentation.html": ("history", "seen_now"),
    "pbem.presentation.terminal": ("board", "log_text", "next_duty", "next_line", "pregame_text", "result_text"),
    "pbem.protocol.checkpoints": ("Checkpoint", "checkpoint=make", "checkpoint_held=held"),
    "pbem.protocol.replay": ("Replay",),
    "pbem.protocol.seen": ("Sighting", "history_path", "remember", "sighting"),
    "pbem.protocol.session": ("Session",),
    "pbem.protocol.verify": ("Checked", "verify_record=verify"),
    "pbem.record.canonical": ("parse_json",),
    "pbem.record.deadlines": ("Clock", "clock_now=now"),
    "pbem.record.files": ("write_file=write_atomic",),
    "pbem.record.models": ("GameFile", "read_record=from_json", "to_json"),
    "pbem.record.names": ("is_name",),
    "pbem.record.reading": ("read_file",),
    "pbem.record.status": ("Status",),
    "pbem.transport.advice": ("keys_here=my_names", "send_flag", "sends_by_default", "unsent_line"),
    "pbem.transport.contacts": ("add_contact=add", "address_book=load", "book_path", "check_address"),
    "pbem.transport.copies": ("games_folder=folder", "mailed_up_to=shared", "mark_mailed=mark_shared", "short_id"),
    "pbem.transport.imap": ("fetch_imap=fetch_to_spool", "imap_mailbox=parse_url"),
    "pbem.transport.inbox": ("parse_mail=parse",),
    "pbem.transport.lookup": ("game_path=resolve",),
    "pbem.transport.mail": ("compose_mail=compose", "smtp_server=Server"),
    "pbem.transport.outcomes": ("Fate", "MailOutcome"),
    "pbem.transport.status": ("duty_text", "line"),
    "pbem.api.games": ("armored", "choices_text", "deadline_lines", "example_move", "export_entry", "html_page",
                       "json_view", "legal_moves", "load", "my_name", "next_command", "note_seen", "open_game",
                       "owes", "part_done", "replay_asset", "verify_files", "view"),
    "pbem.api.hosting": ("find_copy", "game_names", "game_title", "legend", "page_choices", "resume_checkpoint",
                         "unsent"),
    "pbem.api.mail": ("absences_offered", "copies_in", "duty_clocks", "hash_chain", "imap_connect", "is_imap",
                      "mail_turn", "read_mail", "read_mails", "restore_copy", "send_mail", "smtp_connection", "status"),
    "pbem.api.new_games": ("new_game", "start_game"),
    "pbem.api.turns": ("TurnResult", "absent", "act", "parse_move", "play", "referee"),
    "pbem.api.demo_game": ("demo",),
}
_WHERE = {spec.partition("=")[0]: (module, spec.partition("=")[2] or spec) for module, specs in _HOMES.items()
          for spec in specs}

__all__ = [
    "DEALER", "PASSPHRASE_ENV", "Checked", "Checkpoint", "Choice", "Clock", "Fate", "GameFile", "Identity",
    "MailOutcome", "MovedOn", "NoPassphrase", "PbemError", "PublicKey", "Replay", "RuleError", "Session", "Sighting",
    "Status", "TurnResult", "UsageError", "absences_offered", "absent", "act", "add_contact", "add_key",
    "address_book", "armored", "board", "book_path", "check_address", "checkpoint", "checkpoint_held", "choices_text",
    "clock_now", "compose_mail", "copies_in", "create_key", "deadline_lines", "demo", "duty_clocks", "duty_text",
    "example_move", "export_entry", "fetch_imap", "find_copy", "game_names", "game_path", "game_title",
    "games_folder", "hash_chain", "history", "history_path", "html_page", "imap_connect", "imap_mailbox", "is_imap",
    "is_name", "json_view", "key_dir", "keys_here", "legal_moves", "legend", "line", "list_keys", "load",
    "load_identity", "log_text", "mail_turn", "mailed_up_to", "mark_mailed", "my_name", "new_game", "next_command",
    "next_duty", "next_line", "note_seen", "open_game", "owes", "page_choices", "parse_json", "parse_mail",
    "parse_move", "part_done", "passphrase_given", "play", "pregame_text", "presentation", "read_file", "read_mail",
    "read_mails", "read_public", "read_record", "referee", "remember", "replay_asset", "restore_copy", "result_text",
    "resume_checkpoint", "seen_now", "send_flag", "send_mail", "sends_by_default", "short_id", "sighting",
    "smtp_connection", "smtp_server", "start_game", "status", "to_json", "unlock_key", "unsent", "unsent_line",
    "verify_files", "verify_record", "view", "write_file",
]


def __getattr__(name: str) -> Any:
    """A public name, imported from its module at first use and kept."""
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module, attribute = _WHERE[name]
    value = getattr(importlib.import_module(module), attribute)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return __all__
