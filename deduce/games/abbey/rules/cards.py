"""Mass, event, scriptorium, library and crypt cards: validation and the bundled default set.

The rulebook gives the number of each card (8 Mass, 20 event, 24 scriptorium,
8 library, 6 crypt) and how they are used, but not their texts. The bundled set
(``deduce/data/abbey-cards.json``) is a default written for deduce; it is not
the printed cards. Users replace it with their own file of the same shape.

Every card's ``effect`` uses a small vocabulary that the game engine implements.
``who`` names the other player concerned: ``die`` (a monk die designates another
player; the user's own colour and colours not in play are rerolled), ``choice``
(the card's user chooses another player), ``self`` (the user), ``left`` or
``right`` (the user's neighbour). The user of an event card is the player who
rang the bell.

- ``pass`` (``n`` 1-2): every player passes n suspect cards to the left neighbour.
- ``take`` (``who``: die, choice, left, right): the user takes a random suspect
  card from that player's hand.
- ``show`` (``who``: die, choice): that player shows the user one suspect card of
  that player's choice.
- ``question`` (``who``: die, choice): the user asks that player one question;
  the player must answer (no vow of silence) and asks none back.
- ``penance`` (``who``: die, self, choice): that player's pawn goes to the chapel
  and skips its next turn.
- ``move`` (``to``: a room kind with a single room): the user's pawn goes there.
- ``extra_turn``: the user plays another turn right after this one (a kept book
  is used later, like a crypt card).
- ``protect`` (kept books only): discard it to cancel one card being taken from
  the user.
- ``nothing``: flavour only.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

from deduce.data import bundled_json
from deduce.data.located import lines_of, read_located
from deduce.errors import LogError
from deduce.games.abbey.rules.board import KIND_COUNTS
from deduce.logs.ids import ID_PATTERN

#: The Mass cards' ids in chronological order (rulebook, "Setting up the Game").
MASS_IDS: tuple[str, ...] = (
    "matins",
    "lauds",
    "prime",
    "terce",
    "sexte",
    "none",
    "vespers",
    "compline",
)
#: How many suspect cards a Mass card may have each player pass to the left.
MASS_PASSES: tuple[int, ...] = (1, 2, 3)

#: Effect kinds with the ``who`` values each allows (``None``: the kind takes no ``who``).
EFFECT_WHO: dict[str, tuple[str, ...] | None] = {
    "pass": None,
    "take": ("die", "choice", "left", "right"),
    "show": ("die", "choice"),
    "question": ("die", "choice"),
    "penance": ("die", "self", "choice"),
    "move": None,
    "extra_turn": None,
    "protect": None,
    "nothing": None,
}
EFFECT_KINDS: tuple[str, ...] = tuple(EFFECT_WHO)
#: How many suspect cards a ``pass`` effect may move.
PASS_COUNTS: tuple[int, ...] = (1, 2)
#: Room kinds a ``move`` effect may send the user's pawn to: kinds with a single room,
#: except the confessionals and cells (several rooms, and entry rules of their own).
MOVE_KINDS: tuple[str, ...] = tuple(k for k, n in KIND_COUNTS.items() if n == 1)

DEFAULT_CARDS_FILE = "abbey-cards.json"


@dataclass(frozen=True)
class Effect:
    """What a card does: ``kind`` plus ``n`` (pass), ``who`` or ``to`` (move)."""

    kind: str
    n: int = 0
    who: str | None = None
    to: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The effect as written in a cards file."""
        raw: dict[str, Any] = {"kind": self.kind}
        if self.kind == "pass":
            raw["n"] = self.n
        if self.who is not None:
            raw["who"] = self.who
        if self.to is not None:
            raw["to"] = self.to
        return raw


@dataclass(frozen=True)
class BookCard:
    """An event, scriptorium or library card. ``keep``: a starred book, kept to use later."""

    id: str
    name: str
    text: str
    effect: Effect
    keep: bool = False


@dataclass(frozen=True)
class MassCard:
    """A Mass card: at that Mass each player passes ``passes`` suspect cards to the left."""

    id: str
    name: str
    passes: int


@dataclass(frozen=True)
class CardSet:
    """Every non-suspect card of a game; ``crypt`` is the number of crypt cards."""

    masses: tuple[MassCard, ...]
    events: tuple[BookCard, ...]
    scriptorium: tuple[BookCard, ...]
    library: tuple[BookCard, ...]
    crypt: int


def _fail(path: str, message: str) -> LogError:
    return LogError(path, None, message)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_keys(item: dict[str, Any], expected: set[str], what: str, path: str) -> None:
    """Raise unless ``item`` has exactly the ``expected`` keys."""
    unknown = set(item) - expected
    if unknown:
        raise _fail(path, f"{what}: unknown key {sorted(unknown)[0]!r}")
    missing = expected - set(item)
    if missing:
        raise _fail(path, f"{what}: missing key {sorted(missing)[0]!r}")


def _check_id_and_name(item: dict[str, Any], what: str, seen: set[str], path: str) -> str:
    """Validate ``id`` (pattern, unique in its pile) and ``name``; return the id."""
    cid = item["id"]
    if not isinstance(cid, str) or not ID_PATTERN.match(cid):
        raise _fail(path, f"{what}: id must match [a-z0-9][a-z0-9_-]*")
    if cid in seen:
        raise _fail(path, f"{what}: duplicate id {cid!r}")
    seen.add(cid)
    if not isinstance(item["name"], str) or not item["name"].strip():
        raise _fail(path, f"{what} {cid!r}: name must be a non-empty string")
    return cid


def parse_effect(raw: Any, what: str, path: str, keep: bool = False) -> Effect:
    """Validate one ``effect`` object against the vocabulary (``protect`` needs ``keep``)."""
    if not isinstance(raw, dict):
        raise _fail(path, f"{what}: effect must be an object with a 'kind'")
    kind = raw.get("kind")
    if not isinstance(kind, str) or kind not in EFFECT_WHO:
        raise _fail(
            path, f"{what}: unknown effect kind {kind!r} (kinds: {', '.join(EFFECT_KINDS)})"
        )
    allowed_who = EFFECT_WHO[kind]
    keys = {"kind"}
    if kind == "pass":
        keys.add("n")
    elif kind == "move":
        keys.add("to")
    elif allowed_who is not None:
        keys.add("who")
    _check_keys(raw, keys, f"{what} {kind} effect", path)
    if kind == "pass":
        n = raw["n"]
        if not _is_int(n) or n not in PASS_COUNTS:
            raise _fail(path, f"{what}: a pass effect passes 1 or 2 cards, not {n!r}")
        return Effect(kind, n=n)
    if kind == "move":
        to = raw["to"]
        if to not in MOVE_KINDS:
            raise _fail(
                path,
                f"{what}: a move effect cannot go to {to!r} (room kinds: {', '.join(MOVE_KINDS)})",
            )
        return Effect(kind, to=to)
    if allowed_who is not None:
        who = raw["who"]
        if who not in allowed_who:
            raise _fail(
                path,
                f"{what}: a {kind} effect cannot have who {who!r} "
                f"(allowed: {', '.join(allowed_who)})",
            )
        return Effect(kind, who=who)
    if kind == "protect" and not keep:
        raise _fail(path, f'{what}: a protect effect needs a kept book ("keep": true)')
    return Effect(kind)


def _entries(
    raw: list[Any], label: str, keys: tuple[str, ...], path: str
) -> Iterator[tuple[int, dict[str, Any], str]]:
    """(number, object, id) of each card of a list, checking its keys, id and name."""
    seen: set[str] = set()
    for i, item in enumerate(raw, 1):
        what = f"{label} card {i}"
        with lines_of(item):
            if not isinstance(item, dict):
                raise _fail(path, f"{what} must be an object with {', '.join(keys)}")
            _check_keys(item, set(keys), what, path)
            cid = _check_id_and_name(item, what, seen, path)
        yield i, item, cid


def _parse_masses(raw: Any, path: str) -> tuple[MassCard, ...]:
    """Validate the eight Mass cards, in chronological order."""
    if not isinstance(raw, list) or len(raw) != len(MASS_IDS):
        raise _fail(
            path,
            f"'masses' must be a list of the {len(MASS_IDS)} Mass cards ({', '.join(MASS_IDS)})",
        )
    masses: list[MassCard] = []
    for i, item, cid in _entries(raw, "mass", ("id", "name", "pass"), path):
        what = f"mass card {i}"
        with lines_of(item):  # a cards file's errors name the card's line
            if cid != MASS_IDS[i - 1]:
                raise _fail(
                    path,
                    f"{what} must be {MASS_IDS[i - 1]!r}, not {cid!r} "
                    f"(chronological order: {', '.join(MASS_IDS)})",
                )
            passes = item["pass"]
            if not _is_int(passes) or passes not in MASS_PASSES:
                raise _fail(path, f"mass card {cid!r}: pass must be 1, 2 or 3, not {passes!r}")
        masses.append(MassCard(cid, item["name"], passes))
    return tuple(masses)


def _parse_pile(raw: Any, pile: str, path: str) -> tuple[BookCard, ...]:
    """Validate one pile of event, scriptorium or library cards."""
    if not isinstance(raw, list) or not raw:
        raise _fail(path, f"{pile!r} must be a non-empty list of cards")
    keys = (
        ("effect", "id", "keep", "name", "text")
        if pile == "scriptorium"
        else ("effect", "id", "name", "text")
    )
    label = {"events": "event"}.get(pile, pile)
    cards: list[BookCard] = []
    for _, item, cid in _entries(raw, label, keys, path):
        what = f"{label} card {cid!r}"
        with lines_of(item):  # a cards file's errors name the card's line
            if not isinstance(item["text"], str) or not item["text"].strip():
                raise _fail(path, f"{what}: text must be a non-empty string")
            keep = item.get("keep", False)
            if not isinstance(keep, bool):
                raise _fail(path, f"{what}: keep must be true or false, not {keep!r}")
            effect = parse_effect(item["effect"], what, path, keep)
        cards.append(BookCard(cid, item["name"], item["text"], effect, keep))
    return tuple(cards)


def cards_from_json(raw: Any, path: str) -> CardSet:
    """Build a card set from its JSON object form, checking every card.

    Checked: exact key sets, the eight Mass cards in chronological order with a
    pass of 1 to 3, at least one card in each other pile with ids unique in the
    pile, every effect in the vocabulary (with the ``who`` values its kind allows),
    ``protect`` only on kept scriptorium books, and a positive number of crypt
    cards. Each problem raises ``LogError(path, None, ...)``.
    """
    if not isinstance(raw, dict):
        raise _fail(
            path,
            "a cards file must be an object with masses, events, scriptorium, library and crypt",
        )
    unknown = set(raw) - {"note", "masses", "events", "scriptorium", "library", "crypt"}
    if unknown:
        raise _fail(path, f"unknown key {sorted(unknown)[0]!r} in cards file")
    for key in ("masses", "events", "scriptorium", "library", "crypt"):
        if key not in raw:
            raise _fail(path, f"cards file has no {key!r}")
    if "note" in raw and not isinstance(raw["note"], str):
        raise _fail(path, "cards 'note' must be a string")
    crypt = raw["crypt"]
    if not _is_int(crypt) or crypt < 1:
        raise _fail(path, f"'crypt' must be a positive number of crypt cards, not {crypt!r}")
    return CardSet(
        masses=_parse_masses(raw["masses"], path),
        events=_parse_pile(raw["events"], "events", path),
        scriptorium=_parse_pile(raw["scriptorium"], "scriptorium", path),
        library=_parse_pile(raw["library"], "library", path),
        crypt=crypt,
    )


@cache
def default_cards() -> CardSet:
    """The bundled default cards (not the printed cards: see the module docstring)."""
    return cards_from_json(bundled_json(DEFAULT_CARDS_FILE), DEFAULT_CARDS_FILE)


def load_cards_file(path: str) -> CardSet:
    """Read and validate a cards file (the JSON object form of ``cards_from_json``)."""
    raw = read_located(path, "cards file")
    with lines_of(raw):
        return cards_from_json(raw, path)
