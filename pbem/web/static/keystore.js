// The player's key in this browser (issue 36): made here, kept in IndexedDB, used through WebCrypto keys that no
// script can read, and handed over only as an OpenSSH private key file protected by a passphrase.
//
// A pbem player has one ssh-ed25519 key: entries are signed with it (SSHSIG) and values are sealed to it (age's
// ssh-ed25519 recipient, whose X25519 scalar is the first half of SHA-512 of the Ed25519 seed), so that the CLI,
// the app and `age -d -i KEY` open them. Making a key is drawing a 32-byte seed and deriving from it:
//  - for signing, an Ed25519 CryptoKey imported from the seed, non-extractable (WebCrypto's Ed25519: Chromium 137,
//    Firefox 129, Safari 17 and later);
//  - for opening, an X25519 CryptoKey imported from the derived scalar, non-extractable (WebCrypto's X25519:
//    Chromium 133, Firefox 130, Safari 17), which unsealAsync and openValueAsync use.
// What must stay extractable, and why: the seed. The OpenSSH file that moves the key to the CLI or another device
// holds the seed, and WebCrypto neither exports a non-extractable key nor derives the X25519 scalar from an
// Ed25519 one. So the seed is kept only inside that file, encrypted under the player's passphrase (bcrypt KDF and
// aes256-ctr, as ssh-keygen writes it): exporting hands over that file, and nothing else in IndexedDB holds the
// seed. Where the browser lacks WebCrypto's Ed25519 or X25519, @noble signs or opens and needs the bytes: then,
// and only then, the record keeps the seed too (`record.seed`; BrowserKey.where says so).
// A script running in the page (an XSS) can still have these keys sign while the page is open; it cannot carry
// them away, nor read the seed without the passphrase.

import { sha512 } from './vendor/noble-hashes/sha2.js';
import { PbemCryptoError, concat, equal, fromHex, utf8 } from './bytes.js';
import { DEFAULT_KDF_ROUNDS, Identity, PublicKey } from './keys.js';
import { SIGNATURE_NAMESPACE, sshsigBlob, sshsigSignedData, verifySignature } from './sshsig.js';
import { hasWebCryptoX25519, importX25519Scalar } from './x25519.js';

const PKCS8_ED25519 = fromHex('302e020100300506032b657004220420'); // a PKCS #8 Ed25519 key, before its seed
const DB = 'pbem-keys';
const STORE = 'keys';
const PROBE = utf8('pbem keystore probe');

function usage(message) {
  throw new PbemCryptoError('UsageError', message);
}

function ed25519Key(seed) {
  return globalThis.crypto.subtle.importKey('pkcs8', concat(PKCS8_ED25519, seed), { name: 'Ed25519' }, false, ['sign']);
}

/** The seed as a non-extractable WebCrypto Ed25519 key, or null where the browser has none, or one whose signature
 * differs from @noble's (Ed25519 is deterministic: both must give the same bytes). */
async function signingKey(identity, seed) {
  try {
    const key = await ed25519Key(seed);
    const signature = new Uint8Array(await globalThis.crypto.subtle.sign({ name: 'Ed25519' }, key, PROBE));
    return equal(signature, await identity.signRaw(PROBE, { webCrypto: false })) ? key : null;
  } catch {
    return null;
  }
}

/** What IndexedDB keeps of a key: its public line, the OpenSSH file protected by `passphrase` (the export, and
 * the one copy of the seed), the non-extractable WebCrypto keys that sign and open, and the seed itself only where
 * WebCrypto lacks Ed25519 or X25519. */
export async function keyRecord(identity, passphrase, { rounds = DEFAULT_KDF_ROUNDS } = {}) {
  if (typeof passphrase !== 'string' || !passphrase) {
    usage('choose a passphrase: it protects the copy of your key this browser keeps for you to export');
  }
  const backup = identity.toOpenSSH(passphrase, { rounds });
  const seed = identity.seedCopy();
  const scalar = sha512(seed).slice(0, 32);
  const signKey = globalThis.crypto?.subtle ? await signingKey(identity, seed) : null;
  const openKey = (await hasWebCryptoX25519()) ? await importX25519Scalar(scalar) : null;
  const record = { version: 1, line: identity.public.line(), backup, signKey, openKey };
  scalar.fill(0);
  if (!signKey || !openKey) record.seed = seed;
  else seed.fill(0); // the copy this function made; the Identity it was given is the caller's to drop
  return record;
}

/** A key kept by this browser, usable wherever an Identity signs (signEntry) or opens (unsealAsync,
 * openSealedAsync, openValueAsync: not the synchronous unseal, which a WebCrypto key cannot serve). */
export class BrowserKey {
  #record;
  #fallback;

  constructor(record) {
    if (record?.version !== 1) usage('not a key record of this keystore');
    this.#record = record;
    this.public = PublicKey.parse(record.line);
    this.#fallback = record.seed ? Identity.fromSeed(record.seed, this.public.comment) : null;
    if (this.#fallback && !this.#fallback.public.sameKey(this.public)) usage('the kept seed is not this key\'s');
  }

  /** How the key is kept: "webcrypto" (signing and opening keys no script can read), or "seed" (this browser's
   * WebCrypto lacks Ed25519 or X25519, so the seed is kept for @noble). */
  get where() {
    return this.#fallback ? 'seed' : 'webcrypto';
  }

  async signRaw(message) {
    if (this.#record.signKey) {
      return new Uint8Array(await globalThis.crypto.subtle.sign({ name: 'Ed25519' }, this.#record.signKey, message));
    }
    return this.#fallback.signRaw(message, { webCrypto: false });
  }

  /** An SSHSIG signature blob of `message`, as Identity.sign. */
  async sign(message, namespace = SIGNATURE_NAMESPACE) {
    const signature = await this.signRaw(sshsigSignedData(namespace, message));
    return sshsigBlob(this.public.wire, namespace, signature);
  }

  /** The X25519 scalar age opens with: a non-extractable CryptoKey, or bytes where WebCrypto has no X25519. */
  x25519Scalar() {
    return this.#record.openKey ?? this.#fallback.x25519Scalar();
  }

  /** The OpenSSH private key file, protected by the passphrase chosen when the key was kept. */
  exportKeyFile() {
    return this.#record.backup;
  }

  get record() {
    return this.#record;
  }
}

/** A new key (a fresh seed), its record made with `passphrase`. */
export async function generateKey(passphrase, comment = '', options = {}) {
  return new BrowserKey(await keyRecord(Identity.generate(comment), passphrase, options));
}

/** A key from an OpenSSH private key file (ssh-keygen's, pbem's, or an export), read with `passphrase` and kept
 * under `keepWith` (the same passphrase unless another is given; a file without one needs one to be kept). */
export async function importKeyFile(text, passphrase, { keepWith = passphrase, ...options } = {}) {
  const identity = Identity.fromOpenSSH(text, passphrase || null, 'the key file');
  return new BrowserKey(await keyRecord(identity, keepWith, options));
}

/** The same key, its export protected by a new passphrase (the old one proves the player's). */
export async function changePassphrase(key, oldPassphrase, newPassphrase, options = {}) {
  return importKeyFile(key.exportKeyFile(), oldPassphrase, { keepWith: newPassphrase, ...options });
}

/** Whether a signature by `key` checks against its public key (a kept key's health check). */
export async function signsAsItsPublicKey(key) {
  try {
    verifySignature(key.public, PROBE, await key.sign(PROBE));
    return true;
  } catch {
    return false;
  }
}

// -- IndexedDB: one record a key, under a name the page chooses (a seat at a table, say)

function opened() {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE, { keyPath: 'id' });
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

async function inStore(mode, action) {
  const db = await opened();
  try {
    return await new Promise((resolve, reject) => {
      const transaction = db.transaction(STORE, mode);
      const request = action(transaction.objectStore(STORE));
      transaction.oncomplete = () => resolve(request.result);
      transaction.onerror = () => reject(transaction.error);
      transaction.onabort = () => reject(transaction.error);
    });
  } finally {
    db.close();
  }
}

/** Keep `key` under `id`, in place of any key kept there before. */
export async function keepKey(id, key) {
  await inStore('readwrite', (store) => store.put({ id, ...key.record }));
}

/** The key kept under `id`, or null. */
export async function loadKey(id) {
  const found = await inStore('readonly', (store) => store.get(id));
  if (!found) return null;
  const { id: _, ...record } = found;
  return new BrowserKey(record);
}

/** Forget the key kept under `id` (its export is the player's only copy then). */
export async function forgetKey(id) {
  await inStore('readwrite', (store) => store.delete(id));
}

/** The names under which keys are kept. */
export async function keptKeys() {
  return inStore('readonly', (store) => store.getAllKeys());
}
