"""The protocol layer: signed entries applied to the engine. The genesis and its check (genesis.py),
a record replayed (replay.py) entry by entry through one path (entries.py) with what each entry must
carry (attachments.py), the trust layer's own acts: joins, the deal, the audit, verdicts (acts.py),
deadlines and absences (absence.py), commitments and sealed items (commitments.py), the seeded deal,
reshuffles and picks by chance (seeds.py, dealing.py, shuffle.py), one participant's session
(session.py) and the verdicts its key can prove (proofs.py), verify and fork detection (verify.py), the
replays this process verified, kept in memory to go on from (remembered.py), what this machine has seen
(seen.py), and computer players (bots.py).

May import: engine, pbem.errors, pbem.record, pbem.crypto."""
