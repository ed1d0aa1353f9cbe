"""Exhaustive agreement within a stated scope: for every setting (each preset, and each
with one option toggled), every trick state of the scope and every set of the scope's
cards, the engine and the rules' z3 model (``solve/rules.py``) agree on whether that set
is a legal play. Whether a set of cards may be played does not depend on the rest of the
hand, so each state is judged once with all the scope's cards in hand: the engine's legal
moves and the model's solutions must be the same card sets.

The scope (``SCOPE``): the cards 3S 4S 5S 6S 7S 8S JS 5H 5D 2C JK (and a second JK under
classic, which deals two jokers to 5 or more players): every one of their 2,048 (4,096) sets;
the table empty, a single 4H, 2C or JH, a lone joker, the pair 4C 4D, the three 5C 5D 5H,
the sequences 4H 5H 6H and 3D 4D 5D 6D, the group 9C 9D 9H 9S; the order normal or reversed by a revolution, eleven-back
or both; the suits locked or not (where suit-lock can lock them); a revolution made in the
trick or not (where consecutive-revolution asks). The default suite runs the presets;
``pytest -m slow`` every setting; ``python -m tests.games.daifugo.test_daifugo_agreement``
prints the scope, the count and the time.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator

import pytest

from referee.engines.base import JOKER
from referee.games.daifugo import engine as df
from referee.games.daifugo import prove as daifugo_prove
from referee.games.daifugo import settings as daifugo_settings
from referee.games.daifugo.solve.rules import PlayModel
from referee.games.daifugo.solve.search import beaters
from referee.notation.cards import parse_card

CARDS = [parse_card(t) for t in "3S 4S 5S 6S 7S 8S JS 5H 5D 2C".split()] + [JOKER]
TABLES = (None, "4H", "2C", "JH", "JK", "4C 4D", "5C 5D 5H", "4H 5H 6H", "3D 4D 5D 6D", "9C 9D 9H 9S")
SCOPE = {
    "cards": "every set of 3S 4S 5S 6S 7S 8S JS 5H 5D 2C JK (and a second JK under classic)",
    "tables": "empty, 4H, 2C, JH, a lone joker, 4C 4D, 5C 5D 5H, 4H 5H 6H, 3D 4D 5D 6D, 9C 9D 9H 9S",
    "order": "normal, revolution, eleven-back, both",
    "suit-lock": "none, or the table's suits (where the setting locks)",
    "trick revolted": "no, yes (where consecutive-revolution asks)",
    "settings": "each preset, and each with one option toggled",
}


def trick_states(rules: df.RuleSet) -> Iterator[df.State]:
    players = rules.min_players if rules.min_players >= 5 or rules.name == "uecda" else 5
    hand = tuple(CARDS) + ((JOKER,) if rules.jokers(players) == 2 else ())
    hands = [hand] + [(parse_card(f"{r}C"),) for r in ("A", "K", "Q", "J", "10", "9", "8")[:players - 1]]
    base = df.snapshot(rules, hands, tuple(range(players)), 0)
    for text in TABLES:
        table = None if text is None else df.combination(rules, [parse_card(t) for t in text.split()])
        if text is not None and table is None:
            continue  # not a combination under this setting
        locks: list[frozenset[str] | None] = [None]
        if rules.suit_lock and table is not None and table.suits:
            locks.append(table.suits)
        for revolution in (False, True):
            for back in (False, True):
                if back and table is None:
                    continue  # eleven-back lasts only within a trick
                for lock in locks:
                    for revolted in ((False, True) if rules.consecutive_revolution and table is not None else (False,)):
                        yield base._replace(table=table, revolution=revolution, back=back, lock=lock,
                                            trick_revolted=revolted, last_player=1 if table is not None else 0)


def disagreement(state: df.State) -> str | None:
    hand = state.hands[0]
    engine = {tuple(sorted(m.cards)) for m in beaters(state, 0, hand)}
    model = {tuple(sorted(c)) for c in PlayModel(state, hand).solutions().plays}
    if engine == model:
        return None
    return (f"{state.rules!r} table {state.table} rev {state.revolution} back {state.back} lock {state.lock}: "
            f"engine only {sorted(engine - model)[:3]}, z3 only {sorted(model - engine)[:3]}")


def run(settings: list[str]) -> tuple[int, int, list[str], float]:
    start = time.monotonic()
    states = judged = 0
    bad = []
    for setting in settings:
        rules = daifugo_settings.parse(setting)
        for state in trick_states(rules):
            states += 1
            judged += 1 << len(state.hands[0])
            why = disagreement(state)
            if why is not None:
                bad.append(why)
    return states, judged, bad, time.monotonic() - start


def test_the_presets_agree_on_every_play_of_the_scope() -> None:
    states, judged, bad, _ = run(["classic", "uecda"])
    assert states > 50
    assert not bad, bad[:3]


@pytest.mark.slow
def test_every_setting_agrees_on_every_play_of_the_scope() -> None:
    states, judged, bad, _ = run(daifugo_prove.settings())
    assert not bad, bad[:3]


if __name__ == "__main__":
    for name, what in SCOPE.items():
        print(f"{name}: {what}")
    chosen = sys.argv[1:] or daifugo_prove.settings()
    n, sets, problems, seconds = run(chosen)
    print(f"settings: {len(chosen)}; trick states: {n}; card sets judged: {sets}; disagreements: {len(problems)}; "
          f"time: {seconds:.0f} s")
    for line in problems[:20]:
        print(line)
