// Keys, as pbem/crypto/keys.py has them: an ssh-ed25519 public key (its OpenSSH line and fingerprint), and an
// identity that signs (SSHSIG) and opens what was sealed to it (age), written to and read from an OpenSSH
// private key file protected by a passphrase exactly as ssh-keygen writes one (bcrypt KDF, aes256-ctr).
//
// The identity holds its 32-byte Ed25519 seed in a private field: pbem's sealing key is derived from it (age's
// ssh-ed25519 recipient: the X25519 scalar is the first half of SHA-512(seed)), so no browser key handle can
// stand in for it. Signing goes through the browser's own WebCrypto Ed25519 where it has one (the seed imported
// as a non-extractable key), else through @noble/curves; Ed25519 is deterministic, so both give the same bytes.

import { ed25519 } from './vendor/noble-curves/ed25519.js';
import { cbc, ctr } from './vendor/noble-ciphers/aes.js';
import { sha256, sha512 } from './vendor/noble-hashes/sha2.js';
import { pbkdf as bcryptPbkdf } from './vendor/bcrypt-pbkdf/bcrypt-pbkdf.js';
import {
  PbemCryptoError, Wire, b64, concat, equal, fromHex, fromUtf8, randomBytes, sshString, toHex, uint32, unb64, utf8,
} from './bytes.js';
import { KEY_TYPE, SIGNATURE_NAMESPACE, sshsigBlob, sshsigSignedData } from './sshsig.js';

export const MAX_KDF_ROUNDS = 1024; // as pbem/crypto/keys.py: a hostile file asking 2**32 rounds would run for ever
export const DEFAULT_KDF_ROUNDS = 16; // what ssh-keygen and pbem write
const MAX_PRIVATE = 64 * 1024;
const P = 2n ** 255n - 19n;
const PEM = ['-----BEGIN OPENSSH PRIVATE KEY-----', '-----END OPENSSH PRIVATE KEY-----'];
const MAGIC = utf8('openssh-key-v1\0');
const PKCS8_ED25519 = fromHex('302e020100300506032b657004220420'); // a PKCS #8 Ed25519 key, before its seed
const CIPHERS = {
  // name: [key bytes, block size, mode]; ssh-keygen writes aes256-ctr, and reads these too
  'aes256-ctr': [32, 16, ctr], 'aes192-ctr': [24, 16, ctr], 'aes128-ctr': [16, 16, ctr],
  'aes256-cbc': [32, 16, cbc], 'aes192-cbc': [24, 16, cbc], 'aes128-cbc': [16, 16, cbc],
};

function problem(message) {
  throw new PbemCryptoError('KeyProblem', message);
}

function leBigInt(bytes) {
  let n = 0n;
  for (let i = bytes.length - 1; i >= 0; i--) n = (n << 8n) | BigInt(bytes[i]);
  return n;
}

const checked = new Map(); // the few keys of a game, checked once: the subgroup check is a scalar multiplication

/** Why 32 bytes are not an acceptable Ed25519 public key (a sentence completing "the key is ..."), or null:
 * pbem takes only the canonical encoding of a point of the prime-order subgroup (pbem/crypto/ed25519.py). */
export function publicKeyFlaw(raw) {
  if (raw.length !== 32) return 'not 32 bytes long';
  const hex = toHex(raw);
  if (!checked.has(hex)) {
    if (checked.size >= 256) checked.clear();
    checked.set(hex, findFlaw(raw));
  }
  return checked.get(hex);
}

function findFlaw(raw) {
  if ((leBigInt(raw) & ((1n << 255n) - 1n)) >= P) return 'not canonically encoded (y is not below 2^255 - 19)';
  let point;
  try {
    point = ed25519.Point.fromBytes(raw, false);
  } catch {
    return 'not a point on the Ed25519 curve, or not canonically encoded';
  }
  if (point.isSmallOrder()) return 'a small-order point (one of the 8 that accept forged signatures)';
  if (!point.isTorsionFree()) return 'not in the Ed25519 prime-order group (it has a small-order component)';
  return null;
}

/** An ssh-ed25519 public key. */
export class PublicKey {
  constructor(raw, comment = '') {
    if (!(raw instanceof Uint8Array) || raw.length !== 32) problem('an ed25519 public key is 32 bytes');
    this.raw = Uint8Array.from(raw);
    this.comment = comment;
    Object.freeze(this);
  }

  /** From an OpenSSH public key line, `ssh-ed25519 AAAA... comment`: other key types and unsound keys refused. */
  static parse(line) {
    const parts = line.trim().split(/\s+/);
    const head = parts.slice(0, 2);
    const comment = parts.length > 2 ? line.trim().replace(/^\S+\s+\S+\s+/, '') : '';
    if (head.length === 2 && head[0] !== KEY_TYPE && /^(ssh-|ecdsa-|sk-)/.test(head[0])) {
      problem(`${head[0]} keys are not supported: pbem uses ssh-ed25519 keys only`);
    }
    if (head.length < 2 || head[0] !== KEY_TYPE) problem("not an ssh-ed25519 public key line (expected 'ssh-ed25519 AAAA...')");
    let kind, raw;
    try {
      const wire = new Wire(unb64(head[1]));
      [kind, raw] = [wire.sshString(), wire.sshString()];
      wire.end();
    } catch {
      problem('the ssh-ed25519 public key is not valid base64 key data');
    }
    if (fromUtf8Safe(kind) !== KEY_TYPE || raw.length !== 32) problem('the ssh-ed25519 public key data is malformed');
    const flaw = publicKeyFlaw(raw);
    if (flaw) problem(`the ssh-ed25519 public key is ${flaw}: it cannot be anyone's key`);
    return new PublicKey(raw, comment);
  }

  /** The SSH wire form: string "ssh-ed25519", string raw. */
  get wire() {
    return concat(sshString(KEY_TYPE), sshString(this.raw));
  }

  line() {
    const text = `${KEY_TYPE} ${b64(this.wire)}`;
    return this.comment ? `${text} ${this.comment}` : text;
  }

  /** As `ssh-keygen -l` prints it. */
  fingerprint() {
    return `SHA256:${b64(sha256(this.wire)).replace(/=+$/, '')}`;
  }

  sameKey(other) {
    return equal(this.raw, other.raw);
  }
}

function fromUtf8Safe(bytes) {
  try {
    return fromUtf8(bytes);
  } catch {
    return null;
  }
}

function passphraseBytes(passphrase) {
  if (passphrase === null || passphrase === undefined || passphrase === '') return null;
  const bytes = typeof passphrase === 'string' ? utf8(passphrase) : Uint8Array.from(passphrase);
  return bytes.length ? bytes : null;
}

function bcryptKdf(passphrase, salt, length, rounds) {
  const out = new Uint8Array(length);
  if (bcryptPbkdf(passphrase, passphrase.length, salt, salt.length, out, length, rounds) !== 0) problem('bcrypt KDF failed');
  return out;
}

/** An ssh-ed25519 private key: signs entries and opens what was sealed to it. */
export class Identity {
  #seed;
  #webKey;

  constructor(seed, comment = '') {
    if (!(seed instanceof Uint8Array) || seed.length !== 32) problem('an ed25519 seed is 32 bytes');
    this.#seed = Uint8Array.from(seed);
    this.public = new PublicKey(ed25519.getPublicKey(this.#seed), comment);
  }

  static generate(comment = '') {
    return new Identity(randomBytes(32), comment);
  }

  static fromSeed(seed, comment = '') {
    return new Identity(seed, comment);
  }

  /** The seed as a non-extractable WebCrypto Ed25519 key, or null where the browser has no Ed25519. */
  #webCryptoKey() {
    if (this.#webKey === undefined) {
      const subtle = globalThis.crypto?.subtle;
      this.#webKey = !subtle ? Promise.resolve(null)
        : subtle.importKey('pkcs8', concat(PKCS8_ED25519, this.#seed), { name: 'Ed25519' }, false, ['sign'])
          .catch(() => null);
    }
    return this.#webKey;
  }

  /** Which implementation signs: "webcrypto" (the browser's own) or "noble" (@noble/curves). */
  async signer() {
    return (await this.#webCryptoKey()) ? 'webcrypto' : 'noble';
  }

  /** A raw Ed25519 signature of `message` (64 bytes). */
  async signRaw(message, { webCrypto = true } = {}) {
    const key = webCrypto ? await this.#webCryptoKey() : null;
    if (key) return new Uint8Array(await globalThis.crypto.subtle.sign({ name: 'Ed25519' }, key, message));
    return ed25519.sign(message, this.#seed);
  }

  /** An SSHSIG signature blob of `message` (binary; armorSignature for ssh-keygen's text form). */
  async sign(message, namespace = SIGNATURE_NAMESPACE, options = {}) {
    const signature = await this.signRaw(sshsigSignedData(namespace, message), options);
    return sshsigBlob(this.public.wire, namespace, signature);
  }

  /** A copy of the 32-byte seed, for keystore.js to import into non-extractable WebCrypto keys. */
  seedCopy() {
    return Uint8Array.from(this.#seed);
  }

  /** The X25519 private scalar age derives from an ed25519 key (before clamping). */
  x25519Scalar() {
    return sha512(this.#seed).slice(0, 32);
  }

  /** An OpenSSH private key file (text), protected by `passphrase` with the bcrypt KDF and aes256-ctr as
   * ssh-keygen writes it, or unprotected when the passphrase is empty. */
  toOpenSSH(passphrase, { rounds = DEFAULT_KDF_ROUNDS, comment = this.public.comment } = {}) {
    const secret = passphraseBytes(passphrase);
    const check = randomBytes(4);
    let section = concat(check, check, sshString(KEY_TYPE), sshString(this.public.raw),
      sshString(concat(this.#seed, this.public.raw)), sshString(comment));
    const block = secret ? 16 : 8;
    const padding = Uint8Array.from({ length: (block - (section.length % block)) % block }, (_, i) => i + 1);
    section = concat(section, padding);
    let cipher = 'none';
    let kdf = 'none';
    let options = new Uint8Array(0);
    if (secret) {
      if (!Number.isInteger(rounds) || rounds < 1 || rounds > MAX_KDF_ROUNDS) problem(`bcrypt rounds must be 1 to ${MAX_KDF_ROUNDS}`);
      const salt = randomBytes(16);
      const keyIv = bcryptKdf(secret, salt, 48, rounds);
      section = ctr(keyIv.subarray(0, 32), keyIv.subarray(32, 48)).encrypt(section);
      [cipher, kdf, options] = ['aes256-ctr', 'bcrypt', concat(sshString(salt), uint32(rounds))];
    }
    const body = b64(concat(MAGIC, sshString(cipher), sshString(kdf), sshString(options), uint32(1),
      sshString(this.public.wire), sshString(section)));
    const lines = [];
    for (let i = 0; i < body.length; i += 70) lines.push(body.slice(i, i + 70));
    return `${PEM[0]}\n${lines.join('\n')}\n${PEM[1]}\n`;
  }

  /** Read an OpenSSH private key file's text (or bytes) with its passphrase (null if it has none); a
   * PbemCryptoError names the problem: NoPassphrase, WrongPassphrase, or KeyProblem. */
  static fromOpenSSH(data, passphrase = null, name = 'the key') {
    const text = typeof data === 'string' ? data : new TextDecoder('latin1').decode(data);
    if (text.length > MAX_PRIVATE) problem(`${name} is over ${MAX_PRIVATE} bytes: not an OpenSSH private key`);
    const unreadable = () => problem(`${name} is not a readable OpenSSH private key`);
    const start = text.indexOf(PEM[0]);
    const end = start >= 0 ? text.indexOf(PEM[1], start + PEM[0].length) : -1;
    if (end < 0) unreadable();
    let cipher, kdf, options, publicWire, section, outer;
    try {
      outer = new Wire(unb64(text.slice(start + PEM[0].length, end).replace(/\s+/g, '')));
      if (!equal(outer.take(MAGIC.length), MAGIC)) unreadable();
      [cipher, kdf, options] = [fromUtf8Safe(outer.sshString()), fromUtf8Safe(outer.sshString()), outer.sshString()];
      if (outer.uint32() !== 1) problem(`${name} holds more than one key`);
      [publicWire, section] = [outer.sshString(), outer.sshString()];
      outer.end();
    } catch (error) {
      if (error instanceof PbemCryptoError) throw error;
      unreadable();
    }
    const secret = passphraseBytes(passphrase);
    const encrypted = cipher !== 'none';
    if (encrypted) {
      if (!(cipher in CIPHERS)) problem(`${name} is encrypted with ${cipher}, which pbem's web client does not read (ssh-keygen -p -Z aes256-ctr rewrites it)`);
      if (kdf !== 'bcrypt') unreadable();
      if (!secret) throw new PbemCryptoError('NoPassphrase', `${name} is protected by a passphrase`);
      let salt, rounds;
      try {
        const kdfOptions = new Wire(options);
        [salt, rounds] = [kdfOptions.sshString(), kdfOptions.uint32()];
        kdfOptions.end();
      } catch {
        unreadable();
      }
      if (rounds > MAX_KDF_ROUNDS) {
        problem(`${name} asks for ${rounds} rounds of its passphrase's KDF, over the ${MAX_KDF_ROUNDS} pbem allows (ssh-keygen makes 16; -a sets more)`);
      }
      const [keyLength, block, mode] = CIPHERS[cipher];
      if (rounds < 1 || section.length % block !== 0) unreadable();
      const keyIv = bcryptKdf(secret, salt, keyLength + 16, rounds);
      const decipher = mode(keyIv.subarray(0, keyLength), keyIv.subarray(keyLength), mode === cbc ? { disablePadding: true } : undefined);
      section = decipher.decrypt(section);
    } else {
      if (kdf !== 'none' || options.length) unreadable();
      if (secret) problem(`${name} is not protected by a passphrase, but one was given`);
    }
    const inner = new Wire(section);
    let seed, comment;
    try {
      const [check1, check2] = [inner.uint32(), inner.uint32()];
      if (check1 !== check2) {
        if (encrypted) throw new PbemCryptoError('WrongPassphrase', `wrong passphrase for ${name}`);
        unreadable();
      }
      const kind = fromUtf8Safe(inner.sshString());
      if (kind !== KEY_TYPE) problem(`${name} is not an ed25519 key (pbem uses ssh-ed25519 keys only)`);
      const [raw, pair] = [inner.sshString(), inner.sshString()];
      comment = fromUtf8Safe(inner.sshString()) ?? '';
      const padding = inner.take(section.length - inner.at);
      if (raw.length !== 32 || pair.length !== 64 || !equal(pair.subarray(32), raw) || !equal(publicWire, concat(sshString(KEY_TYPE), sshString(raw)))
          || !padding.every((b, i) => b === i + 1)) unreadable();
      seed = pair.slice(0, 32);
      if (!equal(ed25519.getPublicKey(seed), raw)) unreadable();
    } catch (error) {
      if (error instanceof PbemCryptoError) throw error;
      unreadable();
    }
    return new Identity(seed, comment);
  }
}
