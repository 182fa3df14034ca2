"""The structure of an Abbey game: holders, epochs, transfers and hand sizes.

Every card is held by one *holder*: the culprit slot, the face-down pile, or a
player. Transfer events (``draw``, ``take``, ``mass``) split the game into
*epochs*: epoch 0 is the deal and epoch ``t`` follows the ``t``-th transfer.
How many cards move along each edge at a transfer is public, so every
holder's size at every epoch is known; this module computes them and rejects
logs whose sizes do not add up, or that leave out a card the observer must
know (the observer's own draws, thefts and Mass passes).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from deduce.errors import LogError
from deduce.logs.formats.abbey import AbbeySetup, Deck, setup_from_header
from deduce.logs.model import Event, GameLog

CULPRIT, PILE = 0, 1


def _cards(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


TRANSFERS = ("draw", "take", "mass")


@dataclass(frozen=True)
class Transfer:
    """One transfer event: how many cards move along each (source, destination) edge."""

    kind: str
    line: int
    moves: tuple[tuple[int, int, int], ...]  # (source holder, destination holder, count > 0)


@dataclass(frozen=True)
class Timeline:
    """Holders, transfers and the size of every holder at every epoch.

    ``transfers[t - 1]`` leads from epoch ``t - 1`` to epoch ``t``;
    ``sizes[e][h]`` is holder ``h``'s card count at epoch ``e``;
    ``epoch_of[line]`` is the epoch at which the event on that line happened
    (for a transfer, the epoch it leads to).
    """

    holders: tuple[str, ...]
    transfers: tuple[Transfer, ...]
    sizes: tuple[tuple[int, ...], ...]
    epoch_of: dict[int, int]

    @property
    def last_epoch(self) -> int:
        """The current epoch, after every transfer of the log."""
        return len(self.transfers)

    def holder(self, name: str) -> int:
        """The index of a holder name (``culprit``, ``pile`` or a player)."""
        return self.holders.index(name)


def holder_names(setup: AbbeySetup) -> tuple[str, ...]:
    """Holder names in index order: culprit, pile, then the players in seat order."""
    return ("culprit", "pile", *setup.players)


def build_timeline(setup: AbbeySetup, events: Sequence[Event], path: str) -> Timeline:
    """Walk the events, computing sizes and checking every size-related fact."""
    holders = holder_names(setup)
    index = {name: i for i, name in enumerate(holders)}
    size = [1, setup.pile] + [setup.hand] * len(setup.players)
    sizes = [tuple(size)]
    transfers: list[Transfer] = []
    epoch_of: dict[int, int] = {}
    for event in events:
        if event.type in TRANSFERS:
            moves = _moves(setup, event, size, index, path)
            for src, dst, k in moves:
                size[src] -= k
                size[dst] += k
            transfers.append(Transfer(event.type, event.line, moves))
            sizes.append(tuple(size))
        else:
            _check_observation_sizes(setup, event, size, index, path)
        epoch_of[event.line] = len(transfers)
    return Timeline(holders, tuple(transfers), tuple(sizes), epoch_of)


def _moves(
    setup: AbbeySetup, event: Event, size: list[int], index: dict[str, int], path: str
) -> tuple[tuple[int, int, int], ...]:
    """The edges of a transfer, after checking it can happen and names the observer's cards."""
    me, line = setup.me, event.line
    if event.type == "draw":
        player = event.get("player")
        if size[PILE] == 0:
            raise LogError(path, line, "draw from an empty pile")
        if player == me and "card" not in event.fields:
            raise LogError(path, line, f"{me} is the observer: their own draw needs its card")
        return ((PILE, index[player], 1),)
    if event.type == "take":
        player, source = event.get("player"), event.get("from")
        if size[index[source]] == 0:
            raise LogError(path, line, f"take from {source}, who holds no cards")
        if me in (player, source) and "card" not in event.fields:
            raise LogError(
                path, line, f"{me} is the observer: a take by or from them needs its card"
            )
        return ((index[source], index[player], 1),)
    n = event.get("n")
    passes = {p: min(n, size[index[p]]) for p in setup.players}
    if me is not None:
        for key, who in (("gave", me), ("got", setup.right_of(me))):
            if key not in event.fields:
                raise LogError(path, line, f"{me} is the observer: a mass needs {key!r}")
            if len(event.get(key)) != passes[who]:
                raise LogError(
                    path,
                    line,
                    f"{key} lists {_cards(len(event.get(key)))} but "
                    f"{who} passes {passes[who]} at this mass",
                )
    return tuple((index[p], index[setup.left_of(p)], k) for p, k in passes.items() if k)


def _check_observation_sizes(
    setup: AbbeySetup, event: Event, size: list[int], index: dict[str, int], path: str
) -> None:
    """Reject observations whose sizes contradict the public hand sizes."""
    line = event.line
    if event.type == "hand":
        player, cards = event.get("player"), event.get("cards")
        if len(cards) != size[index[player]]:
            raise LogError(
                path,
                line,
                f"hand lists {_cards(len(cards))} but {player} holds "
                f"{size[index[player]]} at this point",
            )
    elif event.type == "count":
        player, n = event.get("player"), event.get("n")
        if n > size[index[player]]:
            raise LogError(
                path,
                line,
                f"count {n} is more than the "
                f"{_cards(size[index[player]])} {player} holds at this point",
            )
    elif event.type == "show" and event.get("to") == setup.me and "card" not in event.fields:
        raise LogError(path, line, f"{setup.me} is the observer: a card shown to them needs its id")


@dataclass(frozen=True)
class AbbeyPosition:
    """One Abbey log read once: its setup, its events and their timeline.

    The solver, the conflict search and the advice take a position, so that
    a log's header is resolved and its timeline built once per log. Built
    directly, ``events`` may be a prefix of the events ``timeline`` was built
    from (the epochs past them stay open).
    """

    setup: AbbeySetup
    events: tuple[Event, ...]
    timeline: Timeline
    path: str = "<log>"

    @classmethod
    def of(cls, setup: AbbeySetup, events: Sequence[Event], path: str) -> AbbeyPosition:
        """The position of ``events`` in a game with ``setup`` (their timeline built here)."""
        events = tuple(events)
        return cls(setup, events, build_timeline(setup, events, path), path)

    @classmethod
    def of_log(cls, log: GameLog, deck: Deck | None = None) -> AbbeyPosition:
        """The position of a validated log (``deck``: the ``--deck`` deck, if any)."""
        return cls.of(setup_from_header(log.header, log.path, deck), log.events, log.path)

    def with_events(self, events: Sequence[Event]) -> AbbeyPosition:
        """The same game after other events (their timeline built afresh)."""
        return AbbeyPosition.of(self.setup, events, self.path)
