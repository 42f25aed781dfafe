// Bytes: UTF-8, hex, base64 (strict, as pbem reads it), the SSH wire format, randomness; and the error every
// module of the web client throws. The twin of pbem/crypto/wire.py and the base64 of pbem/protocol/commitments.py.

/** An error of the web client's crypto: `kind` names its Python twin (KeyProblem, NoPassphrase, WrongPassphrase,
 * SealError, NotForYou, SignatureInvalid, RecordError). */
export class PbemCryptoError extends Error {
  constructor(kind, message) {
    super(message);
    this.name = 'PbemCryptoError';
    this.kind = kind;
  }
}

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

export function utf8(text) {
  return encoder.encode(text);
}

/** UTF-8 bytes to text; a RecordError if they are not UTF-8. */
export function fromUtf8(bytes) {
  try {
    return decoder.decode(bytes);
  } catch {
    throw new PbemCryptoError('RecordError', 'not UTF-8 text');
  }
}

export function concat(...parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** Constant-time equality of two byte strings (of public lengths). */
export function equal(a, b) {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i] ^ b[i];
  return diff === 0;
}

export function toHex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export function fromHex(text) {
  if (typeof text !== 'string' || !/^(?:[0-9a-fA-F]{2})*$/.test(text)) {
    throw new PbemCryptoError('RecordError', 'not hexadecimal');
  }
  const out = new Uint8Array(text.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(text.slice(2 * i, 2 * i + 2), 16);
  return out;
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const INDEX = Object.fromEntries(Array.from(ALPHABET, (c, i) => [c, i]));

/** Standard base64 with padding (what the record holds). */
export function b64(bytes) {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i] << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    out += ALPHABET[(n >> 18) & 63] + ALPHABET[(n >> 12) & 63];
    out += i + 1 < bytes.length ? ALPHABET[(n >> 6) & 63] : '=';
    out += i + 2 < bytes.length ? ALPHABET[n & 63] : '=';
  }
  return out;
}

/** Base64 without padding (age's). */
export function b64raw(bytes) {
  return b64(bytes).replace(/=+$/, '');
}

function decode64(text) {
  const out = new Uint8Array(Math.floor((text.length * 3) / 4));
  let bits = 0;
  let value = 0;
  let at = 0;
  for (const c of text) {
    const v = INDEX[c];
    if (v === undefined) return null;
    value = (value << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[at++] = (value >> bits) & 0xff;
    }
  }
  return out.subarray(0, at);
}

/** Strict base64: one encoding per byte string, as pbem.protocol.commitments.unb64 (a SealError if not). */
export function unb64(text) {
  if (typeof text !== 'string' || text.length % 4 !== 0) throw new PbemCryptoError('SealError', 'bad base64');
  const body = text.replace(/={1,2}$/, '');
  const data = decode64(body);
  if (data === null) throw new PbemCryptoError('SealError', 'bad base64');
  if (b64(data) !== text) throw new PbemCryptoError('SealError', 'non-canonical base64');
  return data;
}

/** age's base64: standard alphabet, no padding, canonical. */
export function unb64raw(text) {
  const data = typeof text === 'string' && !text.includes('=') ? decode64(text) : null;
  if (data === null || text.length % 4 === 1) throw new PbemCryptoError('SealError', 'sealed blob: bad base64');
  if (b64raw(data) !== text) throw new PbemCryptoError('SealError', 'sealed blob: non-canonical base64');
  return data;
}

export function uint32(n) {
  return new Uint8Array([(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff]);
}

export function sshString(data) {
  const bytes = typeof data === 'string' ? utf8(data) : data;
  return concat(uint32(bytes.length), bytes);
}

/** Reads SSH wire-format fields; any shortfall is an Error('truncated'). */
export class Wire {
  constructor(data) {
    this.data = data;
    this.at = 0;
  }

  take(n) {
    if (this.at + n > this.data.length) throw new Error('truncated');
    const out = this.data.subarray(this.at, this.at + n);
    this.at += n;
    return out;
  }

  uint32() {
    const b = this.take(4);
    return ((b[0] << 24) | (b[1] << 16) | (b[2] << 8) | b[3]) >>> 0;
  }

  sshString() {
    return this.take(this.uint32());
  }

  end() {
    if (this.at !== this.data.length) throw new Error('trailing bytes');
  }
}

export function randomBytes(n) {
  const out = new Uint8Array(n);
  globalThis.crypto.getRandomValues(out);
  return out;
}
