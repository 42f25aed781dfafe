"""`pbem app`: a local web app for the person at this machine: their games, each board drawn as the
replay draws it, the legal moves clickable, one button to sign, write and send a turn.

The trust model stays: the keys never leave this machine and every entry is signed here, by the same
library as the command line. The server listens on 127.0.0.1 only and guards itself (guard.py); the
legal moves come from the engine on the server (moves.py), never from rules in the page; every call
into pbem goes through library.py.
"""
