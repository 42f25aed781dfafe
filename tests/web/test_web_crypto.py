"""The web client's crypto (pbem/web/static/pbem-crypto.js, issue 36) against pbem's Python and stock tools.

A browser player's entries must be exactly what pbem's Python would write: the same canonical bytes, a signature
the Python verifier (and `ssh-keygen -Y verify`) accepts, sealed values that open on either side (and with
`age -d`), the same commitments. Differential over real and random entries and values of both games (1,200 entries
signed, 1,000 values sealed each way, through the page's WebCrypto path and one in 50 through @noble's), whole games
with one player's program in JavaScript, a judge that alters or forges that player's entries caught by
`pbem verify`, the key file both ways with ssh-keygen, and the published vectors of each primitive (RFC 8032,
RFC 7748, RFC 8439, RFC 8785). Runs the JavaScript in one Node process (skipped without Node)."""

from __future__ import annotations

import base64
import json
import random
import struct
import subprocess
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import rfc8785
from typer.testing import CliRunner

from engine.contract import DEALER
from pbem import crypto
from pbem.cli import app as cli
from pbem.crypto import Identity, PublicKey, X25519Identity, X25519Recipient
from pbem.crypto.ed25519 import BadPoint, check_public_key
from pbem.protocol.absence import signed_time
from pbem.protocol.bots import play_out
from pbem.protocol.commitments import b64, check_signature, commit, unb64
from pbem.protocol.entries import replay
from pbem.protocol.genesis import new_game
from pbem.protocol.replay import Replay
from pbem.protocol.session import Session
from pbem.protocol.verify import verify
from pbem.record.canonical import canonical
from pbem.record.deadlines import now
from pbem.record.models import Entry, GameFile, from_json, payload, to_json
from pbem.web import vendor

from pbem_support import NAMES, identity, sessions_for
from web_support import JsError, Node, bech32_decode, tool


def seed_of(name: str) -> str:
    return (bytes([NAMES.index(name) + 1]) * 32).hex()


# -- games of both kinds, and random entries and values drawn from them

@cache
def played(game: str, mode: str, seed: int = 1) -> Replay:
    players = ("ann", "ben", "cat") if game == "sarcophagus" else ("ann", "ben", "cat", "dan")
    referee = ("ref", identity("ref").public) if mode == "referee" else None
    creator = "ref" if referee else players[0]
    rep = new_game(game, {}, [(n, identity(n).public) for n in players], creator, identity(creator), referee)
    play_out(sessions_for(rep), "greedy", random.Random(seed))
    return rep


GAMES = [("sarcophagus", "table"), ("sarcophagus", "referee"), ("path-of-pharaohs", "table"),
         ("path-of-pharaohs", "referee")]


def real_entries() -> list[Entry]:
    return [entry for game, mode in GAMES for entry in played(game, mode).entries]


_POOLS = [
    "abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789",
    "\"\\/'`{}[]:,.!?#@=+-_~^&*%$",
    "".join(map(chr, range(0x20))) + "\x7f",
    "éüßøçñÆ€£¥©®°±µ¶·»¼ÿ",
    "\u2028\u2029\u200b\ufeff\ufffd\uffff\u0080\u00a0",
    "日本語中文한국어עבריתالعربيةไทยΕλληνικάРусский",
    "😀🎲🂡𝄞🏺𓂀",
]


def _alphabet(pools: list[str]) -> tuple[list[str], list[float]]:
    """Every character of `pools` and cumulative weights: a pool drawn evenly, then a character of it."""
    chars = [c for pool in pools for c in pool]
    weights = [1 / len(pool) for pool in pools for _ in pool]
    return chars, [sum(weights[:i + 1]) for i in range(len(weights))]


_ALPHABETS = {True: _alphabet(_POOLS), False: _alphabet([p for i, p in enumerate(_POOLS) if i != 2])}


def random_text(rng: random.Random, longest: int = 40, controls: bool = True, lone: bool = False) -> str:
    chars, weights = _ALPHABETS[controls]
    text = "".join(rng.choices(chars, cum_weights=weights, k=rng.randint(1, longest)))
    if lone and rng.random() < 0.5:
        at = rng.randint(0, len(text))
        text = text[:at] + chr(rng.choice([0xD800, 0xDBFF, 0xDC00, 0xDFFF, rng.randint(0xD800, 0xDFFF)])) + text[at:]
    return text


def random_entries(rng: random.Random, count: int) -> list[dict[str, Any]]:
    """Entries of both games: every real entry of the four games, then variants of them (another seq, time,
    note to the table, contribution), each a valid record entry, unsigned."""
    out = [payload(e) for e in real_entries()]
    while len(out) < count:
        body = dict(rng.choice(out[:len(real_entries())]))
        body["seq"] = rng.randint(1, 100_000)
        body["time"] = rng.randint(0, 2**40)
        if rng.random() < 0.7:
            body["note"] = random_text(rng, 200, controls=False).strip() or "gg"
        if rng.random() < 0.2:
            body["contribution"] = rng.randbytes(32).hex()
        out.append(body)
    return out


def random_json(rng: random.Random, depth: int = 0) -> Any:
    kind = rng.choice(["str", "int", "int", "bool", "null", "float", "list", "dict", "dict"] if depth < 4 else
                      ["str", "int", "bool", "null"])
    if kind == "str":
        return random_text(rng, lone=rng.random() < 0.05)
    if kind == "int":
        edge = 2**53 - 1
        return rng.choice([rng.randint(-1000, 1000), rng.randint(-edge, edge), edge, -edge, edge + 1,
                           -(edge + 1), rng.randint(-(10**16 - 1), 10**16 - 1), 0])
    if kind == "float":
        return rng.choice([rng.uniform(-1e6, 1e6), rng.uniform(-1, 1) * 10.0 ** rng.randint(-30, 10), 0.5, -0.0])
    if kind == "bool":
        return rng.random() < 0.5
    if kind == "null":
        return None
    if kind == "list":
        return [random_json(rng, depth + 1) for _ in range(rng.randint(0, 5))]
    return {random_text(rng, 8, lone=rng.random() < 0.02): random_json(rng, depth + 1) for _ in range(rng.randint(0, 6))}


def python_canonical(value: Any) -> str | None:
    """Python's canonical bytes in base64, or None where it refuses the value."""
    try:
        return b64(canonical(value))
    except (rfc8785.CanonicalizationError, ValueError):
        return None


CANONICAL = """
return input.map((value) => { try { return pbem.b64(pbem.canonical(value)); } catch (e) {
  if (e.kind !== 'RecordError') throw e; return null; } });
"""


@pytest.mark.slow
def test_canonical_json_is_byte_identical_to_pythons_over_entries_of_both_games(js):
    values = random_entries(random.Random(36), 1200)
    values += [payload(played(game, mode).genesis) for game, mode in GAMES]
    assert js.call(CANONICAL, values) == [b64(canonical(v)) for v in values]


def test_canonical_json_is_byte_identical_to_pythons_over_random_json_and_refuses_what_python_refuses(js):
    rng = random.Random(8785)
    values = [random_json(rng) for _ in range(1500)]
    expected = [python_canonical(v) for v in values]
    assert sum(e is None for e in expected) > 20  # lone surrogates and integers past 2^53 - 1 among them
    assert js.call(CANONICAL, values) == expected


def test_rfc8785_numbers_are_written_as_python_writes_them(js):
    rng = random.Random(754)
    doubles = [struct.unpack(">d", rng.randbytes(8))[0] for _ in range(3000)]
    doubles = [d for d in doubles if d == d and abs(d) != float("inf")][:1000]
    got = js.call("return input.map((bits) => pbem.canonicalize(new DataView(pbem.fromHex(bits).buffer).getFloat64(0)));",
                  [struct.pack(">d", d).hex() for d in doubles])
    assert got == [rfc8785.dumps(d).decode() for d in doubles]


# -- signatures

NOBLE_EVERY = 50
"""One entry or value in 50 is signed, sealed or opened by @noble alone (its Ed25519, its X25519 ladder: about
2 ms an operation); the rest through the browser's own WebCrypto Ed25519 and X25519, as the page does where it has
them (Node 20 has both)."""

SIGN_ENTRIES = """
state.ids ??= {};
const out = [];
for (const [i, { seed, fields }] of input.entries()) {
  const id = state.ids[seed] ??= pbem.Identity.fromSeed(pbem.fromHex(seed));
  out.push(await pbem.signEntry(id, fields, { webCrypto: i % NOBLE_EVERY !== 0 }));
}
return out;
""".replace("NOBLE_EVERY", str(NOBLE_EVERY))


@pytest.mark.slow
def test_entries_the_javascript_signs_are_accepted_by_pythons_verifier(js):
    bodies = random_entries(random.Random(25519), 1200)
    requests = [{"seed": seed_of(b["author"]), "fields": b} for b in bodies]
    signed = js.call(SIGN_ENTRIES, requests)
    for body, entry in zip(bodies, signed):
        model = Entry.model_validate(entry)  # a well-formed record entry
        assert payload(model) == body
        check_signature(model, canonical(body), identity(body["author"]).public, model.seq)
        # Ed25519 is deterministic: the same key over the same bytes gives Python's very signature
        assert entry["signature"] == b64(identity(body["author"]).sign(canonical(body)))
    assert len(signed) >= 1000


def test_a_game_whose_every_entry_the_javascript_signed_verifies(js):
    for game, mode in GAMES[1:3]:
        rep = played(game, mode)
        requests = [{"seed": seed_of(e.author), "fields": payload(e)} for e in rep.entries]
        record = GameFile(genesis=rep.genesis, entries=[Entry.model_validate(e) for e in js.call(SIGN_ENTRIES, requests)])
        verify(from_json(to_json(record).encode()))


VERIFY = """
return input.map(({ key, message, signature }) => {
  try { pbem.verifySignature(pbem.PublicKey.parse(key), pbem.fromHex(message), pbem.unb64(signature)); return 'good'; }
  catch (e) { if (e.kind !== 'SignatureInvalid') throw e; return e.message; } });
"""


@pytest.mark.slow
def test_the_javascript_checks_pythons_signatures_and_refuses_altered_ones(js):
    cases = []
    for entry in real_entries()[::4]:
        key, message = identity(entry.author).public.line(), canonical(payload(entry))
        cases.append({"key": key, "message": message.hex(), "signature": entry.signature})
        cases.append({"key": key, "message": (message + b" ").hex(), "signature": entry.signature})
        other = identity("ref" if entry.author != "ref" else "ann").public.line()
        cases.append({"key": other, "message": message.hex(), "signature": entry.signature})
    got = js.call(VERIFY, cases)
    assert got[0::3] == ["good"] * len(cases[0::3])
    assert set(got[1::3]) == {"signature does not match"}
    assert set(got[2::3]) == {"signed by a different key"}


# -- sealing and commitments

@cache
def game_values() -> list[tuple[str, Any]]:
    """(key, value) of every hidden item of the four games: Sarcophagus coins and tiles, Path of Pharaohs cards."""
    found: dict[tuple[str, str], Any] = {}
    for game, mode in GAMES:
        rep = played(game, mode)
        found.update({(game, k): v for k, v in sessions_for(rep)["ann"].known().items()})
    return [(key, value) for (_, key), value in found.items()]


def sealing_cases(rng: random.Random, count: int) -> list[dict[str, Any]]:
    values = game_values()
    cases = []
    for _ in range(count):
        rep = played(*rng.choice(GAMES))
        key, value = rng.choice(values) if rng.random() < 0.9 else (f"#{rng.randint(0, 99)}", random_text(rng, 12))
        readers = rng.sample(["ann", "ben", "cat", "dan", "ref"], rng.choice([1, 1, 1, 2]))
        cases.append({"genesisHash": rep.genesis_hash, "key": key, "value": value, "salt": rng.randbytes(32).hex(),
                      "readers": readers, "table": rng.random() < 0.1})
    return cases


TABLE_KEY = X25519Identity(bytes(range(100, 132)))

SEAL_VALUES = """
const table = new pbem.X25519Recipient(pbem.fromHex(input.table));
return Promise.all(input.cases.map((c, i) => {
  const args = [c.genesisHash, c.key, c.value, c.salt,
    [...c.readers.map((line) => pbem.PublicKey.parse(line)), ...(c.table ? [table] : [])]];
  return i % NOBLE_EVERY === 0 ? pbem.sealValue(...args) : pbem.sealValueAsync(...args);
}));
""".replace("NOBLE_EVERY", str(NOBLE_EVERY))


@pytest.mark.slow
def test_values_the_javascript_seals_open_in_python(js):
    cases = sealing_cases(random.Random(7748), 1000)
    lines = {name: identity(name).public.line() for name in NAMES}
    blobs = js.call(SEAL_VALUES, {
        "table": TABLE_KEY.recipient.public.hex(),
        "cases": [{**c, "readers": [lines[r] for r in c["readers"]]} for c in cases]})
    for case, blob in zip(cases, blobs):
        opening = canonical({"game": case["genesisHash"], "key": case["key"], "value": case["value"],
                             "salt": case["salt"]})
        raw = unb64(blob)
        assert crypto.recipient_count(raw) == len(case["readers"]) + case["table"]
        for reader in case["readers"]:
            assert crypto.addressed_to(raw, identity(reader).public)
        for reader in case["readers"]:
            assert crypto.unseal(raw, identity(reader)) == opening
        if case["table"]:
            assert crypto.unseal(raw, TABLE_KEY) == opening
    assert len(blobs) == 1000 and js.call("return pbem.hasWebCryptoX25519();") is True


OPEN_VALUES = """
state.ids ??= {};
return Promise.all(input.map(({ seed, table, item, genesisHash, noble }) => {
  const opener = table ? new pbem.X25519Identity(pbem.fromHex(table))
    : (state.ids[seed] ??= pbem.Identity.fromSeed(pbem.fromHex(seed)));
  return noble ? pbem.openValue(item, opener, genesisHash) : pbem.openValueAsync(item, opener, genesisHash);
}));
"""


@pytest.mark.slow
def test_values_python_seals_open_in_the_javascript_against_their_commitments(js):
    cases = sealing_cases(random.Random(8439), 1000)
    requests = []
    for case in cases:
        readers: list[PublicKey | X25519Recipient] = [identity(r).public for r in case["readers"]]
        blob = crypto.seal(canonical({k: case[k2] for k, k2 in
                                      [("game", "genesisHash"), ("key", "key"), ("value", "value"), ("salt", "salt")]}),
                           readers + ([TABLE_KEY.recipient] if case["table"] else []))
        owner = identity(case["readers"][0]).public.raw.hex()
        item = {"sealed": b64(blob), "key": case["key"], "binding": case["genesisHash"], "owner": owner,
                "commitment": commit(case["genesisHash"], owner, case["key"], case["value"], case["salt"])}
        opener = {"table": TABLE_KEY.secret.hex()} if case["table"] else {"seed": seed_of(case["readers"][-1])}
        requests.append({**opener, "item": item, "genesisHash": case["genesisHash"],
                         "noble": len(requests) % NOBLE_EVERY == 0})
    assert js.call(OPEN_VALUES, requests) == [{"value": c["value"], "salt": c["salt"]} for c in cases]


@pytest.mark.parametrize("noble", [False, True])
def test_the_javascript_refuses_a_value_that_does_not_match_its_commitment_or_its_game(js, noble):
    rep = played("sarcophagus", "referee")
    owner = identity("ann").public
    good = {"genesisHash": rep.genesis_hash, "key": "#3", "value": 4, "salt": "ab" * 32}
    blob = b64(crypto.seal(canonical({"game": rep.genesis_hash, "key": "#3", "value": 4, "salt": "ab" * 32}), [owner]))
    commitment = commit(rep.genesis_hash, owner.raw.hex(), "#3", 4, "ab" * 32)
    item = {"sealed": blob, "key": "#3", "binding": rep.genesis_hash, "owner": owner.raw.hex(), "commitment": commitment}
    seed = seed_of("ann")
    assert js.call(OPEN_VALUES, [{"seed": seed, "item": item, "genesisHash": rep.genesis_hash, "noble": noble}]) == [
        {"value": 4, "salt": good["salt"]}]
    for changed, kind in [({"commitment": "00" * 32}, "does not match its commitment"),
                          ({"key": "#4"}, "does not match its commitment"),
                          ({"binding": "11" * 32}, "does not match its commitment")]:
        with pytest.raises(JsError, match=kind):
            js.call(OPEN_VALUES, [{"seed": seed, "item": {**item, **changed}, "genesisHash": rep.genesis_hash, "noble": noble}])
    with pytest.raises(JsError, match="cannot open"):  # sealed for another game
        js.call(OPEN_VALUES, [{"seed": seed, "item": item, "genesisHash": "22" * 32, "noble": noble}])
    with pytest.raises(JsError, match="cannot open"):  # not sealed to this key
        js.call(OPEN_VALUES, [{"seed": seed_of("ben"), "item": item, "genesisHash": rep.genesis_hash, "noble": noble}])


TAMPER = """
const id = pbem.Identity.fromSeed(pbem.fromHex(input.seed));
const said = async (open) => { try { await open(); return 'opened'; } catch (e) { return `${e.kind}: ${e.message}`; } };
return Promise.all(input.blobs.map(async (blob) => [await said(() => pbem.unseal(pbem.unb64(blob), id)),
  await said(() => pbem.unsealAsync(pbem.unb64(blob), id))]));
"""


def test_the_javascript_refuses_a_tampered_sealed_blob_as_python_does(js):
    raw = crypto.seal(b'{"x":1}' * 50, [identity("ann").public])
    header_end = raw.index(b"\n---") + 1
    flips = [header_end + 10, header_end - 5, len(raw) - 1, len(raw) - 40, 30]
    blobs = [b64(raw)] + [b64(raw[:i] + bytes([raw[i] ^ 1]) + raw[i + 1:]) for i in flips] + [b64(raw[:-17])]
    got = js.call(TAMPER, {"seed": seed_of("ann"), "blobs": blobs})
    assert got[0] == ["opened", "opened"]
    for blob, (said, said_async) in zip(blobs[1:], got[1:]):
        with pytest.raises(Exception) as python:
            crypto.unseal(unb64(blob), identity("ann"))
        assert said.split(": ", 1)[1] == str(python.value) and said_async == said, (said, said_async)


COMMITS = "return input.map((c) => pbem.commit(c.binding, c.owner, c.slot, c.value, c.salt));"


@pytest.mark.slow
def test_commitments_are_equal(js):
    rng = random.Random(32)
    values = game_values()
    cases = []
    for _ in range(1000):
        key, value = rng.choice(values) if rng.random() < 0.8 else (random_text(rng, 10), rng.randint(-99, 99))
        cases.append({"binding": rng.randbytes(32).hex(), "owner": rng.choice([DEALER, rng.randbytes(32).hex()]),
                      "slot": key, "value": value, "salt": rng.choice(["", rng.randbytes(32).hex()])})
    assert js.call(COMMITS, cases) == [commit(c["binding"], c["owner"], c["slot"], c["value"], c["salt"]) for c in cases]


# -- whole games: one player's program is the web client

JS_OPEN = """
state.ids ??= {};
const id = state.ids[input.seed] ??= pbem.Identity.fromSeed(pbem.fromHex(input.seed));
return pbem.openValueAsync(input.item, id, input.genesisHash);
"""
JS_UNSEAL = """
state.ids ??= {};
const opener = input.table ? new pbem.X25519Identity(pbem.fromHex(input.table))
  : (state.ids[input.seed] ??= pbem.Identity.fromSeed(pbem.fromHex(input.seed)));
return pbem.openSealedAsync(input.blob, opener, input.binding);
"""
JS_COMMIT_OWN = """
const own = await pbem.commitOwnAsync({ genesisHash: input.genesisHash, owner: pbem.PublicKey.parse(input.owner),
  readers: input.readers.map((line) => pbem.PublicKey.parse(line)), secrets: input.secrets });
return { commitments: own.commitments, sealed: own.sealed };
"""
JS_SEAL = """
return pbem.sealValueAsync(input.genesisHash, input.key, input.value, input.salt,
  input.readers.map((l) => pbem.PublicKey.parse(l)));
"""
JS_SIGN = """
state.ids ??= {};
const id = state.ids[input.seed] ??= pbem.Identity.fromSeed(pbem.fromHex(input.seed));
return pbem.signEntry(id, input.fields);
"""


class BrowserSession(Session):
    """A participant whose program is the web client: what it opens (its hand, its coins, the table key), the
    commitments and sealed values of its entries and their signatures are the JavaScript's. Python only chooses
    the action and checks it, as the judge's offered moves will."""

    def __init__(self, rep: Replay, name: str, node: Node):
        super().__init__(rep, name, identity(name))
        self.node, self.seed, self.signed = node, seed_of(name), 0

    def _unseal(self, blob: str, opener: Any, binding: str, what: str) -> dict[str, Any]:
        table = opener.secret.hex() if isinstance(opener, X25519Identity) else None
        return self.node.call(JS_UNSEAL, {"seed": self.seed, "table": table, "blob": blob, "binding": binding})  # type: ignore[no-any-return]

    def _open_item(self, key: str) -> tuple[Any, str]:
        item = self.rep.items[key]
        if key in self._opened or (not item.players_own and self.can_deal()) or item.sealed is None:
            return super()._open_item(key)
        opened = self.node.call(JS_OPEN, {"seed": self.seed, "genesisHash": self.rep.genesis_hash, "item": {
            "sealed": item.sealed, "key": key, "binding": item.binding, "owner": item.owner,
            "committedAs": item.key, "commitment": item.commitment}})
        self._opened[key] = (opened["value"], opened["salt"])
        return self._opened[key]

    def _sealed_value(self, key: str, value: Any, salt: str, readers: Any) -> str:
        return self.node.call(JS_SEAL, {"genesisHash": self.rep.genesis_hash, "key": key, "value": value, "salt": salt,  # type: ignore[no-any-return]
                                        "readers": [self.rep.roster[r].line() for r in readers]})

    def entry_for(self, action: Any, actor: str) -> Entry:
        rep, game = self.rep, self.rep.game
        secrets = game.secrets(rep.state, actor, action)
        if secrets.draws or secrets.shows or secrets.gives or secrets.restock or actor == DEALER:
            return super().entry_for(action, actor)  # the dealer's: sealed by _sealed_value, signed by sign
        readers = [actor] + ([rep.referee] if rep.referee else [])
        own = self.node.call(JS_COMMIT_OWN, {"genesisHash": rep.genesis_hash, "owner": rep.roster[actor].line(),
                                             "readers": [rep.roster[r].line() for r in readers],
                                             "secrets": [list(s) for s in secrets.commits]})
        openings = {key: self._salt_of(key) for key, _ in secrets.opens}
        return self.sign({"action": game.format_action(game.public(action)), **own, "openings": openings})

    def sign(self, body: dict[str, Any], at: int | None = None) -> Entry:
        rep = self.rep
        when = now() if at is None else at
        if rep.genesis.deadlines is not None:
            when = max(when, signed_time(rep, rep.seq) or 0)
        fields = {"game_id": rep.genesis.game_id, "seq": rep.seq + 1, "prev": rep.head, "author": self.name,
                  **body, "time": when, "note": self.note}
        self.note = None
        self.signed += 1
        return Entry.model_validate(self.node.call(JS_SIGN, {"seed": self.seed, "fields": fields}))


_BROWSER_GAMES: dict[tuple[str, str], tuple[Replay, BrowserSession]] = {}


def game_with_a_browser_player(js: Node, game: str, mode: str) -> tuple[Replay, BrowserSession]:
    """A whole game in which ann's program is the web client and everyone else's pbem's Python (played once a
    test process): at a table ben made it, with a referee ref made and referees it, as a judge does."""
    if (game, mode) not in _BROWSER_GAMES:
        players = ("ann", "ben", "cat") if game == "sarcophagus" else ("ann", "ben", "cat", "dan")
        referee = ("ref", identity("ref").public) if mode == "referee" else None
        creator = "ref" if referee else "ben"
        rep = new_game(game, {}, [(n, identity(n).public) for n in players], creator, identity(creator), referee)
        browser = BrowserSession(rep, "ann", js)
        sessions = {"ann": browser, **{n: s for n, s in sessions_for(rep).items() if n != "ann"}}
        play_out(sessions, "greedy", random.Random(5))
        _BROWSER_GAMES[game, mode] = rep, browser
    return _BROWSER_GAMES[game, mode]


@pytest.mark.parametrize(("game", "mode"), GAMES)
@pytest.mark.slow
def test_a_whole_game_with_one_player_in_javascript_verifies(js, game, mode):
    """ann's program is the web client (at a table it also deals: the table key, the seed and every card it
    seals are opened and sealed in JavaScript); everyone else's is pbem's Python. Every entry is checked as it
    is posted, a referee opens every coin the JavaScript sealed to it, and the file verifies."""
    rep, browser = game_with_a_browser_player(js, game, mode)
    assert not rep.duties()
    ours = [e for e in rep.entries if e.author == "ann"]
    assert browser.signed == len(ours) > 5
    assert not any(e.action.startswith("verdict") for e in rep.entries)
    if mode == "table":
        if game == "sarcophagus":  # ann's program turned up tiles, from the seed the table key opened
            assert any(e.author == "ann" and e.action.startswith("reveal") for e in rep.entries)
        else:  # and dealt cards, sealed to other players' hands
            assert any(e.author == "ann" and e.action != "join" and set(e.sealed or {}) - set(e.commitments or {})
                       for e in rep.entries)
    verify(from_json(to_json(GameFile(genesis=rep.genesis, entries=rep.entries)).encode()))


# -- a judge that cheats

def judge_signs_as(body: dict[str, Any], claimed: str) -> str:
    """The judge's (ref's) SSHSIG signature of `body`, with `claimed`'s public key written in the blob where the
    signer's goes: what a judge that has no key of ann's can make look like hers."""
    blob = identity("ref").sign(canonical(body))
    return b64(blob.replace(identity("ref").public.raw, identity(claimed).public.raw))


def another_move(rep: Replay, at: int) -> tuple[int, str] | None:
    """(at, a legal move of the entry at `at`'s author other than the one it made), or None if it had no choice."""
    entry = rep.entries[at]
    before = replay(GameFile(genesis=rep.genesis, entries=rep.entries[:at]))
    knowledge = Session(before, entry.author, identity(entry.author)).knowledge()
    rules = before.game
    moves = [rules.format_action(rules.public(action)) for action in rules.legal_actions(before.state, entry.author,
                                                                                         knowledge)]
    return next(((at, move) for move in moves if move != entry.action), None)


@pytest.mark.parametrize(("game", "mode"), GAMES[1::2])
def test_a_judge_that_alters_a_browser_players_move_or_signs_for_them_is_caught_by_pbem_verify(js, tmp_path, game,
                                                                                               mode):
    """ref made and referees the game, as `pbem judge web` does, and holds every copy: it puts another legal move in
    ann's entry (the web client signed the one she clicked), or signs a move in her name with its own key, bare
    or under her public key. pbem verify refuses each copy, on the entry, naming ann; the honest copy verifies."""
    rep, _ = game_with_a_browser_player(js, game, mode)
    at, other = next(move for i, entry in enumerate(rep.entries[:-1])
                     if entry.author == "ann" and entry.action != "join" and (move := another_move(rep, i)))
    honest = rep.entries[at]
    body = payload(honest) | {"action": other}
    cheats = {
        "altered": Entry.model_validate({**body, "signature": honest.signature}),
        "own key": Entry.model_validate({**body, "signature": b64(identity("ref").sign(canonical(body)))}),
        "under her key": Entry.model_validate({**body, "signature": judge_signs_as(body, "ann")}),
    }
    said = {"altered": "signature does not match", "own key": "signed by a different key",
            "under her key": "signature does not match"}
    for name, entry in {"honest": honest, **cheats}.items():
        path = tmp_path / f"{name}.json"
        path.write_text(to_json(GameFile(genesis=rep.genesis, entries=[*rep.entries[:at], entry])))
        result = CliRunner().invoke(cli, ["verify", str(path)])
        if name == "honest":
            assert result.exit_code == 0, result.output
            continue
        assert result.exit_code == 1, (name, result.output)
        assert result.output == f"Error: {path}: entry {honest.seq} by ann: {said[name]}\n"


# -- stock tools

def run(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(args, input=stdin, capture_output=True, check=False, timeout=60)


JS_SIGN_TEXT = """
const id = pbem.Identity.fromSeed(pbem.fromHex(input.seed), 'ann');
return pbem.armorSignature(await id.sign(pbem.canonical(input.body)));
"""


def test_ssh_keygen_verifies_a_signature_the_javascript_made(js, tmp_path):
    keygen = tool("ssh-keygen")
    body = random_entries(random.Random(1), 1)[0] | {"author": "ann", "note": "ünïcødé 🎲 note"}
    (tmp_path / "entry").write_bytes(canonical(body))
    (tmp_path / "entry.sig").write_text(js.call(JS_SIGN_TEXT, {"seed": seed_of("ann"), "body": body}))
    (tmp_path / "allowed").write_text(f"ann {identity('ann').public.line()}\n")
    checked = run(keygen, "-Y", "verify", "-f", str(tmp_path / "allowed"), "-I", "ann", "-n", "pbem",
                  "-s", str(tmp_path / "entry.sig"), stdin=canonical(body))
    assert checked.returncode == 0, checked.stderr
    assert b"Good \"pbem\" signature for ann" in checked.stdout
    other = run(keygen, "-Y", "verify", "-f", str(tmp_path / "allowed"), "-I", "ann", "-n", "pbem",
                "-s", str(tmp_path / "entry.sig"), stdin=canonical(body) + b" ")
    assert other.returncode != 0


JS_EXPORT = """
const id = input.seed ? pbem.Identity.fromSeed(pbem.fromHex(input.seed), input.comment) : pbem.Identity.generate(input.comment);
return { file: id.toOpenSSH(input.passphrase, { rounds: input.rounds }), line: id.public.line() };
"""
JS_IMPORT = """
const id = pbem.Identity.fromOpenSSH(input.file, input.passphrase);
return { line: id.public.line(), signature: pbem.b64(await id.sign(pbem.utf8('a move'))), comment: id.public.comment };
"""


@pytest.mark.slow
def test_ssh_keygen_reads_the_key_file_the_javascript_writes(js, tmp_path):
    keygen = tool("ssh-keygen")
    made = js.call(JS_EXPORT, {"seed": None, "comment": "ann@browser", "passphrase": "correct horse ☃", "rounds": 16})
    key = tmp_path / "id_ed25519"
    key.write_text(made["file"])
    key.chmod(0o600)
    read = run(keygen, "-y", "-P", "correct horse ☃", "-f", str(key))
    assert read.returncode == 0, read.stderr
    assert read.stdout.decode().split()[:2] == made["line"].split()[:2]
    assert run(keygen, "-y", "-P", "wrong", "-f", str(key)).returncode != 0
    python = Identity.from_openssh(made["file"].encode(), "correct horse ☃".encode())
    assert python.public.line() == made["line"].rsplit(" ", 1)[0]
    # and without a passphrase, as ssh-keygen -N '' writes
    bare = js.call(JS_EXPORT, {"seed": seed_of("ann"), "comment": "ann", "passphrase": "", "rounds": 16})
    key.write_text(bare["file"])
    assert run(keygen, "-y", "-f", str(key)).stdout.decode().split()[:2] == bare["line"].split()[:2]
    assert Identity.from_openssh(bare["file"].encode(), None).public.same_key(identity("ann").public)


@pytest.mark.parametrize(("passphrase", "cipher"), [("hunter2", None), ("pässwörd", "aes128-ctr"),
                                                    ("cbc too", "aes256-cbc"), ("", None)])
@pytest.mark.slow
def test_the_javascript_reads_a_key_file_ssh_keygen_writes(js, tmp_path, passphrase, cipher):
    keygen = tool("ssh-keygen")
    key = tmp_path / "id_ed25519"
    made = run(keygen, "-q", "-t", "ed25519", "-a", "4", "-N", passphrase, "-C", "ann@laptop", "-f", str(key),
               *(["-Z", cipher] if cipher else []))
    assert made.returncode == 0, made.stderr
    got = js.call(JS_IMPORT, {"file": key.read_text(), "passphrase": passphrase or None})
    assert got["line"] == (tmp_path / "id_ed25519.pub").read_text().strip() and got["comment"] == "ann@laptop"
    crypto.verify_signature(PublicKey.parse(got["line"]), b"a move", unb64(got["signature"]))  # the key's own seed
    if cipher is None:  # what pbem's Python reads: the same seed, so the very same signature
        python = Identity.from_openssh(key.read_bytes(), passphrase.encode() or None)
        assert got["signature"] == b64(python.sign(b"a move"))
    if passphrase:
        for wrong, kind in [("not it", "WrongPassphrase"), (None, "NoPassphrase")]:
            with pytest.raises(JsError) as refused:
                js.call(JS_IMPORT, {"file": key.read_text(), "passphrase": wrong})
            assert refused.value.kind == kind


@pytest.mark.slow
def test_the_javascript_and_pbem_read_each_others_key_files(js):
    python_file = identity("cat").to_openssh(b"pbem pass").decode()
    assert js.call(JS_IMPORT, {"file": python_file, "passphrase": "pbem pass"})["line"].startswith(
        identity("cat").public.line().rsplit(" ", 1)[0])
    made = js.call(JS_EXPORT, {"seed": seed_of("dan"), "comment": "dan", "passphrase": "p", "rounds": 2})
    assert Identity.from_openssh(made["file"].encode(), b"p").seed == identity("dan").seed
    # a file asking for 2^31 rounds of its KDF (it would run for days) is refused before any round
    body = base64.b64decode("".join(made["file"].splitlines()[1:-1]))
    at = body.index(b"bcrypt") + 6 + 4 + 4 + 16  # the rounds: after the KDF options' length, the salt's and the salt
    assert struct.unpack(">I", body[at:at + 4]) == (2,)
    hostile = base64.b64encode(body[:at] + struct.pack(">I", 2**31) + body[at + 4:]).decode()
    with pytest.raises(JsError, match="over the 1024 pbem allows"):
        js.call(JS_IMPORT, {"file": f"-----BEGIN OPENSSH PRIVATE KEY-----\n{hostile}\n-----END OPENSSH PRIVATE KEY-----\n",
                            "passphrase": "p"})


JS_SEAL_BYTES = """
const recipients = input.recipients.map((r) => r.startsWith('ssh-') ? pbem.PublicKey.parse(r)
  : new pbem.X25519Recipient(pbem.fromHex(r)));
const plaintext = pbem.fromHex(input.plaintext);
return pbem.b64(input.noble ? pbem.seal(plaintext, recipients) : await pbem.sealAsync(plaintext, recipients));
"""
JS_UNSEAL_BYTES = """
const opener = input.seed ? pbem.Identity.fromSeed(pbem.fromHex(input.seed))
  : new pbem.X25519Identity(pbem.fromHex(input.x25519));
const blob = pbem.unb64(input.blob);
const [noble, webCrypto] = [pbem.unseal(blob, opener), await pbem.unsealAsync(blob, opener)];
if (!pbem.equal(noble, webCrypto)) throw new Error('unseal and unsealAsync differ');
return pbem.toHex(noble);
"""


def test_age_opens_what_the_javascript_sealed_and_the_javascript_opens_what_age_sealed(js, tmp_path):
    age, keygen = tool("age"), tool("age-keygen")
    key = tmp_path / "ann"
    key.write_bytes(identity("ann").to_openssh(None))
    key.chmod(0o600)
    plaintext = canonical({"game": "ab" * 32, "key": "#3", "value": 5, "salt": "cd" * 32})
    for size in (len(plaintext), 64 * 1024, 64 * 1024 + 1, 200_000):
        data = (plaintext * (size // len(plaintext) + 1))[:size]
        (tmp_path / "blob").write_bytes(unb64(js.call(JS_SEAL_BYTES, {
            "plaintext": data.hex(), "recipients": [identity("ben").public.line(), identity("ann").public.line()],
            "noble": size % 2 == 1})))
        opened = run(age, "-d", "-i", str(key), str(tmp_path / "blob"))
        assert opened.returncode == 0 and opened.stdout == data, opened.stderr
    # an X25519 (table key) recipient: age-keygen's identity
    made = run(keygen, "-o", str(tmp_path / "table"))
    assert made.returncode == 0, made.stderr
    recipient = next(line.split()[-1] for line in (tmp_path / "table").read_text().splitlines() if "public key" in line)
    hrp, public = bech32_decode(recipient)
    assert hrp == "age" and len(public) == 32
    for noble in (False, True):
        (tmp_path / "blob").write_bytes(unb64(js.call(JS_SEAL_BYTES, {"plaintext": plaintext.hex(),
                                                                      "recipients": [public.hex()], "noble": noble})))
        opened = run(age, "-d", "-i", str(tmp_path / "table"), str(tmp_path / "blob"))
        assert opened.returncode == 0 and opened.stdout == plaintext, opened.stderr
    # age seals to the ssh key; the JavaScript opens it
    (tmp_path / "ann.pub").write_text(identity("ann").public.line() + "\n")
    sealed = run(age, "-R", str(tmp_path / "ann.pub"), stdin=plaintext)
    assert sealed.returncode == 0, sealed.stderr
    assert js.call(JS_UNSEAL_BYTES, {"seed": seed_of("ann"), "blob": b64(sealed.stdout)}) == plaintext.hex()


def test_pyrage_opens_what_the_javascript_sealed_and_the_javascript_opens_what_pyrage_sealed(js):
    pyrage = pytest.importorskip("pyrage")
    plaintext = canonical({"game": "ab" * 32, "key": "#0", "value": "sun-2", "salt": "ef" * 32})
    blob = unb64(js.call(JS_SEAL_BYTES, {"plaintext": plaintext.hex(), "recipients": [identity("cat").public.line()]}))
    ssh_identity = pyrage.ssh.Identity.from_buffer(identity("cat").to_openssh(None))
    assert pyrage.decrypt(blob, [ssh_identity]) == plaintext
    sealed = pyrage.encrypt(plaintext, [pyrage.ssh.Recipient.from_str(identity("cat").public.line())])
    assert js.call(JS_UNSEAL_BYTES, {"seed": seed_of("cat"), "blob": b64(sealed)}) == plaintext.hex()
    x = pyrage.x25519.Identity.generate()
    _, public = bech32_decode(str(x.to_public()))
    blob = unb64(js.call(JS_SEAL_BYTES, {"plaintext": plaintext.hex(), "recipients": [public.hex()]}))
    assert pyrage.decrypt(blob, [x]) == plaintext
    secret = bech32_decode(str(x))[1]
    sealed = pyrage.encrypt(plaintext, [x.to_public()])
    assert js.call(JS_UNSEAL_BYTES, {"seed": None, "x25519": secret.hex(), "blob": b64(sealed)}) == plaintext.hex()


# -- keys

JS_FLAWS = "return input.map((raw) => pbem.publicKeyFlaw(pbem.fromHex(raw)));"
SMALL_ORDER = ["0100000000000000000000000000000000000000000000000000000000000000",
               "0000000000000000000000000000000000000000000000000000000000000000",
               "0000000000000000000000000000000000000000000000000000000000000080",
               "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05",
               "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",
               "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
               "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"]


def test_the_javascript_takes_exactly_the_public_keys_pbem_takes(js):
    rng = random.Random(8032)
    raws = SMALL_ORDER + [identity(n).public.raw.hex() for n in NAMES] + [rng.randbytes(32).hex() for _ in range(200)]
    good = identity("ann").public.raw  # the same point with a torsion component: valid bytes, refused
    raws.append(bytes(b ^ (i == 0) for i, b in enumerate(good)).hex())
    flaws = js.call(JS_FLAWS, raws)
    for raw, flaw in zip(raws, flaws):
        try:
            check_public_key(bytes.fromhex(raw))
            python = None
        except BadPoint as exc:
            python = str(exc)
        assert (flaw is None) == (python is None), (raw, flaw, python)
    assert all(flaws[:len(SMALL_ORDER)])
    line = identity("ann").public.line()
    assert js.call("return pbem.PublicKey.parse(input).line();", line) == line
    with pytest.raises(JsError, match="small-order point"):
        bad = base64.b64encode(b"\0\0\0\x0bssh-ed25519\0\0\0\x20" + bytes.fromhex(SMALL_ORDER[0])).decode()
        js.call("return pbem.PublicKey.parse(input).line();", f"ssh-ed25519 {bad}")
    fingerprint = js.call("return pbem.PublicKey.parse(input).fingerprint();", line)
    assert fingerprint == identity("ann").public.fingerprint()
    assert js.call("return pbem.toHex(pbem.ed25519ToX25519Public(pbem.PublicKey.parse(input).raw));", line) == \
        crypto.ed25519_to_x25519_public(identity("ann").public.raw).hex()


def test_signing_through_webcrypto_and_through_noble_gives_the_same_bytes(js):
    got = js.call("""
const id = pbem.Identity.fromSeed(pbem.fromHex(input));
const m = pbem.utf8('the same bytes');
return [await id.signer(), pbem.toHex(await id.signRaw(m)), pbem.toHex(await id.signRaw(m, { webCrypto: false }))];
""", seed_of("ben"))
    assert got[0] in ("webcrypto", "noble") and got[1] == got[2]


# -- published vectors

RFC8032 = [  # RFC 8032 section 7.1, TESTs 1 to 3: secret key, public key, message, signature
    ("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
     "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", "",
     "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"),
    ("4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
     "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c", "72",
     "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"),
    ("c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7",
     "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025", "af82",
     "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a"),
]


def test_rfc8032_ed25519_vectors(js):
    got = js.call("""
return Promise.all(input.map(async ([secret, , message]) => {
  const id = pbem.Identity.fromSeed(pbem.fromHex(secret));
  const m = pbem.fromHex(message);
  return [pbem.toHex(id.public.raw), pbem.toHex(await id.signRaw(m)), pbem.toHex(await id.signRaw(m, { webCrypto: false }))];
}));""", RFC8032)
    assert got == [[public, signature, signature] for _, public, _, signature in RFC8032]
    for secret, public, message, signature in RFC8032:  # pbem's Python agrees with the RFC too
        python = Identity.from_seed(bytes.fromhex(secret))
        assert python.public.raw.hex() == public
        assert python._key.sign(bytes.fromhex(message)).hex() == signature


RFC7748 = [  # RFC 7748 section 5.2: scalar, u-coordinate, output
    ("a546e36bf0527c9d3b16154b82465edd62144c0ac1fc5a18506a2244ba449ac4",
     "e6db6867583030db3594c1a424b15f7c726624ec26b3353b10a903a6d0ab1c4c",
     "c3da55379de9c6908e94ea4df28d084f32eccf03491c71f754b4075577a28552"),
    ("4b66e9d4d1b4673c5ad22691957d6af5c11b6421e0ea01d42ca4169e7918ba0d",
     "e5210f12786811d3f4b7959d0538ae2c31dbe7106fc03c3efc4cd549c715a493",
     "95cbde9476e8907d7aade45cb4b873f88b595a68799fa152e6f8f7647aac7957"),
]
RFC7748_DH = {  # section 6.1: Alice's and Bob's keys and their shared secret
    "alice": ("77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a",
              "8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a"),
    "bob": ("5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb",
            "de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f"),
    "shared": "4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742",
}
RFC7748_ITERATED = {1: "422c8e7a6227d7bca1350b3e2bb7279f7897b87bb6854b783c60e80311ae3079",
                    1000: "684cf59ba83309552800ef566f2f4d3c1c3887c49360e3875f2eb94d99532c51"}

JS_X25519 = """
const { x25519 } = await import(new URL('./vendor/noble-curves/ed25519.js', input.base));
const mult = (k, u) => pbem.toHex(x25519.scalarMult(pbem.fromHex(k), pbem.fromHex(u)));
const webX25519 = async (k, u) => {
  const pkcs8 = new Uint8Array([...pbem.fromHex('302e020100300506032b656e04220420'), ...k]);
  const key = await crypto.subtle.importKey('pkcs8', pkcs8, { name: 'X25519' }, false, ['deriveBits']);
  const point = await crypto.subtle.importKey('raw', u, { name: 'X25519' }, false, []);
  return new Uint8Array(await crypto.subtle.deriveBits({ name: 'X25519', public: point }, key, 256));
};
const vectors = input.vectors.map(([k, u]) => mult(k, u));
const dh = [pbem.toHex(x25519.getPublicKey(pbem.fromHex(input.alice))), pbem.toHex(x25519.getPublicKey(pbem.fromHex(input.bob))),
  mult(input.alice, pbem.toHex(x25519.getPublicKey(pbem.fromHex(input.bob)))),
  pbem.toHex(new pbem.X25519Identity(pbem.fromHex(input.bob)).recipient.public)];
let k = new Uint8Array(32); k[0] = 9; let u = k; const iterated = {};
[k, u] = [x25519.scalarMult(k, u), k];
iterated[1] = pbem.toHex(k);
for (let i = 2; i <= 1000; i++) [k, u] = [await webX25519(k, u), k];  // the browser's own X25519, as the page uses it
iterated[1000] = pbem.toHex(k);
return { vectors, dh, iterated };
"""


@pytest.mark.slow
def test_rfc7748_x25519_vectors(js):
    base = (Path(vendor.__file__).parent / "static" / "pbem-crypto.js").as_uri()
    got = js.call(JS_X25519, {"base": base, "vectors": RFC7748, "alice": RFC7748_DH["alice"][0],
                              "bob": RFC7748_DH["bob"][0]})
    assert got["vectors"] == [out for _, _, out in RFC7748]
    assert got["dh"] == [RFC7748_DH["alice"][1], RFC7748_DH["bob"][1], RFC7748_DH["shared"], RFC7748_DH["bob"][1]]
    assert got["iterated"] == {str(k): v for k, v in RFC7748_ITERATED.items()}


RFC8439_AEAD = {  # RFC 8439 section 2.8.2
    "key": "808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f",
    "nonce": "070000004041424344454647",
    "aad": "50515253c0c1c2c3c4c5c6c7",
    "plaintext": b"Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, "
                 b"sunscreen would be it.".hex(),
    "sealed": "d31a8d34648e60db7b86afbc53ef7ec2a4aded51296e08fea9e2b5a736ee62d63dbea45e8ca9671282fafb69da92728b1a71de0a9e"
              "060b2905d6a5b67ecd3b3692ddbd7f2d778b8c9803aee328091b58fab324e4fad675945585808b4831d7bc3ff4def08e4b7a9de5"
              "76d26586cec64b6116" "1ae10b594f09e26a7e902ecbd0600691",
}


def test_rfc8439_chacha20_poly1305_vector(js):
    got = js.call("""
const { chacha20poly1305 } = await import(new URL('./vendor/noble-ciphers/chacha.js', input.base));
const h = pbem.fromHex;
const sealed = chacha20poly1305(h(input.key), h(input.nonce), h(input.aad)).encrypt(h(input.plaintext));
const opened = chacha20poly1305(h(input.key), h(input.nonce), h(input.aad)).decrypt(h(input.sealed));
return [pbem.toHex(sealed), pbem.toHex(opened)];
""", {**RFC8439_AEAD, "base": (Path(vendor.__file__).parent / "static" / "pbem-crypto.js").as_uri()})
    assert got == [RFC8439_AEAD["sealed"], RFC8439_AEAD["plaintext"]]


RFC8785_NUMBERS = [  # RFC 8785 appendix B: IEEE 754 bits and their canonical text
    ("0000000000000000", "0"), ("8000000000000000", "0"), ("0000000000000001", "5e-324"),
    ("8000000000000001", "-5e-324"), ("7fefffffffffffff", "1.7976931348623157e+308"),
    ("ffefffffffffffff", "-1.7976931348623157e+308"), ("4340000000000000", "9007199254740992"),
    ("c340000000000000", "-9007199254740992"), ("4430000000000000", "295147905179352830000"),
    ("44b52d02c7e14af5", "9.999999999999997e+22"), ("44b52d02c7e14af6", "1e+23"),
    ("44b52d02c7e14af7", "1.0000000000000001e+23"), ("444b1ae4d6e2ef4e", "999999999999999700000"),
    ("444b1ae4d6e2ef4f", "999999999999999900000"), ("444b1ae4d6e2ef50", "1e+21"),
    ("3eb0c6f7a0b5ed8c", "9.999999999999997e-7"), ("3eb0c6f7a0b5ed8d", "0.000001"),
    ("41b3de4355555553", "333333333.3333332"), ("41b3de4355555554", "333333333.33333325"),
    ("41b3de4355555555", "333333333.3333333"), ("41b3de4355555556", "333333333.3333334"),
    ("41b3de4355555557", "333333333.33333343"), ("becbf647612f3696", "-0.0000033333333333333333"),
    ("43143ff3c1cb0959", "1424953923781206.2"),
]
RFC8785_EXAMPLE = (  # section 3.2.2, and its canonical form (section 3.2.3)
    '{"numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001], '
    '"string": "\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/", "literals": [null, true, false]}',
    '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],'
    '"string":"\u20ac$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}',
)
RFC8785_SORTING = (  # section 3.2.3: properties sorted by UTF-16 code unit
    '{"\\u20ac": "Euro Sign", "\\r": "Carriage Return", "\\ufb33": "Hebrew Letter Dalet With Dagesh", '
    '"1": "One", "\\ud83d\\ude00": "Emoji: Grinning Face", "\\u0080": "Control", '
    '"\\u00f6": "Latin Small Letter O With Diaeresis"}',
    '{"\\r":"Carriage Return","1":"One","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis",'
    '"\u20ac":"Euro Sign","\U0001f600":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}',
)


def test_rfc8785_examples(js):
    got = js.call("""
const numbers = input.numbers.map(([bits]) => pbem.canonicalize(new DataView(pbem.fromHex(bits).buffer).getFloat64(0)));
return [numbers, pbem.canonicalize(JSON.parse(input.example)), pbem.canonicalize(JSON.parse(input.sorting)),
        pbem.toHex(pbem.canonical(JSON.parse(input.sorting)))];
""", {"numbers": RFC8785_NUMBERS, "example": RFC8785_EXAMPLE[0], "sorting": RFC8785_SORTING[0]})
    assert got[0] == [text for _, text in RFC8785_NUMBERS]
    assert got[1] == RFC8785_EXAMPLE[1]
    assert got[2] == RFC8785_SORTING[1]
    assert bytes.fromhex(got[3]) == canonical(json.loads(RFC8785_SORTING[0])) == RFC8785_SORTING[1].encode()


# -- the vendored libraries

def test_the_vendored_files_are_the_ones_vendored_md_lists():
    assert vendor.verify() == []
    listed = (vendor.VENDOR / vendor.MANIFEST).read_text()
    for package in vendor.PACKAGES:
        assert f"npm `{package.name}@{package.version}`" in listed
        assert (vendor.VENDOR / package.folder / "LICENSE").is_file()


def test_the_web_client_imports_nothing_from_another_origin():
    static = vendor.VENDOR.parent
    for path in static.rglob("*.js"):
        text = path.read_text()
        for line in text.splitlines():
            stripped = line.strip()
            if stripped.startswith(("import ", "export ")) and " from " in stripped:
                spec = stripped.rsplit(" from ", 1)[1].strip(" ;'\"")
                assert spec.startswith(("./", "../")), (path, line)
        assert "import(" not in text or path.name == "webcrypto.js", path  # no module loaded at run time
