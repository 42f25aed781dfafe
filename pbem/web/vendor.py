"""Rebuild pbem/web/static/vendor/ from npm, reproducibly, and check it.

    python -m pbem.web.vendor            # fetch each pinned tarball with `npm pack`, check its SHA-256, write vendor/
    python -m pbem.web.vendor --check    # the same in a temporary folder: say whether vendor/ is what it gives
    python -m pbem.web.vendor --verify   # offline: every file in vendor/ has the SHA-256 VENDORED.md lists

Each package is taken from the tarball the npm registry serves for its exact version (npm checks the
registry's integrity hash; this script checks the tarball's SHA-256 pinned below), read in memory (nothing
is extracted or run), and only the ES modules pbem imports are copied, with every module they import.
Files are copied byte for byte with two exceptions, both mechanical and listed in VENDORED.md:
- an import of another vendored package by its npm name (`@noble/hashes/sha2.js`, which a browser cannot
  resolve without an import map) is rewritten to the relative path of that file here;
- bcrypt-pbkdf is CommonJS: its index.js is kept unchanged inside an ES-module wrapper that gives it the
  one thing it `require`s, tweetnacl's SHA-512, from @noble/hashes instead.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import posixpath
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path

VENDOR = Path(__file__).parent / "static" / "vendor"
MANIFEST = "VENDORED.md"


@dataclass(frozen=True)
class Package:
    name: str
    version: str
    tarball_sha256: str
    folder: str
    entries: tuple[str, ...]
    """The modules pbem imports; every module they import comes along."""
    licence: str
    why: str


PACKAGES = (
    Package("@noble/hashes", "2.4.0", "e1946149b780017b2564fcc092cb01c04e1d7f20627d0296c17da8868f4436dc",
            "noble-hashes", ("sha2.js", "hmac.js", "hkdf.js", "utils.js"), "MIT",
            "SHA-256 and SHA-512 without a promise (commitments, SSHSIG's digest, age's derived key), HMAC-SHA256 "
            "and HKDF-SHA256 (age's header MAC and keys). WebCrypto has them, but only asynchronously, and only in "
            "a secure context (not on a page served over plain http from another host)."),
    Package("@noble/curves", "2.4.0", "55279c71b0201d6c0e58d0206d15825359e02a3932f326ba7b7909ac2d334aa9",
            "noble-curves", ("ed25519.js",), "MIT",
            "Ed25519 signatures where the browser's WebCrypto has no Ed25519 (Firefox before 129, Safari before "
            "17, Chromium before 137) and for checking keys and signatures; X25519, which pbem's age stanzas need "
            "with a scalar derived from the ssh key (WebCrypto cannot import a raw X25519 scalar everywhere)."),
    Package("@noble/ciphers", "2.4.0", "4a398bcc280c8742d474f9162f6d3c153e52ab1078e8ab592b4720410fb3c3e9",
            "noble-ciphers", ("chacha.js", "aes.js"), "MIT",
            "ChaCha20-Poly1305, which WebCrypto lacks (age's stanzas and payload); AES-256-CTR for the OpenSSH "
            "private key file, synchronous beside the key file's other steps."),
    Package("bcrypt-pbkdf", "1.0.2", "e13e9e9f5d438223a02a906e6b77dfc97985a4ccf469ddb65261012973f07826",
            "bcrypt-pbkdf", ("index.js",), "BSD-3-Clause (OpenBSD's blowfish.c and bcrypt_pbkdf.c)",
            "The bcrypt KDF that protects an OpenSSH private key file with its passphrase (ssh-keygen's format); "
            "WebCrypto has no Blowfish. A 1:1 port of OpenBSD's bcrypt_pbkdf.c, the one sshpk uses."),
)

_IMPORT = re.compile(r"""^(?:import|export)\b[^;"']*?\bfrom\s*(["'])([^"']+)\1|^import\s*(["'])([^"']+)\3""", re.M)
_NPM_NAME = re.compile(r"^(@noble/[a-z]+)/(.+)$")


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _npm_pack(package: Package, into: Path) -> bytes:
    """The package's tarball as the registry serves it, fetched by npm (which checks the registry's integrity
    hash), checked against the SHA-256 pinned here."""
    spec = f"{package.name}@{package.version}"
    done = subprocess.run(["npm", "pack", spec, "--silent", "--ignore-scripts", "--pack-destination", str(into)],
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"npm pack {spec} failed: {done.stderr.strip()}")
    data = (into / done.stdout.strip().splitlines()[-1]).read_bytes()
    if _sha256(data) != package.tarball_sha256:
        raise SystemExit(f"{spec}: the tarball's SHA-256 is {_sha256(data)}, not the pinned {package.tarball_sha256}")
    return data


def _members(tarball: bytes) -> dict[str, bytes]:
    """Every regular file of an npm tarball, by its path inside the package (read, never extracted)."""
    files: dict[str, bytes] = {}
    with tarfile.open(fileobj=io.BytesIO(tarball), mode="r:gz") as tar:
        for member in tar.getmembers():
            if member.isfile() and member.name.startswith("package/"):
                extracted = tar.extractfile(member)
                assert extracted is not None
                files[member.name[len("package/"):]] = extracted.read()
    return files


def _folder_of(npm_name: str) -> str:
    return next(p.folder for p in PACKAGES if p.name == npm_name)


def _closure(package: Package, files: dict[str, bytes]) -> dict[str, bytes]:
    """The entry modules and every module they import, relative imports followed, imports of another
    vendored package rewritten to its file here."""
    out: dict[str, bytes] = {}
    todo = list(package.entries)
    while todo:
        path = todo.pop()
        if path in out:
            continue
        text = files[path].decode("utf-8")
        pieces, at = [], 0
        for match in _IMPORT.finditer(text):
            start, end = match.span(2) if match.group(2) else match.span(4)
            spec = text[start:end]
            if spec.startswith("."):
                todo.append(posixpath.normpath(posixpath.join(posixpath.dirname(path), spec)))
                continue
            npm = _NPM_NAME.match(spec)
            if npm is None or npm.group(1) not in {p.name for p in PACKAGES}:
                raise SystemExit(f"{package.name}/{path} imports {spec!r}, which is not vendored")
            here = posixpath.join(package.folder, posixpath.dirname(path))
            target = posixpath.relpath(posixpath.join(_folder_of(npm.group(1)), npm.group(2)), here)
            pieces += [text[at:start], target if target.startswith(".") else "./" + target]
            at = end
        out[path] = ("".join(pieces) + text[at:]).encode("utf-8") if pieces else files[path]
    return out


_WRAPPER_HEAD = """\
// bcrypt-pbkdf@1.0.2 as an ES module, made by pbem/web/vendor.py. Its index.js is below, unchanged, between
// the two marker lines; it requires one thing, tweetnacl's SHA-512, given here from @noble/hashes.
import { sha512 } from '../noble-hashes/sha2.js';
const module = { exports: {} };
function require(name) {
  if (name !== 'tweetnacl') throw new Error('bcrypt-pbkdf requires ' + name + ', which is not vendored');
  // tweetnacl's crypto_hash(out, m, n): the SHA-512 of m's first n bytes, written into out
  return { lowlevel: { crypto_hash(out, m, n) { out.set(sha512(m.subarray(0, n))); return 0; } } };
}
// ---- bcrypt-pbkdf@1.0.2 index.js ----
"""
_WRAPPER_TAIL = """\
// ---- end of bcrypt-pbkdf@1.0.2 index.js ----
export const { BLOCKS, HASHSIZE, hash, pbkdf } = module.exports;
"""


def _build(package: Package, tarball: bytes) -> dict[str, tuple[bytes, str]]:
    """What vendor/ holds of a package: its path there -> (bytes, how it was made)."""
    files = _members(tarball)
    licence = {f"{package.folder}/LICENSE": (files["LICENSE"], "unchanged")}
    if package.name == "bcrypt-pbkdf":
        wrapped = _WRAPPER_HEAD.encode() + files["index.js"] + _WRAPPER_TAIL.encode()
        return {f"{package.folder}/bcrypt-pbkdf.js": (wrapped, "index.js in an ES-module wrapper"), **licence}
    built = {}
    for path, data in sorted(_closure(package, files).items()):
        how = "unchanged" if data == files[path] else "imports of @noble/hashes made relative"
        built[f"{package.folder}/{path}"] = (data, how)
    return {**built, **licence}


def _manifest(built: dict[str, dict[str, tuple[bytes, str]]]) -> str:
    lines = [
        "# Vendored JavaScript", "",
        "Third-party ES modules the web client (pbem/web/static/) imports, served as files from pbem's own",
        "origin: no build step at run time, no script from any other origin. Made by `python -m pbem.web.vendor`",
        "(pbem/web/vendor.py), which fetches each tarball with `npm pack NAME@VERSION`, checks its SHA-256, reads",
        "it in memory and copies the modules pbem imports with every module they import. Do not edit these files:",
        "change the pins in vendor.py and run it again. `python -m pbem.web.vendor --check` rebuilds in a",
        "temporary folder and compares; `--verify` checks the files below offline (tests/web/test_web_crypto.py does).",
        "",
        "Changes to the published files, all mechanical: an import of another vendored package by its npm name",
        "(`'@noble/hashes/sha2.js'`) becomes a relative path (a browser resolves no bare name without an import",
        "map); bcrypt-pbkdf's CommonJS index.js is wrapped, unchanged, in an ES module that gives it SHA-512 from",
        "@noble/hashes in place of tweetnacl's.", "",
    ]
    for package in PACKAGES:
        lines += [f"## {package.name} {package.version}", "",
                  f"- source: npm `{package.name}@{package.version}`, tarball SHA-256 `{package.tarball_sha256}`",
                  f"- licence: {package.licence} (`{package.folder}/LICENSE`)",
                  f"- why: {package.why}", "",
                  "| file | SHA-256 | as published? |", "| --- | --- | --- |"]
        lines += [f"| `{path}` | `{_sha256(data)}` | {how} |" for path, (data, how) in built[package.name].items()]
        lines.append("")
    return "\n".join(lines)


def build_all(scratch: Path) -> dict[str, bytes]:
    """Every file vendor/ should hold (VENDORED.md too), by its path there."""
    built = {p.name: _build(p, _npm_pack(p, scratch)) for p in PACKAGES}
    files = {path: data for package in built.values() for path, (data, _) in package.items()}
    return {**files, MANIFEST: _manifest(built).encode()}


def _on_disk() -> dict[str, bytes]:
    return {p.relative_to(VENDOR).as_posix(): p.read_bytes() for p in sorted(VENDOR.rglob("*")) if p.is_file()}


_LISTED = re.compile(r"^\| `([^`]+)` \| `([0-9a-f]{64})` \|", re.M)


def verify(vendor: Path = VENDOR) -> list[str]:
    """Offline: what is wrong with vendor/ by its VENDORED.md (a file missing, changed or not listed)."""
    listed = dict(_LISTED.findall((vendor / MANIFEST).read_text()))
    present = {p.relative_to(vendor).as_posix() for p in vendor.rglob("*") if p.is_file()} - {MANIFEST}
    problems = [f"{path}: listed but missing" for path in sorted(set(listed) - present)]
    problems += [f"{path}: not listed in {MANIFEST}" for path in sorted(present - set(listed))]
    problems += [f"{path}: SHA-256 differs from {MANIFEST}" for path in sorted(present & set(listed))
                 if _sha256((vendor / path).read_bytes()) != listed[path]]
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pbem.web.vendor", description=__doc__.splitlines()[0])
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true", help="rebuild in a temporary folder and compare")
    mode.add_argument("--verify", action="store_true", help="offline: check the files against VENDORED.md")
    args = parser.parse_args(argv)
    if args.verify:
        problems = verify()
        print("\n".join(problems) or f"vendor/: every file matches {MANIFEST}")
        return 1 if problems else 0
    with tempfile.TemporaryDirectory() as scratch:
        files = build_all(Path(scratch))
    if args.check:
        disk = _on_disk()
        differ = sorted(p for p in set(files) | set(disk) if files.get(p) != disk.get(p))
        print("\n".join(f"{p}: differs from a rebuild" for p in differ) or "vendor/ is exactly what a rebuild gives")
        return 1 if differ else 0
    if VENDOR.exists():
        shutil.rmtree(VENDOR)
    for path, data in files.items():
        (VENDOR / path).parent.mkdir(parents=True, exist_ok=True)
        (VENDOR / path).write_bytes(data)
    print(f"wrote {len(files)} files to {VENDOR}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
