"""Caravan questions: ``reach``, ``fewest``, ``forced-win``.

Each function takes the position's engine state and the question's options and returns an
:class:`Answer`. Methods for reach/fewest:

* ``search``: the exhaustive search alone (a "no" explained by what it examined);
* ``z3``: the z3 model alone (a "yes" line from the model, shortest; a "no" from its unsat
  core);
* ``auto`` (default): the search finds the line (it is the faster of the two on every
  position measured); a "no" is then proved by z3 as well, and worded from its unsat
  core. If z3 cannot finish in the time left, the search's own exhaustive "no" stands.

With ``certify`` every unsat answer of the model is proved again by cvc5 from the same
SMT-LIB text; the answer says which solvers agreed (``solvers``).

Every line is replayed through the engine before it is returned (``caravan_puzzle.replay``).
"""

from __future__ import annotations

from typing import Any

from referee.games.caravan import engine as cv
from referee.games.caravan.notation.cvn import move_text, table_text, write_caravan
from referee.games.caravan.solve.model import ModelResult, ReachModel
from referee.games.caravan.solve.puzzle import (
    Goal,
    Puzzle,
    final_state,
    prepare,
    replay,
)
from referee.games.caravan.solve.reasons import reason_words
from referee.games.caravan.solve.search import (
    LineResult,
    shortest_line,
    verify_strategy,
)
from referee.games.caravan.solve.search import forced_win as search_forced_win
from referee.jobs.solve import Answer, Deadline, QuestionError, Timeout

DEFAULT_WITHIN = {"reach": 3, "fewest": 6}


def position_text(state: cv.State, note: str = "") -> str:
    """A position as a CVN record (notation.md section 5), e.g. to show a puzzle a test
    disagreed on; ``note`` goes in a comment above it."""
    tags = {"Game": "Caravan", "Rules": state.rules.name, "Table": table_text(state.caravans)}
    for p in (0, 1):
        hand = state.hands[p]
        if hand.unknown is None:
            tags[f"Hand{p + 1}"] = "?"
        else:
            tags[f"Hand{p + 1}"] = " ".join([str(c) for c in hand.known] + ["?"] * hand.unknown)
        deck = state.decks[p]
        if deck is not None:
            tags[f"Deck{p + 1}"] = " ".join(map(str, deck))
    tags["ToMove"] = str(state.to_move + 1)
    tags["Phase"] = "opening" if state.in_opening() else "main"
    tags["Result"] = "*"
    text = write_caravan(tags, [])
    if note:
        text = "".join(f"; {line}\n" for line in note.splitlines()) + text
    return text


def parse_caravan(text: str) -> int:
    t = text.strip().upper()
    if len(t) != 1 or t not in cv.LETTERS:
        raise QuestionError(f"{text!r} is not a caravan: use a letter A-F (A B C are player 1's)")
    return cv.LETTERS.index(t)


def parse_lane(text: str) -> tuple[int, int]:
    parts = [p for p in text.replace("-", "/").split("/") if p]
    if len(parts) == 1 and len(parts[0]) == 2:
        parts = list(parts[0])
    if len(parts) != 2:
        raise QuestionError(f"{text!r} is not a lane: write A/D, B/E or C/F")
    a, b = sorted(parse_caravan(p) for p in parts)
    if (a, b) not in cv.LANES:
        raise QuestionError(f"{text!r} is not a lane: the lanes are A/D, B/E and C/F")
    return a, b


def _check_position(state: cv.State) -> None:
    if state.over:
        won = "" if state.winner is None else f" (player {state.winner + 1} won)"
        raise QuestionError(f"the game is already over{won}; there is nothing to solve")


def _goal_for(state: cv.State, question: str, caravan: str | None, lane: str | None) -> Goal:
    if question == "reach" or caravan is not None:
        if caravan is None:
            raise QuestionError(f"--question {question} needs --caravan (the caravan to bring into 21-26)")
        if lane is not None:
            raise QuestionError("give --caravan or --lane, not both")
        x = parse_caravan(caravan)
        return Goal("reach", cv.owner(x), x)
    if lane is None:
        raise QuestionError("--question fewest needs --caravan B (sell a caravan) or --lane B/E (win a lane)")
    a, b = parse_lane(lane)
    p = state.to_move
    mine, theirs = (a, b) if p == 0 else (b, a)
    return Goal("lane", p, mine, theirs)


def line_question(state: cv.State, question: str, *, caravan: str | None = None, lane: str | None = None,
                  within: int | None = None, cards: str = "hand+deck", method: str = "auto",
                  deadline: Deadline | None = None, certify: bool = False) -> Answer:
    """``reach`` (is there a line of at most K moves?) and ``fewest`` (the shortest line, up
    to K): the same computation, worded for each."""
    _check_position(state)
    if cards not in ("hand", "hand+deck"):
        raise QuestionError(f"--cards for Caravan is hand or hand+deck, not {cards!r}")
    if question == "reach" and caravan is None:
        raise QuestionError("--question reach needs --caravan (the caravan to bring into 21-26)")
    goal = _goal_for(state, question, caravan, lane)
    k = DEFAULT_WITHIN[question] if within is None else within
    if k < 0:
        raise QuestionError("--within must be 0 or more")
    deadline = deadline or Deadline(None)
    puzzle = prepare(state, goal, k, cards)
    answer = Answer(question, "unknown")
    stats = answer.stats
    notes = []
    if cards == "hand+deck" and puzzle.start.decks[goal.player] is None:
        notes.append(f"player {goal.player + 1}'s deck is unknown: only the known hand is used")
    if puzzle.start.hands[goal.player].unknown is None or puzzle.start.hands[goal.player].unknown:
        notes.append("the hand has unknown cards: only its known cards are used")
    answer.extra["player"] = str(goal.player + 1)
    if state.to_move != goal.player:
        answer.extra["handed_turn"] = True
    answer.extra["goal"] = goal.describe()
    answer.extra["within"] = k
    answer.extra["cards"] = cards
    if notes:
        answer.extra["notes"] = notes
    try:
        if method in ("auto", "search"):
            found = shortest_line(puzzle, deadline)
            stats.nodes += found.nodes
            answer.method = "search"
            if found.line is not None:
                _yes(answer, puzzle, found.line)
            elif method == "search":
                _no_from_search(answer, puzzle, found)
            else:
                _no_with_proof(answer, puzzle, found, deadline, certify)
        else:
            answer.method = "z3"
            model = ReachModel(puzzle, deadline)
            result = model.solve(deadline, certify)
            stats.solver_calls += result.solver_calls
            _certified(answer, result, certify)
            if result.answer == "yes":
                _yes(answer, puzzle, result.line)  # type: ignore[arg-type]  # a yes answer carries its line
            else:
                answer.answer = "no"
                answer.reason = reason_words(puzzle, result.core)
                answer.extra["core"] = result.core
                answer.extra["scope"] = SCOPE
    except Timeout:
        answer.answer = "unknown"
        answer.reason = f"unknown after {deadline.seconds:g} s" if deadline.seconds is not None else "unknown"
        answer.witness = None
    stats.time = deadline.elapsed()
    _text(answer, puzzle, question)
    return answer


def _yes(answer: Answer, puzzle: Puzzle, line: list[cv.Move]) -> None:
    ok, why = replay(puzzle, line)
    if not ok:
        raise AssertionError(f"the {answer.method} line {' '.join(map(move_text, line))} does not replay: {why}")
    answer.answer = "yes"
    answer.witness = [move_text(m) for m in line]
    answer.extra["moves"] = len(line)
    end = final_state(puzzle, line)
    answer.extra["values"] = dict(zip(cv.LETTERS, end.values))
    answer.extra["confirmed"] = True


#: What a "no" covers (the question's moves; caravan_puzzle.moves and docs/solve.md).
SCOPE = ("the moves that bear on the question; lines that only prepare another caravan as a "
         "Joker target, or that change another lane, are not followed (docs/solve.md)")


def _no_from_search(answer: Answer, puzzle: Puzzle, found: LineResult) -> str:
    """Answers no from the search alone; returns the reason it gives."""
    answer.answer = "no"
    answer.extra["scope"] = SCOPE
    k = puzzle.within
    examined = sum(found.levels)
    answer.reason = (f"exhaustive search: every line of at most {k} of the question's move"
                     f"{'s' if k != 1 else ''} was followed "
                     f"({examined} positions, {found.cut} cut off because the cards left could not add enough); "
                     f"none brings about {puzzle.goal.describe()}")
    return answer.reason


def _certified(answer: Answer, result: ModelResult, certify: bool) -> None:
    """Which solvers agreed on the model's unsat answers (``--certify``)."""
    if certify:
        answer.extra["solvers"] = ["z3", "cvc5"] if result.solvers else ["z3"]
        answer.extra["certified"] = len(result.solvers)


def _no_with_proof(answer: Answer, puzzle: Puzzle, found: LineResult, deadline: Deadline,
                   certify: bool = False) -> None:
    """The search found no line; z3 proves it and words the reason from its unsat core."""
    try:
        model = ReachModel(puzzle, deadline)
        result = model.solve(deadline, certify)
    except Timeout:
        reason = _no_from_search(answer, puzzle, found)
        answer.reason = reason + " (the z3 proof did not finish in the time left)"
        return
    answer.stats.solver_calls += result.solver_calls
    _certified(answer, result, certify)
    if result.answer == "yes":
        # The two statements of the rules disagree: trust only what the engine replays.
        ok, why = replay(puzzle, result.line)  # type: ignore[arg-type]  # a yes answer carries its line
        answer.extra["disagreement"] = (f"the search found no line but z3 found "
                                        f"{' '.join(map(move_text, result.line or []))} "
                                        f"({'it replays' if ok else 'it does not replay: ' + why})")
        if ok:
            answer.method = "z3"
            _yes(answer, puzzle, result.line)  # type: ignore[arg-type]  # a yes answer carries its line
            return
        _no_from_search(answer, puzzle, found)
        return
    answer.answer = "no"
    answer.method = "search+z3"
    answer.reason = reason_words(puzzle, result.core)
    answer.extra["core"] = result.core
    answer.extra["scope"] = SCOPE


def _text(answer: Answer, puzzle: Puzzle, question: str) -> None:
    goal = puzzle.goal
    k = puzzle.within
    lines = [f"{question}: {goal.describe()}, player {goal.player + 1} moving, within {k} own "
             f"move{'s' if k != 1 else ''} (the opponent passes; cards: {puzzle.cards})"]
    if answer.extra.get("handed_turn"):
        lines.append(f"note: player {goal.player + 1} is not to move in the position; the question hands "
                     f"them the turn")
    for note in answer.extra.get("notes", []):
        lines.append(f"note: {note}")
    if answer.answer == "yes":
        n = answer.extra["moves"]
        if question == "fewest":
            lines.append(f"yes: {n} move{'s' if n != 1 else ''} at the fewest")
        else:
            lines.append(f"yes, in {n} move{'s' if n != 1 else ''} (no shorter line exists)")
        if answer.witness:
            lines.append("line: " + " ".join(answer.witness))
        values = answer.extra["values"]
        shown = ", ".join(f"{c} {values[c]}" for c in (cv.LETTERS[i] for i in goal.caravans))
        lines.append(f"after it: {shown} (replayed through the engine: confirmed)")
    elif answer.answer == "no":
        lines.append(f"no: no line of at most {k} move{'s' if k != 1 else ''} brings about {goal.describe()}")
        lines.append(f"reason: {answer.reason}")
        lines.append(f"scope: {SCOPE}")
    else:
        lines.append(f"unknown: {answer.reason}")
    if "disagreement" in answer.extra:
        lines.append(f"warning: {answer.extra['disagreement']}")
    answer.text = lines


# --------------------------------------------------------------------------- forced win


def forced_win_question(state: cv.State, *, depth: int | None = None,
                        deadline: Deadline | None = None) -> Answer:
    _check_position(state)
    for p in (0, 1):
        if not state.hands[p].fully_known or state.decks[p] is None:
            raise QuestionError(f"--question forced-win needs perfect information: player {p + 1}'s "
                                f"{'hand' if not state.hands[p].fully_known else 'deck'} is not known "
                                f"(give Deck1/Deck2, or Hand1/Hand2 and Deck1/Deck2 in a position)")
    n = 2 if depth is None else depth
    if n < 1:
        raise QuestionError("--depth must be 1 or more (own turns)")
    deadline = deadline or Deadline(None)
    mover = state.to_move
    answer = Answer("forced-win", "unknown", method="search")
    answer.extra["player"] = str(mover + 1)
    answer.extra["depth"] = n
    head = f"forced-win: can player {mover + 1} (to move) force a win within {n} own turn{'s' if n != 1 else ''}?"
    try:
        result = search_forced_win(state, n, deadline)
        answer.stats.nodes = result.nodes
        if result.move is not None:
            ok, why = verify_strategy(state, n, result.strategy, deadline.check)  # type: ignore[arg-type]  # a winning move comes with its strategy
            if not ok:
                raise AssertionError(f"the winning strategy does not replay: {why}")
            answer.answer = "yes"
            answer.witness = [move_text(result.move)]
            answer.extra["strategy"] = _strategy_json(result.strategy)  # type: ignore[arg-type]  # a winning move comes with its strategy
            answer.extra["confirmed"] = True
            replies = result.strategy[result.move]  # type: ignore[index]  # a winning move comes with its strategy
            answer.reason = (f"{move_text(result.move)} wins at once" if not replies else
                             f"after {move_text(result.move)} every one of the opponent's {len(replies)} "
                             f"replies has a winning answer")
            answer.text = [head, f"yes: {move_text(result.move)}", f"reason: {answer.reason}"]
            for reply, sub in list(replies.items())[:8]:
                answer.text.append(f"  if {move_text(reply)}: {_line_text(sub)}")
            if len(replies) > 8:
                answer.text.append(f"  ... ({len(replies) - 8} more replies answered; --json lists them all)")
            answer.text.append("the whole strategy was replayed through the engine: confirmed")
        else:
            answer.answer = "no"
            answer.witness = [{"try": move_text(m), "reply": None if r is None else move_text(r), "why": why}
                              for m, r, why in result.refutation]
            answer.reason = (f"each of the {len(result.refutation)} legal moves has an answer: no win within "
                             f"{n} own turn{'s' if n != 1 else ''} (refutation: a reply for each try)")
            _confirm_refutation(state, result.refutation)
            answer.text = [head, "no", f"reason: {answer.reason}"]
            for item in answer.witness[:12]:
                reply = f"reply {item['reply']}" if item["reply"] else "(no reply needed)"
                answer.text.append(f"  {item['try']}: {reply}: {item['why']}")
            if len(answer.witness) > 12:
                answer.text.append(f"  ... ({len(answer.witness) - 12} more tries; --json lists them all)")
    except Timeout:
        answer.answer = "unknown"
        answer.reason = f"unknown after {deadline.seconds:g} s"
        answer.text = [head, f"unknown: {answer.reason}"]
    answer.stats.time = deadline.elapsed()
    if answer.stats.time > 0:
        answer.extra["nodes_per_second"] = round(answer.stats.nodes / answer.stats.time)
    return answer


def _confirm_refutation(state: cv.State, refutation: list) -> None:
    """Every try and reply of a refutation is legal by the engine."""
    for move, reply, _ in refutation:
        v = cv.check(state, move)
        if v is not None:
            raise AssertionError(f"refutation try {move_text(move)} is illegal: {v.message}")
        if reply is not None:
            after = cv.apply(state, move)
            v = cv.check(after, reply)
            if v is not None:
                raise AssertionError(f"refutation reply {move_text(reply)} is illegal: {v.message}")


def _strategy_json(tree: dict) -> dict:
    """{move: {reply: subtree}} as {"move": text, "replies": [{"reply": text, "then": ...}]}."""
    (move, replies), = tree.items()
    return {"move": move_text(move),
            "replies": [{"reply": move_text(r), "then": _strategy_json(sub) if sub else None}
                        for r, sub in replies.items()]}


def _line_text(tree: dict) -> str:
    if not tree:
        return "the game is won"
    (move, replies), = tree.items()
    if not replies:
        return f"{move_text(move)} wins"
    return f"{move_text(move)}, then answers for all {len(replies)} replies"


def ask(position: Any, question: str, options: Any) -> Answer:
    """A Caravan question about a position (``referee.jobs.solve.ask`` checked its options)."""
    deadline = getattr(options, "deadline", None) or Deadline(options.timeout)  # ask()'s: from the start
    if question == "forced-win":
        return forced_win_question(position.state, depth=options.depth, deadline=deadline)
    return line_question(position.state, question, caravan=options.caravan, lane=options.lane,
                         within=options.within, cards=options.cards or "hand+deck",
                         method=options.method, deadline=deadline, certify=getattr(options, "certify", False))
