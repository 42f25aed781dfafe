"""One participant at the table: the secrets their key opens and the acts they sign."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from engine.contract import DEALER, IllegalAction, InvalidSetup, NotYourDuty, Value
from pbem import crypto
from pbem.crypto import Identity, X25519Identity
from pbem.errors import (
    AbsenceDisputed,
    BadSetup,
    ForbiddenMove,
    KeyProblem,
    NotInGame,
    NotStarted,
    NotYourTurn,
    PbemError,
    ProofOwed,
    SealError,
)
from pbem.protocol.absence import recordable, signed_time
from pbem.protocol.acts import (
    Act,
    Audit,
    CommitDeal,
    Join,
    RecordAbsence,
    format_act,
)
from pbem.protocol.commitments import SEED, b64, commit, new_salt, unb64
from pbem.protocol.dealing import chance_pick, item_salt
from pbem.protocol.entries import apply_entry
from pbem.protocol.proofs import cheat_found
from pbem.protocol.replay import Replay, actor_for, may_act_for, owes_opening, party_names, players_own, waiting_text
from pbem.protocol.seeds import (
    deal_shape,
    seeded_deal,
    seeded_restock,
)
from pbem.record.canonical import canonical, parse_json
from pbem.record.deadlines import now
from pbem.record.models import Entry


class Session:
    """One participant at the table: what their key opens, and the acts they sign. A session checks every
    secret addressed to it when it first needs it, and turns what it can prove into a verdict."""

    def __init__(self, rep: Replay, name: str, identity: Identity):
        if name not in rep.roster:
            raise NotInGame(f"{name!r} is not in this game (participants: {', '.join(rep.roster)})")
        if not rep.roster[name].same_key(identity.public):
            raise KeyProblem(f"this key is not {name}'s key in this game (expected {rep.roster[name].fingerprint()})")
        self.rep, self.name, self.identity = rep, name, identity
        self.note: str | None = None
        """A note to the table, signed into the next entry this session signs (then cleared)."""
        self._opened: dict[str, tuple[Value, str]] = {}
        self._secret: dict[str, Any] | None = None
        self._dealer_items: dict[str, Value] = {}
        self._dealer_restocks = 0
        self._seeded_checked = 0

    @property
    def is_referee(self) -> bool:
        return self.name == self.rep.referee

    def can_deal(self) -> bool:
        return self.is_referee or (self.rep.mode == "table" and self.name in self.rep.players)

    # -- what this key opens

    def _unseal(self, blob: str, opener: Any, binding: str, what: str) -> dict[str, Any]:
        """A sealed JSON object, checked to be bound to this game."""
        try:
            secret = parse_json(crypto.unseal(unb64(blob), opener))
            if not isinstance(secret, dict) or secret.get("game") != binding:
                raise ValueError("bound to another game")
            return secret
        except (PbemError, ValueError):
            raise SealError(f"cannot open {what} with {self.name}'s key for this game") from None

    def _open_item(self, key: str) -> tuple[Value, str]:
        """An item's value and salt from its sealed value, which must name this game and this key and match
        the item's commitment: a blob carried over from another game or item opens nothing."""
        if key not in self._opened:
            item, rep = self.rep.items[key], self.rep
            if not item.players_own and self.can_deal():
                # a table player holds the dealer's seed: a dealt card is what the seed says, whatever was sealed
                self._opened[key] = (self.dealer_values()[item.key], self._dealer_salt(item.key))
                return self._opened[key]
            if item.sealed is None:
                raise SealError(f"{key} has no sealed value")
            try:
                opening = self._unseal(item.sealed, self.identity, rep.genesis_hash, f"the sealed value of {key}")
                value, salt = opening.get("value"), opening.get("salt")
                if opening.get("key") != key or not isinstance(salt, str) or not isinstance(value, (int, str)) \
                        or commit(item.binding, item.owner, item.key, value, salt) != item.commitment:
                    raise SealError(f"the sealed value of {key} does not match its commitment")
            except SealError as exc:
                raise SealError(f"{exc} (sealed by {item.sealed_by})") from None
            self._opened[key] = (value, salt)
        return self._opened[key]

    def _readable(self) -> list[str]:
        return [key for key, item in self.rep.items.items() if self.name in item.readers]

    def known(self) -> dict[str, Value]:
        """Every hidden item this participant may read now: what was sealed to them; a dealer: everything."""
        known = {key: item.value for key, item in self.rep.items.items() if item.value is not None}
        known.update({key: self._open_item(key)[0] for key in self._readable()})
        if self.can_deal() and self.rep.state is not None:
            values = self.dealer_values()
            known.update({key: values[item.key] for key, item in self.rep.items.items() if not item.players_own})
        return known

    def knowledge(self, as_dealer: bool | None = None) -> Any:
        """This participant's private knowledge in the game's own form: as a player (their own secrets), or
        as the dealer (the referee by default; a table player when asked) with the stock's order too."""
        rep = self.rep
        dealer = self.is_referee if as_dealer is None else as_dealer
        if dealer:
            values = self.dealer_values()
            return rep.game.knowledge(rep.state, DEALER, self.known(), [values[k] for k in rep.stock])
        own = {key: self._open_item(key)[0] for key in self._readable()}
        return rep.game.knowledge(rep.state, self.name, own, [])

    def _dealer_opener(self) -> Any:
        if self.rep.mode == "referee":
            return self.identity
        g = self.rep.genesis
        table = self._unseal(g.sealed["table_key"], self.identity, g.game_id, f"the table key sealed by {g.author}")
        try:
            return X25519Identity(bytes.fromhex(table["table_key"]))
        except (KeyError, TypeError, ValueError, SealError):
            raise SealError(f"the table key sealed by {g.author} is malformed") from None

    def dealer_secret(self) -> dict[str, Any]:
        """What the dealer deals from, opened through the table key (table mode) or the referee's key, and
        checked against its commitment: `seed` for a joint deal; `items` and `salts` for a chosen one."""
        if self._secret is None:
            rep, g = self.rep, self.rep.genesis
            if g.deal == "joint" and g.seed is None:  # the referee committed its seed in its join
                join = next(e for e in rep.entries if e.author == rep.referee and e.action == "join")
                secret = self._unseal((join.sealed or {})[SEED], self.identity, rep.genesis_hash, "the referee's seed")
            else:
                secret = self._unseal(g.sealed["dealer"], self._dealer_opener(), g.game_id,
                                      f"the dealer's secret sealed by {g.author}")
            if g.deal == "joint":
                seed = secret.get("seed")
                if not isinstance(seed, str) or commit(g.nonce, DEALER, SEED, seed, "") != rep.seed_commitment:
                    raise SealError("the dealer's seed does not match its commitment")
            elif not self._chosen_matches(secret):
                raise SealError(f"the deal sealed by {g.author} does not match its commitments")
            self._secret = secret
        return self._secret

    def _chosen_matches(self, secret: dict[str, Any]) -> bool:
        rep, g = self.rep, self.rep.genesis
        try:
            items, salts = secret["items"], secret["salts"]
            shape = deal_shape(rep)
            rep.game.knowledge(rep.game.setup(rep.game.parse_options(g.options), rep.players, g.first or ""),
                               DEALER, {k: items[k] for k in shape.named}, [])  # a possible deal, by the game
            return set(items) == set(g.commitments or {}) and all(
                commit(g.nonce, DEALER, k, items[k], salts[k]) == (g.commitments or {})[k] for k in items)
        except (KeyError, TypeError, ValueError, InvalidSetup):
            return False

    def dealer_values(self) -> dict[str, Value]:
        """Every dealer item's value by the key it was committed under: the deal's and each reshuffle's."""
        rep, secret = self.rep, self.dealer_secret()
        if not self._dealer_items:
            self._dealer_items = dict(secret["items"]) if "items" in secret else seeded_deal(rep, secret["seed"])[1]
        while self._dealer_restocks < rep.restocks:
            self._dealer_restocks += 1
            posted = next(p for p in rep.seeded if p.what == f"reshuffle {self._dealer_restocks}")
            self._dealer_items.update(seeded_restock(rep, secret["seed"], *posted.context))
        return self._dealer_items

    def _dealer_salt(self, key: str) -> str:
        secret = self.dealer_secret()
        return secret["salts"][key] if "salts" in secret else item_salt(secret["seed"], key)

    def _salt_of(self, key: str) -> str:
        item = self.rep.items[key]
        if self.name in item.readers:
            return self._open_item(key)[1]
        return self._dealer_salt(item.key)

    # -- acts

    def sign(self, body: dict[str, Any], at: int | None = None) -> Entry:
        """Sign the next entry at `at` (this program's clock by default). In a game with a deadline policy a
        clock behind the last signed time is taken up to it: no entry claims to be older than the one before."""
        rep = self.rep
        when = now() if at is None else at
        if rep.genesis.deadlines is not None:
            when = max(when, signed_time(rep, rep.seq) or 0)
        body = {"game_id": rep.genesis.game_id, "seq": rep.seq + 1, "prev": rep.head,
                "author": self.name, **{k: v for k, v in body.items() if v}, "time": when}
        if self.note:
            body["note"], self.note = self.note, None
        signature = b64(self.identity.sign(canonical(body)))
        return Entry.model_validate({**body, "signature": signature})

    def _sealed_value(self, key: str, value: Value, salt: str, readers: Sequence[str]) -> str:
        opening = canonical({"game": self.rep.genesis_hash, "key": key, "value": value, "salt": salt})
        return b64(crypto.seal(opening, [self.rep.roster[name] for name in readers]))

    def entry_for(self, action: Any, actor: str) -> Entry:
        """Turn a checked action into a signed entry, with the commitments, sealed values and openings its
        secrets need (engine.contract.Secrets)."""
        rep, game = self.rep, self.rep.game
        secrets = game.secrets(rep.state, actor, action)
        commitments: dict[str, str] = {}
        sealed: dict[str, str] = {}
        openings: dict[str, str] = {}
        readers = (actor,) + ((rep.referee,) if rep.referee else ())
        for key, value in secrets.commits:
            if value is None:
                raise ForbiddenMove(f"{game.format_action(action)}: say which value to commit")
            salt, owner = new_salt(), rep.roster[actor].raw.hex()
            commitments[key] = commit(rep.genesis_hash, owner, key, value, salt)
            sealed[key] = self._sealed_value(key, value, salt, readers)
        if secrets.draws or secrets.shows or secrets.gives or secrets.restock:
            values = self.dealer_values()
            drawn = rep.stock[:len(secrets.draws) + len(secrets.shows)]
            for (key, player), source in zip(secrets.draws, drawn):
                sealed[key] = self._sealed_value(key, values[source], self._dealer_salt(source), (player,))
            for source in drawn[len(secrets.draws):]:
                openings[source] = self._dealer_salt(source)
            for key, player in secrets.gives:
                source = rep.items[key].key
                sealed[key] = self._sealed_value(key, values[source], self._dealer_salt(source), (player,))
            if secrets.restock:
                number, seed = rep.restocks + 1, self.dealer_secret()["seed"]
                for key, value in seeded_restock(rep, seed, number, secrets.restock).items():
                    commitments[key] = commit(rep.genesis.nonce, DEALER, key, value, item_salt(seed, key))
        for key, _ in secrets.opens:
            openings[key] = self._salt_of(key)
        return self.sign({"action": game.format_action(game.public(action)), "commitments": commitments,
                          "sealed": sealed, "openings": openings})

    def act(self, action: Any) -> list[object]:
        """Check an action with this participant's knowledge, sign it, apply it; returns the events."""
        rep, game = self.rep, self.rep.game
        if rep.state is None or rep.awaiting_join:
            raise NotStarted(f"the game has not started: {waiting_text(rep)}")
        # a move or a choice is always one's own; the dealer's acts are the dealer's, openings their owner's
        actor = actor_for(rep, action)
        if actor != DEALER and not owes_opening(rep, actor):
            actor = self.name
        try:
            action = game.check(rep.state, actor or self.name, action, self.knowledge(as_dealer=actor == DEALER))
        except NotYourDuty as exc:
            raise NotYourTurn(exc.naming(party_names(rep))) from None
        except IllegalAction as exc:
            opened = game.secrets(rep.state, actor, action).opens
            if not (opened and players_own(rep, opened) and game.audit_problem(rep.state, opened)):
                raise ForbiddenMove(str(exc)) from None
            # the true values of secrets committed falsely: the program opens them anyway, and the record convicts
        if not may_act_for(rep, self.name, actor):
            raise NotYourTurn(f"{game.format_action(action)}: {self.name} may not act for {actor}")
        return apply_entry(rep, self.entry_for(action, actor))

    def _sign_act(self, act: Act, **attachments: Any) -> list[object]:
        return apply_entry(self.rep, self.sign({"action": format_act(act), **attachments}))

    def absence(self, party: str, at: int | None = None) -> Entry:
        """The signed entry recording `party` absent from the duty they answer for now, at `at` (this
        program's clock by default): a ParticipantError if the game has no policy, they owe nothing, this participant
        may not record it (or not yet: another signs first), or it is too early by the signed times."""
        rep, game = self.rep, self.rep.game
        when = now() if at is None else at
        duty, since, last = recordable(rep, party, self.name, when)
        then, openings = "", {}
        if party != rep.referee:
            act = game.absence_act(rep.state, party, self.knowledge(as_dealer=True) if self.can_deal() else None)
            if act is not None:
                then = game.format_action(game.public(act))
                if last:  # the last signer carries what the act shows
                    openings = {key: self._salt_of(key) for key, _ in game.secrets(rep.state, party, act).opens}
        text = format_act(RecordAbsence(party, duty.what, since, then))
        if rep.pending and rep.pending[0] != text:  # a co-signer signs only what its own program finds
            raise AbsenceDisputed(f"{' and '.join(rep.pending[1])} signed {party}'s absence as {rep.pending[0]!r}, but "
                             f"the rule gives {text!r}: this program does not sign it (pbem play proves it false)")
        if cheat_found(self) is not None:  # a verdict comes before anything else (absence.claimed_in_time)
            raise ProofOwed("this program has a cheat to prove before it signs anything else: pbem play proves it")
        return self.sign({"action": text, "openings": openings}, at=when)

    def record_absence(self, party: str, at: int | None = None) -> list[object]:
        """Sign and apply `absence`; returns what happened."""
        return apply_entry(self.rep, self.absence(party, at))

    def join(self) -> list[object]:
        """Accept the game: check every secret sealed to this key, then sign a join with fresh randomness
        (the referee of a joint deal also commits to its secret seed, sealed to itself)."""
        rep, g = self.rep, self.rep.genesis
        if (self.name in rep.players and rep.mode == "table") or (self.is_referee and g.deal == "chosen"):
            self.dealer_secret()  # a creator who sealed the table or the deal badly is caught here, before play
        attachments: dict[str, Any] = {"contribution": crypto.random_bytes(32).hex()}
        if self.is_referee and g.deal == "joint":
            seed = crypto.random_bytes(32).hex()
            attachments["commitments"] = {SEED: commit(g.nonce, DEALER, SEED, seed, "")}
            blob = crypto.seal(canonical({"game": rep.genesis_hash, "seed": seed}), [self.identity.public])
            attachments["sealed"] = {SEED: b64(blob)}
        return self._sign_act(Join(), **attachments)

    def deal(self) -> list[object]:
        """Post the joint deal: a commitment to every hidden item and the first player, from the seed and
        every contribution."""
        dealt, _, commitments = seeded_deal(self.rep, self.dealer_secret()["seed"])
        return self._sign_act(CommitDeal(dealt.first), commitments=commitments)

    def audit(self) -> list[object]:
        """The end audit: open the seed, so anyone can recompute the deal and all that came from it."""
        return self._sign_act(Audit(), openings={SEED: self.dealer_secret()["seed"]})

    def automatic(self) -> list[object]:
        """Fulfil every duty this participant can without a decision (joins, the deal, the dealer's acts,
        openings they hold, the end audit), after checking what they can check; returns the events."""
        events: list[object] = []
        while True:
            verdict = cheat_found(self)
            if verdict is not None:
                act, attachments = verdict
                return events + self._sign_act(act, **attachments)
            step = self._next_automatic()
            if step is None:
                return events
            events += step()

    def _next_automatic(self) -> Callable[[], list[object]] | None:
        rep, game = self.rep, self.rep.game
        for duty in rep.duties():
            if duty.what == "join" and duty.who == self.name:
                return self.join
            if duty.who != DEALER and duty.what != "open":
                continue
            if duty.what == "deal" and rep.state is None and self.can_deal():
                return self.deal
            if duty.what == "audit" and self.can_deal():
                return self.audit
            if duty.who == DEALER and self.can_deal():
                return self._dealer_step()
            if duty.what == "open" and (duty.who == self.name or self.is_referee):
                # a referee opens every owed secret in one entry where the game lets it; a player their own
                choices = (list(game.legal_actions(rep.state, DEALER, self.knowledge())) if self.is_referee else [])
                choices = choices or list(game.legal_actions(rep.state, duty.who, self.knowledge()))
                if choices:
                    action = choices[0]
                    return lambda: self.act(action)
        return None

    def dealer_action(self) -> Any:
        """The dealer's act owed now, as this program signs it: the only one, or chance's pick by the seed;
        None if the dealer owes nothing."""
        rep, game = self.rep, self.rep.game
        choices = list(game.legal_actions(rep.state, DEALER, self.knowledge(as_dealer=True)))
        if not choices:
            return None
        if game.secrets(rep.state, DEALER, game.public(choices[0])).chance:
            seed = self.dealer_secret().get("seed")
            if seed is None:
                raise BadSetup("a chosen deal has no seed for chance to pick with")
            return choices[chance_pick(rep.genesis_hash, seed, rep.contributions, rep.head, len(choices))]
        return choices[0]

    def _dealer_step(self) -> Callable[[], list[object]] | None:
        action = self.dealer_action()
        return None if action is None else lambda: self.act(action)

