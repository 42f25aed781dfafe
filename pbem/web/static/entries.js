// Entries as pbem/protocol/session.py signs them and pbem/record/models.py hashes them: the signed part of an
// entry is the RFC 8785 form of the entry without its signature; the signature is SSHSIG (namespace "pbem")
// in standard base64.

import { sha256 } from './vendor/noble-hashes/sha2.js';
import { b64, toHex } from './bytes.js';
import { canonical } from './canonical.js';
import { PublicKey } from './keys.js';

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

/** Why a page must not sign into the game the judge reports (null: it may). Every entry names its game by
 * game_id, the hash of the genesis core with every player's key in it, so the page signs only into a game
 * whose signed genesis it has seen hold this seat's key (`key`) and the referee key it seals to: a judge that
 * put another key in the seat's place, or told the page another referee key, is refused before any signing.
 * `reported`: what the judge's view says (gameId, genesisHash, referee, refereeKey). */
export function genesisFlaw(genesis, reported, seat, key) {
  const notYours = `The judge's game does not hold your key for ${seat}: do not play it (nothing was signed or sent).`;
  const notReferee = "The judge's game does not hold the referee's key this page would seal your secrets to: do not play it "
    + '(nothing was signed or sent).';
  try {
    if (!genesis || genesis.game_id !== reported.gameId || coreId(genesis) !== reported.gameId
      || payloadHash(genesis) !== reported.genesisHash) return notYours;
    const player = (genesis.players || []).filter((p) => p.name === seat);
    if (player.length !== 1 || !PublicKey.parse(player[0].key).sameKey(key)) return notYours;
    const referee = genesis.dealer && genesis.dealer.referee;
    if (!referee || referee.name !== reported.referee || !reported.refereeKey
      || !PublicKey.parse(referee.key).sameKey(PublicKey.parse(reported.refereeKey))) return notReferee;
  } catch {
    return notYours; // a genesis or a key line that does not even parse holds nobody's key
  }
  return null;
}
