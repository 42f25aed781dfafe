"""The record layer: the game file as data. Canonical JSON (canonical.py), the strict pydantic models of
the genesis, entries and the whole file (models.py), the deadline policy a genesis may carry and the
times it gives (deadlines.py), the status report's format (status.py), reading and
writing files whole or not at all (gamefile.py, files.py), and the JSON Schemas made from the models
(schemas.py).

May import: pbem.errors. Nothing else of pbem (no crypto: hashes come from hashlib)."""
