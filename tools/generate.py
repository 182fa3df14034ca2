"""Seeded 24-card Abbey games for the tests and benchmarks, written as canonical logs.

A small stand-in for a full game engine: players take turns, draw from the
parlor while the pile lasts, steal in confessionals and cells, pass cards at
Mass every four rounds (three with six players), and answer public count and
"do you have" questions truthfully; after the pile is empty the parlor's
"show me" shows the asker one matching card. The log is one player's view:
public events for everyone, cards only when the observer saw them.

    python tools/generate.py --out tests/data/cases --games 5 --seed 1
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

from deduce.logs.formats.abbey import RULEBOOK_SIZES, TRAIT_GROUPS, TRAITS, default_deck
from deduce.logs.io import write_log
from deduce.logs.model import Event, GameLog, Header

NAMES = ("ana", "bob", "cai", "dee", "eve", "fay")
CASES = Path(__file__).resolve().parent.parent / "tests" / "data" / "cases"


def play(seed: int, n_players: int, n_events: int) -> tuple[GameLog, str]:
    """One seeded game seen by ``ana``: its log (``n_events`` events) and the culprit."""
    rng = random.Random(seed)
    deck = default_deck()
    players = NAMES[:n_players]
    pile_size, hand_size = RULEBOOK_SIZES[n_players]
    cards = list(deck.ids)
    rng.shuffle(cards)
    culprit, pile = cards[0], cards[1 : 1 + pile_size]
    hands = {
        p: cards[1 + pile_size + i * hand_size : 1 + pile_size + (i + 1) * hand_size]
        for i, p in enumerate(players)
    }
    me = players[0]
    events: list[tuple[str, dict]] = [("hand", {"player": me, "cards": tuple(hands[me])})]
    rounds_per_mass = 3 if n_players == 6 else 4
    turn = 0

    def known(card: str, *who: str) -> dict:
        return {"card": card} if me in who else {}

    while len(events) < n_events:
        player = players[turn % n_players]
        turn += 1
        if turn % (rounds_per_mass * n_players) == 0:
            n = rng.choice((1, 1, 2))
            passed = {p: rng.sample(hands[p], min(n, len(hands[p]))) for p in players}
            for i, p in enumerate(players):
                for card in passed[p]:
                    hands[p].remove(card)
                    hands[players[(i + 1) % n_players]].append(card)
            right = players[-1]
            events.append(
                ("mass", {"n": n, "gave": tuple(passed[me]), "got": tuple(passed[right])})
            )
            continue
        other = rng.choice([p for p in players if p != player])
        roll = rng.random()
        if roll < 0.2 and pile:
            card = pile.pop()
            hands[player].append(card)
            events.append(("draw", {"player": player, **known(card, player)}))
        elif roll < 0.3 and hands[other]:
            card = rng.choice(hands[other])
            hands[other].remove(card)
            hands[player].append(card)
            events.append(("take", {"player": player, "from": other, **known(card, player, other)}))
        elif roll < 0.75:
            group = rng.choice(list(TRAIT_GROUPS))
            traits = (rng.choice(TRAIT_GROUPS[group]),)
            n = sum(deck.card(c).has_traits(traits) for c in hands[other])
            events.append(("count", {"player": other, "traits": traits, "n": n}))
        elif roll < 0.85:
            card = rng.choice(deck.ids)
            kind = "has" if card in hands[other] else "lacks"
            events.append((kind, {"player": other, "card": card}))
        elif not pile and hands[other]:
            card = rng.choice(hands[other])
            if player == me:
                events.append(("show", {"player": other, "to": me, "card": card}))
            else:
                trait = rng.choice([t for t in TRAITS if t in deck.card(card).traits])
                events.append(("show", {"player": other, "to": player, "traits": (trait,)}))
    header = Header("abbey", players, me, extra={"deck": "default"})
    log = GameLog(header, tuple(Event(t, f, i + 2) for i, (t, f) in enumerate(events)))
    return log, culprit


def main() -> None:
    """Write ``--games`` games per player count (3 to 6) into ``--out``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=CASES)
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--min-events", type=int, default=30)
    parser.add_argument("--max-events", type=int, default=80)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(args.seed)
    for n_players in (3, 4, 5, 6):
        for g in range(args.games):
            seed = rng.randrange(2**32)
            log, culprit = play(seed, n_players, rng.randint(args.min_events, args.max_events))
            name = args.out / f"abbey-{n_players}p-{g:02d}.jsonl"
            write_log(log, name, "jsonl")
            (args.out / f"abbey-{n_players}p-{g:02d}.culprit").write_text(culprit + "\n")


if __name__ == "__main__":
    main()
