"""The stateless jobs of the service: validate, annotate and solve a record sent in the
body, answering the same JSON document as the CLI's ``--json`` (the same job functions)."""

from __future__ import annotations

import io
import os
import tempfile
from typing import Any

from referee.jobs.validate import Summary, validate_lines
from referee.notation.records import iter_lines


class JobError(Exception):
    """The job cannot run on this input (the CLI's exit status 2): a 400 or 422."""

    def __init__(self, message: str, status: int = 422):
        super().__init__(message)
        self.status = status


def validate(text: str, name: str = "<body>") -> dict[str, Any]:
    summary = Summary()
    games = []
    for report in validate_lines(iter_lines(text), name):
        summary.add(report)
        games.append(report.to_json())
    return {"summary": summary.to_json(), "games": games}


def annotate(text: str, rules: list[str], explain_all: bool = False) -> dict[str, Any]:
    from referee.jobs.annotate import NotAnnotatable, annotate_file, parse_wanted
    from referee.jobs.timeline import ContestLog

    try:
        wanted = parse_wanted(rules)
    except ValueError as err:
        raise JobError(str(err)) from None
    counts = {"records": 0, "valid": 0, "invalid": 0, "disputed": 0, "illegal": 0, "ruling_dependent": 0}
    records = []
    try:
        for a in annotate_file("-", wanted, explain_all, stdin=io.StringIO(text)):
            report = a.timeline.report
            counts["valid" if report.valid else "invalid"] += 1
            counts["disputed"] += sum(1 for n in a.notes if n.disputed)
            counts["illegal"] += sum(1 for n in a.notes if not n.step.legal)
            counts["ruling_dependent"] += sum(1 for n in a.notes if n.rulings)
            records.append(a.to_json())
            counts["records"] += 1
    except (NotAnnotatable, ContestLog) as err:
        raise JobError(str(err)) from None
    return {"summary": counts, "records": records}


#: The solve options every game takes (the rest are each game's question options).
COMMON = {"game": int, "ply": int, "round": int, "method": str, "timeout": (int, float)}
MAX_TIMEOUT = 30.0


def solve(body: dict[str, Any]) -> dict[str, Any]:
    from referee.jobs.solve import QuestionError
    from referee.jobs.solve.ask import Options, ask, question_names, question_options
    from referee.jobs.solve.positions import PositionError, UsageError, load_position

    record = body.get("record")
    question = body.get("question")
    if not isinstance(record, str):
        raise JobError("record is the record's text", 400)
    if question not in question_names():
        raise JobError(f"question is one of {', '.join(question_names())}")
    declared = question_options()
    kinds: dict[str, Any] = dict(COMMON)
    kinds.update({name: options[0].type for name, options in declared.items()})
    unknown = sorted(set(body) - set(kinds) - {"record", "question"})
    if unknown:
        raise JobError(f"unknown option{'s' if len(unknown) > 1 else ''}: {', '.join(unknown)}")
    opts: dict[str, Any] = {}
    for name, kind in kinds.items():
        value = body.get(name)
        if value is None:
            continue
        if not isinstance(value, kind) or isinstance(value, bool):
            raise JobError(f"{name} has the wrong type", 400)
        least = 1 if name in ("game", "round") else (declared[name][0].min if name in declared else 0)
        if isinstance(value, int) and least is not None and value < least:
            raise JobError(f"{name} is at least {least}")
        opts[name] = value
    method = opts.get("method", "auto")
    if method not in ("auto", "z3", "search"):
        raise JobError("method is auto, z3 or search")
    timeout = min(float(opts.get("timeout", 10.0)), MAX_TIMEOUT)
    if timeout <= 0:
        raise JobError("timeout must be positive")
    # load_position reads a file, as the CLI does
    fd, path = tempfile.mkstemp(prefix="pitboss-solve-", suffix=".txt")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(record)
        try:
            position = load_position(path, opts.get("game", 1), opts.get("ply"), opts.get("round"))
        except UsageError as err:
            raise JobError(str(err).replace(path, "<record>")) from None
        except PositionError as err:
            report = err.report
            report.file = "<record>"
            return {"question": question, "answer": None, "witness": None,
                    "reason": f"invalid position: {err}", "stats": None, "game": report.to_json()}
        options = Options(method=method, timeout=timeout, **{n: opts.get(n) for n in declared})
        try:
            answer = ask(position, question, options)
        except QuestionError as err:
            raise JobError(str(err)) from None
        doc = answer.to_json()
        doc["position"] = {"file": "<record>", "game": position.timeline.report.index, "kind": position.game,
                           "rules": position.rules, "round": position.round, "ply": position.ply}
        return doc
    finally:
        os.unlink(path)
