"""Benchmark: how fast ``pitboss solve`` answers Caravan puzzles, z3 beside the search.

What it measures, in one run on this machine:

1. Reach queries. N positions (default 1,000) are cut from random self-play games (both
   rule sets alternating, random and greedy players), each after the opening: the side to
   move holds 5 cards, and its deck is cut to its first 0-25 cards (uniformly), which the
   question may use in draw order (--cards hand+deck). Each position gets one query: a
   random caravan of the side to move, a random bound K in 1..5. Every query is answered
   three ways, each timed alone with time.perf_counter, wall clock:
     - search: the exhaustive breadth-first search alone (its "no" is the exhaustion);
     - z3: the z3 model alone (its "yes" a shortest line found by the model, its "no" the
       unsat core), building the model included;
     - auto: what `pitboss solve` does by default: the search, and for a "no" the z3 proof
       and its worded unsat core, every line replayed through the engine.
   Every "yes" line is replayed through the engine, and the three answers must agree.
   Printed: median, p95 and max time per query, overall and split by answer.
2. Forced win: M positions (default 30), half of the same kind, half from the last 6
   moves of a self-play game, both hands and decks known (whole decks); each is asked at
   depths 1, 2, 3 and 4 (own turns; --depths), with a time limit per query (default
   10 s of CPU time). Each query is timed in CPU time (the machine is shared). Printed:
   p50, p95 and max time to answer, nodes searched per second, and how many answers were
   yes, no, unknown (the limit reached).
3. Daifugo's forced out (the same kind of AND-OR search, every player's moves): D
   positions (default 30) from self-play rounds (the five rule presets the tests use, 3-5
   players), the first with at most 12-24 cards left in all hands (cycling), the player
   to move asked whether they can go out first (budget: their hand's size), each timed in
   CPU time with the same limit, twice: over the rules' z3 model (the step model's moves
   and positions, the engine held to them at each position: what pitboss solve answers
   with), and over the engine's moves alone. Printed as for the forced win.
4. The targets: reach p95 under 100 ms including the proof (the auto path); forced win at
   depth 3 p95 under 0.5 s, and depth 4 answered within 10 s (issue 13).

Run: python bench/solve.py [--positions 1000] [--wins 30] [--depths 1,2,3,4] [--outs 30] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

import z3
from harness import machine, pct  # before referee: it chooses the engines (pure unless PITBOSS_COMPILED says)

from referee.games.caravan import engine as cv
from referee.games.caravan.selfplay import caravan_games
from referee.games.caravan.solve.model import ReachModel
from referee.games.caravan.solve.puzzle import Goal, prepare, replay
from referee.games.caravan.solve.questions import line_question
from referee.games.caravan.solve.search import forced_win, shortest_line
from referee.games.daifugo import engine as df
from referee.games.daifugo.notation.dfn import decode_cards, ruleset_of
from referee.games.daifugo.selfplay import daifugo_matches
from referee.games.daifugo.solve.forced import ModelForcedOut
from referee.games.daifugo.solve.search import forced_out
from referee.jobs.solve import Deadline, Timeout
from referee.notation.cards import parse_card


def positions(count: int, seed: int, endgame: bool = False):
    """(state, rng) pairs: self-play positions after the opening, the mover holding 5 cards,
    its deck cut to 0-25 known cards. ``endgame``: positions among the last 6 moves of each
    game instead, decks as they are (forced wins are found there)."""
    rng = random.Random(seed)
    made = 0
    game_seed = seed
    while made < count:
        for rules in ("holotape", "fnv"):
            for game in caravan_games(2, seed=game_seed, rules=rules, player=rng.choice(["random", "greedy"])):
                decks = [[parse_card(w.split("/")[0]) for w in game.tags[f"Deck{i}"].split()] for i in (1, 2)]
                state = cv.new_game(cv.ruleset(rules), (decks[0], decks[1]), int(game.tags["First"]) - 1)
                pool = []
                for move in game.moves:
                    state = cv.apply(state, move)
                    p = state.to_move
                    if not state.over and not state.in_opening() and (endgame or len(state.hands[p].known) == 5):
                        pool.append(state)
                if endgame:
                    pool = pool[-6:]
                for state in rng.sample(pool, min(3, len(pool))):
                    p = state.to_move
                    if not endgame:
                        decks_ = list(state.decks)
                        decks_[p] = state.decks[p][: rng.randint(0, 25)]  # type: ignore[index]
                        state = state._replace(decks=tuple(decks_))
                    yield state, rng
                    made += 1
                    if made >= count:
                        return
            game_seed += 1


class CpuDeadline(Deadline):
    """A query's time limit in CPU time (the machine is shared: wall time would count the
    other processes' turns against the query)."""

    def __init__(self, seconds: float) -> None:
        super().__init__(seconds)
        self.cpu_end = time.process_time() + seconds

    def expired(self) -> bool:
        return time.process_time() >= self.cpu_end

    def remaining(self) -> float:
        return max(0.0, self.cpu_end - time.process_time())


def row(name: str, values: list[float]) -> str:
    if not values:
        return f"  {name:<22} (none)"
    return (f"  {name:<22} n={len(values):<5} median {statistics.median(values) * 1000:8.1f} ms   "
            f"p95 {pct(values, 0.95) * 1000:8.1f} ms   max {max(values) * 1000:8.1f} ms")


def bench_reach(count: int, seed: int) -> dict[str, float]:
    times: dict[str, dict[str, list[float]]] = {m: {"yes": [], "no": []} for m in ("search", "z3", "auto")}
    calls = {"search": 0, "z3": 0, "auto": 0}
    disagreements = 0
    for state, rng in positions(count, seed):
        p = state.to_move
        x = rng.choice(list(cv.own_caravans(p)))
        k = rng.randint(1, 5)
        puzzle = prepare(state, Goal("reach", p, x), k, "hand+deck")

        start = time.perf_counter()
        found = shortest_line(puzzle)
        if found.line is not None:
            assert replay(puzzle, found.line)[0]
        t_search = time.perf_counter() - start

        start = time.perf_counter()
        model = ReachModel(puzzle).solve()
        if model.line is not None:
            assert replay(puzzle, model.line)[0]
        t_z3 = time.perf_counter() - start
        calls["z3"] += model.solver_calls

        start = time.perf_counter()
        answer = line_question(state, "reach", caravan=cv.LETTERS[x], within=k, cards="hand+deck")
        t_auto = time.perf_counter() - start
        calls["auto"] += answer.stats.solver_calls

        a = None if found.line is None else len(found.line)
        b = None if model.line is None else len(model.line)
        c = answer.extra.get("moves") if answer.answer == "yes" else None
        if not a == b == c:
            disagreements += 1
        verdict = "yes" if a is not None else "no"
        times["search"][verdict].append(t_search)
        times["z3"][verdict].append(t_z3)
        times["auto"][verdict].append(t_auto)
    print(f"Reach: {count} queries (hand of 5, 0-25 known deck cards, K 1-5, cards hand+deck)")
    summary = {}
    for method in ("search", "z3", "auto"):
        both = times[method]["yes"] + times[method]["no"]
        label = {"search": "search", "z3": "z3", "auto": "auto (search + z3 proof)"}[method]
        print(row(label, both))
        print(row("   yes answers", times[method]["yes"]))
        print(row("   no answers", times[method]["no"]))
        summary[method] = pct(both, 0.95)
    print(f"  z3 solver calls: {calls['z3']} (z3 alone), {calls['auto']} (auto: the proofs of the no answers)")
    print(f"  disagreements between the three: {disagreements}")
    summary["disagreements"] = disagreements
    return summary


def timed_queries(label: str, states: list, limit: float, ask) -> dict[str, float]:
    """``ask(state, deadline) -> (nodes, answered yes?)`` for each state, timed in CPU time
    (a Timeout is an unknown): one printed line and its figures."""
    times, nodes, answers = [], 0, {"yes": 0, "no": 0, "unknown": 0}
    for state in states:
        start = time.process_time()
        try:
            found, yes = ask(state, CpuDeadline(limit))
            nodes += found
            answers["yes" if yes else "no"] += 1
        except Timeout:
            answers["unknown"] += 1
        times.append(time.process_time() - start)
    rate = nodes / max(sum(times), 1e-9)
    print(f"  {label}: p50 {statistics.median(times):7.3f} s   p95 {pct(times, 0.95):7.3f} s   "
          f"max {max(times):7.3f} s   {rate:,.0f} nodes/s   "
          f"({answers['yes']} yes, {answers['no']} no, {answers['unknown']} unknown after {limit:g} s)")
    return {"p50": statistics.median(times), "p95": pct(times, 0.95), "max": max(times),
            "unknown": answers["unknown"]}


def bench_forced_win(count: int, seed: int, limit: float, depths: list[int]) -> dict[int, dict[str, float]]:
    half = count // 2
    states = [s for s, _ in positions(half, seed + 99)] + [s for s, _ in positions(count - half, seed + 98, True)]
    print(f"\nForced win: {len(states)} positions ({half} mid-game, {count - half} from the last 6 moves of a game), "
          f"both hands and decks known, limit {limit:g} s a query; CPU time per query")
    figures = {}
    for depth in depths:
        def ask(state, deadline, depth=depth):
            result = forced_win(state, depth, deadline)
            return result.nodes, result.move is not None
        figures[depth] = timed_queries(f"depth {depth}", states, limit, ask)
    return figures


DAIFUGO_PRESETS = [("classic", ""), ("classic", "+eight-cut +eleven-back"), ("classic", "-revolution +spade3"),
                   ("classic", "stairs-revolution=3 +suit-lock"), ("uecda", "")]


def daifugo_positions(count: int, seed: int) -> list[df.State]:
    """Positions from the first round of self-play matches: in match k, the first position
    with at most 12, 16, 20 or 24 cards left in all hands (cycling), the player to move."""
    rng = random.Random(seed)
    out: list[df.State] = []
    k = 0
    while len(out) < count:
        preset, options = DAIFUGO_PRESETS[k % len(DAIFUGO_PRESETS)]
        cap = (12, 16, 20, 24)[k % 4]
        k += 1
        players = 5 if preset == "uecda" else rng.randint(3, 5)
        match = next(daifugo_matches(1, seed=seed * 1000 + k, players=players, rules=preset, options=options,
                                     rounds=1))
        tags, moves = match.rounds[0]
        names = match.tags["Players"].split()
        hands = [decode_cards(tags[f"Hand.{n}"])[0] for n in names]
        seats = [names.index(n) for n in tags["Order"].split()] if "Order" in tags else None
        state = df.new_round(ruleset_of(preset, options), hands, seats, None, 1, names)
        last = None
        for move in moves:
            state = df.apply(state, move)
            if (not state.over and state.phase == "play" and state.to_move is not None
                    and sum(len(h) for h in state.hands) <= cap):
                last = state
                break
        if last is not None:
            out.append(last)
    return out


def bench_forced_out(count: int, seed: int, limit: float) -> dict[str, dict[str, float]]:
    states = daifugo_positions(count, seed + 97)
    sizes = sorted(sum(len(h) for h in s.hands) for s in states)
    print(f"\nDaifugo forced out: {len(states)} positions (self-play, {sizes[0]}-{sizes[-1]} cards left in all hands), "
          f"the player to move, budget their hand's size, limit {limit:g} s a query; CPU time per query: the search "
          f"over the rules' z3 model (what pitboss solve answers with: one step model per position reached, the "
          f"engine held to it there), then the engine's search alone (its cross-check, --method search)")

    def model(state, deadline):
        p = state.to_move
        search = ModelForcedOut(state, p, deadline)
        result = forced_out(state, p, len(state.hands[p]), deadline, search)
        return search.checked, result.strategy is not None

    def engine(state, deadline):
        p = state.to_move
        result = forced_out(state, p, len(state.hands[p]), deadline)
        return result.nodes, result.strategy is not None
    return {"model": timed_queries("forced out, z3 model (positions)", states, limit, model),
            "engine": timed_queries("forced out, engine (nodes)", states, limit, engine)}


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=1000, help="reach queries (0: skip them)")
    parser.add_argument("--wins", type=int, default=30, help="forced-win positions")
    parser.add_argument("--depths", default="1,2,3,4", help="forced-win depths (own turns)")
    parser.add_argument("--outs", type=int, default=30, help="Daifugo forced-out positions (0: skip them)")
    parser.add_argument("--limit", type=float, default=10.0, help="seconds a forced-win query may take")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    print("== solve: reach queries and the forced-win search")
    print(f"{machine()}; z3 {z3.get_version_string()}")
    reach = bench_reach(args.positions, args.seed) if args.positions else None
    depths = [int(d) for d in args.depths.split(",")]
    wins = bench_forced_win(args.wins, args.seed, args.limit, depths) if args.wins else {}
    outs = bench_forced_out(args.outs, args.seed, args.limit) if args.outs else None
    print("\nTargets:")
    if reach is not None:
        print(f"  reach p95 under 100 ms including the proof (auto): {reach['auto'] * 1000:.1f} ms "
              f"{'met' if reach['auto'] < 0.1 else 'NOT met'}")
        faster = "search" if reach["search"] <= reach["z3"] else "z3"
        print(f"  faster method for reach at p95: {faster} (search {reach['search'] * 1000:.1f} ms, "
              f"z3 {reach['z3'] * 1000:.1f} ms): `--method auto` finds the line with it")
    if 3 in wins:
        print(f"  forced win at depth 3, p95 under 0.5 s: {wins[3]['p95']:.3f} s "
              f"{'met' if wins[3]['p95'] < 0.5 else 'NOT met'}")
    if 4 in wins:
        ok = wins[4]["max"] <= 10 and not wins[4]["unknown"]
        print(f"  forced win at depth 4 answered within 10 s: max {wins[4]['max']:.3f} s, "
              f"{wins[4]['unknown']} unanswered: {'met' if ok else 'NOT met'}")
    if reach is not None and reach["disagreements"]:
        sys.exit(1)
    return {"reach": reach, "wins": wins, "outs": outs}


if __name__ == "__main__":
    main()
