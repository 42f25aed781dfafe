// A creator link's page (pbem judge web): make a table from the form, as `pbem judge invite` makes one, and
// show each seat's invitation link (as text: names never become markup).

const $ = (id) => document.getElementById(id);
const csrf = document.querySelector('meta[name="pbem-csrf"]').content;
const words = (id) => $(id).value.split(/[\s,]+/).filter((w) => w);

function say(text, bad = false) {
  $('message').textContent = text;
  $('message').className = bad ? 'bad' : '';
}

async function make() {
  $('make').disabled = true;
  $('links').replaceChildren();
  try {
    const token = decodeURIComponent(location.pathname.split('/').pop());
    const response = await fetch('/api/new', {
      method: 'POST', credentials: 'same-origin',
      headers: { 'content-type': 'application/json', 'x-pbem-csrf': csrf },
      body: JSON.stringify({ token, game: $('game').value, seats: words('seats'), options: words('options') }),
    });
    const answer = await response.json();
    if (!answer.ok) {
      say(answer.message, true);
      return;
    }
    say(`Table ${answer.table} made. Send each player their link: it takes their seat, once.`);
    for (const [name, link] of Object.entries(answer.links)) {
      const item = document.createElement('li');
      item.textContent = `${name}: ${link}`;
      $('links').append(item);
    }
  } catch (error) {
    say(`Could not make the table: ${error.message}`, true);
  } finally {
    $('make').disabled = false;
  }
}

$('make').addEventListener('click', make);
