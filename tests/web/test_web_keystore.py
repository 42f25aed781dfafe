"""A player's key in the browser (pbem/web/static/keystore.js, issue 36): made there, kept as WebCrypto keys no
script can read, its seed only in the passphrase-protected OpenSSH file it exports, which ssh-keygen and pbem
read; a key ssh-keygen made imports. In Node (the file both ways, signing and opening through the kept keys)
and in a real Chromium (selenium), where IndexedDB keeps the key across a reload of the page."""

from __future__ import annotations

import random
import subprocess
from typing import Any

import pytest

from pbem import crypto
from pbem.crypto import Identity, PublicKey
from pbem.protocol.commitments import b64, check_signature, commit, unb64
from pbem.record.canonical import canonical
from pbem.record.models import Entry

from pbem_support import identity
from web_support import JsError, Node, static_server, tool

PASS = "correct horse ☃"


def run(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(args, input=stdin, capture_output=True, check=False, timeout=60)


def entry_bodies(author: str, count: int, rng: random.Random) -> list[dict[str, Any]]:
    return [{"game_id": rng.randbytes(16).hex(), "seq": i + 1, "prev": rng.randbytes(32).hex(), "author": author,
             "action": rng.choice(["place 3b 4", "pass", "take 2", "open #3"]), "time": rng.randint(0, 2**40),
             **({"note": "ünï 🎲"} if i % 3 == 0 else {})} for i in range(count)]


def sealed_item(owner: PublicKey, binding: str, key: str, value: Any, salt: str) -> dict[str, Any]:
    blob = crypto.seal(canonical({"game": binding, "key": key, "value": value, "salt": salt}), [owner])
    return {"sealed": b64(blob), "key": key, "binding": binding, "owner": owner.raw.hex(),
            "commitment": commit(binding, owner.raw.hex(), key, value, salt)}


USE_KEY = """
const key = state.keys[input.name];
const signed = await Promise.all(input.bodies.map((fields) => pbem.signEntry(key, fields)));
const opened = await Promise.all(input.items.map((item) => pbem.openValueAsync(item, key, item.binding)));
const sealed = await Promise.all(input.values.map(([slot, value]) =>
  pbem.sealValueAsync(input.binding, slot, value, 'ab'.repeat(32), [key.public])));
return { signed, opened, sealed, where: key.where };
"""


def check_use(js: Node, name: str, python: Identity, rng: random.Random) -> None:
    """`name`'s kept key signs entries exactly as pbem's Python signs them with the same key, opens values pbem
    sealed to it, and seals values pbem opens."""
    bodies = entry_bodies("ann", 12, rng)
    binding = rng.randbytes(32).hex()
    salts = [rng.randbytes(32).hex() for _ in range(4)]
    items = [sealed_item(python.public, binding, f"#{i}", i * 7, salt) for i, salt in enumerate(salts)]
    values = [["#9", 3], ["coin-2", "sun-2"]]
    got = js.call(USE_KEY, {"name": name, "bodies": bodies, "items": items, "values": values, "binding": binding})
    for body, entry in zip(bodies, got["signed"]):
        model = Entry.model_validate(entry)
        check_signature(model, canonical(body), python.public, model.seq)
        assert entry["signature"] == b64(python.sign(canonical(body)))
    assert got["opened"] == [{"value": i * 7, "salt": salt} for i, salt in enumerate(salts)]
    for (slot, value), blob in zip(values, got["sealed"]):
        assert crypto.unseal(unb64(blob), python) == canonical(
            {"game": binding, "key": slot, "value": value, "salt": "ab" * 32})


NEW_KEY = """
const key = await pbem.generateKey(input.passphrase, input.comment, { rounds: 4 });
(state.keys ??= {})[input.name] = key;
const { signKey, openKey } = key.record;
return { line: key.public.line(), where: key.where, file: key.exportKeyFile(), kept: Object.keys(key.record).sort(),
  extractable: [signKey.extractable, openKey.extractable], kinds: [signKey.algorithm.name, openKey.algorithm.name],
  exported: await crypto.subtle.exportKey('pkcs8', signKey).then(() => 'exported', (e) => e.name),
  healthy: await pbem.signsAsItsPublicKey(key),
  syncOpen: (() => { try { pbem.unseal(pbem.seal(pbem.utf8('x'), [key.public]), key); return 'opened'; }
    catch (e) { return `${e.kind}: ${e.message}`; } })() };
"""
CHANGE = """
const key = await pbem.changePassphrase(state.keys[input.name], input.old, input.new, { rounds: 4 });
return { line: key.public.line(), file: key.exportKeyFile() };
"""


@pytest.mark.slow
def test_a_key_made_by_the_keystore_is_kept_as_keys_no_script_reads_and_exported_as_a_file_ssh_keygen_reads(js, tmp_path):
    keygen = tool("ssh-keygen")
    made = js.call(NEW_KEY, {"name": "new", "passphrase": PASS, "comment": "ann@browser"})
    assert made["where"] == "webcrypto"  # Node 20 has WebCrypto's Ed25519 and X25519
    assert made["kept"] == ["backup", "line", "openKey", "signKey", "version"]  # no seed beside the file
    assert made["kinds"] == ["Ed25519", "X25519"] and made["extractable"] == [False, False]
    assert made["exported"] == "InvalidAccessException"  # Node's name for the browsers' InvalidAccessError
    assert made["healthy"] is True
    assert made["syncOpen"] == "UsageError: a key the browser keeps opens only asynchronously (unsealAsync)"
    key = tmp_path / "id_ed25519"
    key.write_text(made["file"])
    key.chmod(0o600)
    read = run(keygen, "-y", "-P", PASS, "-f", str(key))
    assert read.returncode == 0, read.stderr
    assert read.stdout.decode().split() == made["line"].split()
    assert run(keygen, "-y", "-P", "not it", "-f", str(key)).returncode != 0
    python = Identity.from_openssh(made["file"].encode(), PASS.encode())
    assert python.public.line() + " ann@browser" == made["line"]
    check_use(js, "new", python, random.Random(1))
    changed = js.call(CHANGE, {"name": "new", "old": PASS, "new": "another"})
    assert changed["line"] == made["line"]
    assert Identity.from_openssh(changed["file"].encode(), b"another").seed == python.seed
    with pytest.raises(JsError) as refused:
        js.call(CHANGE, {"name": "new", "old": "not it", "new": "x"})
    assert refused.value.kind == "WrongPassphrase"


IMPORT_KEY = """
const key = await pbem.importKeyFile(input.file, input.passphrase,
  { rounds: 4, ...(input.keepWith === null ? {} : { keepWith: input.keepWith }) });
(state.keys ??= {})[input.name] = key;
return { line: key.public.line(), where: key.where, file: key.exportKeyFile(),
  armored: pbem.armorSignature(await key.sign(pbem.utf8(input.message))) };
"""


@pytest.mark.slow
def test_a_key_ssh_keygen_made_imports_signs_as_ssh_keygen_checks_and_exports_under_a_new_passphrase(js, tmp_path):
    keygen = tool("ssh-keygen")
    key = tmp_path / "id_ed25519"
    made = run(keygen, "-q", "-t", "ed25519", "-a", "4", "-N", "old pass", "-C", "ann@laptop", "-f", str(key))
    assert made.returncode == 0, made.stderr
    message = "the move ann signs"
    got = js.call(IMPORT_KEY, {"name": "imported", "file": key.read_text(), "passphrase": "old pass",
                               "keepWith": PASS, "message": message})
    assert got["line"] == (tmp_path / "id_ed25519.pub").read_text().strip() and got["where"] == "webcrypto"
    (tmp_path / "sig").write_text(got["armored"])
    (tmp_path / "allowed").write_text(f"ann {got['line']}\n")
    checked = run(keygen, "-Y", "verify", "-f", str(tmp_path / "allowed"), "-I", "ann", "-n", "pbem",
                  "-s", str(tmp_path / "sig"), stdin=message.encode())
    assert checked.returncode == 0 and b'Good "pbem" signature for ann' in checked.stdout, checked.stderr
    export = tmp_path / "export"
    export.write_text(got["file"])
    export.chmod(0o600)
    assert run(keygen, "-y", "-P", PASS, "-f", str(export)).stdout.decode().split() == got["line"].split()
    assert run(keygen, "-y", "-P", "old pass", "-f", str(export)).returncode != 0
    check_use(js, "imported", Identity.from_openssh(key.read_bytes(), b"old pass"), random.Random(2))
    # the wrong passphrase, none, and none to keep the key under
    for passphrase, keep, kind in [("wrong", None, "WrongPassphrase"), (None, None, "NoPassphrase"),
                                   ("old pass", "", "UsageError")]:
        with pytest.raises(JsError) as refused:
            js.call(IMPORT_KEY, {"name": "x", "file": key.read_text(), "passphrase": passphrase, "keepWith": keep,
                                 "message": ""})
        assert refused.value.kind == kind
    # a key without a passphrase is kept under one
    bare = tmp_path / "bare"
    assert run(keygen, "-q", "-t", "ed25519", "-N", "", "-f", str(bare)).returncode == 0
    got = js.call(IMPORT_KEY, {"name": "bare", "file": bare.read_text(), "passphrase": None, "keepWith": "now one",
                               "message": ""})
    assert Identity.from_openssh(got["file"].encode(), b"now one").public.line() == got["line"].rsplit(" ", 1)[0]


FALLBACK = """
const identity = pbem.Identity.fromSeed(pbem.fromHex(input.seed), 'ann');
const record = await pbem.keyRecord(identity, 'p', { rounds: 2 });
const key = new pbem.BrowserKey({ ...record, signKey: null, openKey: null, seed: identity.seedCopy() });
(state.keys ??= {}).fallback = key;
return key.where;
"""


def test_where_the_browser_lacks_webcrypto_ed25519_or_x25519_the_kept_seed_signs_and_opens_the_same(js):
    assert js.call(FALLBACK, {"seed": identity("ann").seed.hex()}) == "seed"
    check_use(js, "fallback", identity("ann"), random.Random(3))


# -- in Chromium: IndexedDB keeps the key across a reload


MAKE_AND_KEEP = """
const done = arguments[arguments.length - 1];
(async () => {
  const pbem = await import('/static/pbem-crypto.js');
  const key = await pbem.generateKey(arguments[0], 'ann@chromium', { rounds: 4 });
  await pbem.keepKey('table-1/ann', key);
  return { line: key.public.line(), where: key.where };
})().then(done, (e) => done({ error: `${e.name}: ${e.message}` }));
"""
USE_KEPT = """
const [fields, item, done] = arguments;
(async () => {
  const pbem = await import('/static/pbem-crypto.js');
  const key = await pbem.loadKey('table-1/ann');
  const raw = await new Promise((resolve, reject) => {
    const open = indexedDB.open('pbem-keys');
    open.onsuccess = () => { const get = open.result.transaction('keys').objectStore('keys').get('table-1/ann');
      get.onsuccess = () => { open.result.close(); resolve(get.result); }; get.onerror = () => reject(get.error); };
    open.onerror = () => reject(open.error);
  });
  return { line: key.public.line(), where: key.where, entry: await pbem.signEntry(key, fields),
    opened: await pbem.openValueAsync(item, key, item.binding), file: key.exportKeyFile(),
    sealed: await pbem.sealValueAsync(item.binding, '#6', 'sun-2', 'ab'.repeat(32), [key.public]),
    kept: Object.keys(raw).sort(), isCryptoKey: [raw.signKey instanceof CryptoKey, raw.openKey instanceof CryptoKey],
    extractable: [raw.signKey.extractable, raw.openKey.extractable],
    exported: await crypto.subtle.exportKey('pkcs8', raw.signKey).then(() => 'exported', (e) => e.name),
    kept_keys: await pbem.keptKeys(), healthy: await pbem.signsAsItsPublicKey(key) };
})().then(done, (e) => done({ error: `${e.name}: ${e.message}` }));
"""
FORGET = """
const done = arguments[arguments.length - 1];
(async () => {
  const pbem = await import('/static/pbem-crypto.js');
  await pbem.forgetKey('table-1/ann');
  return [await pbem.loadKey('table-1/ann'), await pbem.keptKeys()];
})().then(done, (e) => done({ error: `${e.name}: ${e.message}` }));
"""


@pytest.mark.slow
def test_chromium_keeps_the_key_in_indexeddb_across_a_reload_and_signs_and_opens_with_it(tmp_path, browser):
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "index.html").write_text("<!doctype html><title>keystore</title><p>keys</p>\n")
    with static_server(tmp_path / "site") as base:
        # the browser is the process's one (tests/chromium_support.py): its port's origin as new, whatever was there
        browser.execute_cdp_cmd("Storage.clearDataForOrigin", {"origin": base, "storageTypes": "all"})
        try:
            browser.get(f"{base}/index.html")
            made = browser.execute_async_script(MAKE_AND_KEEP, PASS)
            assert "error" not in made, made
            assert made["where"] == "webcrypto"  # Chromium has WebCrypto's Ed25519 and X25519 on 127.0.0.1
            browser.get(f"{base}/index.html?again")  # a new page: only IndexedDB remembers the key
            body = entry_bodies("ann", 1, random.Random(4))[0]
            public = PublicKey.parse(made["line"])
            item = sealed_item(public, "cd" * 32, "#5", 4, "ef" * 32)
            used = browser.execute_async_script(USE_KEPT, body, item)
            assert "error" not in used, used
            forgotten = browser.execute_async_script(FORGET)
        finally:
            browser.get("about:blank")
    assert used["line"] == made["line"] and used["where"] == "webcrypto" and used["kept_keys"] == ["table-1/ann"]
    assert used["healthy"] is True
    assert used["kept"] == ["backup", "id", "line", "openKey", "signKey", "version"]  # no seed in IndexedDB
    assert used["isCryptoKey"] == [True, True] and used["extractable"] == [False, False]
    assert used["exported"] == "InvalidAccessError"
    model = Entry.model_validate(used["entry"])
    check_signature(model, canonical(body), public, model.seq)
    assert used["opened"] == {"value": 4, "salt": "ef" * 32}
    python = Identity.from_openssh(used["file"].encode(), PASS.encode())
    assert python.public.same_key(public) and used["entry"]["signature"] == b64(python.sign(canonical(body)))
    assert crypto.unseal(unb64(used["sealed"]), python) == canonical(
        {"game": "cd" * 32, "key": "#6", "value": "sun-2", "salt": "ab" * 32})
    key = tmp_path / "export"
    key.write_text(used["file"])
    key.chmod(0o600)
    read = run(tool("ssh-keygen"), "-y", "-P", PASS, "-f", str(key))
    assert read.returncode == 0 and read.stdout.decode().split() == made["line"].split(), read.stderr
    assert forgotten == [None, []]

