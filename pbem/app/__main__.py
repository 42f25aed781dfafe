"""`python -m pbem.app [--no-browser]`: the app without the pbem command (tests start it this way)."""

import sys

from pbem.app.server import start

start(open_browser="--no-browser" not in sys.argv[1:])
