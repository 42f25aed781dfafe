// What the record commits to and seals for a player's own secrets, as pbem/protocol/commitments.py and
// pbem/protocol/session.py make them: a salted SHA-256 commitment over a domain-separated canonical object
// bound to the game (the genesis hash), its owner (their public key in hex) and the slot; and the opening
// (value and salt) sealed, as canonical JSON naming the game and the slot, to exactly its readers.

import { sha256 } from './vendor/noble-hashes/sha2.js';
import { seal, sealAsync, unseal, unsealAsync } from './age.js';
import { PbemCryptoError, b64, fromUtf8, randomBytes, toHex, unb64 } from './bytes.js';
import { canonical } from './canonical.js';

export const COMMITMENT_DOMAIN = 'pbem/commitment/v2';
export const SEED = 'seed';

/** SHA-256 (hex) over {domain, game: binding, owner, slot, value, salt}, as pbem.protocol.commitments.commit. */
export function commit(binding, owner, slot, value, salt) {
  return toHex(sha256(canonical({ domain: COMMITMENT_DOMAIN, game: binding, owner, slot, value, salt })));
}

/** A fresh salt: 32 random bytes in hex. */
export function newSalt() {
  return toHex(randomBytes(32));
}

function openingBytes(genesisHash, key, value, salt) {
  return canonical({ game: genesisHash, key, value, salt });
}

/** The sealed opening of a hidden item (base64 of an age file): {game, key, value, salt} to `readers`
 * (PublicKeys), as Session._sealed_value. */
export function sealValue(genesisHash, key, value, salt, readers) {
  return b64(seal(openingBytes(genesisHash, key, value, salt), readers));
}

/** sealValue through WebCrypto's X25519 where the browser has it (sealAsync). */
export async function sealValueAsync(genesisHash, key, value, salt, readers, options = {}) {
  return b64(await sealAsync(openingBytes(genesisHash, key, value, salt), readers, options));
}

function cannotOpen(what) {
  return new PbemCryptoError('SealError', `cannot open ${what} with this key for this game`);
}

function boundTo(plaintext, binding) {
  const secret = JSON.parse(fromUtf8(plaintext));
  if (secret === null || typeof secret !== 'object' || Array.isArray(secret) || secret.game !== binding) {
    throw new Error('bound to another game');
  }
  return secret;
}

/** A sealed JSON object opened with `opener` (an Identity, or an X25519Identity) and checked to name `binding`
 * (the game), as Session._unseal. */
export function openSealed(blob, opener, binding, what = 'the sealed value') {
  try {
    return boundTo(unseal(unb64(blob), opener), binding);
  } catch {
    throw cannotOpen(what);
  }
}

/** openSealed through unsealAsync: WebCrypto's X25519, and the opener may be a key the browser keeps. */
export async function openSealedAsync(blob, opener, binding, what = 'the sealed value', options = {}) {
  try {
    return boundTo(await unsealAsync(unb64(blob), opener, options), binding);
  } catch {
    throw cannotOpen(what);
  }
}

function matching(item, opening) {
  const { value, salt } = opening;
  if (opening.key !== item.key || typeof salt !== 'string' || !(typeof value === 'string' || Number.isInteger(value))
      || commit(item.binding, item.owner, item.committedAs ?? item.key, value, salt) !== item.commitment) {
    throw new PbemCryptoError('SealError', `the sealed value of ${item.key} does not match its commitment`);
  }
  return { value, salt };
}

/** An item's value and salt from its sealed value, which must name this game and this key and match the
 * item's commitment, as Session._open_item: `item` is {sealed, key, commitment, binding, owner, committedAs}
 * (committedAs: the key it was committed under, when a card dealt from the stock was; else `key`). */
export function openValue(item, identity, genesisHash) {
  return matching(item, openSealed(item.sealed, identity, genesisHash, `the sealed value of ${item.key}`));
}

/** openValue through openSealedAsync. */
export async function openValueAsync(item, identity, genesisHash, options = {}) {
  return matching(item, await openSealedAsync(item.sealed, identity, genesisHash, `the sealed value of ${item.key}`, options));
}

function* owned(genesisHash, owner, secrets) {
  for (const [key, value] of secrets) {
    if (value === null || value === undefined) throw new PbemCryptoError('UsageError', `say which value to commit for ${key}`);
    const salt = newSalt();
    yield [key, value, salt, commit(genesisHash, toHex(owner.raw), key, value, salt)];
  }
}

/** The commitments and sealed openings of the secrets a player commits to in an entry (a Sarcophagus coin),
 * as Session.entry_for makes them: `secrets` is [[key, value], ...], `owner` the player's PublicKey, `readers`
 * whom each is sealed to (the player, and the referee in referee mode). Returns {commitments, sealed, salts}. */
export function commitOwn({ genesisHash, owner, readers, secrets }) {
  const [commitments, sealed, salts] = [{}, {}, {}];
  for (const [key, value, salt, commitment] of owned(genesisHash, owner, secrets)) {
    [commitments[key], salts[key]] = [commitment, salt];
    sealed[key] = sealValue(genesisHash, key, value, salt, readers);
  }
  return { commitments, sealed, salts };
}

/** commitOwn through sealValueAsync. */
export async function commitOwnAsync({ genesisHash, owner, readers, secrets }, options = {}) {
  const [commitments, sealed, salts] = [{}, {}, {}];
  for (const [key, value, salt, commitment] of owned(genesisHash, owner, secrets)) {
    [commitments[key], salts[key]] = [commitment, salt];
    sealed[key] = await sealValueAsync(genesisHash, key, value, salt, readers, options);
  }
  return { commitments, sealed, salts };
}
