// X25519, the one slow step of sealing and opening, by @noble/curves' BigInt ladder or by the browser's own WebCrypto
// X25519 (Chromium 133, Firefox 130, Safari 17, Node 20 and later). WebCrypto is what opens with a key the browser
// keeps non-extractable (keystore.js), and it is faster: one seal to one key took 1.4 ms by @noble and 0.7 ms by
// WebCrypto in Chromium 156, 8 ms and 1.5 ms in Node 20 (a loaded 2-core machine); an opening 1.3 and 0.35 ms in
// Chromium. WebCrypto is asynchronous, so age.js writes sealing and opening once, as generators that yield each
// exchange, and drives them either way: runSync by @noble/curves, runAsync by WebCrypto where the browser has
// X25519 (else by @noble/curves). A scalar is 32 bytes, or a non-extractable X25519 CryptoKey, which only
// WebCrypto can use.

import { x25519 } from './vendor/noble-curves/ed25519.js';
import { PbemCryptoError, concat, equal, fromHex, randomBytes, toHex } from './bytes.js';

const PKCS8_X25519 = fromHex('302e020100300506032b656e04220420'); // a PKCS #8 X25519 key, before its scalar
const ALGORITHM = { name: 'X25519' };

export const BASE_U = Uint8Array.from({ length: 32 }, (_, i) => (i === 0 ? 9 : 0));

function degenerate() {
  throw new PbemCryptoError('SealError', 'sealed blob: degenerate key share');
}

export function isCryptoKey(value) {
  return typeof CryptoKey !== 'undefined' && value instanceof CryptoKey;
}

/** The exchange by @noble/curves: X25519(scalar, u), clamped as RFC 7748 says; an all-zero result refused. */
export function nobleExchange(scalar, u) {
  if (isCryptoKey(scalar)) {
    throw new PbemCryptoError('UsageError', 'a key the browser keeps opens only asynchronously (unsealAsync)');
  }
  try {
    return x25519.scalarMult(scalar, u);
  } catch {
    return degenerate();
  }
}

/** A 32-byte X25519 scalar as a WebCrypto key for deriveBits (non-extractable unless asked). */
export function importX25519Scalar(scalar, extractable = false) {
  return globalThis.crypto.subtle.importKey('pkcs8', concat(PKCS8_X25519, scalar), ALGORITHM, extractable, ['deriveBits']);
}

const publicScalars = new Map(); // imported once: age's ssh-ed25519 tweak, which depends on the recipient's public key alone

async function webScalar(scalar, isPublic) {
  if (isCryptoKey(scalar)) return scalar;
  if (!isPublic) return importX25519Scalar(scalar);
  const hex = toHex(scalar);
  if (!publicScalars.has(hex)) {
    if (publicScalars.size >= 64) publicScalars.clear();
    publicScalars.set(hex, await importX25519Scalar(scalar));
  }
  return publicScalars.get(hex);
}

async function webExchange(scalar, u, isPublic = false) {
  const subtle = globalThis.crypto.subtle;
  const key = await webScalar(scalar, isPublic);
  const point = await subtle.importKey('raw', u, ALGORITHM, false, []);
  let bits;
  try {
    bits = await subtle.deriveBits({ name: 'X25519', public: point }, key, 256);
  } catch {
    degenerate();
  }
  return new Uint8Array(bits);
}

async function webKeyPair() {
  const subtle = globalThis.crypto.subtle;
  const { privateKey, publicKey } = await subtle.generateKey(ALGORITHM, false, ['deriveBits']);
  return [privateKey, new Uint8Array(await subtle.exportKey('raw', publicKey))];
}

function nobleKeyPair() {
  const secret = randomBytes(32);
  return [secret, x25519.scalarMult(secret, BASE_U)];
}

let native;

/** Whether this browser's WebCrypto does X25519 (and agrees with @noble/curves on a known exchange); asked once. */
export function hasWebCryptoX25519() {
  native ??= (async () => {
    if (!globalThis.crypto?.subtle) return false; // WebCrypto exists only in a secure context
    try {
      const scalar = Uint8Array.from({ length: 32 }, (_, i) => i + 1);
      return equal(await webExchange(scalar, BASE_U), x25519.scalarMult(scalar, BASE_U));
    } catch {
      return false;
    }
  })();
  return native;
}

// What a sealing or opening generator yields, and gets back:
//   ['pair']                         a fresh ephemeral key: [its secret (bytes or CryptoKey), its public u]
//   ['exchange', scalar, u, public]  X25519(scalar, u); `public` when the scalar is derived from public data
const NOBLE = { pair: nobleKeyPair, exchange: nobleExchange };
const WEB = { pair: webKeyPair, exchange: webExchange };

/** Run a sealing or opening generator to its end, each exchange by @noble/curves. */
export function runSync(steps) {
  let step = steps.next();
  while (!step.done) {
    const [kind, ...args] = step.value;
    step = steps.next(NOBLE[kind](...args));
  }
  return step.value;
}

/** Run a sealing or opening generator to its end, each exchange by WebCrypto where the browser has X25519
 * (unless `webCrypto` is false), else by @noble/curves. */
export async function runAsync(steps, { webCrypto = true } = {}) {
  const by = webCrypto && (await hasWebCryptoX25519()) ? WEB : NOBLE;
  let step = steps.next();
  while (!step.done) {
    const [kind, ...args] = step.value;
    step = steps.next(await by[kind](...args));
  }
  return step.value;
}
