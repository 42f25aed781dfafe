"""Running the web client's JavaScript (pbem/web/static/) in Node from the tests: one Node process per test
process (shared_node) that evaluates snippets against the modules, so each call costs a pipe round trip, not a
start-up; and serving those modules to a real Chromium from a throwaway local HTTP server."""

from __future__ import annotations

import atexit
import functools
import http.server
import json
import shutil
import subprocess
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, ClassVar

import pytest

import pbem.web

STATIC = Path(pbem.web.__file__).parent / "static"
NODE = shutil.which("node")
MIN_NODE = (20, 19)
"""The vendored @noble packages ask for Node 20.19 or later (ES modules required from CommonJS, and the like)."""


def node_version() -> tuple[int, ...] | None:
    if NODE is None:
        return None
    out = subprocess.run([NODE, "--version"], capture_output=True, text=True, check=False).stdout.strip()
    try:
        return tuple(int(part) for part in out.lstrip("v").split("."))
    except ValueError:
        return None


def skip_without_node() -> None:
    version = node_version()
    if version is None or version[:2] < MIN_NODE:
        pytest.skip(f"Node {'.'.join(map(str, MIN_NODE))} or later is needed to run the web client's JavaScript")


_WORKER = """
import * as pbem from %(url)s;
import { createInterface } from 'node:readline';
const AsyncFunction = (async () => {}).constructor;
const state = {};
const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  const { code, input } = JSON.parse(line);
  let reply;
  try {
    reply = { ok: await new AsyncFunction('pbem', 'input', 'state', code)(pbem, input, state) ?? null };
  } catch (error) {
    reply = { error: `${error?.kind ?? error?.name}: ${error?.message}`, kind: error?.kind ?? null };
  }
  process.stdout.write(JSON.stringify(reply) + '\\n');
}
"""


class JsError(Exception):
    """What a snippet threw: `kind` is the PbemCryptoError kind (its Python twin's name) or None."""

    def __init__(self, message: str, kind: str | None):
        super().__init__(message)
        self.kind = kind


class Node:
    """A Node process holding the web client's modules: `call(code, input)` runs `code` as the body of an async
    function of (pbem, input, state) and returns what it returns, through JSON."""

    def __init__(self) -> None:
        assert NODE is not None
        script = _WORKER % {"url": json.dumps((STATIC / "pbem-crypto.js").as_uri())}
        self.process = subprocess.Popen([NODE, "--input-type=module", "-e", script], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True, encoding="utf-8")

    def call(self, code: str, input: Any = None) -> Any:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps({"code": code, "input": input}) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"node stopped (exit status {self.process.wait()})")
        reply = json.loads(line)
        if "error" in reply:
            raise JsError(reply["error"], reply["kind"])
        return reply["ok"]

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


@functools.cache
def shared_node() -> Node:
    """The one Node process of this test process (skipped without Node), closed when the process ends."""
    skip_without_node()
    node = Node()
    atexit.register(node.close)
    return node


class _Quiet(http.server.SimpleHTTPRequestHandler):
    extensions_map: ClassVar[dict[str, str]] = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                                                ".js": "text/javascript"}

    def log_message(self, format: str, *args: Any) -> None:
        pass


@contextmanager
def static_server(folder: Path) -> Iterator[str]:
    """`folder` served over HTTP on 127.0.0.1 (a secure context: WebCrypto is there) until the block ends; its
    base URL. `folder` holds the page; static/ beside it is linked to the web client's modules."""
    (folder / "static").symlink_to(STATIC, target_is_directory=True)
    handler = functools.partial(_Quiet, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def bech32_decode(text: str) -> tuple[str, bytes]:
    """The human-readable part and data of a Bech32 string (an age recipient `age1...`), checksum checked."""
    charset = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
    hrp, _, data = text.lower().rpartition("1")
    values = [charset.index(c) for c in data]
    generator = [0x3B6A57B2, 0x26508E6D, 0x1EA119FA, 0x3D4233DD, 0x2A1462B3]
    check = 1
    for value in [ord(c) >> 5 for c in hrp] + [0] + [ord(c) & 31 for c in hrp] + values:
        top = check >> 25
        check = (check & 0x1FFFFFF) << 5 ^ value
        for i in range(5):
            check ^= generator[i] if (top >> i) & 1 else 0
    if check != 1:
        raise ValueError("bad Bech32 checksum")
    bits, acc, out = 0, 0, bytearray()
    for value in values[:-6]:
        acc, bits = acc << 5 | value, bits + 5
        while bits >= 8:
            bits -= 8
            out.append(acc >> bits & 0xFF)
    return hrp, bytes(out)


def tool(name: str) -> str:
    """A command-line tool's path, or a skip saying it is missing."""
    found = shutil.which(name)
    if found is None:
        pytest.skip(f"{name} is not installed")
    return found
