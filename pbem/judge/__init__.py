"""The judge: an unattended referee for any number of games, by mail (`service`), in a git repository
(`pre_receive`, `post_receive`) or for browsers (`web_server`). It reads turns, does every referee duty
at once and sends what it signed, keeping its memory of every game in its database (`store`) so that
no copy behind or forked from what it saw is built on.

It reaches the rest of pbem through the library's one door, pbem.api: the mail judge by `library` (what
it asks of the API, in one place), the web judge's modules directly."""
