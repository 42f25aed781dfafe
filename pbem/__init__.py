"""pbem: hidden-information board games by email or git, with every entry signed and every rule replayed.

The package is in layers; each imports only the layers below it (tests/project/test_layers.py checks it):

    pbem.cli, pbem.judge, pbem.app   front ends: parse, prompt, print; no rules, no protocol
    pbem.web                         the browser's own pbem (JavaScript, served as files; issue 36)
    pbem.api                         the public library API every front end calls (making a game and
                                     taking a turn included: pbem.api.new_games, pbem.api.turns)
    pbem.transport                   armor, mail, the inbox, the address book, local copies, status
    pbem.presentation                the terminal board, the HTML page, the log, export, each game's drawing
    pbem.protocol                    genesis and joins, replay, acts, the seeded deal, verdicts, sessions,
                                     verify, the seen-store
    pbem.crypto                      keys, SSHSIG signatures, age sealing, the keyring
    pbem.record                      canonical JSON, the file's models, reading and writing files, schemas
    pbem.errors                      the errors every layer raises
    engine                           the games' pure rules (standard library only)
"""
