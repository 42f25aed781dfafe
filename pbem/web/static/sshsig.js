// Signatures in the SSHSIG format, as pbem/crypto/sshsig.py makes and checks them: what `ssh-keygen -Y sign`
// makes and `ssh-keygen -Y verify` checks (namespace "pbem", the message hashed with SHA-512).

import { ed25519 } from './vendor/noble-curves/ed25519.js';
import { sha256, sha512 } from './vendor/noble-hashes/sha2.js';
import { PbemCryptoError, Wire, b64, concat, equal, fromUtf8, sshString, uint32, unb64, utf8 } from './bytes.js';

export const SIGNATURE_NAMESPACE = 'pbem';
export const KEY_TYPE = 'ssh-ed25519';
const MAGIC = utf8('SSHSIG');

/** What an SSHSIG signature's Ed25519 signature is over. */
export function sshsigSignedData(namespace, message) {
  return concat(MAGIC, sshString(namespace), sshString(''), sshString('sha512'), sshString(sha512(message)));
}

/** The SSHSIG blob of a raw Ed25519 signature by the key whose wire form is `publicWire`. */
export function sshsigBlob(publicWire, namespace, signature) {
  return concat(MAGIC, uint32(1), sshString(publicWire), sshString(namespace), sshString(''), sshString('sha512'),
    sshString(concat(sshString(KEY_TYPE), sshString(signature))));
}

function invalid(message) {
  throw new PbemCryptoError('SignatureInvalid', message);
}

/** Check an SSHSIG blob over `message` by `publicKey` ({raw, wire}) in `namespace`, as pbem's verifier does:
 * a PbemCryptoError of kind SignatureInvalid if it is not good. RFC 8032's strict decoding (no zip215). */
export function verifySignature(publicKey, message, blob, namespace = SIGNATURE_NAMESPACE) {
  let signer, ns, reserved, hashAlg, kind, raw;
  try {
    const wire = new Wire(blob);
    if (!equal(wire.take(6), MAGIC) || wire.uint32() !== 1) invalid('not an SSHSIG v1 signature');
    signer = wire.sshString();
    [ns, reserved, hashAlg] = [wire.sshString(), wire.sshString(), wire.sshString()];
    const inner = new Wire(wire.sshString());
    wire.end();
    [kind, raw] = [inner.sshString(), inner.sshString()];
    inner.end();
  } catch (error) {
    if (error instanceof PbemCryptoError) throw error;
    invalid('malformed SSHSIG signature');
  }
  if (!equal(signer, publicKey.wire)) invalid('signed by a different key');
  if (!equal(ns, utf8(namespace))) invalid(`signature namespace is '${fromUtf8Lenient(ns)}', not '${namespace}'`);
  const alg = fromUtf8Lenient(hashAlg);
  if ((alg !== 'sha512' && alg !== 'sha256') || fromUtf8Lenient(kind) !== KEY_TYPE || raw.length !== 64) {
    invalid('unsupported signature type');
  }
  const digest = alg === 'sha512' ? sha512(message) : sha256(message);
  const signed = concat(MAGIC, sshString(ns), sshString(reserved), sshString(hashAlg), sshString(digest));
  let good = false;
  try {
    good = ed25519.verify(raw, signed, publicKey.raw, { zip215: false });
  } catch {
    good = false;
  }
  if (!good) invalid('signature does not match');
}

function fromUtf8Lenient(bytes) {
  try {
    return fromUtf8(bytes);
  } catch {
    return '?';
  }
}

/** The `-----BEGIN SSH SIGNATURE-----` text that ssh-keygen reads and writes. */
export function armorSignature(blob) {
  const body = b64(blob);
  const lines = [];
  for (let i = 0; i < body.length; i += 70) lines.push(body.slice(i, i + 70));
  return `-----BEGIN SSH SIGNATURE-----\n${lines.join('\n')}\n-----END SSH SIGNATURE-----\n`;
}

export function unarmorSignature(text) {
  const lines = text.trim().split(/\r?\n/).map((l) => l.trim());
  if (lines.length < 2 || lines[0] !== '-----BEGIN SSH SIGNATURE-----' || lines.at(-1) !== '-----END SSH SIGNATURE-----') {
    throw new PbemCryptoError('SignatureInvalid', 'not an armored SSH signature');
  }
  return unb64(lines.slice(1, -1).join(''));
}
