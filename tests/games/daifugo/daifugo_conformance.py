"""What the conformance suite (tests/test_conformance.py) needs of Daifugo: play positions
of both presets under random options, and every play the notation can write in one."""

from __future__ import annotations

import random
from collections.abc import Iterator

from referee.games.daifugo import engine as D
from referee.games.daifugo.notation.dfn import ruleset_of

PRESETS = sorted(D.PRESETS)


def random_options(rng: random.Random, preset: str) -> str:
    """A random Options value: each option toggled now and then, either way."""
    words = []
    for name in D.OPTIONS:
        if rng.random() > 0.35:
            continue
        if name == "stairs-revolution":
            words.append(rng.choice(["-stairs-revolution", f"stairs-revolution={rng.randint(3, 6)}"]))
        elif name in D.OPTION_CHOICES:
            words.append(f"{name}={rng.choice(D.OPTION_CHOICES[name])}")
        else:
            words.append(rng.choice("+-") + name)
    return " ".join(words)


def _every_play(state: D.State) -> list[D.Play]:
    """Every play the player to move could write: each sub-multiset of their hand, each joker
    either bare or standing for every reading there is (suits S H D C and the joker row,
    strengths 0..14)."""
    from itertools import combinations, product

    p = state.to_move
    hand = sorted(state.hands[p])
    stands = [D.Stand(x, k) for x in ("S", "H", "D", "C", "") for k in range(0, 15)]
    out: list[D.Play] = []
    for size in range(1, len(hand) + 1):
        for cards in sorted(set(combinations(hand, size))):
            jokers = sum(c.is_joker for c in cards)
            out.append(D.Play(p, cards))
            for readings in product(stands, repeat=jokers):
                out.append(D.Play(p, cards, readings))
    return out


def _key(state: D.State, play: D.Play) -> tuple:
    """A play up to what does not matter: the order of its cards, and the reading of a joker
    where the rules cannot tell (its suit in a group without suit-lock)."""
    combo = D.resolved(state, play)
    assert combo is not None
    suits = combo.suits if state.rules.suit_lock else None
    return (tuple(sorted(play.cards)), combo.kind, combo.size, combo.low, combo.high, suits)


def positions(seed: int, count: int) -> Iterator[D.State]:
    """``count`` play positions reached by random legal moves (hands of at most 9 cards,
    so that every writable play can be listed)."""
    rng = random.Random(seed)
    found = 0
    while found < count:
        preset = rng.choice(PRESETS)
        n = 5 if preset == "uecda" else rng.randint(6, 8)
        rules = ruleset_of(preset, random_options(rng, preset))
        deck = list(D.deck(rules, n))
        rng.shuffle(deck)
        hands = [tuple(deck[i::n]) for i in range(n)]
        state = D.new_round(rules, hands, None if rules.seating != "given" else tuple(range(n)))
        for _ in range(rng.randrange(0, 40)):
            if state.over or state.phase != "play":
                break
            state = D.apply(state, rng.choice(list(D.legal_moves(state))))
        if state.over or state.phase != "play" or len(state.hands[state.to_move]) > 9:
            continue
        found += 1
        yield state


def writable(state: D.State) -> list[D.Move]:
    return [*_every_play(state), D.Pass(state.to_move)]


def key(state: D.State, move: D.Move) -> object:
    """A move up to what does not matter (see ``_key``)."""
    return _key(state, move) if isinstance(move, D.Play) else move
