"""Daifugo questions: ``out``, ``unbeatable``, ``forced-out``.

* ``out``: the fewest plays that empty a player's hand if nobody ever beats them (the player
  leads every trick): the exhaustive split (``daifugo_search.Partition``) finds it, the
  rules' z3 model (``rules.OutModel``: every play a combination by the rules' constraints)
  proves that no split is shorter and words why from its unsat core.
  Under rules with forbidden finishes the order of the plays matters: the split is played
  so that the last play is a normal finish where a split of that length allows it.
* ``unbeatable``: is a play unbeatable: which plays, made of the cards a player cannot see,
  beat it? The rules' z3 model (``rules.PlayModel``) answers, every legal play's cards or
  the unsat core of "none"; the engine's legal moves for a hand of exactly those cards must
  list the same card sets (a difference is an error), and give each play's reading.
* ``forced-out``: AND-OR search over every player's legal moves (at the root, the rules'
  z3 model must allow exactly the plays the engine lists).

Every witness is replayed through the engine before it is returned.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from referee.games.daifugo import engine as df
from referee.games.daifugo.notation.dfn import cards_text, decode_cards, move_text
from referee.games.daifugo.solve.forced import ModelForcedOut
from referee.games.daifugo.solve.rules import OutModel, PlayModel, Split
from referee.games.daifugo.solve.search import (
    OutResult,
    Partition,
    beaters,
    forbidden,
    forced_out,
    lead_state,
    replay_out,
    revolts,
    verify_out_strategy,
)
from referee.jobs.solve import Answer, Deadline, QuestionError, Timeout
from referee.jobs.solve.smt import Disagreement
from referee.notation.cards import CardError


def _names(state: df.State, names: Sequence[str] | None) -> tuple[str, ...]:
    if names:
        return tuple(names)
    return tuple(f"player {p + 1}" for p in range(len(state.hands)))


def _player(state: df.State, names: tuple[str, ...], player: str | None, default: int | None) -> int:
    if player is None:
        if default is None:
            raise QuestionError("nobody is to move in this position: name the player with --player")
        return default
    for i, n in enumerate(names):
        if n == player:
            return i
    for i, n in enumerate(names):
        if n.lower() == player.lower():
            return i
    raise QuestionError(f"{player!r} is not one of the players ({', '.join(names)})")


def _playable(state: df.State) -> None:
    if state.over:
        raise QuestionError("the round is over: there is nothing to solve")
    if state.phase == "exchange":
        raise QuestionError("the card exchange is not complete: solve a position from the first play on")


def _play_text(play: df.Play) -> str:
    return cards_text(play.cards, play.joker_as)


def _order_words(state: df.State) -> str:
    return "reversed order (revolution)" if state.revolution else "normal order"


def _timeout(answer: Answer, deadline: Deadline, head: str) -> None:
    answer.answer = "unknown"
    answer.witness = None
    answer.reason = f"unknown after {deadline.seconds:g} s"
    answer.text = [head, f"unknown: {answer.reason}"]


# --------------------------------------------------------------------------- out


def out_question(state: df.State, names: Sequence[str] | None, *, player: str | None = None,
                 method: str = "auto", deadline: Deadline | None = None, certify: bool = False) -> Answer:
    _playable(state)
    who = _names(state, names)
    p = _player(state, who, player, state.to_move)
    if not state.hands[p]:
        raise QuestionError(f"{who[p]} holds no cards")
    deadline = deadline or Deadline(None)
    head = (f"out: {who[p]}'s hand ({cards_text(state.hands[p])}) in the fewest plays, nobody beating them "
            f"({state.rules.name}, {_order_words(state)})")
    answer = Answer("out", "unknown", method="search" if method != "z3" else "z3")
    answer.extra["player"] = who[p]
    try:
        partition = Partition(state, p, deadline)
        answer.stats.nodes = len(partition.pieces)
        model = OutModel(state, p) if method != "search" else None
        if model is not None and method == "z3":
            plays, proof = _split_by_model(model, partition, state, p, deadline, certify, answer)
        else:
            plays, proof = _split_by_search(partition, model, state, deadline, certify, answer)
        if proof is not None:
            answer.stats.solver_calls = proof.solver_calls
            if certify:
                answer.extra["solvers"] = proof.solvers or ["z3"]
            if method == "auto":
                answer.method = "search+z3"
            if proof.answer == "yes":
                raise Disagreement(f"the engine's search splits the hand into {len(plays)} plays, the z3 model into "
                                   f"{len(proof.plays)}: {' | '.join(' '.join(map(str, x)) for x in proof.plays)}")
        _out_yes(answer, state, p, who, head, plays, proof, len(partition.pieces))
    except Timeout:
        _timeout(answer, deadline, head)
    answer.stats.time = deadline.elapsed()
    return answer


def _split_by_model(model: OutModel, partition: Partition, state: df.State, p: int, deadline: Deadline,
                    certify: bool, answer: Answer) -> tuple[list[df.Play], Split | None]:
    """The fewest plays by the rules' model (``--method z3``), ending on a normal finish
    where a split that short can; the engine's search must count as many."""
    found = model.fewest(deadline)
    n = len(found.plays)
    chosen = found
    if state.rules.forbidden_finish:
        clean = model.fewest(deadline, clean=True)
        if clean.answer == "yes" and len(clean.plays) == n:
            chosen = clean
        answer.extra["fewest_normal_finish"] = len(clean.plays) if clean.answer == "yes" else None
    plays = _ordered(_as_plays(state, p, chosen.plays), state)
    proof = model.at_most(n - 1, deadline, certify=certify) if n > 1 else None
    if partition.fewest() != n:
        raise Disagreement(f"the z3 model splits the hand into {n} plays, the engine's search into "
                           f"{partition.fewest()}")
    return plays, proof


def _split_by_search(partition: Partition, model: OutModel | None, state: df.State, deadline: Deadline,
                     certify: bool, answer: Answer) -> tuple[list[df.Play], Split | None]:
    """The fewest plays by the exhaustive search over the hand's combinations, ending on a
    normal finish where a split that short can; the model (when given) proves none
    shorter within its share of the time."""
    n = partition.fewest()
    answer.stats.nodes += partition.nodes
    split = partition.best(clean=False)
    clean = partition.best(clean=True) if state.rules.forbidden_finish else split
    chosen = clean if clean is not None and len(clean.plays) == n else split
    if state.rules.forbidden_finish:
        answer.extra["fewest_normal_finish"] = None if clean is None else len(clean.plays)
    proof = _proof(model, n, deadline, certify) if model is not None and n > 1 else None
    return chosen.plays, proof  # type: ignore[union-attr]  # a player in the round always has a split


def _out_yes(answer: Answer, state: df.State, p: int, who: tuple[str, ...], head: str, plays: list[df.Play],
             proof: Split | None, pieces: int) -> None:
    """The split replayed through the engine, and the answer in words."""
    n = len(plays)
    ok, why, final = replay_out(state, p, plays)
    if not ok:
        raise AssertionError(f"the split {' | '.join(map(_play_text, plays))} does not replay: {why}")
    answer.answer = "yes"
    answer.witness = [_play_text(play) for play in plays]
    finish = answer.extra["finish"] = "normal" if p in final.finished else "forbidden"
    answer.extra.update(plays=n, confirmed=True)
    if answer.extra.get("fewest_normal_finish") == n:
        del answer.extra["fewest_normal_finish"]  # said only when it takes more plays, or none can
    reason = [f"{n} play{'s' if n != 1 else ''}: {' | '.join(answer.witness)}"]
    if proof is not None:
        answer.extra["core"] = proof.core
        cards = [c.split(" ", 1)[1] for c in proof.core if c.startswith("card ")]
        reason.append(f"no split into {n - 1} or fewer: the cards {' '.join(cards)} alone need {n} plays "
                      f"(z3 unsat core)" if cards else f"no split into {n - 1} or fewer (z3: unsat)")
    elif n > 1:
        reason.append(f"no split into {n - 1} or fewer (exhaustive search over the {pieces} combinations in "
                      f"the hand)")
    answer.reason = "; ".join(reason)
    answer.text = [head, f"yes: {n} play{'s' if n != 1 else ''}", "split: " + " | ".join(answer.witness)]
    if len(reason) > 1:
        answer.text.append("why no fewer: " + reason[1])
    if finish == "forbidden":
        alt = answer.extra.get("fewest_normal_finish")
        more = f"; the fewest ending in a normal finish: {alt}" if alt else "; no split ends in a normal finish"
        answer.text.append(f"note: every split of {n} ends on a forbidden finish (placed last){more}")
    answer.text.append(f"replayed through the engine, the others passing: {who[p]} goes out "
                       f"({'a normal finish' if finish == 'normal' else 'a forbidden finish'}): confirmed")


#: The share of the time left that the rules' model may spend proving that no shorter split
#: exists, when the search has already found the split (auto): past it, the search's own
#: exhaustive "no fewer" stands, said so.
PROOF_SHARE = 0.5


def _proof(model: OutModel, n: int, deadline: Deadline, certify: bool) -> Split | None:
    """The model's "no split of n - 1 plays", or None when it does not finish in its share."""
    left = deadline.remaining()
    share = Deadline(10.0 if left is None else max(0.05, left * PROOF_SHARE))
    try:
        return model.at_most(n - 1, share, certify=certify)
    except Timeout:
        return None


def _as_plays(state: df.State, player: int, card_sets: list[tuple]) -> list[df.Play]:
    """The model's card sets as the engine's plays (each joker read as the engine reads it
    leading a trick); a set the engine cannot lead is a disagreement of the two."""
    lead = lead_state(state, player)
    out = []
    for cards in card_sets:
        plays = [m for m in beaters(lead, player, cards) if len(m.cards) == len(cards)]
        if not plays:
            raise AssertionError(f"the z3 model leads {' '.join(map(str, cards))}, which the engine does not allow")
        out.append(plays[0])
    return out


def _ordered(plays: list[df.Play], state: df.State) -> list[df.Play]:
    """The plays with a last one that is a normal finish where one can be (the revolutions
    made before it decide the order in force)."""
    rules = state.rules
    for i, last in enumerate(plays):
        others = plays[:i] + plays[i + 1:]
        combos = [df.combination(rules, x.cards, x.joker_as) for x in others]  # the split's plays: each one combination
        flips = sum(1 for c in combos if c is not None and revolts(rules, c))
        if not forbidden(rules, last.cards, state.revolution != bool(flips % 2)):
            return others + [last]
    return plays


# --------------------------------------------------------------------------- unbeatable


def unbeatable_question(state: df.State, names: Sequence[str] | None, *, player: str | None = None,
                        play: str | None = None, cards: str = "unseen",
                        deadline: Deadline | None = None, certify: bool = False) -> Answer:
    _playable(state)
    if cards not in ("unseen", "hands"):
        raise QuestionError(f"--cards for unbeatable is unseen or hands, not {cards!r}")
    who = _names(state, names)
    deadline = deadline or Deadline(None)
    p, after, shown = _judged_play(state, who, player, play)
    head = (f"unbeatable: is {shown} unbeatable by the cards {who[p]} cannot see? "
            f"({state.rules.name}, {_order_words(after)})")
    answer = Answer("unbeatable", "unknown", method="search")
    answer.extra["player"] = who[p]
    answer.extra["play"] = str(after.table) if after.table is not None else shown
    if after.over or after.table is None:
        _unbeatable_at_once(answer, after, shown, head)
        answer.stats.time = deadline.elapsed()
        return answer
    others = [q for q in df.players_in(after) if q != p]
    try:
        found, core, seen_cards = _beaters_checked(after, others, cards, answer, deadline, certify)
    except Timeout:
        _timeout(answer, deadline, head)
        answer.stats.time = deadline.elapsed()
        return answer
    if core:
        answer.extra["core"] = sorted(core)
    answer.stats.nodes = len(found)
    _confirm_beaters(after, others, found)
    table = after.table
    if not found:
        answer.answer = "yes"
        answer.witness = [shown]
        answer.extra["confirmed"] = True
        answer.reason = _unbeaten_reason(after, table, seen_cards, cards)
        if core:
            answer.reason += f" (z3: no legal play exists; it rests on {', '.join(sorted(core))})"
        answer.text = [head, "yes: nothing beats it", f"reason: {answer.reason}"]
    else:
        _beaten(answer, after, others, found, cards, seen_cards, who, head)
    answer.stats.time = deadline.elapsed()
    return answer


def _judged_play(state: df.State, who: tuple[str, ...], player: str | None,
                 play: str | None) -> tuple[int, df.State, str]:
    """The play asked about (``--play``, made by ``player`` here; else the table's): who
    made it, the position after it, the play in words."""
    if play is None:
        if state.table is None:
            raise QuestionError("nothing is on the table: give the play to judge with --play")
        p = _player(state, who, player, state.last_player)
        return p, state, f"{state.table} ({who[state.last_player]}'s, on the table)"  # type: ignore[index]  # a table has its player
    p = _player(state, who, player, state.to_move)
    try:
        played, stands = decode_cards(play)
    except CardError as err:
        raise QuestionError(f"--play: {err}") from None
    move = df.Play(p, played, stands)
    before = state
    if state.to_move != p:
        if not state.is_in(p):
            raise QuestionError(f"{who[p]} is out of the round")
        before = state._replace(to_move=p, passed=state.passed - {p})
    v = df.check(before, move)
    if v is not None:
        raise QuestionError(f"--play {play}: {who[p]} cannot play it here: [{v.rule}] {v.message}")
    return p, df.apply(before, move), _play_text(move)


def _unbeatable_at_once(answer: Answer, after: df.State, shown: str, head: str) -> None:
    """A play that ends the round, or the trick at once (eight-cut, spade3)."""
    answer.answer = "yes"
    answer.witness = [shown]
    cut = [e for e in after.events if e in ("daifugo.option.eight-cut", "daifugo.option.spade3")]
    why = ("the round ends with it" if after.over else
           f"it ends the trick at once ({', '.join(cut) or 'daifugo.trick.end'}): nothing can be played on it")
    answer.reason = why
    answer.extra["confirmed"] = True
    answer.text = [head, "yes: it cannot be beaten", f"reason: {why}"]


def _confirm_beaters(after: df.State, others: list[int], found: list[tuple[int | None, df.Play]]) -> None:
    """Every beater through the engine's check, from a probe holding the right cards
    (owner None: one of the unseen hands, pooled)."""
    for owner, m in found:
        hands = list(after.hands)
        holder = owner if owner is not None else others[0]
        hands[holder] = tuple(c for x in others for c in after.hands[x]) if owner is None else after.hands[owner]
        probe = after._replace(hands=tuple(hands), to_move=holder, passed=frozenset())
        v = df.check(probe, m._replace(player=holder))
        if v is not None:
            raise AssertionError(f"beater {_play_text(m)} is illegal: {v.message}")


def _beaten(answer: Answer, after: df.State, others: list[int], found: list[tuple[int | None, df.Play]],
            cards: str, seen_cards: int, who: tuple[str, ...], head: str) -> None:
    answer.answer = "no"
    answer.witness = [(_play_text(m) if q is None else f"{who[q]}: {_play_text(m)}") for q, m in found]
    passed = [who[q] for q in others if q in after.passed]
    answer.reason = (f"{len(found)} play{'s' if len(found) != 1 else ''} of the {seen_cards} unseen cards "
                     f"beat{'s' if len(found) == 1 else ''} {after.table} in the "
                     f"{'reversed' if after.reversed else 'normal'} order")
    if cards == "hands" and passed:
        answer.reason += f" ({', '.join(passed)} passed already and cannot play in this trick)"
    answer.text = [head, "no: it can be beaten", f"reason: {answer.reason}"]
    answer.text += [f"  {w}" for w in answer.witness[:20]]
    if len(answer.witness) > 20:
        answer.text.append(f"  ... ({len(answer.witness) - 20} more; --json lists them all)")


def _beaters_checked(after: df.State, others: list[int], cards: str, answer: Answer, deadline: Deadline,
                     certify: bool) -> tuple[list[tuple[int | None, df.Play]], set[str], int]:
    """The plays that beat the table, from the cards unseen (``cards="unseen"``: pooled;
    ``"hands"``: each other player's own): the rules' z3 model answers; the engine's legal
    moves must list the same card sets, and give each play its reading. Returns the plays
    (with their owner, None when pooled), the unsat core when none, the cards counted."""
    found: list[tuple[int | None, df.Play]] = []
    groups = ([(None, others[0], tuple(c for q in others for c in after.hands[q]))] if cards == "unseen"
              else [(q, q, after.hands[q]) for q in others])
    core: set[str] = set()
    answer.method = "z3+search"
    for owner, holder, pool in groups:
        model = PlayModel(after, pool).solutions(deadline, certify)
        answer.stats.solver_calls += len(model.plays) + 1
        core |= set(model.core)
        if model.solvers:
            answer.extra["solvers"] = model.solvers
        engine = beaters(after, holder, pool)
        if {tuple(sorted(cs)) for cs in model.plays} != {tuple(sorted(m.cards)) for m in engine}:
            raise AssertionError(f"the z3 model and the engine disagree on the plays that beat {after.table}: "
                                 f"z3 {sorted(map(sorted, model.plays))}, engine "
                                 f"{sorted(sorted(m.cards) for m in engine)}")
        found += [(owner, m) for m in engine]
    return found, core, sum(len(pool) for _, _, pool in groups)


def _unbeaten_reason(state: df.State, table: df.Combo, n: int, cards: str) -> str:
    rules = state.rules
    whose = (f"the {n} unseen cards hold" if cards == "unseen"
             else f"no other player's hand ({n} cards in all) holds")
    if table.lone_joker:
        if rules.spade3:
            return (f"a lone joker: only a single spade 3 beats it (spade3), and {whose.replace(' hold', '')} "
                    f"do not include it" if cards == "unseen" else
                    "a lone joker: only a single spade 3 beats it (spade3), and no other player holds it")
        return "a lone joker: nothing beats it"
    order = "reversed order" if state.reversed else "normal order"
    lock = f", with the suits locked to {' '.join(sorted(state.lock))}" if state.lock is not None else ""
    thing = f"{table.kind} of {table.size}" if table.size > 1 else "single"
    if cards == "unseen":
        return f"{whose} no {thing} that may follow {table} in the {order}{lock}"
    return f"{whose} a {thing} that may follow {table} in the {order}{lock}"


# --------------------------------------------------------------------------- forced out


def forced_out_question(state: df.State, names: Sequence[str] | None, *, player: str | None = None,
                        depth: int | None = None, method: str = "auto", deadline: Deadline | None = None) -> Answer:
    _playable(state)
    who = _names(state, names)
    p = _player(state, who, player, state.to_move)
    if not state.is_in(p):
        raise QuestionError(f"{who[p]} is out of the round")
    note = (f" ({who[state.finished[0]]} is out already: 'first' means before anyone else from here)"
            if state.finished else "")
    budget = len(state.hands[p]) if depth is None else depth
    deadline = deadline or Deadline(None)
    head = (f"forced-out: can {who[p]} go out first, within {budget} own play{'s' if budget != 1 else ''}, "
            f"whatever the others do?{note}")
    answer = Answer("forced-out", "unknown", method="search" if method == "search" else "z3+search")
    answer.extra["player"] = who[p]
    answer.extra["depth"] = budget
    try:
        result = _forced(state, p, budget, method, deadline, answer)
        if result.strategy is not None:
            ok, why = verify_out_strategy(state, p, result.strategy, deadline.check)
            if not ok:
                raise AssertionError(f"the strategy does not replay: {why}")
            _forced_yes(answer, state, p, who, result, head)
        else:
            _forced_no(answer, state, p, who, result, head)
        if method != "search":
            answer.text.append(f"answered by the rules' z3 model ({answer.extra['model_positions']} positions, each "
                               f"with the engine's legal moves and positions after them); the engine's search agrees")
    except Timeout:
        _timeout(answer, deadline, head)
    answer.stats.time = deadline.elapsed()
    return answer


def _forced(state: df.State, p: int, budget: int, method: str, deadline: Deadline, answer: Answer) -> OutResult:
    """The answer of the search over the rules' model, its moves as the engine names them,
    cross-checked by the engine's own search (``method`` search: that search alone)."""
    engine = forced_out(state, p, budget, deadline)
    answer.stats.nodes = engine.nodes
    if method == "search":
        return engine
    model = ModelForcedOut(state, p, deadline)
    result = forced_out(state, p, budget, deadline, model)
    answer.extra["model_positions"] = model.checked
    answer.stats.nodes += result.nodes
    answer.stats.solver_calls = deadline.solver_calls
    if (result.strategy is None) != (engine.strategy is None):
        raise Disagreement(f"the rules' z3 model answers {'yes' if result.strategy is not None else 'no'}, the "
                           f"engine's search {'yes' if engine.strategy is not None else 'no'}")
    if result.strategy is not None:
        result.strategy = model.as_engine(state, result.strategy)
        if result.move is not None:
            result.move = next(iter(result.strategy))
    names = model.engine_moves
    result.refutation = [(names[model.key(state)][m],
                          None if r is None else names[model.key(model.after(state, m))][r], why)
                         for m, r, why in result.refutation]
    return result


def _forced_yes(answer: Answer, state: df.State, p: int, who: tuple[str, ...], result: OutResult, head: str) -> None:
    answer.answer = "yes"
    answer.extra["confirmed"] = True
    answer.extra["strategy"] = _tree_json(result.strategy, who)  # type: ignore[arg-type]  # a yes has its strategy
    if result.move is not None:
        answer.witness = [move_text(result.move, who)]
        line = _main_line(result.strategy, who)  # type: ignore[arg-type]  # a yes has its strategy
        answer.reason = f"{move_text(result.move, who)} forces it: every answer of the others is met"
        answer.text = [head, f"yes: {move_text(result.move, who)}", f"reason: {answer.reason}", f"a main line: {line}"]
    else:
        answer.witness = []
        answer.reason = f"whatever {who[state.to_move]} and the others do next, {who[p]} gets out first"  # type: ignore[index]  # during play someone is to move
        answer.text = [head, "yes", f"reason: {answer.reason}"]
    answer.text.append("the whole strategy was replayed through the engine: confirmed")


def _forced_no(answer: Answer, state: df.State, p: int, who: tuple[str, ...], result: OutResult, head: str) -> None:
    answer.answer = "no"
    answer.witness = [{"try": move_text(m, who), "reply": None if r is None else move_text(r, who), "why": why}
                      for m, r, why in result.refutation]
    answer.reason = (f"each of {who[p]}'s {len(result.refutation)} moves has an answer: {who[p]} cannot force "
                     f"going out first (refutation: a reply for each try)" if state.to_move == p else
                     f"the others can stop it: {answer.witness[0]['try'] if answer.witness else ''}")
    answer.text = [head, "no", f"reason: {answer.reason}"]
    for item in answer.witness[:12]:
        reply = f"reply {item['reply']}" if item["reply"] else "(no reply needed)"
        answer.text.append(f"  {item['try']}: {reply}: {item['why']}")


def _tree_json(tree: dict, names: tuple[str, ...]) -> list:
    return [{"move": move_text(m, names), "then": _tree_json(sub, names) if sub else []} for m, sub in tree.items()]


def _main_line(tree: dict, names: tuple[str, ...], limit: int = 24) -> str:
    out: list[str] = []
    while tree and len(out) < limit:
        move, tree = next(iter(tree.items()))
        out.append(move_text(move, names))
    return ", ".join(out)


def ask(position: Any, question: str, options: Any) -> Answer:
    """A Daifugo question about a position (``referee.jobs.solve.ask`` checked its options)."""
    deadline = getattr(options, "deadline", None) or Deadline(options.timeout)
    names = position.record.players or None
    if question == "out":
        return out_question(position.state, names, player=options.player, method=options.method,
                            deadline=deadline, certify=getattr(options, "certify", False))
    if question == "unbeatable":
        return unbeatable_question(position.state, names, player=options.player, play=options.play,
                                   cards=options.cards or "unseen", deadline=deadline,
                                   certify=getattr(options, "certify", False))
    return forced_out_question(position.state, names, player=options.player, depth=options.depth,
                               method=options.method, deadline=deadline)
