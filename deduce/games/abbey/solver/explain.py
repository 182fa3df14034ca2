"""Plain words for events and for conflicts, as a player would say them."""

from __future__ import annotations

from collections.abc import Sequence

from deduce.logs.model import Event
from deduce.logs.vocabulary.abbey import AbbeySetup
from deduce.report import plural


def _card(setup: AbbeySetup, card_id: str) -> str:
    return setup.deck.card(card_id).name


def _cards(setup: AbbeySetup, ids: Sequence[str]) -> str:
    return ", ".join(_card(setup, c) for c in ids) or "no cards"


def _kind(traits: Sequence[str]) -> str:
    return " ".join(traits)


def describe(setup: AbbeySetup, event: Event) -> str:
    """One event in words, e.g. ``bob holds no father cards``."""
    get = event.get
    player = get("player")
    kind = event.type
    if kind == "hand":
        return f"{player}'s hand is exactly {_cards(setup, get('cards'))}"
    if kind == "has":
        return f"{player} holds {_card(setup, get('card'))}"
    if kind == "lacks":
        return f"{player} does not hold {_card(setup, get('card'))}"
    if kind == "count":
        n = get("n")
        if n == 0:
            return f"{player} holds no {_kind(get('traits'))} cards"
        return f"{player} holds exactly {plural(n, _kind(get('traits')) + ' card')}"
    if kind == "show":
        shown = (_card(setup, get("card")) if "card" in event.fields
                 else f"a {_kind(get('traits'))} card")
        return f"{player} shows {shown} to {get('to')}"
    if kind == "draw":
        drawn = _card(setup, get("card")) if get("card") else "a card"
        return f"{player} draws {drawn} from the pile"
    if kind == "take":
        taken = _card(setup, get("card")) if get("card") else "a card"
        return f"{player} takes {taken} from {get('from')}"
    if kind == "mass":
        words = f"Mass: every player passes {plural(get('n'), 'card')} to the left"
        if "gave" in event.fields:
            words += (f"; {setup.me} gives {_cards(setup, get('gave'))}"
                      f" and gets {_cards(setup, get('got'))}")
        return words
    if kind == "accuse":
        if get("correct"):
            return f"{player} accuses {_card(setup, get('card'))}, correctly"
        shown = f"; {get('shown_by')} shows the card" if "shown_by" in event.fields else ""
        return f"{player} accuses {_card(setup, get('card'))}, wrongly{shown}"
    return f"the culprit is {_card(setup, get('card'))}"


def explain_conflict(setup: AbbeySetup, events: Sequence[Event], lines: Sequence[int],
                     transfers: Sequence[int] = ()) -> list[str]:
    """Sentences explaining why the events on ``lines`` cannot all be true.

    ``transfers`` are the transfers whose known cards the contradiction uses.
    """
    by_line = {e.line: e for e in events}
    chosen = sorted((by_line[line] for line in {*lines, *transfers}), key=lambda e: e.line)
    sentences = [f"line {e.line} says {describe(setup, e)}" for e in chosen]
    if len(chosen) < 2:
        return ["These events cannot all be true:", *sentences]
    first, last = chosen[0].line, chosen[-1].line
    named = {v for e in chosen for k, v in e.fields.items() if k in ("player", "shown_by")}
    between = [e for e in events if first < e.line < last and e.type in ("draw", "take", "mass")]
    for player in sorted(named, key=setup.players.index):
        arrivals = [e.line for e in between if _reaches(e, player)]
        if not arrivals:
            sentences.append(f"no card reached {player} between lines {first} and {last}")
        else:
            where = ", ".join(map(str, arrivals))
            at = f"line {where}" if len(arrivals) == 1 else f"lines {where}"
            sentences.append(f"cards reached {player} between lines {first} and {last} "
                             f"only at {at}, which cannot explain it")
    return ["These events cannot all be true:", *sentences]


def _reaches(event: Event, player: str) -> bool:
    """Whether a transfer can put a card into ``player``'s hand."""
    if event.type == "mass":
        return True
    return event.get("player") == player
