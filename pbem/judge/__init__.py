"""The judge: an unattended referee for any number of games, by mail (`service`) or in a git repository
(`git`). It reads turns, does every referee duty at once and sends what it signed, keeping its own
memory of every game in its own home so that no copy behind or forked from what it saw is built on.

It reaches the rest of pbem only through `library`, one module: the front-end API below it."""
