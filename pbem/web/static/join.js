// The invitation page (pbem judge web): make this seat's key here, keep it in this browser (keystore.js: keys
// no script can read, the seed only in the passphrase-protected export), and take the seat with the link's
// capability. Only the public key goes to the judge.

import { generateKey, keepKey } from './keystore.js';

const $ = (id) => document.getElementById(id);
const info = JSON.parse($('join-data').textContent);
const csrf = document.querySelector('meta[name="pbem-csrf"]').content;

function say(text, bad = false) {
  $('message').textContent = text;
  $('message').className = bad ? 'bad' : '';
}

async function take() {
  if (!window.isSecureContext || !globalThis.crypto?.subtle || !globalThis.indexedDB) {
    say('This browser cannot keep a key for this page: it must be served over https (the judge behind its TLS '
      + 'proxy), and the browser must allow this site to store data.', true);
    return;
  }
  $('take').disabled = true;
  try {
    say('Making your key...');
    const identity = await generateKey($('passphrase').value, info.seat);
    await keepKey(`${location.origin}/${info.table}/${info.seat}`, identity);
    const token = decodeURIComponent(location.pathname.split('/').pop());
    const address = $('address').value.trim() || null;
    const response = await fetch('/api/join', {
      method: 'POST', credentials: 'same-origin',
      headers: { 'content-type': 'application/json', 'x-pbem-csrf': csrf },
      body: JSON.stringify({ token, key: identity.public.line(), address }),
    });
    const answer = await response.json();
    if (!answer.ok) {
      say(answer.message, true);
      $('take').disabled = false;
      return;
    }
    say(`You have taken the seat ${info.seat}. Your key: ${identity.public.fingerprint()}.`);
    location.assign(answer.play);
  } catch (error) {
    say(`Could not take the seat: ${error.message}`, true);
    $('take').disabled = false;
  }
}

$('take').addEventListener('click', take);
