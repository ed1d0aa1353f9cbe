"""The rules' z3 model of a whole Daifugo round held to the engine: every move and the
position after it (``solve/step.py``), the deal, the start (turn order, gifts owed, first
leader), every gift of the exchange and the result (``solve/round.py``), on every position
of self-play rounds (three rounds a match, so that exchanges, titles and miyako-ochi come
up); the search for a forced way out over the model's moves against the plain search; and
the rule ids the Daifugo models state.

The default suite runs the presets and a few settings, sampling positions; ``pytest -m
slow`` every setting and every position. ``python -m tests.games.daifugo.test_daifugo_round_model``
prints the scope, the counts and the time of the whole run.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest

from referee.engines.base import JOKER
from referee.games.daifugo import engine as df
from referee.games.daifugo import prove as daifugo_prove
from referee.games.daifugo import settings as daifugo_settings
from referee.games.daifugo.notation.dfn import decode_cards
from referee.games.daifugo.selfplay import NAMES, play_round
from referee.games.daifugo.solve.forced import ModelForcedOut, model_successors
from referee.games.daifugo.solve.round import DealModel, GiftModel, ResultModel, StartModel
from referee.games.daifugo.solve.rules import OutModel, PlayModel
from referee.games.daifugo.solve.search import forced_out, verify_out_strategy
from referee.games.daifugo.solve.step import StepModel
from referee.jobs.solve.smt import Disagreement
from tests.games.daifugo.test_solve_daifugo import _plain_out, selfplay_states, snapshot_text

#: A few settings beyond the presets for the default suite: the options that change what
#: a move sets off or who moves next.
SAMPLE = ["classic", "uecda", "classic +six-reverse +eleven-back +eight-cut", "classic +miyako-ochi +suit-lock",
          "uecda trick-end=all-but-one"]


@dataclass
class Round:
    """One self-play round: its deal, the position before every move, its final position."""

    rules: df.RuleSet
    hands: list[tuple]
    previous: tuple[int, ...] | None
    seats: tuple[int, ...]
    deal_order: list[int] | None
    states: list[df.State] = field(default_factory=list)
    final: df.State | None = None


def rounds(setting: str, count: int = 3) -> Iterator[Round]:
    """``count`` rounds of a self-play match under ``setting`` (3 to 6 players)."""
    rules = daifugo_settings.parse(setting)
    rng = random.Random(setting)
    players = rng.randint(rules.min_players, min(rules.max_players, 6))
    given = tuple(rng.sample(range(players), players)) if rules.seating == "given" else None
    previous = None
    for number in range(1, count + 1):
        tags, moves, final = play_round(rng, rules, NAMES[:players], number, previous, given)  # type: ignore[misc]
        hands = [decode_cards(tags[f"Hand.{n}"])[0] for n in NAMES[:players]]
        seats = df.default_seats(rules, players, previous) or given
        order = list(seats) if rules.deal_start == "any" else list(previous) if previous is not None else None
        got = Round(rules, hands, previous, seats, order)  # type: ignore[arg-type]
        state = df.new_round(rules, hands, seats, previous, number, NAMES[:players])
        for move in moves:
            got.states.append(state)
            state = df.apply(state, move)
        got.final = state
        yield got
        previous = df.finishing_order(state)


def _sorted(state: df.State) -> df.State:
    return state._replace(hands=tuple(tuple(sorted(h)) for h in state.hands), events=())


def gift_disagreement(state: df.State) -> str | None:
    engine = {(g.giver, g.receiver, tuple(sorted(g.cards))): _sorted(df.apply(state, g))
              for g in df.legal_moves(state) if isinstance(g, df.Give)}
    model = {(s.move.giver, s.move.receiver, s.move.cards): _sorted(s.after)  # type: ignore[union-attr]
             for s in GiftModel(state).successors()}
    if engine != model:
        return f"{state.rules!r}: gifts engine only {sorted(set(engine) - set(model))[:2]}, z3 {len(model)}"
    return None


def round_disagreements(r: Round, every: int = 1) -> tuple[int, list[str]]:
    """Positions judged and what the models and the engine disagree on, in one round."""
    bad: list[str] = []
    judged = 0
    deal = DealModel(r.rules, len(r.hands), r.deal_order).judge(r.hands)
    if deal.answer != "sat" or df.check_deal(r.rules, r.hands, r.deal_order):
        bad.append(f"{r.rules!r}: a self-play deal: z3 {deal.answer} {deal.core}")
    start = StartModel(r.rules, r.hands, r.previous, r.seats if r.rules.seating == "given" else None).start()
    first = r.states[0]
    if (start.seats, start.duties) != (first.seats, first.pending) or start.leader not in (None, first.to_move):
        bad.append(f"{r.rules!r}: start: z3 {start}, engine {first.seats} {first.pending} {first.to_move}")
    for i, state in enumerate(r.states):
        if i % every and not (state.phase == "exchange" and len(state.pending) == 1):
            continue  # sampled: but the last gift, where play starts, always
        judged += 1
        try:
            why = gift_disagreement(state) if state.phase == "exchange" else (model_successors(state) and None)
        except Disagreement as err:
            why = str(err)
        if why is not None:
            bad.append(why + "\n" + snapshot_text(state))
    assert r.final is not None
    order, titles = ResultModel(r.final).order()
    want = df.finishing_order(r.final)
    if (order != want and not r.final.stalled) or titles != df.titles(order):
        bad.append(f"{r.rules!r}: result z3 {order} {titles}, engine {want}")
    return judged, bad


def run(settings: list[str], every: int) -> tuple[int, list[str], float]:
    start = time.monotonic()
    judged = 0
    bad: list[str] = []
    for setting in settings:
        for r in rounds(setting):
            n, found = round_disagreements(r, every)
            judged += n
            bad += found
    return judged, bad, time.monotonic() - start


def test_the_round_model_agrees_with_the_engine_on_a_sample() -> None:
    judged, bad, _ = run(SAMPLE, every=12)
    assert judged > 60
    assert not bad, bad[:2]


@pytest.mark.slow
def test_the_round_model_agrees_with_the_engine_on_every_position_of_every_setting() -> None:
    judged, bad, _ = run(daifugo_prove.settings(), every=1)
    assert not bad, bad[:2]


def test_records_that_break_the_set_up_rules_are_refused_with_their_rules() -> None:
    r = next(rounds("classic", 2))
    hands = [list(h) for h in r.hands]
    hands[1].append(hands[0][0])  # a card dealt twice
    verdict = DealModel(r.rules, len(hands)).judge(hands)
    assert verdict.answer == "unsat" and "daifugo.deal.duplicate" in verdict.core
    assert "daifugo.deal.players" in DealModel(r.rules, 2).judge(r.hands[:2]).core
    later = list(rounds("classic", 2))[1]
    seats = StartModel(later.rules, later.hands, later.previous).judge_seats(tuple(range(len(later.hands))))
    assert seats.answer == "unsat" and "daifugo.lead.later-rounds" in seats.core
    assert later.final is not None
    order = df.finishing_order(later.final)
    assert order is not None
    result = ResultModel(later.final).judge(order[::-1])
    assert result.answer == "unsat" and "daifugo.result.finish" in result.core


def test_forced_out_over_the_model_agrees_with_the_plain_search() -> None:
    """Small self-play positions, the player to move, every budget: the search over the
    rules' model answers as the plain search over the engine does, and its strategies,
    named as the engine names moves, replay."""
    seen = {True: 0, False: 0}
    positions = 0
    for state in selfplay_states(300, seed=9):
        if sum(len(h) for h in state.hands) > 9:
            continue
        positions += 1
        p = state.to_move
        assert p is not None
        for budget in range(1, len(state.hands[p]) + 1):
            model = ModelForcedOut(state, p, None)
            result = forced_out(state, p, budget, None, model)
            expected = _plain_out(state, p, budget, len(state.finished), {})
            assert (result.strategy is not None) == expected, snapshot_text(state, f"budget {budget}")
            if result.strategy is not None:
                ok, why = verify_out_strategy(state, p, model.as_engine(state, result.strategy))
                assert ok, snapshot_text(state, why)
            seen[expected] += 1
        if positions >= 15:
            break
    assert seen[True] >= 3 and seen[False] >= 3, seen


if __name__ == "__main__":
    chosen = sys.argv[1:] or daifugo_prove.settings()
    n, problems, seconds = run(chosen, every=1)
    print(f"settings: {len(chosen)}, three self-play rounds each; positions judged (every move of the round and "
          f"the position after it, every gift): {n}; disagreements: {len(problems)}; time: {seconds:.0f} s")
    for line in problems[:10]:
        print(line)


def daifugo_model_ids() -> set[str]:
    """The rule ids stated as named constraints by the Daifugo models, built (not solved)
    on the positions of self-play rounds of a few settings, on a hand holding both jokers,
    with a record's finishing order judged; and the count model of ``pitboss prove``."""
    names: set[str] = set()

    def add(script: object) -> None:
        names.update(k for k, v in script.tracked.items() if v)  # type: ignore[attr-defined]

    for setting in SAMPLE + ["classic +diamond3-start -forbidden-finish +consecutive-revolution exchange=choice",
                             "uecda -sequences"]:
        for r in rounds(setting, 2):
            add(DealModel(r.rules, len(r.hands), r.deal_order).script)
            add(StartModel(r.rules, r.hands, r.previous, r.seats).script)
            assert r.final is not None
            result = ResultModel(r.final)
            result.judge(df.finishing_order(r.final))
            add(result.script)
            for i, state in enumerate(r.states):
                if state.phase == "exchange":
                    add(GiftModel(state).script)
                elif i % 4 == 0:
                    add(StepModel(state).script)
                    add(OutModel(state, state.to_move).script)  # type: ignore[arg-type]
        rules = daifugo_settings.parse(setting)
        count = daifugo_prove.RoundModel(rules, rules.min_players)
        a, b = count.state("a"), count.state("b")
        count.start(a)
        count.step(a, b, "t")
        add(count.script)
    rules = df.ruleset("classic")
    jokers = df.snapshot(rules, [(JOKER, JOKER, decode_cards("5S")[0][0])] + [decode_cards(c)[0] for c in
                                                                                 ("6S", "7S", "8S", "9S")], range(5), 0)
    add(PlayModel(jokers, jokers.hands[0]).script)
    for preset in ("uecda", "classic"):  # a sequence on the table: each preset's way of beating it
        run = df.snapshot(df.ruleset(preset), [decode_cards(h)[0] for h in ("7H 8H 9H", "3C", "4C", "5C", "6C")],
                          range(5), 0, table=df.Play(1, tuple(decode_cards("4H 5H 6H")[0])))
        add(StepModel(run).script)
    return names


def test_rule_coverage_of_the_daifugo_models() -> None:
    from tests.test_prove import ROOT, _engine_ids

    engine: set[str] = set()
    for path in sorted((ROOT / "referee" / "games" / "daifugo" / "engine").glob("*.py")):
        engine |= _engine_ids(path)
    stated = daifugo_model_ids() & engine
    assert len(engine) == 58
    # Left out (docs/prove.md says why): two permissions no constraint can carry (a joker
    # may stand for a card its player holds; the diamond 3's holder may lead without it),
    # a reading of the notation (a bare joker read the one legal way) and the contest
    # server's handling of an illegal submission (counted as a pass).
    assert engine - stated == {"daifugo.joker.held-card", "daifugo.lead.diamond3-free", "daifugo.joker.ambiguous",
                               "daifugo.turn.rejected"}, sorted(engine - stated)
