// A browser seat's key, kept in this browser's IndexedDB (pbem judge web): the OpenSSH private key file's
// text, encrypted with an AES-GCM key that WebCrypto made non-extractable, stored beside it (IndexedDB keeps a
// CryptoKey as it is: no script, this page's included, can read its bytes). pbem's sealing key is derived
// from the Ed25519 seed itself (keys.js), so the seed must be there to use; this is as far as a browser lets
// it be kept out of reach. Nothing here sends anything anywhere.

import { Identity, fromUtf8, utf8 } from './pbem-crypto.js';

const DB = 'pbem-web';
const STORE = 'seats';

function opened() {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE, { keyPath: 'id' });
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

function done(request) {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

async function inStore(mode, action) {
  const db = await opened();
  try {
    return await done(action(db.transaction(STORE, mode).objectStore(STORE)));
  } finally {
    db.close();
  }
}

function seatId(table, seat) {
  return `${location.origin}/${table}/${seat}`;
}

/** Keep `identity` as the key of `seat` at `table`, in place of any kept before. */
export async function keepSeatKey(table, seat, identity) {
  const wrap = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, wrap, utf8(identity.toOpenSSH('')));
  await inStore('readwrite', (store) => store.put({ id: seatId(table, seat), wrap, iv, sealed, line: identity.public.line() }));
}

/** The key kept for `seat` at `table`, or null. */
export async function seatKey(table, seat) {
  const record = await inStore('readonly', (store) => store.get(seatId(table, seat)));
  if (!record) return null;
  const text = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: record.iv }, record.wrap, record.sealed);
  return Identity.fromOpenSSH(fromUtf8(new Uint8Array(text)), null, 'the key kept in this browser');
}
