"""The files a browser seat's pages load, read once at start and served from memory, each with its
subresource-integrity hash: the web client's modules (pbem/web/static, the vendored libraries included)
and each game's drawing (its script and style, as the replay page and pbem app draw it).

Their addresses name the files' version (a hash of them all: /static/VERSION/web/..., /static/VERSION/game/...),
so a browser keeps them for good and loads a seat's page again without asking for any; a new pbem serves
them at new addresses. A module imports others by relative path, which no `integrity` attribute covers, so every page carries an
import map whose `integrity` names the hash of every module: the browser refuses a module whose bytes
differ (a proxy or a cache that changed one). The import map is the pages' only inline script, allowed by
its own hash in the Content-Security-Policy.
"""

from __future__ import annotations

import base64
import hashlib
import json
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from pbem import api

STATIC = "/static/"
TYPES = {".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8", ".svg": "image/svg+xml",
         ".md": "text/plain; charset=utf-8", "": "text/plain; charset=utf-8"}


def sri(data: bytes) -> str:
    return "sha384-" + base64.b64encode(hashlib.sha384(data).digest()).decode()


def csp_hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


@dataclass(frozen=True)
class Asset:
    data: bytes
    kind: str
    integrity: str


class Assets:
    """Every file the pages load, by its address."""

    def __init__(self) -> None:
        root = Path(str(resources.files("pbem.web"))) / "static"
        found: dict[str, tuple[bytes, str]] = {}
        for path in sorted(root.rglob("*")):
            if path.is_file() and (path.suffix in (".js", ".css") or path.name.startswith("LICENSE")
                                   or path.name == "VENDORED.md"):
                found["web/" + path.relative_to(root).as_posix()] = (path.read_bytes(), path.suffix)
        for game in api.game_names():
            for suffix in (".js", ".css"):
                found[f"game/{game}{suffix}"] = (api.replay_asset(game, suffix).encode(), suffix)
        version = hashlib.sha256(b"".join(name.encode() + sri(data).encode() for name, (data, _) in
                                          sorted(found.items()))).hexdigest()[:16]
        self.prefix = f"{STATIC}{version}/web/"
        self.game_prefix = f"{STATIC}{version}/game/"
        self.files = {f"{STATIC}{version}/{name}": Asset(data, TYPES.get(suffix, TYPES[""]), sri(data))
                      for name, (data, suffix) in found.items()}
        self.symbols = {game: api.replay_asset(game, ".svg") for game in api.game_names()}
        self.modules = {url: asset.integrity for url, asset in self.files.items()
                        if url.startswith(self.prefix) and asset.kind == TYPES[".js"]}
        """Every module, by its address: its integrity hash (the import map's), fetched at once by each page
        (modulepreload) rather than one level of imports after another."""
        self.import_map = json.dumps({"imports": {}, "integrity": self.modules}, separators=(",", ":"))
        self.import_map_hash = csp_hash(self.import_map)

    def get(self, url: str) -> Asset | None:
        return self.files.get(url)

    def integrity(self, url: str) -> str:
        return self.files[url].integrity
