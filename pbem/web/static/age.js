// Sealing in the age v1 format with `ssh-ed25519` and `X25519` recipient stanzas, as pbem/crypto/age.py seals
// and opens: what `age -d -i KEY` opens. A player's values are sealed to their ssh-ed25519 key (and the
// referee's); a table-mode game's dealer secrets to its X25519 table key.
//
// The ssh-ed25519 stanza (age's agessh): the recipient's X25519 point is its Edwards point's Montgomery
// u = (1 + y) / (1 - y); the identity's scalar is the first half of SHA-512 of its seed; the shared secret is
// tweaked by X25519 with HKDF-SHA256(salt = the key's SSH wire form, info = the label).

import { x25519 } from './vendor/noble-curves/ed25519.js';
import { chacha20poly1305 } from './vendor/noble-ciphers/chacha.js';
import { hkdf } from './vendor/noble-hashes/hkdf.js';
import { hmac } from './vendor/noble-hashes/hmac.js';
import { sha256 } from './vendor/noble-hashes/sha2.js';
import { PbemCryptoError, b64raw, concat, equal, randomBytes, unb64raw, utf8 } from './bytes.js';
import { PublicKey } from './keys.js';
import { runAsync, runSync } from './x25519.js';

const INTRO = utf8('age-encryption.org/v1\n');
const SSH_LABEL = utf8('age-encryption.org/v1/ssh-ed25519');
const X25519_LABEL = utf8('age-encryption.org/v1/X25519');
const CHUNK = 64 * 1024;
const P = 2n ** 255n - 19n;
const ZERO_NONCE = new Uint8Array(12);

function sealError(message) {
  throw new PbemCryptoError('SealError', message);
}

function derive(ikm, salt, info, length = 32) {
  return hkdf(sha256, ikm, salt.length ? salt : undefined, info, length);
}

function modPow(base, exponent) {
  let result = 1n;
  let b = ((base % P) + P) % P;
  for (let e = exponent; e > 0n; e >>= 1n) {
    if (e & 1n) result = (result * b) % P;
    b = (b * b) % P;
  }
  return result;
}

const montgomery = new Map();

/** The Montgomery u-coordinate of an Edwards point, u = (1 + y) / (1 - y) (RFC 7748), as age.py computes it. */
export function ed25519ToX25519Public(raw) {
  const known = montgomery.get(raw.join());
  if (known) return known;
  let y = 0n;
  for (let i = 31; i >= 0; i--) y = (y << 8n) | BigInt(raw[i]);
  y &= (1n << 255n) - 1n;
  if (y >= P || y === 1n) throw new PbemCryptoError('KeyProblem', 'the ed25519 public key cannot be used for encryption');
  let u = ((1n + y) * modPow(1n - y, P - 2n)) % P;
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i++, u >>= 8n) out[i] = Number(u & 0xffn);
  montgomery.set(raw.join(), out);
  return out;
}

/** A native age X25519 recipient: the table key of a table-mode game. */
export class X25519Recipient {
  constructor(publicBytes) {
    if (publicBytes.length !== 32) sealError('an X25519 public key is 32 bytes');
    this.public = Uint8Array.from(publicBytes);
  }
}

/** A native age X25519 identity (32 random bytes). */
export class X25519Identity {
  constructor(secret) {
    if (!(secret instanceof Uint8Array) || secret.length !== 32) sealError('an X25519 secret is 32 bytes');
    this.secret = Uint8Array.from(secret);
    this.recipient = new X25519Recipient(x25519.getPublicKey(this.secret));
  }

  static generate() {
    return new X25519Identity(randomBytes(32));
  }
}

function sshTag(publicKey) {
  return b64raw(sha256(publicKey.wire).subarray(0, 4));
}

function sshTweak(publicKey) {
  return derive(new Uint8Array(0), publicKey.wire, SSH_LABEL);
}

function wrapLines(text) {
  const lines = [];
  for (let i = 0; i < text.length; i += 64) lines.push(text.slice(i, i + 64));
  if (!lines.length || lines.at(-1).length === 64) lines.push('');
  return `${lines.join('\n')}\n`;
}

function* wrap(fileKey, recipient) {
  const [ephemeral, share] = yield ['pair'];
  let their, secret, label, args;
  if (recipient instanceof PublicKey) {
    their = ed25519ToX25519Public(recipient.raw);
    secret = yield ['exchange', sshTweak(recipient), yield ['exchange', ephemeral, their], true];
    [label, args] = [SSH_LABEL, ['ssh-ed25519', sshTag(recipient), b64raw(share)]];
  } else if (recipient instanceof X25519Recipient) {
    their = recipient.public;
    secret = yield ['exchange', ephemeral, their];
    [label, args] = [X25519_LABEL, ['X25519', b64raw(share)]];
  } else {
    sealError('a recipient is a PublicKey or an X25519Recipient');
  }
  const body = chacha20poly1305(derive(secret, concat(share, their), label), ZERO_NONCE).encrypt(fileKey);
  return `-> ${args.join(' ')}\n${wrapLines(b64raw(body))}`;
}

function counterNonce(counter, last) {
  const nonce = new Uint8Array(12);
  let n = counter;
  for (let i = 10; i >= 0 && n > 0; i--, n = Math.floor(n / 256)) nonce[i] = n % 256;
  nonce[11] = last ? 1 : 0;
  return nonce;
}

function* sealing(plaintext, recipients) {
  if (!recipients.length) sealError('nobody to seal to');
  const fileKey = randomBytes(16);
  const stanzas = [];
  for (const recipient of recipients) stanzas.push(yield* wrap(fileKey, recipient));
  const header = concat(INTRO, utf8(stanzas.join('')), utf8('---'));
  const mac = hmac(sha256, derive(fileKey, new Uint8Array(0), utf8('header')), header);
  const nonce = randomBytes(16);
  const payloadKey = derive(fileKey, nonce, utf8('payload'));
  const count = Math.max(1, Math.ceil(plaintext.length / CHUNK));
  const chunks = [];
  for (let i = 0; i < count; i++) {
    const chunk = plaintext.subarray(i * CHUNK, (i + 1) * CHUNK);
    chunks.push(chacha20poly1305(payloadKey, counterNonce(i, i === count - 1)).encrypt(chunk));
  }
  return concat(header, utf8(` ${b64raw(mac)}\n`), nonce, ...chunks);
}

/** An age v1 file of `plaintext` (bytes) for PublicKey (ssh-ed25519) and X25519Recipient recipients. */
export function seal(plaintext, recipients) {
  return runSync(sealing(plaintext, recipients));
}

/** seal, each X25519 exchange by the browser's WebCrypto where it has X25519 (x25519.js: the figures). */
export function sealAsync(plaintext, recipients, options = {}) {
  return runAsync(sealing(plaintext, recipients), options);
}

function latin1(bytes) {
  let text = '';
  for (const b of bytes) text += String.fromCharCode(b);
  return text;
}

function indexOfNewline(blob, from) {
  for (let i = from; i < blob.length; i++) if (blob[i] === 10) return i;
  return -1;
}

/** (stanzas as {args, body}), the MACed header bytes, the MAC, the payload. */
function parseHeader(blob) {
  if (blob.length < INTRO.length || !equal(blob.subarray(0, INTRO.length), INTRO)) sealError('sealed blob: not an age v1 file');
  let at = INTRO.length;
  const stanzas = [];
  for (;;) {
    let end = indexOfNewline(blob, at);
    if (end < 0) sealError('sealed blob: truncated header');
    let line = latin1(blob.subarray(at, end));
    if (line.startsWith('--- ')) {
      const mac = unb64raw(line.slice(4));
      return { stanzas, header: blob.subarray(0, at + 3), mac, payload: blob.subarray(end + 1) };
    }
    if (!line.startsWith('-> ')) sealError('sealed blob: malformed header');
    const args = line.slice(3).split(' ');
    if (!args.every((a) => a.length)) sealError('sealed blob: malformed stanza');
    at = end + 1;
    let body = '';
    for (;;) {
      end = indexOfNewline(blob, at);
      if (end < 0) sealError('sealed blob: truncated stanza');
      line = latin1(blob.subarray(at, end));
      at = end + 1;
      if (line.length > 64) sealError('sealed blob: stanza line too long');
      body += line;
      if (line.length < 64) break;
    }
    stanzas.push({ args, body: unb64raw(body) });
  }
}

/** Whether an age file's header has an ssh-ed25519 stanza for this key (its 4-byte tag, a hint). */
export function addressedTo(blob, publicKey) {
  const tag = sshTag(publicKey);
  return parseHeader(blob).stanzas.some(({ args }) => args.length === 3 && args[0] === 'ssh-ed25519' && args[1] === tag);
}

/** How many recipient stanzas an age file's header has. */
export function recipientCount(blob) {
  return parseHeader(blob).stanzas.length;
}

/** Who an age file says it is sealed to, by name from `keys` ({name: PublicKey}), as age.py's recipients(). */
export function recipientNames(blob, keys) {
  const names = [];
  for (const { args } of parseHeader(blob).stanzas) {
    if (args[0] === 'X25519') names.push('the table key');
    else if (args[0] === 'ssh-ed25519' && args.length === 3) {
      const found = Object.entries(keys).filter(([, key]) => sshTag(key) === args[1]).map(([name]) => name);
      names.push(...(found.length ? found : ['an unknown key']));
    }
  }
  return names;
}

/** Whether `opener` opens ssh-ed25519 stanzas: an Identity, or a key the browser keeps (keystore.js), each with
 * its public key and its X25519 scalar (32 bytes, or a WebCrypto key). */
function isSshOpener(opener) {
  return opener?.public instanceof PublicKey && typeof opener.x25519Scalar === 'function';
}

function* unwrap(args, body, identity) {
  let share, ours, secret, label;
  if (isSshOpener(identity)) {
    if (args.length !== 3 || args[0] !== 'ssh-ed25519' || args[1] !== sshTag(identity.public)) return null;
    share = unb64raw(args[2]);
    if (share.length !== 32 || body.length !== 32) sealError('sealed blob: malformed stanza');
    ours = ed25519ToX25519Public(identity.public.raw);
    secret = yield ['exchange', sshTweak(identity.public), yield ['exchange', identity.x25519Scalar(), share], true];
    label = SSH_LABEL;
  } else if (identity instanceof X25519Identity) {
    if (args.length !== 2 || args[0] !== 'X25519') return null;
    share = unb64raw(args[1]);
    if (share.length !== 32 || body.length !== 32) sealError('sealed blob: malformed stanza');
    ours = identity.recipient.public;
    secret = yield ['exchange', identity.secret, share];
    label = X25519_LABEL;
  } else {
    sealError('an opener is an Identity or an X25519Identity');
  }
  try {
    return chacha20poly1305(derive(secret, concat(share, ours), label), ZERO_NONCE).decrypt(body);
  } catch {
    return null;
  }
}

function* opening(blob, identity) {
  const { stanzas, header, mac, payload } = parseHeader(blob);
  let fileKey = null;
  for (const { args, body } of stanzas) {
    fileKey = yield* unwrap(args, body, identity);
    if (fileKey !== null) break;
  }
  if (fileKey === null) throw new PbemCryptoError('NotForYou', 'this sealed blob is not for your key');
  if (!equal(mac, hmac(sha256, derive(fileKey, new Uint8Array(0), utf8('header')), header))) {
    sealError('sealed blob: header MAC does not match (tampered)');
  }
  if (payload.length < 32) sealError('sealed blob: truncated payload');
  const payloadKey = derive(fileKey, payload.subarray(0, 16), utf8('payload'));
  const cipher = (nonce) => chacha20poly1305(payloadKey, nonce);
  const out = [];
  let rest = payload.subarray(16);
  for (let counter = 0; ; counter++) {
    const chunk = rest.subarray(0, CHUNK + 16);
    rest = rest.subarray(CHUNK + 16);
    const last = rest.length === 0;
    try {
      out.push(cipher(counterNonce(counter, last)).decrypt(chunk));
    } catch {
      sealError('sealed blob: payload does not decrypt (tampered or truncated)');
    }
    if (last) {
      if (!out.at(-1).length && counter) sealError('sealed blob: empty last chunk');
      return concat(...out);
    }
  }
}

/** Open an age v1 file with an Identity (ssh-ed25519) or an X25519Identity; its plaintext bytes. */
export function unseal(blob, identity) {
  return runSync(opening(blob, identity));
}

/** unseal, each X25519 exchange by the browser's WebCrypto where it has X25519; the one way to open with a key
 * the browser keeps as a non-extractable CryptoKey (keystore.js). */
export function unsealAsync(blob, identity, options = {}) {
  return runAsync(opening(blob, identity), options);
}
