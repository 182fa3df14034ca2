"""The Black Rose's cards as data: Clue cards (Proof, Action, Trap) and Rector cards (Event, Goal).

The rulebook describes the kinds of cards and prints the text of a few
(Conflit, Serment, Sermon, Profanation, Mac Snòr) but gives neither the card
list nor the counts. The bundled file (``deduce/data/blackrose-cards.json``)
is a documented default written for deduce, not the printed cards:

- Clue cards: one Proof per suspect (``proof-s1``... ``proof-s7``, always
  used) and 30 others, each marked with ``players``, the smallest number of
  players using it (the rule removes the cards numbered 5 with 4 players and
  those numbered 4 and 5 with 3 players):

  - 16 marked 3: conflit x4, parler-a x3, deduction x3, reseau x2, serment x2,
    embuscade x2;
  - 7 marked 4 and 7 marked 5: conflit x2, parler-a, deduction, reseau,
    serment, embuscade each.

  Without the accomplices' two Proofs, the seven piles then hold 3 cards each
  with 3 players (21 cards), 4 with 4 (28) and 5 with 5 (35).
- Rector cards (10): sermon x3, profanation x3, veillee x2 and the two Goals,
  ``mac-snor`` (at least 3 innocent suspects dead) and ``glas`` (at least 2
  innocent suspects dead, playable from round 4 on).

Effects are a small vocabulary that the engine implements (see
:mod:`deduce.games.blackrose.engine` for the readings):

- Action cards (``ACTION_EFFECTS``): ``conflit`` (rulebook: choose an
  investigator or a living suspect and take one of their clue cards at
  random), ``parler-a`` "Speak to" (invented: glance at another
  investigator's hand), ``deduction`` (invented: glance at the top two cards
  of a living suspect's pile), ``reseau`` "Network" (invented: glance at the
  top card of every living suspect's pile);
- Traps (``TRAP_EFFECTS``): ``serment`` (rulebook: the Rector may glance at
  the pile of any living suspect and reorder it), ``embuscade`` (invented: the
  drawer discards a random card of their hand, face down);
- Rector events (``EVENT_EFFECTS``): ``sermon`` (rulebook: until the next
  Lying Down, investigators may not play parler-a, deduction, reseau),
  ``profanation`` (rulebook: at Rising the Rector glances at the Graveyard and
  may shuffle it), ``veillee`` (invented: the Rector may kill one more suspect
  this night);
- Goals: a condition, ``innocent_dead_at_least`` (1 to 5) and optionally
  ``from_round`` (1 to 5, default 1); at Rising, if no one else has won, the
  Rector wins.

A user file has the same shape: an object with ``clues`` (objects ``{"id",
"kind": "proof", "suspect"}`` or ``{"id", "kind": "action"|"trap", "effect",
"players": 3|4|5}``; exactly seven Proofs, for seven different suspects,
whose ids, in file order, are the game's suspects), ``rector`` (objects
``{"id", "kind": "event", "effect"}`` or ``{"id", "kind": "goal",
"innocent_dead_at_least", "from_round"?}``; at least three cards) and an
optional ``note``. Card ids are unique over both lists. Every problem is a
one-line ``LogError`` naming the file and, when the problem lies in one
object or list of the file, its line.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any

from deduce.data import bundled_json
from deduce.data.located import Invalid, check_top, load_data, parse_data
from deduce.logs.formats.blackrose import SUSPECT_COUNT
from deduce.logs.ids import ID_PATTERN

DEFAULT_CARDS_FILE = "blackrose-cards.json"
#: What a cards file is called in messages.
WHAT = "blackrose cards file"
#: Effects of the Action cards, of the Traps and of the Rector's Event cards.
ACTION_EFFECTS: tuple[str, ...] = ("conflit", "parler-a", "deduction", "reseau")
TRAP_EFFECTS: tuple[str, ...] = ("serment", "embuscade")
EVENT_EFFECTS: tuple[str, ...] = ("sermon", "profanation", "veillee")
#: The Action effects a Sermon forbids until the next Lying Down.
SERMON_BLOCKS: tuple[str, ...] = ("parler-a", "deduction", "reseau")
#: Player counts a clue card may be marked with (the smallest count using it).
PLAYER_MARKS: tuple[int, ...] = (3, 4, 5)
#: The last round, and the most innocent suspects that can die (seven less two accomplices).
LAST_ROUND, INNOCENTS = 5, SUSPECT_COUNT - 2
#: The Rector holds this many cards: the pile needs at least as many.
RECTOR_HAND = 3
#: Keys of each kind of card, and the keys a kind may leave out.
CLUE_KEYS: dict[str, tuple[str, ...]] = {
    "proof": ("id", "kind", "suspect"),
    "action": ("id", "kind", "effect", "players"),
    "trap": ("id", "kind", "effect", "players"),
}
RECTOR_KEYS: dict[str, tuple[str, ...]] = {
    "event": ("id", "kind", "effect"),
    "goal": ("id", "kind", "innocent_dead_at_least"),
}
OPTIONAL_KEYS: dict[str, tuple[str, ...]] = {"goal": ("from_round",)}
#: The effects each kind of card may have.
KIND_EFFECTS: dict[str, tuple[str, ...]] = {
    "action": ACTION_EFFECTS,
    "trap": TRAP_EFFECTS,
    "event": EVENT_EFFECTS,
}


@dataclass(frozen=True)
class ClueCard:
    """A clue card: ``kind`` ``proof`` (of ``suspect``), ``action`` or ``trap`` (with ``effect``).

    ``players``: the smallest number of players the card is used with (a
    Proof: always used, 3).
    """

    id: str
    kind: str
    effect: str | None = None
    suspect: str | None = None
    players: int = 3


@dataclass(frozen=True)
class RectorCard:
    """A Rector card: ``kind`` ``event`` (with ``effect``) or ``goal`` (with its condition).

    A goal may be played only when at least ``innocent_dead_at_least``
    innocent suspects are dead and the round is at least ``from_round``.
    """

    id: str
    kind: str
    effect: str | None = None
    innocent_dead_at_least: int = 0
    from_round: int = 1

    def condition(self) -> dict[str, int]:
        """A goal's condition as the log's ``goal`` event writes it.

        The round is public, so ``from_round`` is not part of it.
        """
        return {"innocent_dead_at_least": self.innocent_dead_at_least}


@dataclass(frozen=True)
class CardData:
    """Every card of a game: clue cards and Rector cards, in file order."""

    clues: tuple[ClueCard, ...]
    rector: tuple[RectorCard, ...]
    _clue: dict[str, ClueCard] = field(init=False, repr=False, compare=False, hash=False)
    _rector: dict[str, RectorCard] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_clue", {c.id: c for c in self.clues})
        object.__setattr__(self, "_rector", {c.id: c for c in self.rector})

    @property
    def suspects(self) -> tuple[str, ...]:
        """The seven suspects: those of the Proof cards, in file order."""
        return tuple(c.suspect for c in self.clues if c.suspect is not None)

    def clue(self, card_id: str) -> ClueCard:
        """The clue card with this id."""
        return self._clue[card_id]

    def rector_card(self, card_id: str) -> RectorCard:
        """The Rector card with this id."""
        return self._rector[card_id]

    def used_clues(self, players: int) -> tuple[str, ...]:
        """Ids of the clue cards used with this many players (Proofs included), in file order."""
        return tuple(c.id for c in self.clues if c.players <= players)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_card(
    raw: Any, where: tuple[str, int], keys: dict[str, tuple[str, ...]], seen: set[str]
) -> tuple[str, str]:
    """A card object's kind and id, checking its keys, its id and its effect if it has one."""
    what = f"{where[0]} card {where[1] + 1}"
    if not isinstance(raw, dict):
        raise Invalid(where, f"{what} must be an object with id and kind")
    kind = raw.get("kind")
    if not isinstance(kind, str) or kind not in keys:
        raise Invalid(where, f"{what}: kind must be one of {', '.join(keys)}, not {kind!r}")
    extra = sorted(set(raw) - set(keys[kind]) - set(OPTIONAL_KEYS.get(kind, ())))
    missing = [k for k in keys[kind] if k not in raw]
    if extra or missing:
        problem = f"unknown key {extra[0]!r}" if extra else f"missing key {missing[0]!r}"
        raise Invalid(where, f"{what}: {problem}")
    cid = raw["id"]
    if not isinstance(cid, str) or not ID_PATTERN.match(cid):
        raise Invalid(where, f"{what}: id must match [a-z0-9][a-z0-9_-]*")
    if cid in seen:
        raise Invalid(where, f"{what}: duplicate id {cid!r}")
    seen.add(cid)
    if kind in KIND_EFFECTS and raw["effect"] not in KIND_EFFECTS[kind]:
        raise Invalid(
            where,
            f"card {cid!r}: unknown {kind} effect {raw['effect']!r} "
            f"(effects: {', '.join(KIND_EFFECTS[kind])})",
        )
    return kind, cid


def _number(
    raw: dict[str, Any], key: str, allowed: range | tuple[int, ...], where: tuple[str, int]
) -> int:
    """``raw[key]``, an integer among ``allowed``."""
    value = raw[key]
    if not _is_int(value) or value not in allowed:
        low, high = min(allowed), max(allowed)
        raise Invalid(
            where,
            f"card {raw['id']!r}: {key} must be an integer from {low} to {high}, not {value!r}",
        )
    return value


def _clue(raw: Any, index: int, seen: set[str]) -> ClueCard:
    """Clue card ``index`` (from 0), checked."""
    where = ("clues", index)
    kind, cid = _check_card(raw, where, CLUE_KEYS, seen)
    if kind == "proof":
        suspect = raw["suspect"]
        if not isinstance(suspect, str) or not ID_PATTERN.match(suspect):
            raise Invalid(where, f"card {cid!r}: suspect must be an id ([a-z0-9][a-z0-9_-]*)")
        return ClueCard(cid, kind, suspect=suspect)
    return ClueCard(cid, kind, raw["effect"], players=_number(raw, "players", PLAYER_MARKS, where))


def _clues(raw: Any, seen: set[str]) -> tuple[ClueCard, ...]:
    """The clue cards: exactly one Proof for each of seven different suspects."""
    if not isinstance(raw, list):
        raise Invalid(("clues",), "'clues' must be a list of clue cards")
    cards = tuple(_clue(item, i, seen) for i, item in enumerate(raw))
    suspects = [c.suspect for c in cards if c.kind == "proof"]
    if len(suspects) != SUSPECT_COUNT or len(set(suspects)) != SUSPECT_COUNT:
        raise Invalid(
            ("clues",),
            f"'clues' must hold exactly {SUSPECT_COUNT} Proof cards, one "
            f"for each suspect (found {len(suspects)} Proofs for "
            f"{len(set(suspects))} suspects)",
        )
    return cards


def _rector_card(raw: Any, index: int, seen: set[str]) -> RectorCard:
    """Rector card ``index`` (from 0), checked."""
    where = ("rector", index)
    kind, cid = _check_card(raw, where, RECTOR_KEYS, seen)
    if kind == "event":
        return RectorCard(cid, kind, raw["effect"])
    least = _number(raw, "innocent_dead_at_least", range(1, INNOCENTS + 1), where)
    first = (
        _number(raw, "from_round", range(1, LAST_ROUND + 1), where) if "from_round" in raw else 1
    )
    return RectorCard(cid, kind, innocent_dead_at_least=least, from_round=first)


def _rector(raw: Any, seen: set[str]) -> tuple[RectorCard, ...]:
    if not isinstance(raw, list) or len(raw) < RECTOR_HAND:
        raise Invalid(
            ("rector",),
            f"'rector' must be a list of at least {RECTOR_HAND} Rector cards (the Rector's hand)",
        )
    return tuple(_rector_card(item, i, seen) for i, item in enumerate(raw))


def _parse(raw: Any) -> CardData:
    """Check the whole file's object (see the module docstring)."""
    raw = check_top(raw, ("clues", "rector"), WHAT)
    seen: set[str] = set()
    return CardData(_clues(raw["clues"], seen), _rector(raw["rector"], seen))


def cards_from_json(raw: Any, path: str) -> CardData:
    """Build the cards from their JSON object form; a problem is ``LogError(path, None, ...)``."""
    return parse_data(_parse, raw, path)


@cache
def default_cards() -> CardData:
    """The bundled default cards (not the printed cards: see the module docstring)."""
    return cards_from_json(bundled_json(DEFAULT_CARDS_FILE), DEFAULT_CARDS_FILE)


def load_cards_file(path: str) -> CardData:
    """Read and check a user's cards file; errors name the file and, where known, the line."""
    return load_data(_parse, path, WHAT)
