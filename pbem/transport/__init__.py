"""The transport layer: moving games between people. Armored text blocks (armor.py) and the turn block
(turns.py), composing and sending mail (mail.py), reading mailboxes (mailbox.py, imap.py) into the local
copies (inbox.py), a saved mail read as a game (saved.py), the address book (contacts.py), the folder of
local copies (copies.py) and the store that reads, verifies and writes them (store.py), a game found by
the start of its id (lookup.py), and the status of every game in the folder (status.py).

May import: engine, pbem.errors, pbem.record, pbem.crypto, pbem.protocol, pbem.presentation (the words
a mail's body uses)."""
