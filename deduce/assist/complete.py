"""What tab completion offers, given the line up to the cursor.

The first word of a line is a command or an event type. After an event
type, the words come from the position in that event's grammar
(each game's ``grammar`` in :mod:`deduce.logs.formats`), filled from the log's
:mod:`~deduce.assist.vocabulary`: ``show bob to `` offers the players,
``mass 1 gave orlando `` the cards and ``got``, ``accuse bob aymeric ``
``right`` and ``wrong``. In a word with ``+`` (traits), the part after the
last ``+`` completes to a trait. After a command, what its argument is
(:data:`TOPIC`, :data:`EVENT`, :data:`LINE_EVENT` or :data:`WHY`) decides:
``help`` takes a command or an event type, ``what-if`` an event line,
``edit`` and ``insert`` a line number (not completed) and an event line,
``why`` the game's query (:attr:`deduce.games.protocol.Game.why_arguments`).

A new log's setup questions complete from their own lists
(:func:`answer_candidates`): the games, the players, and for your hand or
role the event grammar again.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import chain, product

from deduce.assist.vocabulary import Vocabulary
from deduce.logs.formats import event_types, format_of
from deduce.logs.grammar import Either, Element, Entry, Flag, Joined, Keyword, Maybe, Pair, Rest
from deduce.registry import game as game_named

#: What a command's argument is, for completion (a command without one maps to "").
TOPIC, EVENT, LINE_EVENT, WHY = "topic", "event", "line-event", "why"


@dataclass(frozen=True)
class Slot:
    """One word of an event line: the words it can hold.

    ``fixed``: no other word fits (a keyword, right/wrong). ``repeat``: any
    number of words (a list of cards), ended by one of ``stop``.
    """

    words: tuple[str, ...]
    fixed: bool = False
    repeat: bool = False
    stop: tuple[str, ...] = ()


def _alternatives(element: Element, vocab: Vocabulary) -> list[tuple[Slot, ...]]:
    """The ways one grammar element can be written, each as the slots it fills."""
    match element:
        case Maybe():
            return [*_alternatives(element.inner, vocab), ()]
        case Keyword():
            return [
                (Slot((element.word,), fixed=True), *rest)
                for rest in _alternatives(element.inner, vocab)
            ]
        case Rest():
            return [(Slot(vocab.get(element.key, ()), repeat=True, stop=element.stop),)]
        case Flag():
            return [(Slot((element.yes, element.no), fixed=True),)]
        case Pair():
            return [(Slot(vocab.get(element.key, ())),) * 2]
        case Entry():
            return [(Slot(vocab.get(element.key, ())), Slot(()))]
        case Either():
            return [
                (Slot((*vocab.get(element.plain.key, ()), *vocab.get(element.joined.key, ()))),)
            ]
    return [(Slot(vocab.get(getattr(element, "key", ""), ())),)]


def _sequences(elements: Sequence[Element], vocab: Vocabulary) -> Iterator[tuple[Slot, ...]]:
    """Every way to write an event's elements, as one sequence of slots each."""
    for parts in product(*(_alternatives(e, vocab) for e in elements)):
        yield tuple(chain.from_iterable(parts))


def _offered(slots: Sequence[Slot], words: Sequence[str]) -> list[str]:
    """The words ``slots`` offer after ``words``; none when the words do not fit them."""
    i = 0
    for word in words:
        while i < len(slots) and slots[i].repeat and word in slots[i].stop:
            i += 1
        if i == len(slots) or (slots[i].fixed and word not in slots[i].words):
            return []
        if not slots[i].repeat:
            i += 1
    offered: list[str] = []
    for slot in slots[i:]:
        offered += slot.words
        if not slot.repeat:
            break
    return offered


def event_words(game: str, vocab: Vocabulary, words: Sequence[str]) -> list[str]:
    """The words that can follow ``words``: an event type of ``game``, then its words so far."""
    elements = format_of(game).grammar.get(words[0]) if words else None
    if elements is None:
        return []
    found = (w for slots in _sequences(elements, vocab) for w in _offered(slots, words[1:]))
    return list(dict.fromkeys(found))


def _after(
    words: Sequence[str], game: str, vocab: Vocabulary, commands: Mapping[str, str]
) -> list[str]:
    """The words that can follow ``words`` (complete words only)."""
    types = event_types(game)
    if not words:
        return list(dict.fromkeys([*commands, *types]))
    if words[0] in types:
        return event_words(game, vocab, words)
    kind = commands.get(words[0])
    if kind == TOPIC:
        return list(dict.fromkeys([*commands, *types])) if len(words) == 1 else []
    if kind in (EVENT, LINE_EVENT):
        event = words[1 if kind == EVENT else 2 :]
        if len(words) == 1 and kind == LINE_EVENT:  # the line number first
            return []
        return event_words(game, vocab, event) if event else list(types)
    arguments = game_named(game).why_arguments
    if kind == WHY and len(words) <= len(arguments):
        keys = arguments[len(words) - 1]
        return list(dict.fromkeys(w for key in keys for w in vocab.get(key, ())))
    return []


def candidates(line: str, game: str, vocab: Vocabulary, commands: Mapping[str, str]) -> list[str]:
    """The words that complete the last word of ``line`` (the text up to the cursor).

    ``commands``: the command names and what their argument is (see
    :data:`TOPIC`, :data:`EVENT`, :data:`LINE_EVENT`, :data:`WHY`). Each
    candidate is the whole word, ready to replace the one being typed.
    """
    words = line.split()
    token = "" if not line or line[-1].isspace() else words.pop()
    offered = _after(words, game, vocab, commands)
    head, plus, part = token.rpartition("+")
    joined = joined_words(game, vocab)
    if plus and any(t in offered for t in joined):
        return [f"{head}+{t}" for t in joined if t.startswith(part)]
    return [w for w in offered if w.startswith(token)]


def _joined_keys(element: Element) -> Iterator[str]:
    """The keys of the joined elements (``TRAIT+TRAIT``) in ``element``."""
    match element:
        case Joined():
            yield element.key
        case Either():
            yield element.joined.key
        case Keyword() | Maybe():
            yield from _joined_keys(element.inner)


def joined_words(game: str, vocab: Vocabulary) -> tuple[str, ...]:
    """The words ``game``'s lines join with ``+`` into one word (the Abbey's traits)."""
    grammar = format_of(game).grammar.values()
    keys = dict.fromkeys(k for elements in grammar for e in elements for k in _joined_keys(e))
    return tuple(dict.fromkeys(w for key in keys for w in vocab.get(key, ())))


def completed(matches: list[str], joined: Collection[str] = ()) -> list[str]:
    """The matches as readline offers them.

    A single whole word gets a space, to go on to the next word, except a
    word of ``joined`` (:func:`joined_words`: a trait), which may still take
    ``+trait``.
    """
    if len(matches) == 1 and matches[0].rpartition("+")[2] not in joined:
        return [matches[0] + " "]
    return matches


def answer_candidates(line: str, words: Sequence[str]) -> list[str]:
    """The ``words`` completing the last word of a setup answer (``line``: up to the cursor).

    Answers separate their words by spaces or commas and may use any case;
    the candidates are the words as written in ``words``.
    """
    token = re.split(r"[\s,]", line)[-1].lower()
    return [w for w in words if w.lower().startswith(token)]
