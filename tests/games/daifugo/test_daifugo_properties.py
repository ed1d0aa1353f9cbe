"""Property tests for Daifugo: self-play matches of both presets under random option sets
validate and round-trip through DFN; every single-token mutation of them is judged (still
legal, or rejected with a spec rule id, never a crash); no text makes a reader raise.

Sizes: PITBOSS_EXAMPLES (default 300) sets the sample: EXAMPLES // 15 matches per preset
here; the ``slow`` runs (``pytest -m slow``) play fifty times as many (1,000 per preset)
and judge five times as many mutations.
"""

from __future__ import annotations

import os
import random
import re

import pytest
from daifugo_conformance import PRESETS, random_options
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee import spec
from referee.games.daifugo import engine as D
from referee.games.daifugo.notation.dfn import read_daifugo, record_text, ruleset_of
from referee.games.daifugo.selfplay import NAMES, daifugo_matches
from referee.jobs.validate import split, validate_text

EXAMPLES = int(os.environ.get("PITBOSS_EXAMPLES", "300"))
MATCHES = max(EXAMPLES // 15, 4)


def matches(preset: str, count: int, seed: int) -> list[tuple[str, str, int]]:
    """(text, options, plies) of ``count`` matches with random player counts and options."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        players = 5 if preset == "uecda" else rng.randint(3, 8)
        options = random_options(rng, preset)
        (match,) = daifugo_matches(1, rng.randrange(1 << 30), players, preset, options, rng.randint(1, 3))
        out.append((match.text(), options, match.plies))
    return out


def _chunks(text: str):
    return list(split(text.splitlines(keepends=True)))


def _validate_and_roundtrip(preset: str, count: int, seed: int) -> None:
    for text, options, plies in matches(preset, count, seed):
        (report,) = validate_text(text, "selfplay.dfn")
        assert report.valid and not report.warnings, (options, report.errors, report.warnings)
        assert report.plies == plies
        (chunk,) = _chunks(text)
        first = read_daifugo(chunk)
        written = record_text(first)
        assert written == text  # self-play writes the canonical form
        (again_chunk,) = _chunks(written)
        again = read_daifugo(again_chunk)
        assert [[e.move for e in r.moves] for r in again.rounds] == [[e.move for e in r.moves] for r in first.rounds]
        assert {n: t.value for n, t in again.tags.items()} == {n: t.value for n, t in first.tags.items()}
        assert [{n: t.value for n, t in r.tags.items()} for r in again.rounds] == \
               [{n: t.value for n, t in r.tags.items()} for r in first.rounds]


@pytest.mark.parametrize("preset", PRESETS)
def test_selfplay_matches_validate_and_roundtrip(preset: str) -> None:
    _validate_and_roundtrip(preset, MATCHES, seed=21)


@pytest.mark.slow
@pytest.mark.parametrize("preset", PRESETS)
def test_selfplay_matches_validate_and_roundtrip_many(preset: str) -> None:
    _validate_and_roundtrip(preset, MATCHES * 50, seed=22)


# ------------------------------------------------------------------------- mutations

_MOVE = re.compile(r"(?:(?<=\n)|(?<=  ))([A-Z][a-z]+)(?: -> ([A-Z][a-z]+))?: ([^\n]*?)(?=  |\n)")
_CARDS = [str(c) for c in D.deck(D.ruleset("classic"), 3)]


def _mutate(rng: random.Random, text: str) -> str:
    """One token changed: a move's player, a card of a move, a move dropped, doubled or
    turned into a pass, or a card of a hand, a name of a Finish or Order tag."""
    kind = rng.random()
    if kind < 0.15:
        tags = list(re.finditer(r'\[(Hand\.\w+|Finish|Order) "([^"]*)"\]', text))
        tag = rng.choice(tags)
        words = tag.group(2).split()
        i = rng.randrange(len(words))
        words[i] = rng.choice(_CARDS) if tag.group(1).startswith("Hand") else rng.choice(NAMES[:4])
        return text[:tag.start(2)] + " ".join(words) + text[tag.end(2):]
    moves = list(_MOVE.finditer(text))
    m = rng.choice(moves)
    if kind < 0.35:
        new = (f"{rng.choice(NAMES[:5])}: {m.group(3)}" if not m.group(2)
               else f"{m.group(1)} -> {rng.choice(NAMES[:5])}: {m.group(3)}")
    elif kind < 0.6:
        words = m.group(3).split()
        words[rng.randrange(len(words))] = rng.choice(_CARDS + ["JK", "pass", "JK(5D)"])
        new = m.group(0).split(":")[0] + ": " + " ".join(words)
    elif kind < 0.75:
        new = ""
    elif kind < 0.9:
        new = m.group(0) + "  " + m.group(0)
    else:
        new = m.group(0).split(":")[0] + ": pass"
    return text[:m.start()] + new + text[m.end():]


def _mutations_are_judged(preset: str, count: int, seed: int) -> None:
    rng = random.Random(seed)
    catalog = spec.catalog()
    judged = invalid = 0
    for text, _, _ in matches(preset, count, seed):
        for _ in range(6):
            mutated = _mutate(rng, text)
            reports = validate_text(mutated, "mutated.dfn")
            assert len(reports) == 1
            report = reports[0]
            judged += 1
            invalid += not report.valid
            for finding in report.errors + report.warnings:
                assert finding.rule in catalog, finding
                assert finding.message and finding.line is not None
                if finding.ply is not None:
                    assert finding.round is not None and finding.player and finding.move
    assert invalid > judged // 4


@pytest.mark.parametrize("preset", PRESETS)
def test_mutations_are_judged_with_rule_ids(preset: str) -> None:
    _mutations_are_judged(preset, MATCHES, seed=31)


@pytest.mark.slow
@pytest.mark.parametrize("preset", PRESETS)
def test_mutations_are_judged_with_rule_ids_many(preset: str) -> None:
    _mutations_are_judged(preset, MATCHES * 5, seed=32)


def test_a_mutation_that_stays_legal_is_legal_for_the_engine() -> None:
    """Where the referee accepts a mutated record, replaying its moves through the engine
    by hand accepts them too (the referee holds no rule of its own)."""
    rng = random.Random(41)
    checked = 0
    for text, _, _ in matches("classic", 6, 41):
        for _ in range(8):
            mutated = _mutate(rng, text)
            (report,) = validate_text(mutated)
            if not report.valid:
                continue
            (chunk,) = _chunks(mutated)
            record = read_daifugo(chunk)
            rules = ruleset_of("classic", record.tag("Options") or "")
            previous = None
            for rnd in record.rounds:
                n = len(record.players)
                seats = D.default_seats(rules, n, previous)
                state = D.new_round(rules, [rnd.hands[p] for p in range(n)], seats, previous)
                for entry in rnd.moves:
                    assert D.check(state, entry.move) is None
                    state = D.apply(state, entry.move)
                previous = D.finishing_order(state)
                checked += 1
    assert checked


# ------------------------------------------------------------------------- no crash

_DFN_PIECES = st.sampled_from(['[Game "Daifugo"]\n', '[Players "A B C"]\n', '[Round "1"]\n', '[Hand.A "3S JK"]\n',
                               '[Table "B: 5S"]\n', '[ToMove "A"]\n', '[Rules "uecda"]\n', "A: 3S ", "B: pass ",
                               "A -> B: 2S ", "JK(5D) ", "JK(<3D)", "{c} ", "; x\n", "1. ", "\n", "[", "]", '"',
                               "C: 4D 5D 6D ", "*", "\ufeff", "\r\n", "♠"])


@settings(max_examples=max(EXAMPLES // 2, 100), suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(st.lists(_DFN_PIECES | st.text(max_size=8), max_size=30))
def test_arbitrary_dfn_text_never_raises(pieces: list[str]) -> None:
    text = '[Game "Daifugo"]\n' + "".join(pieces)
    for report in validate_text(text, "any.dfn"):
        for finding in report.errors + report.warnings:
            assert finding.rule in spec.catalog()


_LOG_PIECES = st.sampled_from(["%-----%palyer_name% p0 p1 p2 p3 p4\n", "%00000%mibun% 22222\n", "%00000%seat% 01234\n",
                               "%00000%palyer_cards%  S3H4 D5J3 C3 S4 H5 \n", "%00000%play%  3D3EE 4EE\n",
                               "%00000%result% 01234\n", "%00001%mibun% 01234\n", "%-----%RULE_11BACK% YES\n",
                               "Kx", "MxD3D4", "EE", " ", "\n", "%", "SJHJDJCJJJ"])


@settings(max_examples=max(EXAMPLES // 2, 100), suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(st.lists(_LOG_PIECES | st.text(max_size=8), max_size=30))
def test_arbitrary_log_text_never_raises(pieces: list[str]) -> None:
    text = "%-----%palyer_name% p0 p1 p2 p3 p4\n" + "".join(pieces)
    for report in validate_text(text, "any.log"):
        for finding in report.errors + report.warnings:
            assert finding.rule in spec.catalog()


@settings(max_examples=max(EXAMPLES // 3, 60), deadline=None)
@given(st.text())
def test_any_unicode_never_raises(text: str) -> None:
    validate_text(text, "any")
    validate_text('[Game "Daifugo"]\n' + text, "any.dfn")
    validate_text("%-----%" + text, "any.log")


