"""The web client (issue 36): the JavaScript a browser runs so that a player's key never leaves it.

static/ holds ES modules served as files, no build step at run time: pbem-crypto.js (canonical JSON, the
ssh-ed25519 key and its OpenSSH file, SSHSIG signatures, age sealing, commitments), each the byte-for-byte
twin of its Python counterpart in pbem.crypto, pbem.record.canonical and pbem.protocol.commitments
(tests/test_web_crypto.py holds them to it). static/vendor/ holds the audited libraries it builds on,
pinned, with their licences; vendor.py rebuilds them from npm and checks every byte (static/vendor/VENDORED.md).
"""
