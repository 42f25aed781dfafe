"""The presentation layer: games shown to people. The terminal board, the log and the lines that say who
owes what (terminal.py), the HTML replay (html.py, with its CSS and JavaScript in static/), entries
exported for stock tools (export.py), and each game's own drawing and wording (games/).

May import: engine, pbem.errors, pbem.record, pbem.crypto, pbem.protocol."""
