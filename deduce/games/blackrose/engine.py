"""The Black Rose rules as a seeded state machine, in the style of OpenSpiel.

A :class:`BlackRoseGame` holds what does not change (seats, the Rector's
seat, the cards); :meth:`BlackRoseGame.new_state` starts a
:class:`BlackRoseState`, which works through a stack of steps
(:mod:`deduce.games.machine`): chance nodes for the roles, the shuffles and
the draws, then one seat's decision at a time (the decisions and their
action shapes are listed on :class:`Observation`). Everything that happens
is appended to :attr:`BlackRoseState.events` as a *truth event* (a dict);
:func:`deduce.games.blackrose.observe.observe` turns each into what a given
player logs, and the state keeps every player's log that way. Bots see
:meth:`BlackRoseState.observation`, never the state. The rules are those of
the rulebook (``/work/shared/rules/black-rose.txt``) for 3 to 5 players; the
cards are the documented defaults of :mod:`deduce.games.blackrose.cards`
(16 + 7 + 7 clue cards marked 3, 4 and 5 besides the seven Proofs: piles of
3, 4 and 5 cards with 3, 4 and 5 players; 10 Rector cards, two of them Goals).

A round is Day, Lying Down, Twilight, Night and Rising; there is no Lying
Down and no Night in round 1.

Rule readings, where the rulebook is silent (each is also on the method that
makes it):

- The deal of the role cards is one chance outcome: the Possessed's seat
  among the investigators, each equally likely, or, with 3 players, none
  (the Possessed card is the hidden one), as likely as each seat.
- Setup follows the rulebook's sections: roles, the Rector's three cards,
  the accomplices (the Rector's decision), then the clue piles.
- Shuffles are made of uniformly random picks: the clue cards are dealt one
  at a time round-robin from the first suspect, the first card a pile gets
  being its top. The Rector pile is unordered (each draw is a uniformly
  random card of it); when it is empty at a draw, the Rector's discards
  (played cards too) become the pile.
- Day: an Action card is offered only with a target it can act on: conflit,
  another investigator holding a card or a living suspect whose pile is not
  empty; parler-a, another investigator holding a card; deduction, a living
  suspect whose pile is not empty; reseau, when at least one such pile
  exists. The Rector is never a target. Played cards go face up to the
  Discarded Clues.
- Investigate: not a suspect (living or dead) another investigator
  investigated this round; a dead suspect gives the Graveyard's top card, so
  two investigators may both draw there through two different dead suspects;
  a suspect whose pile (dead: the Graveyard) is empty cannot be chosen; with
  no possible choice the investigation is skipped.
- Conflit takes a uniformly random card; from a suspect, the rest of the
  pile is then shuffled (the rulebook shuffles first: the same). A Trap
  taken from a suspect resolves for the taker; hands never hold Traps.
- Traps resolve at once, before anything else of the turn (Serment's Rector
  decisions interrupt it), and never when glanced at. Serment: the Rector
  picks a living suspect whose pile is not empty, or none, glances at the
  pile and puts its cards back one by one, top first. Embuscade: a random
  card of the drawer's hand goes face down to the Discarded Clues (an empty
  hand: nothing).
- Sermon forbids parler-a, deduction and reseau until the start of the next
  Lying Down, so during the next Day (played in round 5: no effect).
- Lying Down: with 3 players, the reveal comes first, then the discussion,
  then the accusation. Claims happen only there: each investigator in turn
  from the First Player makes up to two claims, about any suspect, dead or
  alive, true or not. Votes are secret: each investigator in turn chooses a
  pair (or none) and nobody sees another's vote; a pair with the quorum is
  accused (at most one pair can reach it), so at most one accusation per
  Lying Down. The Possessed votes like any investigator.
- 3 players: "at any time" is read as at the start of each Lying Down
  (rounds 2 to 5): each investigator in turn may reveal, and a reveal shows
  both roles at once. Once the Possessed is revealed, the real
  investigator's vote alone accuses; the Possessed still claims and kills.
- Twilight: a Goal may be played only if its condition holds then (kills of
  the coming Night do not count). An Event that can do nothing now (veillee
  in round 1, which has no Night) may still be played and is spent.
- Night: the Possessed's choice is a suspect (reveal and kill) or none (stay
  hidden); revealing without killing changes nothing in the rules and is not
  offered. The Rector learns the Possessed's role at the first reveal. The
  Rector then may kill a living suspect not killed that night (veillee: one
  more such choice). Kills are announced together in board order, so their
  order tells nothing; the dead suspects' piles go to the Graveyard, which
  is then shuffled once (the same as once per pile).
- Rising, in this order: the Possessed wins if there is one and both
  accomplices are dead (with no Possessed, 3 players, nobody wins by it);
  else the Rector wins if a Goal was played this round; else, after round 5,
  the Rector wins (nobody else won: the game lasts 2 to 5 rounds); else the
  Rector resolves Profanation (glance at the Graveyard, if not empty, and
  may shuffle it), the First Player token passes to the next investigator
  clockwise (skipping the Rector) and a new round begins.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, ClassVar, TypeAlias

from deduce.errors import DeduceError
from deduce.games.blackrose.cards import (
    LAST_ROUND,
    RECTOR_HAND,
    SERMON_BLOCKS,
    CardData,
    RectorCard,
    default_cards,
)
from deduce.games.blackrose.observe import observe
from deduce.games.machine import Decision, Handler, Step, StepMachine, Steps
from deduce.games.seats import seat_names
from deduce.logs.formats.blackrose import FORMAT
from deduce.logs.jsonl import canonical_text

#: Investigators whose votes for one pair make an accusation, by number of players
#: (3 players: both; once the Possessed is revealed, the real investigator alone).
QUORUM = {3: 2, 4: 2, 5: 3}
#: Claims an investigator may make in one discussion.
CLAIMS = 2
#: The Graveyard, where a place is a suspect's pile or the Graveyard.
GRAVEYARD = None

#: Where a card is or goes: a suspect's pile (its id) or the Graveyard (``GRAVEYARD``).
Place: TypeAlias = str | None
#: What an Action card is played on: a seat (int), a suspect id, or None (reseau).
Target: TypeAlias = int | str | None
#: A decision's context (see ``Observation.context``).
Context: TypeAlias = dict[str, Any]

#: A pair of suspect ids, sorted.
Pair: TypeAlias = tuple[str, str]
#: ``accomplices``: the Rector's pair of accomplices.
Accomplices: TypeAlias = Pair
#: ``before``, ``after``: ``(card_id, target)`` to play an Action card, or None to go on.
CardPlay: TypeAlias = tuple[str, Target] | None
#: ``investigate``: the suspect id investigated (dead: the Graveyard's top).
Investigation: TypeAlias = str
#: ``serment``: the living suspect whose pile the Rector glances at and reorders, or None.
SermentPile: TypeAlias = str | None
#: ``reorder``: the card id the Rector puts back next.
ReorderCard: TypeAlias = str
#: ``reveal_role``: True to reveal (3 players), False not to.
Reveal: TypeAlias = bool
#: ``claim``: ``(suspect, innocent)``, or None to stop.
Claim: TypeAlias = tuple[str, bool] | None
#: ``vote``: the pair voted for, or None.
Vote: TypeAlias = Pair | None
#: ``twilight``: the Rector card id played, or None.
RectorPlay: TypeAlias = str | None
#: ``discard``: the Rector card id discarded, or None to stop.
Discard: TypeAlias = str | None
#: ``possessed_kill``, ``rector_kill``: the living suspect id killed, or None.
Kill: TypeAlias = str | None
#: ``profanation``: True to shuffle the Graveyard, False not to.
Shuffle: TypeAlias = bool
#: Any decision's action, as bots receive and return them (see ``Observation``).
Action: TypeAlias = (
    Accomplices
    | CardPlay
    | Investigation
    | SermentPile
    | ReorderCard
    | Reveal
    | Claim
    | Vote
    | RectorPlay
    | Discard
    | Kill
    | Shuffle
)


@dataclass(frozen=True)
class BlackRoseGame:
    """The fixed facts of a game: seats (in clockwise order), the Rector's seat, the cards."""

    players: tuple[str, ...]
    rector: int
    cards: CardData

    @classmethod
    def create(
        cls, players: int | Sequence[str], cards: CardData | None = None, rector: int = 0
    ) -> BlackRoseGame:
        """A game for these seats (a count uses the default names), 3 to 5 players."""
        names = seat_names("blackrose", players, *FORMAT.players)
        count = len(names)
        if not 0 <= rector < count:
            raise DeduceError(f"the rector must be a seat from 0 to {count - 1}, not {rector}")
        return cls(names, rector, cards or default_cards())

    @property
    def suspects(self) -> tuple[str, ...]:
        """The seven suspects, in board order."""
        return self.cards.suspects

    def log_text(self, player: str, events: Sequence[dict[str, Any]]) -> str:
        """``player``'s canonical log of these log events, checked by the log reader.

        The header carries the suspects inline, so any tool reads the log
        without the bundled data.
        """
        header = {
            "game": "blackrose",
            "version": 1,
            "players": list(self.players),
            "rector": self.players[self.rector],
            "me": player,
            "suspects": list(self.suspects),
        }
        return canonical_text(header, events, f"{player}.jsonl")

    def new_state(self) -> BlackRoseState:
        """The state before the setup (a chance node)."""
        return BlackRoseState(self)


@dataclass(frozen=True)
class Observation:
    """What one player sees: the public table, their own role and hand, their log.

    ``decision`` names the pending decision when it is this player's, and
    ``context`` says what it is about (``{}`` unless given); the actions are:

    - ``accomplices`` (the Rector, at setup): a pair of suspect ids, sorted;
    - ``before`` and ``after`` (an investigator's turn, before and after
      investigating): ``(card_id, target)`` to play an Action card of the
      hand, or None to go on; ``target`` is a seat (int) for conflit or
      parler-a on an investigator, a suspect id for conflit or deduction on a
      suspect, None for reseau; offered again after each card played;
    - ``investigate``: a suspect id (living: the top of its pile; dead: the
      top of the Graveyard);
    - ``serment`` (the Rector, when a Serment trap resolves; context
      ``player``: who drew it): a living suspect's id, to glance at its pile
      and reorder it, or None;
    - ``reorder`` (the Rector, after ``serment``; context ``suspect``,
      ``order``: the cards already put back, top first): the card id to put
      next (the last one follows by itself);
    - ``reveal_role`` (3 players, each investigator at the start of Lying
      Down until someone reveals): True to reveal (both roles are shown),
      False not to;
    - ``claim`` (Lying Down; context ``made``: claims made so far, 0 or 1):
      ``(suspect, innocent)`` with ``innocent`` a bool, or None to stop;
    - ``vote`` (Lying Down, secret): a sorted pair of suspect ids, or None;
    - ``twilight`` (the Rector): a card id of the hand to play (a Goal only
      if its condition holds now), or None;
    - ``discard`` (the Rector; context ``left``: discards still allowed, 1 or
      2): a card id of the hand, or None to stop;
    - ``possessed_kill`` (the Possessed, at Night): a living suspect's id to
      reveal oneself to the Rector and kill it, or None to stay hidden;
    - ``rector_kill`` (the Rector, at Night; context ``extra``: True for the
      veillee's extra kill): a living suspect's id, or None;
    - ``profanation`` (the Rector, at Rising, after the glance): True to
      shuffle the Graveyard, False not to.

    The rest: ``role`` (``rector``, ``investigator`` or ``possessed``: one's
    own), ``hand`` (clue cards; the Rector's: Rector cards), ``log`` (one's
    log events), ``round`` (1-5), ``phase`` (``setup``, ``day``, ``lying``,
    ``twilight``, ``night``, ``rising``, ``over``), ``first`` (the First
    Player's seat), ``dead`` (suspects, in order of death), ``piles``
    (suspect -> cards left in its pile), ``graveyard`` (cards in it),
    ``hands`` (each seat's number of cards), ``investigated`` (this round:
    suspect -> seat), ``accomplices`` (the Rector only, else None),
    ``glanced`` (what this seat saw at its latest glance at each place, top
    first: keys ``hand:PLAYER``, ``pile:SUSPECT`` and ``graveyard``; cards may
    have moved since), ``possessed`` (the Rector only, once the Possessed has
    revealed themselves at night, else None), ``blocked`` (Action effects a
    Sermon forbids now) and ``revealed`` (seat -> role, roles shown by the
    3-player rule).
    """

    seat: int
    player: str
    role: str
    hand: tuple[str, ...]
    log: tuple[dict[str, Any], ...]
    decision: str
    context: Context
    round: int
    phase: str
    first: int
    dead: tuple[str, ...]
    piles: dict[str, int]
    graveyard: int
    hands: tuple[int, ...]
    investigated: dict[str, int]
    accomplices: tuple[str, ...] | None
    glanced: dict[str, tuple[str, ...]]
    possessed: int | None
    blocked: tuple[str, ...]
    revealed: dict[int, str]


@dataclass
class BlackRoseState(StepMachine):
    """One moment of a game (see the module docstring)."""

    game: BlackRoseGame
    events: list[dict[str, Any]] = field(default_factory=list)

    def __post_init__(self) -> None:
        game = self.game
        seats = range(len(game.players))
        self.logs: list[list[dict[str, Any]]] = [[] for _ in seats]
        #: Each seat's role: ``rector``, ``investigator`` or ``possessed`` (after the deal).
        self.roles: dict[int, str] = {game.rector: "rector"}
        self.possessed: int | None = None
        #: The Rector's two accomplices, sorted (empty until chosen).
        self.accomplices: tuple[str, ...] = ()
        #: Each suspect's clue pile, top first; the Graveyard, top first.
        self.piles: dict[str, list[str]] = {s: [] for s in game.suspects}
        self.graveyard: list[str] = []
        #: The Discarded Clues (played cards and traps face up, embuscade's face down).
        self.discards: list[str] = []
        #: Each seat's hand: clue cards; the Rector's: Rector cards.
        self.hands: list[list[str]] = [[] for _ in seats]
        #: The Rector pile (unordered: each draw is a chance outcome) and discards.
        self.rector_pile: list[str] = [c.id for c in game.cards.rector]
        self.rector_discards: list[str] = []
        self.round = 0
        self.phase = "setup"
        self.first = self._next_investigator(game.rector)
        self.dead: list[str] = []
        #: This round: suspect -> the seat that investigated it.
        self.investigated: dict[str, int] = {}
        #: Each seat's latest glance at each place (see ``Observation.glanced``).
        self.glanced: list[dict[str, tuple[str, ...]]] = [{} for _ in seats]
        #: Action effects forbidden by a Sermon until the next Lying Down.
        self.blocked: tuple[str, ...] = ()
        #: This round: the Goal played, Profanation played, veillee's extra kills.
        self.goal: str | None = None
        self.profane = False
        self.vigil = 0
        #: Suspects killed this night, in the order chosen.
        self.kills: list[str] = []
        #: Whether the Possessed has revealed themselves to the Rector at night.
        self.unmasked = False
        #: Roles shown by the 3-player rule; then the real investigator accuses alone.
        self.revealed: dict[int, str] = {}
        self.accuser: int | None = None
        self.votes: dict[int, Vote] = {}
        #: The winning side, once the game is over: ``investigators``, ``possessed``, ``rector``.
        self.winner: str | None = None
        self._start(
            ("roles",), ("rector_draw",), ("accomplices", game.rector, {}), ("deal",), ("round",)
        )

    # ----------------------------------------------------------- interface

    def returns(self) -> list[float]:
        """Each seat's return: 1 for the winners, 0 for the others."""
        winners = self.winners()
        return [1.0 if s in winners else 0.0 for s in range(len(self.game.players))]

    def winners(self) -> list[int]:
        """The seats of the winning side (none before the end).

        The investigators' side is the real investigators (not the Possessed).
        """
        side = {"investigators": "investigator", "possessed": "possessed", "rector": "rector"}.get(
            self.winner or ""
        )
        return [s for s, r in sorted(self.roles.items()) if r == side]

    def observation(self, seat: int) -> Observation:
        """What ``seat`` sees now (public table, own role, hand and log, pending decision)."""
        decision, context = "", {}
        step = self._waiting
        if step is not None and step[0] != "chance" and step[1] == seat:
            decision, context = step[0], dict(step[2])
        rector = seat == self.game.rector
        return Observation(
            seat,
            self.game.players[seat],
            self.roles.get(seat, ""),
            tuple(self.hands[seat]),
            tuple(self.logs[seat]),
            decision,
            context,
            self.round,
            self.phase,
            self.first,
            tuple(self.dead),
            {s: len(p) for s, p in self.piles.items()},
            len(self.graveyard),
            tuple(len(h) for h in self.hands),
            dict(self.investigated),
            self.accomplices if rector else None,
            dict(self.glanced[seat]),
            self.possessed if rector and self.unmasked else None,
            self.blocked,
            dict(self.revealed),
        )

    def living(self) -> list[str]:
        """The living suspects, in board order."""
        return [s for s in self.game.suspects if s not in self.dead]

    def innocent_dead(self) -> int:
        """How many innocent suspects (not accomplices) are dead."""
        return sum(1 for s in self.dead if s not in self.accomplices)

    # --------------------------------------------------------------- engine

    def _emit(self, event: dict[str, Any]) -> None:
        """Record a truth event and append what each player learns of it to their log."""
        self.events.append(event)
        for seat, player in enumerate(self.game.players):
            self.logs[seat].extend(observe(event, player, self.game.players))

    def _name(self, seat: int) -> str:
        return self.game.players[seat]

    def _investigators(self) -> list[int]:
        """Every seat but the Rector's, clockwise from the First Player."""
        n = len(self.game.players)
        return [s % n for s in range(self.first, self.first + n) if s % n != self.game.rector]

    def _next_investigator(self, seat: int) -> int:
        """The next investigator clockwise (to the left) of ``seat``."""
        n = len(self.game.players)
        following = (seat + 1) % n
        return following if following != self.game.rector else (following + 1) % n

    def _pairs(self) -> list[Pair]:
        """Every pair of suspects, each sorted."""
        return list(combinations(sorted(self.game.suspects), 2))

    def _seen(self, seat: int, cards: Sequence[str], holder: int | None) -> dict[str, Any]:
        """The ``seen_by`` and ``proofs`` keys of a truth event where ``seat`` sees ``cards``.

        ``holder``: the seat whose hand the cards are in (None: a pile).
        """
        proofs = []
        for card_id in cards:
            suspect = self.game.cards.clue(card_id).suspect
            if suspect is not None:
                proofs.append(
                    {"suspect": suspect}
                    if holder is None
                    else {"suspect": suspect, "player": self._name(holder)}
                )
        return {"seen_by": self._name(seat), "proofs": proofs}

    def _glance(
        self, seat: int, place: str, cards: Sequence[str], holder: int | None = None
    ) -> None:
        """``seat`` glances at ``cards`` of ``place`` (see ``Observation.glanced``).

        A glance never resolves a Trap.
        """
        self.glanced[seat][place] = tuple(cards)
        self._emit(
            {
                "type": "glance",
                "player": self._name(seat),
                "place": place,
                "cards": list(cards),
                **self._seen(seat, cards, holder),
            }
        )

    def _place(self, place: Place) -> list[str]:
        """A suspect's pile, or the Graveyard (``GRAVEYARD``)."""
        return self.graveyard if place is None else self.piles[place]

    def _end(self, side: str) -> None:
        """The game ends: ``side`` wins and every role but the Rector's is shown."""
        self.winner = side
        self.phase = "over"
        roles = {self._name(s): r for s, r in sorted(self.roles.items()) if r != "rector"}
        self._emit({"type": "end", "winner": side, "round": self.round, "roles": roles})
        self.over = True

    # ------------------------------------------------------------- shuffles

    def _step_shuffle(self, places: tuple[Place, ...]) -> None:
        """Gather the cards of ``places`` and deal them back at random (see ``_step_deal_out``)."""
        pool = tuple(c for p in places for c in self._place(p))
        for place in places:
            self._place(place).clear()
        self._then(("deal_out", places, pool, 0))

    def _step_deal_out(self, places: tuple[Place, ...], pool: tuple[str, ...], dealt: int) -> None:
        """The next card, uniformly among ``pool``, under the cards of the next place in turn.

        Places take cards round-robin, so the first card a place gets is its top.
        """
        if len(pool) > 1:
            self._chance("dealt", pool, places, pool, dealt)
            return
        if pool:
            self._place(places[dealt % len(places)]).append(pool[0])
        if places == (GRAVEYARD,):
            self._emit({"type": "shuffled", "graveyard": list(self.graveyard)})
        else:
            self._emit({"type": "shuffled", "piles": {p: list(self._place(p)) for p in places}})

    def _chance_dealt(
        self, card: str, places: tuple[Place, ...], pool: tuple[str, ...], dealt: int
    ) -> None:
        self._place(places[dealt % len(places)]).append(card)
        self._then(("deal_out", places, tuple(c for c in pool if c != card), dealt + 1))

    # ------------------------------------------------------------- the setup

    def _step_roles(self) -> None:
        """Deal the role cards: the Possessed's seat, or (3 players) None when it is hidden.

        The investigators (the seats but the Rector's) are equally likely; with
        3 players the three cards (one Possessed) deal two and hide one, so
        "none" is as likely as each seat.
        """
        seats = sorted(self._investigators())
        self._chance("roles", [*seats, *([None] if len(seats) == 2 else [])])

    def _chance_roles(self, possessed: int | None) -> None:
        self.possessed = possessed
        for seat in self._investigators():
            self.roles[seat] = "possessed" if seat == possessed else "investigator"
        roles = {self._name(s): r for s, r in sorted(self.roles.items()) if r != "rector"}
        self._emit({"type": "deal", "roles": roles})

    def _step_rector_draw(self) -> None:
        """The Rector draws up to a hand of three: a random card of the Rector pile.

        An empty pile is first made of the Rector's discards.
        """
        if len(self.hands[self.game.rector]) >= RECTOR_HAND:
            return
        if not self.rector_pile:  # then the discards hold a card: there are at least three
            self.rector_pile, self.rector_discards = self.rector_discards, []
            self._emit({"type": "rector_reshuffle", "cards": len(self.rector_pile)})
        self._chance("rector_card", self.rector_pile)

    def _chance_rector_card(self, card: str) -> None:
        self.rector_pile.remove(card)
        self.hands[self.game.rector].append(card)
        self._emit({"type": "rector_draw", "card": card})
        self._then(("rector_draw",))

    def _choices_accomplices(self, seat: int, context: Context) -> list[Accomplices]:
        return self._pairs()

    def _do_accomplices(self, action: Accomplices, seat: int, context: Context) -> None:
        """The Rector removes the accomplices' Proofs, so knows the five innocent suspects."""
        self.accomplices = action
        innocent = [s for s in self.game.suspects if s not in action]
        self._emit(
            {
                "type": "accomplices",
                "suspects": list(action),
                "seen_by": self._name(seat),
                "proofs": [{"suspect": s} for s in innocent],
            }
        )

    def _step_deal(self) -> None:
        """Shuffle the clue cards used with this many players and deal them to the seven piles.

        Cards marked 5 are left out with 4 players, 4 and 5 with 3 players;
        the accomplices' Proofs are out.
        """
        cards = self.game.cards
        removed = {c.id for c in cards.clues if c.suspect in self.accomplices}
        pool = tuple(c for c in cards.used_clues(len(self.game.players)) if c not in removed)
        self._then(("deal_out", self.game.suspects, pool, 0))

    # -------------------------------------------------------------- the day

    def _step_round(self) -> None:
        """A new round: each investigator's turn from the First Player, then the other phases.

        Round 1 has no Lying Down and no Night.
        """
        self.round += 1
        self.phase = "day"
        self.investigated = {}
        self.goal, self.profane, self.vigil = None, False, 0
        self._emit({"type": "round", "round": self.round, "first": self._name(self.first)})
        turns: list[Step] = [
            (step, s, {})
            for s in self._investigators()
            for step in ("before", "investigate", "after")
        ]
        later = [("lying",), ("vespers",), ("night",)] if self.round > 1 else [("vespers",)]
        self._then(*turns, *later, ("rising",))

    def _targets(self, seat: int, effect: str) -> list[Target]:
        """What an Action card may be played on (see the module docstring)."""
        others: list[Target] = [s for s in self._investigators() if s != seat and self.hands[s]]
        piles: list[Target] = [s for s in self.living() if self.piles[s]]
        targets: dict[str, list[Target]] = {
            "conflit": [*others, *piles],
            "parler-a": others,
            "deduction": piles,
            "reseau": [None] if piles else [],
        }
        return targets[effect]

    def _card_plays(self, seat: int, context: Context) -> list[CardPlay]:
        """None, or an Action card of the hand with each target; nothing to play: no decision.

        Cards a Sermon forbids are not offered.
        """
        plays = []
        for card_id in self.hands[seat]:
            card = self.game.cards.clue(card_id)
            if card.kind == "action" and card.effect not in self.blocked:
                plays += [(card_id, t) for t in self._targets(seat, card.effect or "")]
        return [None, *plays] if plays else []

    def _play_card(self, step: str, action: CardPlay, seat: int, context: Context) -> None:
        """Play the card, then the same decision again; None goes on."""
        if action is not None:
            self._then(("play", seat, *action), (step, seat, context))

    _choices_before = _choices_after = _card_plays

    def _do_before(self, action: CardPlay, seat: int, context: Context) -> None:
        self._play_card("before", action, seat, context)

    def _do_after(self, action: CardPlay, seat: int, context: Context) -> None:
        self._play_card("after", action, seat, context)

    def _step_play(self, seat: int, card_id: str, target: Target) -> None:
        """The card goes face up to the Discarded Clues and acts (``ACTIONS``)."""
        effect = self.game.cards.clue(card_id).effect or ""
        self.hands[seat].remove(card_id)
        self.discards.append(card_id)
        self._emit(
            {
                "type": "play",
                "player": self._name(seat),
                "card": card_id,
                "target": self._name(target) if isinstance(target, int) else target,
            }
        )
        self.ACTIONS[effect](self, seat, target)

    def _action_conflit(self, seat: int, target: Target) -> None:
        """A random clue card of the target investigator's hand or of the suspect's pile."""
        if isinstance(target, int):
            self._chance("take_hand", self.hands[target], seat, target)
        else:
            self._chance("take_pile", self.piles[str(target)], seat, target)

    def _chance_take_hand(self, card: str, seat: int, victim: int) -> None:
        self.hands[victim].remove(card)
        self._took(seat, card, self._name(victim))
        self._then(("receive", seat, card))

    def _chance_take_pile(self, card: str, seat: int, suspect: str) -> None:
        """The rest of the pile is shuffled, then the card is the taker's (a Trap resolves)."""
        self.piles[suspect].remove(card)
        self._took(seat, card, suspect)
        self._then(("shuffle", (suspect,)), ("receive", seat, card))

    def _took(self, seat: int, card: str, source: str) -> None:
        self._emit(
            {
                "type": "take",
                "player": self._name(seat),
                "from": source,
                "card": card,
                **self._seen(seat, [card], seat),
            }
        )

    def _action_parler_a(self, seat: int, target: Target) -> None:
        """Glance at another investigator's hand."""
        assert isinstance(target, int)
        self._glance(seat, f"hand:{self._name(target)}", self.hands[target], target)

    def _action_deduction(self, seat: int, target: Target) -> None:
        """Glance at the top two cards of a living suspect's pile."""
        self._glance(seat, f"pile:{target}", self.piles[str(target)][:2])

    def _action_reseau(self, seat: int, target: Target) -> None:
        """Glance at the top card of every living suspect's pile, in board order."""
        for suspect in self.living():
            if self.piles[suspect]:
                self._glance(seat, f"pile:{suspect}", self.piles[suspect][:1])

    def _source(self, suspect: str) -> list[str]:
        """Where investigating ``suspect`` draws: its pile, or the Graveyard once it is dead."""
        return self.graveyard if suspect in self.dead else self.piles[suspect]

    def _choices_investigate(self, seat: int, context: Context) -> list[Investigation]:
        """Suspects nobody investigated this round whose pile (dead: the Graveyard) has a card."""
        return [s for s in self.game.suspects if s not in self.investigated and self._source(s)]

    def _do_investigate(self, action: Investigation, seat: int, context: Context) -> None:
        self.investigated[action] = seat
        card = self._source(action).pop(0)
        self._emit(
            {
                "type": "investigate",
                "player": self._name(seat),
                "suspect": action,
                "dead": action in self.dead,
                "card": card,
                **self._seen(seat, [card], seat),
            }
        )
        self._then(("receive", seat, card))

    def _step_receive(self, seat: int, card_id: str) -> None:
        """A card drawn or taken: a Trap is shown to all, discarded and resolved, else kept."""
        card = self.game.cards.clue(card_id)
        if card.kind != "trap":
            self.hands[seat].append(card_id)
            return
        self.discards.append(card_id)
        self._emit({"type": "trap", "player": self._name(seat), "card": card_id})
        self.TRAPS[card.effect or ""](self, seat)

    def _trap_serment(self, seat: int) -> None:
        self._then(("serment", self.game.rector, {"player": self._name(seat)}))

    def _trap_embuscade(self, seat: int) -> None:
        if self.hands[seat]:
            self._chance("ambush", self.hands[seat], seat)

    def _chance_ambush(self, card: str, seat: int) -> None:
        """Embuscade: the card goes face down to the Discarded Clues."""
        self.hands[seat].remove(card)
        self.discards.append(card)
        self._emit({"type": "discard", "player": self._name(seat), "card": card})

    def _choices_serment(self, seat: int, context: Context) -> list[SermentPile]:
        piles = [s for s in self.living() if self.piles[s]]
        return [None, *piles] if piles else []

    def _do_serment(self, action: SermentPile, seat: int, context: Context) -> None:
        if action is not None:
            self._glance(seat, f"pile:{action}", self.piles[action])
            self._then(("reorder", seat, {"suspect": action, "order": ()}))

    def _choices_reorder(self, seat: int, context: Context) -> list[ReorderCard]:
        """The cards not put back yet (a pile of one card has nothing to reorder)."""
        pile = self.piles[context["suspect"]]
        return [c for c in pile if c not in context["order"]] if len(pile) > 1 else []

    def _do_reorder(self, action: ReorderCard, seat: int, context: Context) -> None:
        suspect, order = context["suspect"], (*context["order"], action)
        rest = [c for c in self.piles[suspect] if c not in order]
        if len(rest) > 1:
            self._then(("reorder", seat, {"suspect": suspect, "order": order}))
            return
        self.piles[suspect] = [*order, *rest]
        self.glanced[seat][f"pile:{suspect}"] = tuple(self.piles[suspect])
        self._emit({"type": "reorder", "suspect": suspect, "cards": list(self.piles[suspect])})

    # ------------------------------------------------------- the Lying Down

    def _step_lying(self) -> None:
        """The Sermon ends; with 3 players, the reveal; then the discussion and accusation."""
        self.phase = "lying"
        self.blocked = ()
        reveal: list[Step] = (
            [("reveal_role", s, {}) for s in self._investigators()]
            if len(self.game.players) == 3
            else []
        )
        self._then(*reveal, ("discussion",))

    def _choices_reveal_role(self, seat: int, context: Context) -> list[Reveal]:
        """Reveal or not, until someone has revealed (then both roles are shown)."""
        return [] if self.revealed else [False, True]

    def _do_reveal_role(self, action: Reveal, seat: int, context: Context) -> None:
        """A reveal forces the other's: two real investigators lose at once (the Rector wins).

        Else the real investigator accuses alone from now on.
        """
        if not action:
            return
        self.revealed = {s: self.roles[s] for s in self._investigators()}
        self._emit(
            {
                "type": "reveal",
                "player": self._name(seat),
                "roles": {self._name(s): r for s, r in sorted(self.revealed.items())},
            }
        )
        if self.possessed is None:
            self._end("rector")
        else:
            self.accuser = next(s for s, r in self.revealed.items() if r == "investigator")

    def _step_discussion(self) -> None:
        self._then(*(("claim", s, {"made": 0}) for s in self._investigators()), ("accusation",))

    def _choices_claim(self, seat: int, context: Context) -> list[Claim]:
        """Any suspect, innocent or not (anyone may lie), or None to stop."""
        return [None, *((s, b) for s in self.game.suspects for b in (True, False))]

    def _do_claim(self, action: Claim, seat: int, context: Context) -> None:
        if action is None:
            return
        suspect, innocent = action
        self._emit(
            {"type": "claim", "player": self._name(seat), "suspect": suspect, "innocent": innocent}
        )
        if context["made"] + 1 < CLAIMS:
            self._then(("claim", seat, {"made": context["made"] + 1}))

    def _step_accusation(self) -> None:
        """Every investigator votes (only the real one once the Possessed is revealed)."""
        voters = [self.accuser] if self.accuser is not None else self._investigators()
        self.votes = {}
        self._then(*(("vote", s, {}) for s in voters), ("tally",))

    def _choices_vote(self, seat: int, context: Context) -> list[Vote]:
        return [None, *self._pairs()]

    def _do_vote(self, action: Vote, seat: int, context: Context) -> None:
        self.votes[seat] = action

    def _step_tally(self) -> None:
        """A pair with the quorum is accused; the Rector answers; correct: the investigators win."""
        quorum = 1 if self.accuser is not None else QUORUM[len(self.game.players)]
        self._emit(
            {
                "type": "votes",
                "votes": {
                    self._name(s): None if v is None else list(v) for s, v in self.votes.items()
                },
            }
        )
        counts = Counter(v for v in self.votes.values() if v is not None)
        accused = [pair for pair, n in counts.items() if n >= quorum]
        if not accused:
            return
        correct = accused[0] == self.accomplices
        self._emit({"type": "accuse", "suspects": list(accused[0]), "correct": correct})
        if correct:
            self._end("investigators")

    # ---------------------------------------------------------- the Twilight

    def _step_vespers(self) -> None:
        """Twilight (Vespérines): the Rector plays, discards and draws back to three."""
        self.phase = "twilight"
        self._then(("twilight", self.game.rector, {}), ("rector_draw",))

    def _playable(self, card: RectorCard) -> bool:
        """An Event always; a Goal only if its condition holds now."""
        return card.kind != "goal" or (
            self.innocent_dead() >= card.innocent_dead_at_least and self.round >= card.from_round
        )

    def _choices_twilight(self, seat: int, context: Context) -> list[RectorPlay]:
        cards = self.game.cards
        return [None, *(c for c in self.hands[seat] if self._playable(cards.rector_card(c)))]

    def _do_twilight(self, action: RectorPlay, seat: int, context: Context) -> None:
        """Play the card (face down to the Rector's discards), then discard one, or two if none."""
        self._then(("discard", seat, {"left": 2 if action is None else 1}))
        if action is None:
            return
        card = self.game.cards.rector_card(action)
        self.hands[seat].remove(action)
        self.rector_discards.append(action)
        if card.kind == "goal":
            self.goal = action
            self._emit({"type": "goal", "card": action, "condition": card.condition()})
        else:
            self._emit({"type": "rector_play", "card": action})
            self.EVENTS[card.effect or ""](self)

    def _event_sermon(self) -> None:
        self.blocked = SERMON_BLOCKS

    def _event_profanation(self) -> None:
        self.profane = True

    def _event_veillee(self) -> None:
        self.vigil += 1

    def _choices_discard(self, seat: int, context: Context) -> list[Discard]:
        return [None, *self.hands[seat]] if self.hands[seat] else []

    def _do_discard(self, action: Discard, seat: int, context: Context) -> None:
        if action is None:
            return
        self.hands[seat].remove(action)
        self.rector_discards.append(action)
        self._emit({"type": "rector_discard", "card": action})
        if context["left"] > 1:
            self._then(("discard", seat, {"left": context["left"] - 1}))

    # -------------------------------------------------------------- the Night

    def _step_night(self) -> None:
        """The Possessed (if any) may kill, then the Rector (twice after a veillee)."""
        self.phase = "night"
        self.kills = []
        rector = self.game.rector
        possessed: list[Step] = (
            [] if self.possessed is None else [("possessed_kill", self.possessed, {})]
        )
        kills = [("rector_kill", rector, {"extra": i > 0}) for i in range(1 + self.vigil)]
        self._then(*possessed, *kills, ("dawn",))

    def _kill_targets(self, seat: int, context: Context) -> list[Kill]:
        """A living suspect not killed tonight, or None."""
        targets = [s for s in self.living() if s not in self.kills]
        return [None, *targets] if targets else []

    _choices_possessed_kill = _choices_rector_kill = _kill_targets

    def _do_possessed_kill(self, action: Kill, seat: int, context: Context) -> None:
        """A kill reveals the Possessed to the Rector (who logs their role the first time)."""
        if action is not None and not self.unmasked:
            self.unmasked = True
            self._emit(
                {
                    "type": "unmask",
                    "player": self._name(seat),
                    "seen_by": self._name(self.game.rector),
                }
            )
        self._kill(action, seat, context)

    def _kill(self, action: Kill, seat: int, context: Context) -> None:
        """The suspect will die at dawn (None: no kill)."""
        if action is not None:
            self.kills.append(action)
            self._emit({"type": "night_kill", "player": self._name(seat), "suspect": action})

    _do_rector_kill = _kill

    def _step_dawn(self) -> None:
        """The kills are announced together, in board order; the piles go to the Graveyard.

        The Graveyard is shuffled once if it got cards.
        """
        fallen = [s for s in self.game.suspects if s in self.kills]
        added = False
        for suspect in fallen:
            self.dead.append(suspect)
            self._emit({"type": "kill", "suspect": suspect})
            added = added or bool(self.piles[suspect])
            self.graveyard += self.piles[suspect]
            self.piles[suspect] = []
        if added:
            self._then(("shuffle", (GRAVEYARD,)))

    # ------------------------------------------------------------- the Rising

    def _step_rising(self) -> None:
        """Victory checks (Possessed, Goal, round 5), Profanation, the First Player token passes."""
        self.phase = "rising"
        if self.possessed is not None and all(s in self.dead for s in self.accomplices):
            self._end("possessed")
        elif self.goal is not None or self.round == LAST_ROUND:
            self._end("rector")
        else:
            self.first = self._next_investigator(self.first)
            profanation: list[Step] = []
            if self.profane and self.graveyard:
                self._glance(self.game.rector, "graveyard", self.graveyard)
                profanation = [("profanation", self.game.rector, {})]
            self._then(*profanation, ("round",))

    def _choices_profanation(self, seat: int, context: Context) -> list[Shuffle]:
        """Shuffle the Graveyard or not (one card: nothing to shuffle)."""
        return [False, True] if len(self.graveyard) > 1 else []

    def _do_profanation(self, action: Shuffle, seat: int, context: Context) -> None:
        if action:
            self._then(("shuffle", (GRAVEYARD,)))

    #: What each effect of the cards data does (``cards.ACTION_EFFECTS``,
    #: ``TRAP_EFFECTS``, ``EVENT_EFFECTS``), by effect id.
    ACTIONS: ClassVar[Mapping[str, Handler]] = {
        "conflit": _action_conflit,
        "parler-a": _action_parler_a,
        "deduction": _action_deduction,
        "reseau": _action_reseau,
    }
    TRAPS: ClassVar[Mapping[str, Handler]] = {
        "serment": _trap_serment,
        "embuscade": _trap_embuscade,
    }
    EVENTS: ClassVar[Mapping[str, Handler]] = {
        "sermon": _event_sermon,
        "profanation": _event_profanation,
        "veillee": _event_veillee,
    }

    STEPS = Steps(
        auto={
            "shuffle": _step_shuffle,
            "deal_out": _step_deal_out,
            "roles": _step_roles,
            "rector_draw": _step_rector_draw,
            "deal": _step_deal,
            "round": _step_round,
            "play": _step_play,
            "receive": _step_receive,
            "lying": _step_lying,
            "discussion": _step_discussion,
            "accusation": _step_accusation,
            "tally": _step_tally,
            "vespers": _step_vespers,
            "night": _step_night,
            "dawn": _step_dawn,
            "rising": _step_rising,
        },
        decisions={
            "accomplices": Decision(_choices_accomplices, _do_accomplices),
            "before": Decision(_choices_before, _do_before),
            "after": Decision(_choices_after, _do_after),
            "investigate": Decision(_choices_investigate, _do_investigate),
            "serment": Decision(_choices_serment, _do_serment),
            "reorder": Decision(_choices_reorder, _do_reorder),
            "reveal_role": Decision(_choices_reveal_role, _do_reveal_role),
            "claim": Decision(_choices_claim, _do_claim),
            "vote": Decision(_choices_vote, _do_vote),
            "twilight": Decision(_choices_twilight, _do_twilight),
            "discard": Decision(_choices_discard, _do_discard),
            "possessed_kill": Decision(_choices_possessed_kill, _do_possessed_kill),
            "rector_kill": Decision(_choices_rector_kill, _do_rector_kill),
            "profanation": Decision(_choices_profanation, _do_profanation),
        },
        chances={
            "dealt": _chance_dealt,
            "roles": _chance_roles,
            "rector_card": _chance_rector_card,
            "take_hand": _chance_take_hand,
            "take_pile": _chance_take_pile,
            "ambush": _chance_ambush,
        },
    )
