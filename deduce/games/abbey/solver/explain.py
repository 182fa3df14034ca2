"""Plain words for events and for conflicts, as a player would say them."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from deduce.games.abbey.solver.sat.conflict import Clash
from deduce.games.abbey.solver.timeline import CULPRIT, PILE, holder_names
from deduce.logs.formats.abbey import AbbeySetup
from deduce.logs.model import Event
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
        shown = (
            _card(setup, get("card"))
            if "card" in event.fields
            else f"a {_kind(get('traits'))} card"
        )
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
            words += (
                f"; {setup.me} gives {_cards(setup, get('gave'))}"
                f" and gets {_cards(setup, get('got'))}"
            )
        return words
    if kind == "accuse":
        if get("correct"):
            return f"{player} accuses {_card(setup, get('card'))}, correctly"
        shown = f"; {get('shown_by')} shows the card" if "shown_by" in event.fields else ""
        return f"{player} accuses {_card(setup, get('card'))}, wrongly{shown}"
    return f"the culprit is {_card(setup, get('card'))}"


def explain_conflict(
    setup: AbbeySetup,
    events: Sequence[Event],
    lines: Sequence[int],
    transfers: Sequence[int] = (),
    clash: Clash | None = None,
) -> list[str]:
    """Sentences explaining why the events on ``lines`` cannot all be true.

    ``transfers`` are the transfers whose known cards the contradiction
    uses; ``clash`` says how one of the events contradicts the others.
    """
    by_line = {e.line: e for e in events}
    chosen = sorted((by_line[line] for line in {*lines, *transfers}), key=lambda e: e.line)
    sentences = [f"line {e.line} says {describe(setup, e)}" for e in chosen]
    sentences.append(
        how(setup, by_line[clash.line], clash)
        if clash is not None
        else "no deal and no passing of the cards fits all of them"
    )
    return ["These events cannot all be true:", *sentences]


def how(setup: AbbeySetup, event: Event, clash: Clash) -> str:
    """One sentence in game terms: what the other lines force, and what ``event`` says instead."""
    names = holder_names(setup)
    if clash.given:
        subject = ("line " if len(clash.given) == 1 else "lines ") + _and(map(str, clash.given))
    else:
        subject = "the deck and the hand sizes alone"
    s = "s" if len(clash.given) == 1 else ""
    when = {"at": "at", "before": "just before", "after": "just after"}[clash.when]
    at = f"{when} line {clash.line}"
    holder = names[clash.holder]
    card = _card(setup, setup.deck.ids[clash.card]) if clash.card is not None else ""
    listed = _cards(setup, [setup.deck.ids[c] for c in clash.cards])
    if clash.kind == "only":
        said = f"leave{s} {card} only {_where(names, clash.holders)} {at}"
    elif clash.kind == "forced":
        said = (
            f"make{s} {card} the culprit"
            if holder == "culprit"
            else f"put{s} {card} {_where(names, {clash.holder})} {at}"
        )
    elif clash.kind == "full":
        said = f"fill{s} {holder}'s hand of {plural(len(clash.cards), 'card')} {at} with {listed}"
    elif clash.kind == "culprit":
        said = f"make{s} {listed} the culprit"
    else:
        kind = _kind(event.get("traits")) + " card"
        if clash.kind == "room":
            room = clash.size - len(clash.cards)
            said = f"put{s} {listed} in {holder}'s hand of {plural(clash.size, 'card')} {at}, " + (
                f"leaving room for at most {plural(room, kind)}"
                if room
                else f"leaving no room for a {kind}"
            )
        elif clash.kind == "at_least":
            said = f"put{s} {plural(len(clash.cards), kind)} in {holder}'s hand {at} ({listed})"
        elif clash.cards:
            said = f"leave{s} {holder} at most {plural(len(clash.cards), kind)} {at} ({listed})"
        else:
            said = f"leave{s} {holder} no {kind} {at}"
    claim = describe(setup, event)
    if event.type == "mass" and clash.card is not None:  # the one card of the Mass at issue
        verb = "gives" if setup.deck.ids[clash.card] in event.get("gave") else "gets"
        claim = f"{setup.me} {verb} {card} at that Mass"
    return f"{subject} {said}, but line {clash.line} says {claim}"


def _where(names: Sequence[str], holders: Iterable[int]) -> str:
    """Where a card can be, e.g. ``with bob or cai or in the pile``."""
    ordered = sorted(holders)
    players = [names[h] for h in ordered if h not in (CULPRIT, PILE)]
    places = [f"with {' or '.join(players)}"] if players else []
    places += ["in the pile"] if PILE in ordered else []
    places += ["set aside as the culprit"] if CULPRIT in ordered else []
    return " or ".join(places)


def _and(items: Iterable[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    words = list(items)
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"
