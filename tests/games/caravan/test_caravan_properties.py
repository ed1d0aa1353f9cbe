"""Property tests for Caravan: self-play games validate and round-trip through CVN, every
single-token mutation is judged (legal, or rejected with a spec rule id, never a crash),
and no text makes the reader raise.

Sizes: PITBOSS_EXAMPLES games per rule set (default 300); the ``slow`` runs play ten times
as many games (3,000 per rule set) and judge five times as many mutations (``pytest -m slow``).
"""

from __future__ import annotations

import os
import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee import spec
from referee.games.caravan import engine as cv
from referee.games.caravan.notation.cvn import read_caravan, write_caravan
from referee.games.caravan.selfplay import caravan_games
from referee.jobs.validate import split, validate_text

EXAMPLES = int(os.environ.get("PITBOSS_EXAMPLES", "300"))
RULESETS = sorted(cv.RULESETS)


def _games(rules: str, count: int, seed: int):
    return list(caravan_games(count, seed, rules, player="mixed" if seed % 10 == 1 else "random", draws=seed % 3 == 0))


def _roundtrip_and_validate(rules: str, count: int, seed: int) -> None:
    games = _games(rules, count, seed)
    text = "\n".join(g.text() for g in games)
    reports = validate_text(text, "selfplay.cvn")
    assert len(reports) == len(games)
    for game, report in zip(games, reports):
        assert report.valid, (report.errors, game.text())
        assert report.knowledge == "full"
        assert report.plies == len(game.moves)
        expected_winner = str(game.final.winner + 1)
        assert report.details["outcome"]["winner"] == expected_winner
    # parse -> write -> parse gives the same game
    for chunk, game in zip(split(text.splitlines(keepends=True)), games):
        first = read_caravan(chunk)
        assert [e.move for e in first.moves] == game.moves
        assert {n: t.value for n, t in first.tags.items()} == game.tags
        written = write_caravan({n: t.value for n, t in first.tags.items()}, [e.move for e in first.moves])
        (again_chunk,) = split(written.splitlines(keepends=True))
        again = read_caravan(again_chunk)
        assert [e.move for e in again.moves] == [e.move for e in first.moves]
        assert {n: t.value for n, t in again.tags.items()} == {n: t.value for n, t in first.tags.items()}


@pytest.mark.parametrize("rules", RULESETS)
def test_selfplay_games_validate_and_roundtrip(rules: str) -> None:
    _roundtrip_and_validate(rules, EXAMPLES, seed=11)


@pytest.mark.slow
@pytest.mark.parametrize("rules", RULESETS)
def test_selfplay_games_validate_and_roundtrip_many(rules: str) -> None:
    _roundtrip_and_validate(rules, EXAMPLES * 10, seed=12)


# ------------------------------------------------------------------------- mutations

_MOVE_TOKEN = re.compile(r"(?:10|[2-9AJQK])[SHDC]>[A-F]\d?|JK>[A-F]\d"
                         r"|discard (?:10|[2-9AJQK])[SHDC]|discard JK|disband [A-F]")
_CARDS = [str(c) for c in cv.standard_deck()[:53]]


def _random_token(rng: random.Random) -> str:
    kind = rng.random()
    card = rng.choice(_CARDS)
    letter = rng.choice("ABCDEF")
    if kind < 0.5:
        face = card[:-1] in ("J", "Q", "K") or card == "JK"
        return f"{card}>{letter}{rng.randint(1, 4)}" if face else f"{card}>{letter}"
    if kind < 0.7:
        return f"{card}>{letter}{rng.randint(1, 5)}"
    if kind < 0.85:
        return f"discard {card}"
    return f"disband {letter}"


def _mutate(text: str, rng: random.Random) -> tuple[str, int]:
    """Replace, delete or duplicate one move token; returns the text and the ply mutated."""
    header, _, movetext = text.partition("\n\n")
    tokens = list(_MOVE_TOKEN.finditer(movetext))
    i = rng.randrange(len(tokens))
    m = tokens[i]
    op = rng.random()
    if op < 0.6:
        new = _random_token(rng)
    elif op < 0.8:
        new = ""
    else:
        new = m.group(0) + " " + m.group(0)
    return header + "\n\n" + movetext[: m.start()] + new + movetext[m.end():], i + 1


def _judge_mutations(rules: str, count: int, seed: int) -> None:
    rng = random.Random(seed)
    games = _games(rules, max(count // 10, 10), seed)
    catalog = spec.catalog()
    judged = rejected = 0
    for n in range(count):
        game = games[n % len(games)]
        mutated, ply = _mutate(game.text(), rng)
        (report,) = validate_text(mutated, "mutant.cvn")
        judged += 1
        if report.valid:
            continue
        rejected += 1
        for finding in report.errors:
            assert finding.rule in catalog, finding
            assert finding.message
            # a change at ply k cannot make an earlier move illegal
            if finding.ply is not None:
                assert finding.ply >= ply - 1, (finding, ply, mutated)  # -1: a draw left behind
                assert finding.line is not None and finding.column is not None
    assert judged == count
    assert rejected > count // 4  # most mutations of a complete game break something


@pytest.mark.parametrize("rules", RULESETS)
def test_mutations_are_judged_with_rule_ids(rules: str) -> None:
    _judge_mutations(rules, EXAMPLES, seed=21)


@pytest.mark.slow
@pytest.mark.parametrize("rules", RULESETS)
def test_mutations_are_judged_with_rule_ids_many(rules: str) -> None:
    _judge_mutations(rules, EXAMPLES * 5, seed=22)


def test_a_mutation_that_stays_legal_is_legal_for_the_engine() -> None:
    """When the referee accepts a mutated record, the engine replays every move legally."""
    rng = random.Random(5)
    games = _games("holotape", 20, 5)
    checked = 0
    for game in games:
        for _ in range(40):
            mutated, _ = _mutate(game.text(), rng)
            (report,) = validate_text(mutated)
            if not report.valid:
                continue
            (chunk,) = split(mutated.splitlines(keepends=True))
            record = read_caravan(chunk)
            state = cv.new_game(cv.ruleset("holotape"),
                                tuple([d.card for d in deck] for deck in record.decks),  # type: ignore[arg-type]
                                int(record.tag("First", "1")) - 1)
            for entry in record.moves:
                assert cv.check(state, entry.move) is None
                state = cv.apply(state, entry.move)
            checked += 1
    assert checked > 0


# ------------------------------------------------------------------------- arbitrary text

_ALPHABET = st.sampled_from(list('[]"\\{};$!?+>.-*/ \t\r\n0123456789AJQKTSHDCabcdefjk♠♥♦♣xyz%')
                            + ["discard", "disband", "[Game \"Caravan\"]\n", "Rules", "Deck1", "Table", "\ufeff"])


@settings(max_examples=max(EXAMPLES // 2, 100), suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(st.lists(_ALPHABET, max_size=80).map("".join))
def test_arbitrary_text_never_raises(text: str) -> None:
    reports = validate_text(text)
    for report in reports:
        for finding in report.errors + report.warnings:
            assert finding.rule in spec.catalog()


@settings(max_examples=max(EXAMPLES // 2, 100), deadline=None)
@given(st.text(max_size=300))
def test_any_unicode_never_raises(text: str) -> None:
    validate_text('[Game "Caravan"]\n' + text)
    validate_text(text)
