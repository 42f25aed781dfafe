// A browser seat's game page (pbem judge web). The judge sends the seat's view and the entries it may sign,
// each with what it says in words; this page shows them, and when the player chooses one it builds the entry
// itself: commits to and seals the player's own secrets (to the player and the referee), opens the player's
// own salts, signs with the key this browser holds, and posts it. The judge checks it as a mail turn.
// Before it signs anything it checks the game's signed genesis (entries.js, genesisFlaw): the game its
// entries name must hold this browser's key for the seat and the referee key it seals to.

import {
  PublicKey, b64, canonical, commitOwn, genesisFlaw, openValueAsync, randomBytes, signEntry, toHex,
} from './pbem-crypto.js';
import { importKeyFile, keepKey, loadKey } from './keystore.js';

const $ = (id) => document.getElementById(id);
const info = JSON.parse($('play-data').textContent);
const csrf = document.querySelector('meta[name="pbem-csrf"]').content;
const base = `/api/play/${encodeURIComponent(info.table)}/${encodeURIComponent(info.seat)}`;
const areas = { board: $('board'), side: $('side') };
const keptAs = `${location.origin}/${info.table}/${info.seat}`;
let data = null;
let chosen = null;
let identity = null;
let busy = false;
let drawn = null; // the head of the game the options were drawn for: a choice stays while the game does
let genesis = null; // the promise of the game's signed genesis (null: not fetched, or to fetch again)
let flaw = null; // why this page must not sign into the game the judge reports (null: none seen)
const opened = new Map(); // each hidden item as sent, by the key that opened it: what it opened to, or why not

function say(text, bad = false) {
  $('message').textContent = text;
  $('message').className = bad ? 'bad' : '';
}

function item(text) {
  const li = document.createElement('li');
  li.textContent = text;
  return li;
}

async function post(path, body) {
  const response = await fetch(base + path, {
    method: 'POST', credentials: 'same-origin',
    headers: { 'content-type': 'application/json', 'x-pbem-csrf': csrf },
    body: JSON.stringify(body),
  });
  return response.json();
}

async function load(known = null) {
  data = known || await (await fetch(base, { credentials: 'same-origin' })).json();
  if (identity === null) identity = await loadKey(keptAs).catch(() => null);
  render();
}

function expectedKey() {
  return data.keys ? data.keys[info.seat] : data.key;
}

function showKey() {
  const line = expectedKey();
  const mine = identity && line && PublicKey.parse(line).sameKey(identity.public);
  $('key-state').textContent = mine
    ? `This browser holds ${info.seat}'s key (${identity.public.fingerprint()}). Only it can sign your moves.`
    : `This browser does not hold ${info.seat}'s key: import your key file below to play here.`;
  $('import-box').open = !mine;
  return mine;
}

/** Why this page must not sign into the game as the judge now reports it (null: it may), from the game's
 * signed genesis, fetched once: a judge that cheats this seat is caught here, before anything is signed. */
async function checkGenesis() {
  if (!identity || !data.started) return null;
  if (genesis === null) genesis = fetch(`${base}/genesis`, { credentials: 'same-origin' }).then((r) => (r.ok ? r.json() : null));
  const found = await genesis.catch(() => null);
  if (found === null) {
    genesis = null;
    return 'The judge did not send the game\'s signed invitation, which this page checks before it signs: try again.';
  }
  flaw = genesisFlaw(found, { gameId: data.gameId, genesisHash: data.genesisHash, referee: data.referee,
    refereeKey: data.keys[data.referee] }, info.seat, identity.public);
  if (flaw) refuse();
  return flaw;
}

function refuse() {
  say(flaw, true);
  document.querySelectorAll('#options .option').forEach((b) => { b.disabled = true; });
  $('confirm').hidden = true;
  chosen = null;
}

function choose(offer, button) {
  chosen = offer;
  document.querySelectorAll('#options .option').forEach((b) => b.setAttribute('aria-pressed', String(b === button)));
  $('says').textContent = offer.says;
  const secret = offer.commits.length
    ? ` Kept secret until the rules open it (committed in the record, sealed to you and the referee): ${offer.commits.map(([k, v]) => `${k} = ${v}`).join(', ')}.`
    : '';
  $('record').textContent = `In the record: "${offer.action}", entry ${data.seq + 1}, signed by ${info.seat}.${secret}`;
  $('confirm').hidden = false;
}

/** The hidden items sealed to this seat, opened here with its key and each checked against its commitment
 * in the record: what the board shows as the player's own comes from the judge, this from the record. */
async function openMine() {
  if (!identity || !data.sealedToMe) return;
  const shown = [];
  const wrong = [];
  for (const item of data.sealedToMe) {
    // an item the game sends again after each entry, unchanged, is opened and checked once
    const seen = `${identity.public.line()} ${data.genesisHash} ${JSON.stringify(item)}`;
    if (!opened.has(seen)) {
      opened.set(seen, openValueAsync(item, identity, data.genesisHash).then(
        ({ value }) => ({ value }), (error) => ({ error: error.message })));
    }
    const found = await opened.get(seen);
    if ('error' in found) wrong.push(`${item.key} (${found.error})`);
    else shown.push(`${item.key} = ${found.value}`);
  }
  $('secrets').textContent = wrong.length
    ? `Sealed to you but not as committed in the record: ${wrong.join('; ')}. Do not go on: pbem verify shows who sealed it.`
    : shown.length ? `Your secrets, opened here with your key and checked against the record: ${shown.join(', ')}.` : '';
  $('secrets').className = wrong.length ? 'bad' : '';
}

function render() {
  if (!data.ok) {
    say(data.message, true);
    return;
  }
  const mine = showKey();
  if (!data.holds) {
    $('turn-title').textContent = 'Import your key to play here';
    return;
  }
  if (!data.started) {
    $('turn-title').textContent = 'Waiting for every seat to be taken';
    $('next').textContent = `Seats still free: ${data.seats.filter((s) => !s.taken).map((s) => s.name).join(', ')}.`;
    return;
  }
  checkGenesis();
  if (drawn === `${data.head} ${mine}`) return; // the game where it was: the board, its marks and a choice stay
  drawn = `${data.head} ${mine}`;
  $('about').textContent = `${data.title} with ${data.players.join(', ')}, refereed by the judge; ${data.seq} signed entries.`;
  if (typeof drawBoard === 'function') drawBoard(areas, data.board, data.meta); // eslint-disable-line no-undef
  $('next').textContent = data.next;
  $('turn-title').textContent = data.offers.length ? 'Your move' : data.over ? 'Game over' : 'Waiting for the others';
  $('note-list').replaceChildren(...data.log.filter((e) => e.note).map((e) => item(`${e.author} says: "${e.note}" (entry ${e.seq})`)));
  $('log-list').replaceChildren(...data.log.map((e) => item(`${e.seq}. ${e.author}: ${e.action}`)));
  openMine();
  $('turn').dataset.seq = String(data.seq);
  // the offers grouped by the place they act on (a tile, a card), each place also marked on the board: a click
  // there brings its group up; an offer with no place (a join, an opening) is a button of its own
  const groups = new Map();
  for (const offer of data.offers) {
    const place = offer.target ? offer.place || offer.target : '';
    if (!groups.has(place)) groups.set(place, []);
    groups.get(place).push(offer);
  }
  const parts = [];
  for (const [place, offers] of groups) {
    const buttons = offers.map((offer) => {
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'option';
      button.dataset.notation = offer.notation;
      button.textContent = place ? offer.option : offer.says;
      button.title = offer.says;
      button.setAttribute('aria-label', offer.says);
      button.disabled = !mine || flaw !== null;
      button.addEventListener('click', () => choose(offer, button));
      return button;
    });
    if (!place) {
      parts.push(...buttons);
      continue;
    }
    const group = document.createElement('div');
    group.className = 'group';
    const title = document.createElement('p');
    title.className = 'group-title';
    title.textContent = place;
    group.append(title, ...buttons);
    parts.push(group);
    const element = offers[0].target ? document.querySelector(offers[0].target) : null;
    if (element && mine) {
      element.classList.add('target');
      element.setAttribute('tabindex', '0');
      element.setAttribute('role', 'button');
      element.setAttribute('aria-label', `${place}: ${offers.length} choice${offers.length === 1 ? '' : 's'}`);
      const bring = () => {
        group.scrollIntoView({ block: 'nearest' });
        buttons[0].focus();
      };
      element.addEventListener('click', bring);
      element.addEventListener('keydown', (event) => {
        if (event.key === 'Enter' || event.key === ' ') {
          event.preventDefault();
          bring();
        }
      });
    }
  }
  $('options').replaceChildren(...parts);
  chosen = null;
  $('confirm').hidden = true;
}

async function sign() {
  if (!chosen || busy) return;
  busy = true;
  let after = null;
  $('turn').dataset.busy = 'signing';
  $('sign').disabled = true;
  try {
    if (!identity) throw new Error(`this browser does not hold ${info.seat}'s key`);
    const refusal = await checkGenesis();
    if (refusal) {
      say(refusal, true);
      return;
    }
    const owner = identity.public;
    const referee = PublicKey.parse(data.keys[data.referee]);
    say('Signing...');
    const { commitments, sealed } = commitOwn({ genesisHash: data.genesisHash, owner, readers: [owner, referee], secrets: chosen.commits });
    const openings = {};
    for (const opening of chosen.opens) openings[opening.key] = (await openValueAsync(opening, identity, data.genesisHash)).salt;
    const fields = {
      game_id: data.gameId, seq: data.seq + 1, prev: data.head, author: info.seat, action: chosen.action,
      commitments, sealed, openings, time: Math.max(Math.floor(Date.now() / 1000), data.minTime),
      note: $('note').value.trim() || undefined,
    };
    if (chosen.join) fields.contribution = toHex(randomBytes(32));
    const entry = await signEntry(identity, fields);
    const answer = await post('/entry', { entry });
    after = answer.ok ? answer.state : null; // the game as the judge answered it: drawn without asking again
    if (!answer.ok) {
      say(answer.message, true);
    } else {
      $('note').value = '';
      $('options').replaceChildren(); // what was offered is signed: the next offers come with the game's new state
      $('confirm').hidden = true;
      drawn = null;
      say(`Signed and accepted by the judge: entry ${data.seq + 1}.`);
    }
  } catch (error) {
    say(`Nothing was sent: ${error.message}`, true);
  } finally {
    busy = false;
    $('sign').disabled = false;
    await load(after);
    delete $('turn').dataset.busy;
  }
}

async function exportKey() {
  try {
    if (!identity) throw new Error('this browser holds no key for this seat');
    const text = identity.exportKeyFile();
    $('exported').value = text;
    $('exported').hidden = false;
    const link = $('download');
    link.href = URL.createObjectURL(new Blob([text], { type: 'application/octet-stream' }));
    link.download = `pbem-${info.seat}`;
    link.hidden = false;
    say('Your key, protected by your passphrase: keep the file (pbem key add NAME --from FILE takes it).');
  } catch (error) {
    say(`Not exported: ${error.message}`, true);
  }
}

async function importKey() {
  try {
    const found = await importKeyFile($('import-text').value, $('import-pass').value);
    const line = expectedKey();
    if (!line || !PublicKey.parse(line).sameKey(found.public)) throw new Error(`this is not ${info.seat}'s key in this game`);
    await keepKey(keptAs, found);
    identity = found;
    if (!data.holds) {
      const message = canonical({ purpose: 'pbem-web-hold', table: info.table, seat: info.seat, session: csrf });
      const answer = await post('/hold', { signature: b64(await found.sign(message, 'pbem-web-hold')) });
      if (!answer.ok) throw new Error(answer.message);
    }
    $('import-text').value = '';
    $('import-pass').value = '';
    say(`Imported: this browser now holds ${info.seat}'s key.`);
    await load();
  } catch (error) {
    say(`Not imported: ${error.message}`, true);
  }
}

$('sign').addEventListener('click', sign);
$('cancel').addEventListener('click', () => {
  drawn = null;
  render();
});
$('export').addEventListener('click', exportKey);
$('import').addEventListener('click', importKey);
const events = new EventSource(base + '/events');
events.onmessage = () => {
  if (!busy) load();
};
load();
