// The web client's crypto, one import: canonical JSON (RFC 8785), ssh-ed25519 keys and their OpenSSH files,
// SSHSIG signatures, age sealing, commitments and signed entries, each the byte-for-byte twin of pbem's Python
// (pbem/record/canonical.py, pbem/crypto/, pbem/protocol/commitments.py, pbem/protocol/session.py).
// A player's key never leaves the page: nothing here sends anything anywhere. keystore.js keeps it in IndexedDB.

export { PbemCryptoError, b64, concat, equal, fromHex, fromUtf8, randomBytes, toHex, unb64, utf8 } from './bytes.js';
export { canonical, canonicalize } from './canonical.js';
export { DEFAULT_KDF_ROUNDS, Identity, MAX_KDF_ROUNDS, PublicKey, publicKeyFlaw } from './keys.js';
export {
  KEY_TYPE, SIGNATURE_NAMESPACE, armorSignature, sshsigSignedData, unarmorSignature, verifySignature,
} from './sshsig.js';
export {
  X25519Identity, X25519Recipient, addressedTo, ed25519ToX25519Public, recipientCount, recipientNames, seal, sealAsync,
  unseal, unsealAsync,
} from './age.js';
export { hasWebCryptoX25519 } from './x25519.js';
export {
  COMMITMENT_DOMAIN, SEED, commit, commitOwn, commitOwnAsync, newSalt, openSealed, openSealedAsync, openValue,
  openValueAsync, sealValue, sealValueAsync,
} from './commitments.js';
export { coreId, entryBody, genesisFlaw, payload, payloadHash, signEntry } from './entries.js';
export {
  BrowserKey, changePassphrase, forgetKey, generateKey, importKeyFile, keepKey, keptKeys, keyRecord, loadKey,
  signsAsItsPublicKey,
} from './keystore.js';
