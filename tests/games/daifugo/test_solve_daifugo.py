"""``pitboss solve`` for Daifugo: golden puzzles, the exhaustive split against z3, beaters
against a brute force over every set of unseen cards, forced-out strategies replayed.

Random positions come from self-play (first rounds of ``daifugo_matches``, both presets,
several options); ``PITBOSS_EXAMPLES`` sizes the default sample, ``pytest -m slow`` runs the
long one. On a disagreement the test prints the position as a DFN snapshot.
"""

from __future__ import annotations

import json
import os
import random
import re
import shlex
from collections.abc import Iterator
from itertools import combinations
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli import app
from referee.games.daifugo import engine as df
from referee.games.daifugo.notation.dfn import (
    decode_cards,
    hand_text,
    options_text,
    ruleset_of,
)
from referee.games.daifugo.selfplay import daifugo_matches
from referee.games.daifugo.solve.questions import (
    forced_out_question,
    out_question,
    unbeatable_question,
)
from referee.games.daifugo.solve.rules import OutModel
from referee.games.daifugo.solve.search import (
    ForcedOut,
    Partition,
    beaters,
    forced_out,
    lead_state,
    replay_out,
    verify_out_strategy,
)
from referee.jobs.solve import Deadline, QuestionError
from referee.jobs.solve.ask import Options, ask
from referee.jobs.solve.positions import load_position
from tests.conftest import PositionBudget

ROOT = Path(__file__).resolve().parents[3]
PUZZLES = ROOT / "tests" / "golden" / "puzzles"
EXAMPLES = int(os.environ.get("PITBOSS_EXAMPLES", "120"))
runner = CliRunner()


# --------------------------------------------------------------------------- golden puzzles


def puzzle_records() -> list[tuple[Path, int, dict[str, str]]]:
    out = []
    for path in sorted(PUZZLES.glob("*.dfn")):
        index = 0
        current: dict[str, str] = {}
        for line in path.read_text(encoding="utf-8").splitlines() + ['[Game "end"]']:
            if re.match(r"\s*\[Game\s", line):
                if current.get("solve"):
                    out.append((path, index, current))
                index += 1
                current = {}
            m = re.match(r";\s*(solve|answer|includes|first):\s*(.*)", line)
            if m:
                current[m.group(1)] = m.group(2).strip()
    return out


DAIFUGO_PUZZLES = puzzle_records()


def test_there_are_enough_daifugo_puzzles() -> None:
    assert len(DAIFUGO_PUZZLES) >= 15
    assert {load_position(str(p), i).rules for p, i, _ in DAIFUGO_PUZZLES} == {"classic", "uecda"}


def _options(args: str) -> tuple[str, Options]:
    it = iter(shlex.split(args))
    question = ""
    opts = Options(timeout=60)
    for w in it:
        value = next(it)
        key = w.lstrip("-").replace("-", "_")
        if key in ("Q", "question"):
            question = value
        elif key == "depth":
            opts.depth = int(value)
        else:
            setattr(opts, key, value)
    return question, opts


def _cards(text: str) -> list:
    return sorted(decode_cards(text)[0])


@pytest.mark.parametrize("path,index,want", DAIFUGO_PUZZLES, ids=[f"{p.stem}-{i}" for p, i, _ in DAIFUGO_PUZZLES])
def test_daifugo_puzzle(path: Path, index: int, want: dict[str, str]) -> None:
    position = load_position(str(path), index)
    question, opts = _options(want["solve"])
    expected = want["answer"].split()
    methods = ["auto", "search", "z3"] if question == "out" else ["auto"]
    for method in methods:
        if question == "out":
            opts.method = method
        answer = ask(position, question, opts)
        assert answer.answer == expected[0], f"{path.name} {index} {method}: {answer.answer} ({answer.reason})"
        rest = expected[1:]
        if question == "out":
            assert answer.extra["plays"] == int(rest[0]), f"{method}: {answer.witness}"
            for item in rest[1:]:
                key, value = item.split("=")
                assert str(answer.extra[key]) == value, f"{method}: {key} {answer.extra[key]} ({answer.witness})"
        if "includes" in want:
            assert any(_cards(w.split(":")[-1]) == _cards(want["includes"]) for w in answer.witness), answer.witness
        if "first" in want:
            assert _cards(answer.witness[0].split(":", 1)[1]) == _cards(want["first"])
        if answer.answer == "yes":
            assert answer.extra.get("confirmed") is True
        assert answer.reason


# --------------------------------------------------------------------------- random positions

PRESETS = [("classic", ""), ("classic", "+eight-cut +eleven-back"), ("classic", "-revolution +spade3"),
           ("classic", "stairs-revolution=3 +suit-lock"), ("uecda", "")]


def selfplay_states(count: int, seed: int) -> Iterator[df.State]:
    """Positions from the first rounds of self-play matches (every phase of play)."""
    rng = random.Random(seed)
    made = 0
    k = 0
    while made < count:
        preset, options = PRESETS[k % len(PRESETS)]
        k += 1
        players = 5 if preset == "uecda" else rng.randint(3, 5)
        match = next(daifugo_matches(1, seed=seed * 1000 + k, players=players, rules=preset, options=options,
                                     rounds=1))
        tags, moves = match.rounds[0]
        rules = ruleset_of(preset, options)
        names = match.tags["Players"].split()
        hands = [decode_cards(tags[f"Hand.{n}"])[0] for n in names]
        seats = [names.index(n) for n in tags["Order"].split()] if "Order" in tags else None
        state = df.new_round(rules, hands, seats, None, 1, names)
        states = [state]
        for move in moves:
            state = df.apply(state, move)
            states.append(state)
        live = [s for s in states if not s.over and s.phase == "play"]
        for s in rng.sample(live, min(4, len(live))):
            yield s
            made += 1


def snapshot_text(state: df.State, note: str = "") -> str:
    """A position as a DFN snapshot (notation.md section 5)."""
    names = state.names or tuple(f"P{i + 1}" for i in range(len(state.hands)))
    lines = [f"; {line}" for line in note.splitlines()]
    lines += ['[Game "Daifugo"]', f'[Rules "{state.rules.name}"]']
    if options_text(state.rules):
        lines.append(f'[Options "{options_text(state.rules)}"]')
    lines.append(f'[Players "{" ".join(names)}"]')
    for p, n in enumerate(names):
        lines.append(f'[Hand.{n} "{hand_text(state.hands[p])}"]')
    lines.append(f'[Table "{state.table or ""}"]  ; by '
                 f'{names[state.last_player] if state.last_player is not None else "-"}')
    lines.append(f'[Passed "{" ".join(names[p] for p in state.passed)}"]')
    lines.append(f'[Out "{" ".join(names[p] for p in state.finished)}"]')
    lines.append(f'[Revolution "{"yes" if state.revolution else "no"}"]')
    if state.lock is not None:
        lines.append(f'[Lock "{" ".join(sorted(state.lock))}"]')
    if state.back:
        lines.append('[Back "yes"]')
    lines.append(f'[ToMove "{names[state.to_move]}"]')  # type: ignore[index]
    return "\n".join(lines) + "\n"


def check_split_agreement(count: int, seed: int, most_cards: int = 99) -> None:
    problems = []
    for state in selfplay_states(count, seed):
        p = state.to_move
        if len(state.hands[p]) > most_cards:  # type: ignore[index]
            continue
        partition = Partition(state, p)  # type: ignore[arg-type]
        n = partition.fewest()
        model = OutModel(state, p)  # type: ignore[arg-type]
        z = model.fewest()
        if len(z.plays) != n:
            problems.append(snapshot_text(state, f"split: {n} plays, z3: {len(z.plays)}"))
            continue
        if n > 1 and model.at_most(n - 1).answer != "no":
            problems.append(snapshot_text(state, f"z3 finds fewer than {n} plays"))
        if state.rules.forbidden_finish:
            clean = partition.best(clean=True)
            z_clean = model.fewest(clean=True)
            a = None if clean is None else len(clean.plays)
            b = len(z_clean.plays) if z_clean.answer == "yes" else None
            if a != b:
                problems.append(snapshot_text(state, f"fewest with a normal finish: split {a}, z3 {b}"))
        for clean in (False, True):
            split = partition.best(clean)
            if split is None:
                continue
            ok, why, final = replay_out(state, p, split.plays)  # type: ignore[arg-type]
            if not ok:
                problems.append(snapshot_text(state, f"the split does not replay: {why}"))
            elif split.clean != (p in final.finished):
                problems.append(snapshot_text(state, f"the split's finish is judged {split.clean} but the engine "
                                                     f"says {p in final.finished}"))
    assert not problems, "\n".join(problems)


def test_split_agrees_with_z3() -> None:
    """Hands of up to 6 cards (the rules' model states every play itself, so a large
    hand's split is a large model); the slow test runs 2,000 positions, every hand."""
    check_split_agreement(EXAMPLES, seed=1, most_cards=6)


@pytest.mark.slow
def test_split_agrees_with_z3_thousands() -> None:
    check_split_agreement(2000, seed=2)


def _brute_beaters(state: df.State, holder: int, pool: tuple) -> set:
    """Every set of pool cards (and joker reading) that the engine's check accepts on the
    table: independent of legal_moves' own candidate generation."""
    size = 1 if state.table.lone_joker else state.table.size  # type: ignore[union-attr]
    hands = list(state.hands)
    hands[holder] = pool
    probe = state._replace(hands=tuple(hands), to_move=holder, passed=frozenset())
    found = set()
    for cards in set(combinations(sorted(pool), size)):
        jokers = sum(1 for c in cards if c.is_joker)
        readings = {()}
        if jokers:
            readings = {tuple(c.stands) for c in df.readings(state.rules, cards)}
        for joker_as in readings:
            if df.check(probe, df.Play(holder, cards, joker_as)) is None:
                found.add(tuple(sorted(cards)))
    return found


def test_beaters_match_a_brute_force() -> None:
    checked = 0
    for state in selfplay_states(max(60, EXAMPLES // 2), seed=3):
        if state.table is None:
            continue
        others = [q for q in df.players_in(state) if q != state.last_player]
        pool = tuple(c for q in others for c in state.hands[q])
        holder = others[0]
        got = {tuple(sorted(m.cards)) for m in beaters(state, holder, pool)}
        want = _brute_beaters(state, holder, pool)
        assert got == want, snapshot_text(state, f"legal_moves: {len(got)}, brute force: {len(want)}")
        checked += 1
    assert checked > 5


def test_forced_out_strategies_replay() -> None:
    seen = {"yes": 0, "no": 0}
    for state in selfplay_states(400, seed=4):
        p = state.to_move
        if sum(len(h) for h in state.hands) > 12 or len(state.hands[p]) > 5:  # type: ignore[index]
            continue
        try:
            result = forced_out(state, p, len(state.hands[p]), Deadline(5))  # type: ignore[arg-type,index]
        except Exception as err:  # the deadline: skip the position
            if type(err).__name__ == "Timeout":
                continue
            raise
        if result.strategy is not None:
            ok, why = verify_out_strategy(state, p, result.strategy)  # type: ignore[arg-type]
            assert ok, snapshot_text(state, why)
            seen["yes"] += 1
        else:
            for move, reply, _ in result.refutation:
                assert df.check(state, move) is None
                if reply is not None:
                    assert df.check(df.apply(state, move), reply) is None
            seen["no"] += 1
        if seen["yes"] >= 6 and seen["no"] >= 6:
            break
    assert seen["yes"] and seen["no"], seen


def _plain_out(state: df.State, player: int, budget: int, first: int, memo: dict) -> bool:
    """The reference: can ``player`` go out first within ``budget`` own plays whatever the
    others do, by the definition alone (every legal move of every player; no bound, no
    ordering; answers remembered per position and budget, a pure function of them)."""
    new = state.finished[first:]
    if new:
        return new[0] == player
    if player in state.fouled or state.over:
        return False
    if state.to_move == player and budget <= 0:
        return False
    key = (state, budget)
    if key not in memo:
        outcomes = (_plain_out(df.apply(state, m), player,
                               budget - (1 if state.to_move == player and isinstance(m, df.Play) else 0), first, memo)
                    for m in df.legal_moves(state))
        memo[key] = any(outcomes) if state.to_move == player else all(outcomes)
    return memo[key]


def test_forced_out_agrees_with_the_plain_search() -> None:
    """The table (shared across budgets), the hand-split bound and the ordering change no
    answer: small self-play positions, the player to move and another player, every budget
    from 1 to the hand's size."""
    seen = {True: 0, False: 0}
    positions = 0
    for state in selfplay_states(600, seed=9):
        if sum(len(h) for h in state.hands) > 11:
            continue
        positions += 1
        for p in {state.to_move, (state.to_move + 1) % len(state.hands)}:  # type: ignore[operator]
            if not state.hands[p] or p in state.finished:
                continue
            shared = ForcedOut(state, p, None)  # one table across every budget, asked out of order
            budgets = list(range(1, len(state.hands[p]) + 1))
            random.Random(positions).shuffle(budgets)
            for budget in budgets:
                result = forced_out(state, p, budget)
                expected = _plain_out(state, p, budget, len(state.finished), {})
                assert shared.holds(state, budget) == expected, snapshot_text(state, f"shared table, budget {budget}")
                got = result.strategy is not None
                assert got == expected, snapshot_text(state, f"player {p}, budget {budget}: plain says {expected}")
                if got:
                    ok, why = verify_out_strategy(state, p, result.strategy)  # type: ignore[arg-type]
                    assert ok, snapshot_text(state, why)
                seen[expected] += 1
        if positions >= 40:
            break
    assert seen[True] >= 5 and seen[False] >= 5, seen


# --------------------------------------------------------------------------- questions, CLI


def test_unbeatable_play_must_be_legal() -> None:
    position = load_position(str(PUZZLES / "daifugo-unbeatable.dfn"), 4)
    with pytest.raises(QuestionError, match="does not hold|cannot play"):
        unbeatable_question(position.state, position.record.players, play="2H")


def test_out_with_search_only_explains_from_the_search() -> None:
    position = load_position(str(PUZZLES / "daifugo-out.dfn"), 1)
    answer = out_question(position.state, position.record.players, player="Aki", method="search")
    assert answer.answer == "yes" and answer.stats.solver_calls == 0
    assert "exhaustive search" in answer.reason


def test_forced_out_timeout_is_unknown() -> None:
    # A search that runs out of time answers "unknown", saying so, not "no" (some of these
    # positions are settled within the budget; at least one is not).
    states = [s for s in selfplay_states(50, seed=6) if sum(len(h) for h in s.hands) > 30][:8]
    timed_out = 0
    for state in states:
        answer = forced_out_question(state, state.names, deadline=PositionBudget(1024))
        if answer.answer == "unknown":
            assert answer.reason == "unknown after 0.05 s", answer.reason
            timed_out += 1
    assert timed_out, "no position ran past the budget"


def test_cli_daifugo_json_and_exit_codes(tmp_path: Path) -> None:
    path = str(PUZZLES / "daifugo-out.dfn")
    result = runner.invoke(app, ["solve", path, "-Q", "out", "--player", "Aki", "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    assert doc["answer"] == "yes" and doc["plays"] == 3 and doc["stats"]["solver_calls"] >= 1
    assert "z3 unsat core" in doc["reason"]
    result = runner.invoke(app, ["solve", path, "-Q", "out", "--player", "Nobody"])
    assert result.exit_code == 2 and "not one of the players" in result.output
    result = runner.invoke(app, ["solve", path, "-Q", "reach", "-c", "A"])
    assert result.exit_code == 2
    bad = tmp_path / "bad.dfn"
    bad.write_text('[Game "Daifugo"]\n[Players "Aki Ben Chie"]\n[Hand.Aki "3S"]\n[Hand.Ben "4S"]\n'
                   '[Hand.Chie "5S"]\n[Table ""]\n[ToMove "Zed"]\n', encoding="utf-8")
    result = runner.invoke(app, ["solve", str(bad), "-Q", "out"])
    assert result.exit_code == 1 and "ToMove" in result.output
    result = runner.invoke(app, ["solve", str(PUZZLES / "daifugo-forced-out.dfn"), "-Q", "forced-out", "--json"])
    doc = json.loads(result.output)
    assert doc["answer"] == "yes" and doc["strategy"][0]["move"] == "Aki: 9S 9H"


def test_lead_state_clears_the_trick() -> None:
    position = load_position(str(PUZZLES / "daifugo-out.dfn"), 1)
    s = lead_state(position.state, 0)
    assert s.table is None and s.to_move == 0 and not s.passed
