"""random_move draws only legal moves, and the candidates it keeps per hand (built once,
then carried from hand to hand as cards are played) are exactly the candidates a fresh
enumeration of the hand gives, in the same order, for every shape a table can ask for."""

from __future__ import annotations

import random
from contextlib import contextmanager

import pytest

from referee.games.daifugo import engine as D
from referee.games.daifugo.engine import legal
from referee.games.daifugo.selfplay import NAMES, deal

PRESET_OPTIONS = [("classic", {}), ("uecda", {}), ("classic", {"suit-lock": True, "exchange": "choice"}),
                  ("classic", {"consecutive-revolution": True, "spade3": True, "eight-cut": True})]


def _rounds(preset: str, toggles: dict, count: int, seed: int):
    rng = random.Random(seed)
    rules = D.ruleset(preset, toggles)
    previous = None
    for number in range(1, count + 1):
        seats = D.default_seats(rules, 5, previous) or tuple(range(5))
        hands = deal(rng, rules, 5, list(previous or range(5)))
        state = D.new_round(rules, hands, seats, previous, number, NAMES[:5])
        while not state.over:
            yield state
            move = D.random_move(state, rng, 0.25)
            state = D.apply(state, move)
        previous = D.finishing_order(state)


def _plays(rules, p, hand, kind, size):
    """Plays made of ``hand``'s cards of ``kind`` and ``size`` (None: any), enumerated afresh."""
    return [D.Play(p, cards, joker_as) for cards, joker_as, _, _ in legal._entries(rules, hand, kind, size)]


@contextmanager
def _fresh_blocks():
    """The candidates' parts (``legal._BLOCKS``) made afresh inside, the engine's own kept
    ones put back after: the fresh side shares nothing with the side it is compared to."""
    kept = legal._BLOCKS
    legal._BLOCKS = {}
    try:
        yield
    finally:
        legal._BLOCKS = kept


@pytest.mark.parametrize("preset,toggles", PRESET_OPTIONS)
def test_random_move_is_legal_and_its_kept_candidates_are_the_hands(preset: str, toggles: dict) -> None:
    rng = random.Random(3)
    shapes = [None, (D.SINGLE, 1), (D.GROUP, 2), (D.GROUP, 3), (D.GROUP, 4), (D.SEQUENCE, 3), (D.SEQUENCE, 4)]
    seen = 0
    for state in _rounds(preset, toggles, 6, 17):
        move = D.random_move(state, rng, 0.25)
        assert D.check(state, move) is None, (state, move)
        if state.phase != "play":
            continue
        p = state.to_move
        hand = state.hands[p]
        memo = legal._memo(state.rules, p, hand)
        shape = shapes[seen % len(shapes)]
        seen += 1
        _, ranked, extras = memo.lists(shape)
        kept = {D.Play(p, cards, joker_as) for cards, joker_as, _, _ in ranked + extras}
        kind, size = shape if shape is not None else (None, None)
        with _fresh_blocks():
            fresh = set(_plays(state.rules, p, hand, kind, size))
        assert kept == fresh, (hand, shape)
        # The kept lists are the fresh ones, in the same order: a draw depends on the hand
        # alone, not on the hands it came from.
        with _fresh_blocks():
            _, fresh_ranked, fresh_extras = legal._Memo(state.rules, hand, legal._mask(hand), {}).lists(shape)

        def plays(entries):
            return [(cards, joker_as, mask) for cards, joker_as, _, mask in entries]

        assert (plays(ranked), plays(extras)) == (plays(fresh_ranked), plays(fresh_extras)), (hand, shape)
        for cards, joker_as, found, mask in ranked + extras:  # readings (a leader's may wait) and masks are the cards'
            assert found is None and shape is None or found == D.readings(state.rules, cards, joker_as)
            assert mask == legal._mask(cards)
        if shape is not None:  # weakest first: the bisection for the run that beats a table relies on it
            lows = [found[0].low for _, _, found, _ in ranked]
            assert lows == sorted(lows), (hand, shape)
    assert seen > 100


def test_random_move_passes_exactly_when_no_play_is_legal() -> None:
    rng = random.Random(8)
    for state in _rounds("classic", {}, 4, 5):
        if state.phase != "play":
            continue
        move = D.random_move(state, rng, 0.0)
        plays = [m for m in D.legal_moves(state) if isinstance(m, D.Play)]
        assert isinstance(move, D.Pass) == (not plays), (state, move)
        if plays:
            assert move in plays


def test_a_hand_mask_is_its_cards_or_minus_one_for_a_card_held_twice() -> None:
    from referee.engines.base import ALL_CARDS, JOKER

    rng = random.Random(1)
    for _ in range(5000):
        cards = tuple(rng.choice(ALL_CARDS) for _ in range(rng.randint(0, 14)))
        reals = [c for c in cards if c != JOKER]
        mask = legal._mask(cards)
        if len(set(reals)) != len(reals):
            assert mask == -1, cards
            continue
        jokers = cards.count(JOKER)
        want = sum(1 << ALL_CARDS.index(c) for c in reals) | (((1 << jokers) - 1) << 52)
        assert mask == want, cards
    top = ALL_CARDS[51]  # its carry lands on the jokers' count
    assert legal._mask((top, top)) == -1 and legal._mask((top, JOKER)) == (1 << 51) | (1 << 52)


@pytest.mark.parametrize("preset,toggles", PRESET_OPTIONS[:3])
def test_random_move_draws_each_legal_play_alike(preset: str, toggles: dict) -> None:
    """Uniform among the legal plays (the pass only when none is legal): over positions with
    several legal plays, each is drawn about as often (a chi-square bound far out in the
    tail, so a fair draw never fails it while a draw that favours some plays does), and
    every one of them is drawn."""
    rng = random.Random(11)
    positions = []
    for state in _rounds(preset, toggles, 8, 23):
        if state.phase != "play":
            continue
        plays = [m for m in D.legal_moves(state) if isinstance(m, D.Play)]
        if 3 <= len(plays) <= 12 and len(positions) < 12 and rng.random() < 0.3:
            positions.append((state, plays))
    assert len(positions) >= 8
    for state, plays in positions:
        per = 150
        counts = dict.fromkeys(plays, 0)
        for _ in range(per * len(plays)):
            move = D.random_move(state, rng, 0.0)
            assert move in counts, (state, move)
            counts[move] += 1
        df = len(plays) - 1
        chi2 = sum((n - per) ** 2 / per for n in counts.values())
        assert chi2 < df + 8 * (2 * df) ** 0.5 + 10, (state.hands[state.to_move], counts)
        assert min(counts.values()) > 0
