"""Golden records: hand-written games whose verdicts are written inside them.

Every record under tests/golden/ states what the referee must say about it, in comment
lines anywhere inside the record:

    ; expect: valid
    ; expect: error RULE-ID [LINE:COLUMN] [ply N]
    ; expect: warning RULE-ID [LINE:COLUMN] [ply N]
    ; covers: RULE-ID          (a behaviour rule the verdict depends on)

Errors and warnings must be exactly those listed, in order. The ids a golden file expects
or covers count towards the spec coverage test: every rule id of spec/ is exercised by
some golden record.

The golden records are the files under tests/golden/ (and a test-only game's
``tests/games/<game>/golden/``) in any registered game's notation or whole-file format.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from referee import spec
from referee.jobs import registry
from referee.jobs.replay import cite
from referee.jobs.validate import split, validate_file

GOLDEN = Path(__file__).parent / "golden"
#: A game kept under tests/ keeps its golden records in its own folder.
GAME_GOLDENS = sorted((Path(__file__).parent / "games").glob("*/golden"))
_EXPECT = re.compile(r";\s*expect:\s*(valid|error|warning)\b\s*(\S+)?\s*(\d+:\d+)?\s*(?:ply\s+(\d+))?")
_COVERS = re.compile(r";\s*covers:\s*(.+)")


@dataclass
class Expectation:
    valid: bool = False
    errors: list[tuple[str, str | None, str | None]] = field(default_factory=list)
    warnings: list[tuple[str, str | None, str | None]] = field(default_factory=list)
    covers: list[str] = field(default_factory=list)


def whole_file_endings() -> set[str]:
    """The endings of the registered games' whole-file formats (a contest log)."""
    return {e for g in registry.games() for f in g.foreign for e in f.extensions}


def golden_files() -> list[Path]:
    endings = whole_file_endings() | {e for g in registry.games() for e in g.notation.extensions}
    return sorted(p for folder in (GOLDEN, *GAME_GOLDENS) for p in folder.rglob("*") if p.suffix in endings)


def _id(path: Path) -> str:
    return str(path.relative_to(GOLDEN if path.is_relative_to(GOLDEN) else GOLDEN.parent / "games"))


def expectations(path: Path) -> list[Expectation]:
    """One expectation per record, in file order (a record starts at its Game tag; a log
    file is one expectation for the whole file, listed before its first line)."""
    found: list[Expectation] = []
    current: Expectation | None = None
    whole_file = path.suffix in whole_file_endings()
    for line in path.read_text(encoding="utf-8").splitlines():
        if re.match(r'\ufeff*\s*\[\s*Game\s', line, re.IGNORECASE) or current is None and whole_file:
            current = Expectation()
            found.append(current)
        if current is None:
            continue
        m = _EXPECT.search(line)
        if m:
            kind, rule, where, ply = m.groups()
            if kind == "valid":
                current.valid = True
            else:
                (current.errors if kind == "error" else current.warnings).append((rule, where, ply))
        m = _COVERS.search(line)
        if m:
            current.covers.extend(m.group(1).split())
    return found


def _matches(finding, want: tuple[str, str | None, str | None]) -> bool:
    rule, where, ply = want
    if finding.rule != rule:
        return False
    if where is not None and f"{finding.line}:{finding.column}" != where:
        return False
    return ply is None or finding.ply == int(ply)


@pytest.mark.parametrize("path", golden_files(), ids=_id)
def test_golden(path: Path) -> None:
    reports = list(validate_file(path))
    wanted = expectations(path)
    assert len(reports) == len(wanted), f"{len(reports)} records read, {len(wanted)} have expectations"
    for report, want in zip(reports, wanted):
        got = [f"{f.rule} {f.line}:{f.column} ply {f.ply}: {f.message}" for f in report.errors]
        if want.valid:
            assert report.valid, f"record {report.index} should be valid: {got}"
        assert len(report.errors) == len(want.errors), f"record {report.index}: errors {got}, expected {want.errors}"
        for finding, w in zip(report.errors, want.errors):
            assert _matches(finding, w), f"record {report.index}: got {got}, expected {want.errors}"
        warned = [f"{f.rule} {f.line}:{f.column}" for f in report.warnings]
        assert len(report.warnings) == len(want.warnings), \
            f"record {report.index}: warnings {warned}, expected {want.warnings}"
        for finding, w in zip(report.warnings, want.warnings):
            assert _matches(finding, w), f"record {report.index}: warnings {warned}, expected {want.warnings}"
        for finding in report.errors + report.warnings:
            assert finding.rule in spec.catalog(), f"{finding.rule} is not a spec id"
            assert finding.message
    _check_covers(path, wanted)


def _check_covers(path: Path, wanted: list[Expectation]) -> None:
    """A record's ``covers`` must be rules its own legal moves were decided by."""
    if path.suffix in whole_file_endings():
        return
    with path.open(encoding="utf-8") as handle:
        chunks = list(split(handle))
    for index, (chunk, want) in enumerate(zip(chunks, wanted), start=1):
        if not want.covers:
            continue
        kind = registry.game(chunk.game or "")
        cited = cite(kind, kind.notation.read(chunk, str(path), index))
        expected = {r for r, _, _ in want.errors + want.warnings}
        missing = sorted(set(want.covers) - cited - expected)
        assert not missing, f"record {index} claims to cover {missing}, but its moves cite only {sorted(cited)}"


def test_every_golden_record_states_its_verdict() -> None:
    for path in golden_files():
        for i, want in enumerate(expectations(path), start=1):
            assert want.valid or want.errors or want.warnings, f"{path.name} record {i} expects nothing"
            assert not (want.valid and want.errors), f"{path.name} record {i} is both valid and invalid"


@pytest.mark.parametrize("game", registry.names())
def test_every_rule_id_is_reached_by_a_golden_record(game: str) -> None:
    """The spec coverage proof: each rule of a game (and each notation rule) is the verdict
    of, or is covered by, some golden record."""
    reached: set[str] = set()
    for path in golden_files():
        for want in expectations(path):
            reached.update(r for r, _, _ in want.errors + want.warnings)
            reached.update(want.covers)
    if not spec.ids(game + "."):
        pytest.fail(f"no rules of {game} in spec/")
    missing = sorted(spec.ids(game + ".") - reached)
    assert not missing, f"rule ids no golden record reaches: {missing}"
    unknown = sorted(r for r in reached if r not in spec.catalog())
    assert not unknown, f"golden records name ids that are not in spec/: {unknown}"


def test_notation_rules_are_reached() -> None:
    reached: set[str] = set()
    for path in golden_files():
        for want in expectations(path):
            reached.update(r for r, _, _ in want.errors + want.warnings)
            reached.update(want.covers)
    assert not sorted(spec.ids("notation.") - reached)
