"""Daifugo questions: ``out``, ``unbeatable``, ``forced-out``.

* ``out``: the fewest plays that empty a player's hand if nobody ever beats them (the player
  leads every trick): the exhaustive split (``daifugo_search.Partition``) finds it, z3
  (``daifugo_model``) proves that no split is shorter and words why from its unsat core.
  Under rules with forbidden finishes the order of the plays matters: the split is played
  so that the last play is a normal finish where a split of that length allows it.
* ``unbeatable``: is a play unbeatable: which plays, made of the cards a player cannot see,
  beat it (the engine's legal moves for a hand of exactly those cards)?
* ``forced-out``: AND-OR search over every player's legal moves.

Every witness is replayed through the engine before it is returned.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from referee.games.daifugo import engine as df
from referee.games.daifugo.notation.dfn import cards_text, decode_cards, move_text
from referee.games.daifugo.solve.model import SplitModel
from referee.games.daifugo.solve.search import (
    Partition,
    beaters,
    forbidden,
    forced_out,
    replay_out,
    revolts,
    verify_out_strategy,
)
from referee.jobs.solve import Answer, Deadline, QuestionError, Timeout
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
                 method: str = "auto", deadline: Deadline | None = None) -> Answer:
    _playable(state)
    who = _names(state, names)
    p = _player(state, who, player, state.to_move)
    if not state.hands[p]:
        raise QuestionError(f"{who[p]} holds no cards")
    deadline = deadline or Deadline(None)
    rules = state.rules
    hand = state.hands[p]
    head = (f"out: {who[p]}'s hand ({cards_text(hand)}) in the fewest plays, nobody beating them "
            f"({rules.name}, {_order_words(state)})")
    answer = Answer("out", "unknown", method="search" if method != "z3" else "z3")
    answer.extra["player"] = who[p]
    try:
        partition = Partition(state, p, deadline)
        answer.stats.nodes = len(partition.pieces)
        model = SplitModel(partition) if method != "search" else None
        if method == "z3":
            found = model.fewest(deadline)  # type: ignore[union-attr]  # method z3 builds the model
            n = len(found.pieces)
            chosen = found
            if rules.forbidden_finish:
                clean = model.fewest(deadline, clean=True)  # type: ignore[union-attr]  # method z3 builds the model
                if clean.answer == "yes" and len(clean.pieces) == n:
                    chosen = clean
                elif clean.answer == "yes":
                    answer.extra["fewest_normal_finish"] = len(clean.pieces)
                else:
                    answer.extra["fewest_normal_finish"] = None
            plays = _ordered([piece.play for piece in chosen.pieces], state)
            proof = model.at_most(n - 1, deadline) if n > 1 else None  # type: ignore[union-attr]  # method z3 builds the model
        else:
            n = partition.fewest()
            answer.stats.nodes += partition.nodes
            split = partition.best(clean=False)
            clean = partition.best(clean=True) if rules.forbidden_finish else split
            chosen = clean if clean is not None and len(clean.plays) == n else split
            plays = chosen.plays  # type: ignore[union-attr]  # a player in the round always has a split
            proof = model.at_most(n - 1, deadline) if model is not None and n > 1 else None
            if clean is not None and len(clean.plays) > n:
                answer.extra["fewest_normal_finish"] = len(clean.plays)
            elif clean is None and rules.forbidden_finish:
                answer.extra["fewest_normal_finish"] = None
        if proof is not None:
            answer.stats.solver_calls = proof.solver_calls
            if method == "auto":
                answer.method = "search+z3"
        ok, why, final = replay_out(state, p, plays)
        if not ok:
            raise AssertionError(f"the split {' | '.join(map(_play_text, plays))} does not replay: {why}")
        answer.answer = "yes"
        answer.witness = [_play_text(play) for play in plays]
        answer.extra["plays"] = n
        answer.extra["finish"] = "normal" if p in final.finished else "forbidden"
        answer.extra["confirmed"] = True
        reason = [f"{n} play{'s' if n != 1 else ''}: {' | '.join(answer.witness)}"]
        if proof is not None and proof.answer == "no":
            answer.extra["core"] = proof.core
            cards = [c.split(" ", 1)[1] for c in proof.core if c.startswith("card ")]
            if cards:
                reason.append(f"no split into {n - 1} or fewer: the cards {' '.join(cards)} alone need {n} plays "
                              f"(z3 unsat core)")
            else:
                reason.append(f"no split into {n - 1} or fewer (z3: unsat)")
        elif proof is not None and proof.answer == "yes":
            answer.extra["disagreement"] = (f"z3 found a split into {len(proof.pieces)} plays: "
                                            f"{' | '.join(_play_text(x.play) for x in proof.pieces)}")
        elif proof is None and n > 1:
            reason.append(f"no split into {n - 1} or fewer (exhaustive search over the "
                          f"{len(partition.pieces)} combinations in the hand)")
        answer.reason = "; ".join(reason)
        answer.text = [head, f"yes: {n} play{'s' if n != 1 else ''}", "split: " + " | ".join(answer.witness)]
        if len(reason) > 1:
            answer.text.append("why no fewer: " + reason[1])
        finish = answer.extra["finish"]
        if finish == "forbidden":
            alt = answer.extra.get("fewest_normal_finish")
            more = (f"; the fewest ending in a normal finish: {alt}" if alt
                    else "; no split ends in a normal finish")
            answer.text.append(f"note: every split of {n} ends on a forbidden finish (placed last){more}")
        if "disagreement" in answer.extra:
            answer.text.append(f"warning: {answer.extra['disagreement']}")
        answer.text.append(f"replayed through the engine, the others passing: {who[p]} goes out "
                           f"({'a normal finish' if finish == 'normal' else 'a forbidden finish'}): confirmed")
    except Timeout:
        _timeout(answer, deadline, head)
    answer.stats.time = deadline.elapsed()
    return answer


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
                        deadline: Deadline | None = None) -> Answer:
    _playable(state)
    if cards not in ("unseen", "hands"):
        raise QuestionError(f"--cards for unbeatable is unseen or hands, not {cards!r}")
    who = _names(state, names)
    deadline = deadline or Deadline(None)
    if play is not None:
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
        after = df.apply(before, move)
        shown = _play_text(df.Play(p, played, stands))
    else:
        if state.table is None:
            raise QuestionError("nothing is on the table: give the play to judge with --play")
        p = _player(state, who, player, state.last_player)
        after = state
        shown = f"{state.table} ({who[state.last_player]}'s, on the table)"  # type: ignore[index]  # a table has its player
    head = (f"unbeatable: is {shown} unbeatable by the cards {who[p]} cannot see? "
            f"({state.rules.name}, {_order_words(after)})")
    answer = Answer("unbeatable", "unknown", method="search")
    answer.extra["player"] = who[p]
    answer.extra["play"] = str(after.table) if after.table is not None else shown
    if after.over or after.table is None:
        answer.answer = "yes"
        answer.witness = [shown]
        cut = [e for e in after.events if e in ("daifugo.option.eight-cut", "daifugo.option.spade3")]
        why = ("the round ends with it" if after.over else
               f"it ends the trick at once ({', '.join(cut) or 'daifugo.trick.end'}): nothing can be played on it")
        answer.reason = why
        answer.extra["confirmed"] = True
        answer.text = [head, "yes: it cannot be beaten", f"reason: {why}"]
        answer.stats.time = deadline.elapsed()
        return answer
    others = [q for q in df.players_in(after) if q != p]
    found: list[tuple[int | None, df.Play]] = []
    if cards == "unseen":
        pool = tuple(c for q in others for c in after.hands[q])
        holder = others[0]
        for m in beaters(after, holder, pool):
            found.append((None, m))
        seen_cards = len(pool)
    else:
        seen_cards = 0
        for q in others:
            seen_cards += len(after.hands[q])
            for m in beaters(after, q, after.hands[q]):
                found.append((q, m))
    answer.stats.nodes = len(found)
    # Confirm every beater with the engine's check, from a probe holding the right cards.
    for owner, m in found:  # owner None: one of the unseen hands
        hands = list(after.hands)
        holder = owner if owner is not None else others[0]
        hands[holder] = tuple(c for x in others for c in after.hands[x]) if owner is None else after.hands[owner]
        probe = after._replace(hands=tuple(hands), to_move=holder, passed=frozenset())
        v = df.check(probe, m._replace(player=holder))
        if v is not None:
            raise AssertionError(f"beater {_play_text(m)} is illegal: {v.message}")
    table = after.table
    if not found:
        answer.answer = "yes"
        answer.witness = [shown]
        answer.extra["confirmed"] = True
        answer.reason = _unbeaten_reason(after, table, seen_cards, cards)
        answer.text = [head, "yes: nothing beats it", f"reason: {answer.reason}"]
    else:
        answer.answer = "no"
        answer.witness = [(_play_text(m) if q is None else f"{who[q]}: {_play_text(m)}") for q, m in found]
        passed = [who[q] for q in others if q in after.passed]
        answer.reason = (f"{len(found)} play{'s' if len(found) != 1 else ''} of the {seen_cards} unseen cards "
                         f"beat{'s' if len(found) == 1 else ''} {table} in the "
                         f"{'reversed' if after.reversed else 'normal'} order")
        if cards == "hands" and passed:
            answer.reason += f" ({', '.join(passed)} passed already and cannot play in this trick)"
        answer.text = [head, "no: it can be beaten", f"reason: {answer.reason}"]
        answer.text += [f"  {w}" for w in answer.witness[:20]]
        if len(answer.witness) > 20:
            answer.text.append(f"  ... ({len(answer.witness) - 20} more; --json lists them all)")
    answer.stats.time = deadline.elapsed()
    return answer


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
                        depth: int | None = None, deadline: Deadline | None = None) -> Answer:
    _playable(state)
    who = _names(state, names)
    p = _player(state, who, player, state.to_move)
    if not state.is_in(p):
        raise QuestionError(f"{who[p]} is out of the round")
    if state.finished:
        first = who[state.finished[0]]
        note = f" ({first} is out already: 'first' means before anyone else from here)"
    else:
        note = ""
    budget = len(state.hands[p]) if depth is None else depth
    deadline = deadline or Deadline(None)
    head = (f"forced-out: can {who[p]} go out first, within {budget} own play{'s' if budget != 1 else ''}, "
            f"whatever the others do?{note}")
    answer = Answer("forced-out", "unknown", method="search")
    answer.extra["player"] = who[p]
    answer.extra["depth"] = budget
    try:
        result = forced_out(state, p, budget, deadline)
        answer.stats.nodes = result.nodes
        if result.strategy is not None:
            ok, why = verify_out_strategy(state, p, result.strategy, deadline.check)
            if not ok:
                raise AssertionError(f"the strategy does not replay: {why}")
            answer.answer = "yes"
            answer.extra["confirmed"] = True
            answer.extra["strategy"] = _tree_json(result.strategy, who)
            if result.move is not None:
                answer.witness = [move_text(result.move, who)]
                line = _main_line(result.strategy, who)
                answer.reason = f"{move_text(result.move, who)} forces it: every answer of the others is met"
                answer.text = [head, f"yes: {move_text(result.move, who)}", f"reason: {answer.reason}",
                               f"a main line: {line}"]
            else:
                answer.witness = []
                answer.reason = f"whatever {who[state.to_move]} and the others do next, {who[p]} gets out first"  # type: ignore[index]  # during play someone is to move
                answer.text = [head, "yes", f"reason: {answer.reason}"]
            answer.text.append("the whole strategy was replayed through the engine: confirmed")
        else:
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
    except Timeout:
        _timeout(answer, deadline, head)
    answer.stats.time = deadline.elapsed()
    return answer


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
                            deadline=deadline)
    if question == "unbeatable":
        return unbeatable_question(position.state, names, player=options.player, play=options.play,
                                   cards=options.cards or "unseen", deadline=deadline)
    return forced_out_question(position.state, names, player=options.player, depth=options.depth,
                               deadline=deadline)
