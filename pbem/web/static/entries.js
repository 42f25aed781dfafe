// Entries as pbem/protocol/session.py signs them and pbem/record/models.py hashes them: the signed part of an
// entry is the RFC 8785 form of the entry without its signature; the signature is SSHSIG (namespace "pbem")
// in standard base64.

import { sha256 } from './vendor/noble-hashes/sha2.js';
import { b64, toHex } from './bytes.js';
import { canonical } from './canonical.js';

function present(value) {
  if (value === null || value === undefined || value === '' || value === 0 || value === false) return false;
  return !(typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0)
    && !(Array.isArray(value) && value.length === 0);
}

/** The body Session.sign signs: game_id, seq, prev, author, the non-empty attachments (action, commitments,
 * sealed, openings, contribution), the time, and a note if any. */
export function entryBody({ game_id, seq, prev, author, time, note, ...attachments }) {
  const body = { game_id, seq, prev, author };
  for (const [key, value] of Object.entries(attachments)) if (present(value)) body[key] = value;
  body.time = time;
  if (note) body.note = note;
  return body;
}

/** A signed entry: the body (entryBody) and its signature by `identity`. */
export async function signEntry(identity, fields, options = {}) {
  const body = entryBody(fields);
  return { ...body, signature: b64(await identity.sign(canonical(body), undefined, options)) };
}

/** The signed part of a genesis or an entry: everything but `signature` and absent (null) fields. */
export function payload(signed) {
  return Object.fromEntries(Object.entries(signed).filter(([k, v]) => k !== 'signature' && v !== null && v !== undefined));
}

/** What the next entry's `prev` holds (the genesis's: the genesis hash items are bound to). */
export function payloadHash(signed) {
  return toHex(sha256(canonical(payload(signed))));
}

/** The game id a genesis must carry: a hash of everything in it but the id, the sealed blobs and the signature. */
export function coreId(genesis) {
  const core = Object.fromEntries(Object.entries(payload(genesis)).filter(([k]) => !['game_id', 'sealed'].includes(k)));
  return toHex(sha256(canonical(core))).slice(0, 32);
}
