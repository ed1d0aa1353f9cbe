"""``pitboss prove``: certificates that a game's rules, under one setting, have a property.

A game with a prover (``Game.prover``, a :class:`~referee.jobs.game.Prover`) lists its
settings (``settings()``:
each rule set, and for games with options each single option toggled), its properties
(``PROPERTIES``: name -> what it means) and checks one (``check(setting, name, budget)``),
returning a :class:`Certificate`: *proved* (the method, the bound, the rules it rests on,
what it assumes), *refuted* (a witness record that ``validate`` accepts under the setting
and that shows the violation) or *unknown* (the time ran out). This module runs them,
times them and prints them; it names no game.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from referee.jobs import registry
from referee.jobs.certificate import Budget, Certificate
from referee.jobs.game import Prover
from referee.jobs.registry import SomeGame
from referee.jobs.solve import Deadline, Timeout
from referee.jobs.solve.smt import Disagreement

VERDICTS = ("proved", "refuted", "unknown")


class ProveError(ValueError):
    """The command cannot run as asked (an unknown game, setting or property)."""


@dataclass
class Report:
    game: str
    setting: str
    properties: list[Certificate]

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "setting": self.setting, "properties": [c.to_json() for c in self.properties]}


__all__ = ["Budget", "Certificate", "ProveError", "Report", "exit_status", "games_with_proofs", "guarantees",
           "prove", "text"]


def games_with_proofs() -> list[SomeGame]:
    return [g for g in registry.games() if g.prover is not None]


def prove(game: str | None = None, setting: str | None = None, properties: Sequence[str] = (),
          timeout: float | None = 60.0, certify: bool = False, quick: bool = False) -> list[Report]:
    """The certificates of ``properties`` (all, by default) under ``setting`` (every
    setting of the game, by default) for ``game`` (every game with proofs, by default).
    ``timeout`` is per property check (seconds; None: no limit)."""
    chosen = [(g, g.prover) for g in registry.games() if g.prover is not None]
    if game is not None:
        chosen = [(g, p) for g, p in chosen if g.name == game.lower()]
        if not chosen:
            raise ProveError(f"no game {game!r} with properties to prove: use one of "
                             f"{', '.join(g.name for g in games_with_proofs())}")
    reports = []
    for kind, prover in chosen:
        part = prover.get()
        names = list(properties) or list(part.PROPERTIES)
        unknown = [p for p in names if p not in part.PROPERTIES]
        if unknown:
            raise ProveError(f"{kind.title} has no property {', '.join(unknown)}: its properties are "
                             f"{', '.join(part.PROPERTIES)}")
        settings = part.settings() if setting is None else [part.setting_name(setting)]
        for name in settings:
            certificates = [_one(part, name, prop, timeout, certify, quick) for prop in names]
            reports.append(Report(kind.name, name, certificates))
    return reports


def _one(part: Prover, setting: str, prop: str, timeout: float | None, certify: bool,
         quick: bool = False) -> Certificate:
    start = time.monotonic()
    budget = Budget(Deadline(timeout), certify, quick=quick)
    try:
        cert = part.check(setting, prop, budget)
    except Timeout:
        cert = Certificate(prop, "unknown", reason=f"no verdict within --timeout {timeout:g} s")
    except Disagreement as err:
        raise ProveError(f"{prop} under {setting}: {err}") from None
    for record in (cert.witness, cert.example):
        if record is not None:
            _validated(part, setting, record, cert.name)
    cert.seconds = time.monotonic() - start
    if cert.verdict == "proved" and not cert.solvers:
        cert.solvers = ["z3", "cvc5"] if certify and budget.certified else ["z3"]
    return cert


def _validated(part: Prover, setting: str, record: str, prop: str) -> None:
    """A witness must be a record ``validate`` accepts under the setting (an error if not:
    the certificate would show nothing)."""
    from referee.jobs.validate import parse_settings, validate_text

    reports = validate_text(record, f"<{prop} witness>", parse_settings([part.setting_text(setting)]))
    bad = [f"{f.rule}: {f.message}" for r in reports for f in r.errors]
    if len(reports) != 1 or bad:
        raise AssertionError(f"the {prop} witness under {setting} does not validate: {'; '.join(bad)}")


def text(reports: Sequence[Report]) -> str:
    """The reports as a player reads them: per setting, one line per property, then its
    reason, bound, assumptions and any witness record, indented."""
    out: list[str] = []
    for report in reports:
        out.append(f"{report.game} {report.setting}")
        for c in report.properties:
            bound = f", bound {c.bound}" if c.bound is not None else ""
            method = f" ({c.method}{bound}, {c.seconds:.2f} s)" if c.method else f" ({c.seconds:.2f} s)"
            out.append(f"  {c.name}: {c.verdict}{method}")
            if c.reason:
                out.append(f"    {c.reason}")
            if c.rests_on:
                out.append(f"    rests on: {', '.join(c.rests_on)}")
            if c.assumptions:
                out.append(f"    assumes: {'; '.join(c.assumptions)}")
            if len(c.solvers) > 1:
                out.append(f"    unsat checks re-proved by: {', '.join(c.solvers[1:])}")
            for label, record in (("witness", c.witness), ("example", c.example)):
                if record:
                    out.append(f"    {label} (validated under {report.setting}):")
                    out += [f"      {line}" for line in record.rstrip().splitlines()]
    return "\n".join(out) + "\n"


def guarantees(game: str, rule_sets: Sequence[str], timeout: float | None = 60.0) -> list[str]:
    """The rulebook's summary of what each rule set guarantees: one line per property
    (its verdict, bound and method; a refutation's witness is left to ``pitboss prove``)."""
    lines: list[str] = []
    for rule_set in rule_sets:
        for report in prove(game, rule_set, timeout=timeout, quick=True):
            lines.append(f"  {report.setting}:")
            for c in report.properties:
                bound = f", bound {c.bound}" if c.bound is not None else ""
                lines.append(f"    {c.name}: {c.verdict} ({c.method}{bound}): {c.reason}")
    return lines


def exit_status(reports: Sequence[Report]) -> int:
    """0 when every property is proved, 1 when one is refuted or unknown."""
    return 0 if all(c.verdict == "proved" for r in reports for c in r.properties) else 1
