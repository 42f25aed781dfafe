"""The web client (issue 36): the JavaScript a browser runs so that a player's key never leaves it.

static/ holds ES modules served as files, no build step at run time:
- pbem-crypto.js, one import for the rest: canonical JSON (canonical.js), the ssh-ed25519 key and its OpenSSH
  file (keys.js), SSHSIG signatures (sshsig.js), age sealing (age.js, its X25519 by WebCrypto or @noble in
  x25519.js), commitments (commitments.js), signed entries and the check of a game's genesis (entries.js), each
  the byte-for-byte twin of its Python counterpart in pbem.crypto, pbem.record and pbem.protocol
  (tests/web/test_web_crypto.py holds them to it);
- keystore.js: the player's key kept in IndexedDB as WebCrypto keys no script can read, the seed only in the
  passphrase-protected OpenSSH file that Export hands over;
- the pages' own scripts: join.js (an invitation: make the key, take the seat), create.js (a creator link:
  make a table, show its seats' links) and play.js (a seat's game:
  the board, the offers, each entry built and signed in the page, after checking that the game's signed
  genesis holds this browser's key and the referee's).
static/vendor/ holds the audited libraries it builds on, pinned, with their licences; vendor.py rebuilds them
from npm and checks every byte (static/vendor/VENDORED.md).
"""
