"""Black Rose bots: players that decide from their own observation, never from the state.

A bot plays whatever role it is dealt. ``advised`` and ``cautious`` differ
only in how an investigator uses the solver; their Possessed and their
Rector play the same documented policies.

- **Investigator** (``advised``): plays every information card as soon as
  it can (Réseau, then Déduction, Parler à, Conflit, targets at random),
  investigates where :func:`advise` says (every pile is worth the same to an
  investigator who has not glanced at them: one of them at random), claims
  the innocence of the suspects it saw a Proof of, truthfully, and votes as
  the advice says: the most probable pair, claims weighed (a wrong
  accusation costs nothing, so the advice is to accuse whenever the rules
  allow). With 3 players it reveals its role when the solver gives
  the other investigator at least :data:`REVEAL_AT` chance of being the
  Possessed (two real investigators who reveal lose at once).
- **Investigator** (``cautious``): the same, except that it trusts only the
  hard facts and votes only for a pair they prove (one candidate left), and
  never reveals.
- **Possessed**: plays and investigates like an investigator and blends in:
  each of its claims is an attempted lie with chance :data:`LIE` (it calls a
  suspect it saw a Proof of guilty, or one it has no Proof of innocent,
  which is often true by chance) and the truth otherwise; it votes for a
  pair it knows to be wrong (one with a proved innocent, else none); at
  night it reveals itself and kills the living suspect most likely an
  accomplice by its own solver (claims weighed); with 3 players it never
  reveals its role.
- **Rector**: picks the accomplices uniformly (the spec's prior), plays a
  Goal whenever it may, else Veillée, Sermon, then Profanation; discards an
  Event when that digs towards a Goal; kills a living innocent each night
  (at random); answers a Serment by putting the glanced Proofs at the bottom
  of the pile; always shuffles the Graveyard after Profanation.
- ``liar``: plays like ``advised``, except that its Possessed lies on every
  claim, where the lie can mislead: first it calls innocent the unproved
  suspect its own solver (claims weighed) gives the highest chance of being
  an accomplice, shielding who it believes likely guilty (a lie whenever that
  suspect is one); once it has shielded every unproved suspect, it calls a
  suspect it saw a Proof of guilty (a sure lie, framing an innocent). Its
  investigators are honest, as an advised one: lying would only mislead
  their own side. Nothing is fitted to it: it is there to test the liar
  model against a Possessed who plays otherwise than the fitted one.
- ``discreet``: plays like ``advised``, except its **Possessed**, who follows
  the Possessed's advice (:mod:`deduce.games.blackrose.advisor`, weighing the
  claims with the model ``bots``, as the investigators do): among the claims
  that keep its exposure at most 1/2 (or as it is), it says what keeps the
  investigators' next vote wrong most, or nothing; it votes for no pair (a
  vote exposes nothing, and an accusation of a pair it knows to be wrong
  would only tell the investigators); at night it kills the living suspect
  most likely an accomplice by its own log without its own claims, or nobody
  when none can be one.
- ``random``: any legal action, uniformly.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from random import Random

from deduce.games.blackrose.advisor import Advice, advise, claim_options, possessed_kill
from deduce.games.blackrose.claims import bots_model
from deduce.games.blackrose.engine import (
    Action,
    BlackRoseGame,
    CardPlay,
    Claim,
    Discard,
    Investigation,
    Kill,
    Observation,
    RectorPlay,
    ReorderCard,
    Reveal,
    Shuffle,
    Vote,
)
from deduce.games.blackrose.solve import BlackRoseSolution, solve_blackrose
from deduce.logs.jsonl import parse_jsonl
from deduce.logs.model import GameLog

Bot = Callable[[Observation, Sequence[Action], Random], Action]
#: A bot's way with one decision: ``(obs, legal, rng)``, the legal actions as a list.
#: ``...``: each method takes and returns its own decision's action type, not the union.
Choose = Callable[..., Action]

#: Chance that one of the Possessed's claims is a lie.
LIE = 0.5
#: Chance of the other investigator being the Possessed at which a 3-player investigator reveals.
REVEAL_AT = Fraction(3, 4)
#: Information cards, the first played first.
PLAY_ORDER: tuple[str, ...] = ("reseau", "deduction", "parler-a", "conflit")
#: Rector Events, the first played first.
EVENT_ORDER: tuple[str, ...] = ("veillee", "sermon", "profanation")


def random_bot(game: BlackRoseGame, seat: int) -> Bot:
    """A bot choosing uniformly among the legal actions."""
    del game, seat

    def act(obs: Observation, legal: Sequence[Action], rng: Random) -> Action:
        return rng.choice(list(legal))

    return act


def proved(obs: Observation) -> list[str]:
    """Suspects this player saw a Proof of (innocent), in order of first sight."""
    return list(dict.fromkeys(e["suspect"] for e in obs.log if e["type"] == "proof"))


class Advised:
    """A player of any role who follows the solver's advice (see the module docstring)."""

    #: Whether an investigator weighs the claims and accuses the most probable pair.
    ADVISED = True

    def __init__(self, game: BlackRoseGame, seat: int) -> None:
        self.game = game
        self.seat = seat

    def __call__(self, obs: Observation, legal: Sequence[Action], rng: Random) -> Action:
        """Decide ``obs.decision`` among ``legal``."""
        deciders = self._deciders()
        choose = deciders.get((obs.role, obs.decision)) or deciders.get(("", obs.decision))
        return rng.choice(list(legal)) if choose is None else choose(obs, list(legal), rng)

    def _deciders(self) -> dict[tuple[str, str], Choose]:
        """The bot's way with each decision, by role and decision (role ``""``: any role).

        A decision without an entry is taken at random among the legal actions.
        """
        return {
            ("", "before"): self._before,
            ("", "after"): self._after,
            ("", "claim"): self._claim,
            ("", "investigate"): self._investigate,
            ("", "vote"): self._vote,
            ("", "reveal_role"): self._reveal_role,
            ("possessed", "claim"): self._possessed_claim,
            ("possessed", "vote"): self._possessed_vote,
            ("possessed", "reveal_role"): self._possessed_reveal_role,
            ("possessed", "possessed_kill"): self._possessed_possessed_kill,
            ("rector", "twilight"): self._rector_twilight,
            ("rector", "discard"): self._rector_discard,
            ("rector", "rector_kill"): self._rector_rector_kill,
            ("rector", "reorder"): self._rector_reorder,
            ("rector", "profanation"): self._rector_profanation,
        }

    def _log(self, obs: Observation) -> GameLog:
        """The deciding player's log as it stands."""
        return parse_jsonl(self.game.log_text(obs.player, obs.log), f"{obs.player}.jsonl")

    def _solve(self, obs: Observation, hard: bool) -> BlackRoseSolution:
        return solve_blackrose(self._log(obs), hard=hard, model=bots_model(), styles=False)

    # ------------------------------------------------------- investigators

    def _before(self, obs: Observation, legal: list[CardPlay], rng: Random) -> CardPlay:
        for effect in PLAY_ORDER:
            options = [
                a for a in legal if a is not None and self.game.cards.clue(a[0]).effect == effect
            ]
            if options:
                return rng.choice(options)
        return None

    _after = _before

    def _claim(self, obs: Observation, legal: list[Claim], rng: Random) -> Claim:
        mine = {
            (e["suspect"], e["innocent"])
            for e in obs.log
            if e["type"] == "claim" and e["player"] == obs.player
        }
        fresh = [(s, True) for s in proved(obs) if (s, True) not in mine]
        return fresh[0] if fresh else None

    def _advice(self, obs: Observation) -> Advice:
        """The advisor's view of this player's log.

        The clue cards it has not seen are at most those of the game less the
        two accomplices' Proofs and its own hand: the advice needs only an
        upper bound (every pile is worth the same whatever the number).
        """
        unseen = len(self.game.cards.used_clues(len(self.game.players))) - 2 - len(obs.hand)
        return advise(self._log(obs), unseen, bots_model())

    def _investigate(
        self, obs: Observation, legal: list[Investigation], rng: Random
    ) -> Investigation:
        piles = self._advice(obs).piles
        advised = [s for s in legal if (None if s in obs.dead else s) in piles]
        return rng.choice(advised or legal)

    def _vote(self, obs: Observation, legal: list[Vote], rng: Random) -> Vote:
        if self.ADVISED:
            return self._advice(obs).accuse
        solution = self._solve(obs, hard=True)
        return next(iter(solution.pairs)) if len(solution.pairs) == 1 else None

    def _reveal_role(self, obs: Observation, legal: list[Reveal], rng: Random) -> Reveal:
        if not self.ADVISED:
            return False
        others = [
            p
            for p in self.game.players
            if p not in (obs.player, self.game.players[self.game.rector])
        ]
        return self._solve(obs, hard=False).possessed.get(others[0], Fraction(0)) >= REVEAL_AT

    # -------------------------------------------------------- the Possessed

    def _possessed_claim(self, obs: Observation, legal: list[Claim], rng: Random) -> Claim:
        known = proved(obs)
        if rng.random() >= LIE:
            return self._claim(obs, legal, rng)
        unknown = [s for s in self.game.suspects if s not in known]
        lies = [(s, False) for s in known] + [(s, True) for s in unknown]
        return rng.choice(lies)

    def _possessed_vote(self, obs: Observation, legal: list[Vote], rng: Random) -> Vote:
        known = set(proved(obs))
        wrong = [pair for pair in legal if pair is not None and known & set(pair)]
        return rng.choice(wrong) if wrong else None

    def _possessed_reveal_role(self, obs: Observation, legal: list[Reveal], rng: Random) -> Reveal:
        return False

    def _possessed_possessed_kill(self, obs: Observation, legal: list[Kill], rng: Random) -> Kill:
        chances = self._solve(obs, hard=False).suspects
        living = [s for s in legal if s is not None]
        return max(living, key=lambda s: chances.get(s, Fraction(0)), default=None)

    # ----------------------------------------------------------- the Rector

    def _rector_twilight(
        self, obs: Observation, legal: list[RectorPlay], rng: Random
    ) -> RectorPlay:
        cards = self.game.cards
        goals = [c for c in legal if c is not None and cards.rector_card(c).kind == "goal"]
        if goals:
            return goals[0]
        for effect in EVENT_ORDER:
            events = [c for c in legal if c is not None and cards.rector_card(c).effect == effect]
            if events:
                return events[0]
        return None

    def _rector_discard(self, obs: Observation, legal: list[Discard], rng: Random) -> Discard:
        events = [
            c for c in legal if c is not None and self.game.cards.rector_card(c).kind == "event"
        ]
        return events[0] if events else None

    def _rector_rector_kill(self, obs: Observation, legal: list[Kill], rng: Random) -> Kill:
        innocents = [s for s in legal if s is not None and s not in (obs.accomplices or ())]
        return rng.choice(innocents) if innocents else None

    def _rector_reorder(
        self, obs: Observation, legal: list[ReorderCard], rng: Random
    ) -> ReorderCard:
        others = [c for c in legal if self.game.cards.clue(c).kind != "proof"]
        return (others or legal)[0]

    def _rector_profanation(self, obs: Observation, legal: list[Shuffle], rng: Random) -> Shuffle:
        return True


class Cautious(Advised):
    """The same player, but an investigator who trusts only hard facts (module docstring)."""

    ADVISED = False


class Liar(Advised):
    """The advised player, but a Possessed who lies on every claim (module docstring)."""

    def _possessed_claim(self, obs: Observation, legal: list[Claim], rng: Random) -> Claim:
        mine = {
            (e["suspect"], e["innocent"])
            for e in obs.log
            if e["type"] == "claim" and e["player"] == obs.player
        }
        known = proved(obs)
        chances = self._solve(obs, hard=False).suspects
        shield = [
            s
            for s in self.game.suspects
            if s not in known and (s, True) not in mine and chances.get(s)
        ]
        if shield:
            return max(shield, key=lambda s: chances[s]), True
        frame = [s for s in known if (s, False) not in mine]
        return (rng.choice(frame), False) if frame else None


class Discreet(Advised):
    """The advised player, but a Possessed who follows the Possessed's advice (module docstring)."""

    def _possessed_claim(self, obs: Observation, legal: list[Claim], rng: Random) -> Claim:
        return claim_options(self._log(obs), bots_model())[0].said

    def _possessed_vote(self, obs: Observation, legal: list[Vote], rng: Random) -> Vote:
        return None

    def _possessed_possessed_kill(self, obs: Observation, legal: list[Kill], rng: Random) -> Kill:
        living = [s for s in legal if s is not None]
        found = possessed_kill(self._log(obs), living, bots_model())
        return None if found is None else found[0]


#: The bots by name, for ``deduce.games.simulate.play_game``.
BOTS: dict[str, Callable[[BlackRoseGame, int], Bot]] = {
    "advised": Advised,
    "cautious": Cautious,
    "discreet": Discreet,
    "liar": Liar,
    "random": random_bot,
}
