"""One conformance suite, run for every registered game (as OpenSpiel tests all its games
through one API test).

Each game gives, beside its own tests, ``tests/games/<game>/<game>_conformance.py`` with
``positions(seed, count)`` (positions met in random play), ``writable(state)`` (every move
its notation can write there, legal or not) and ``key(state, move)`` (a move up to what
the rules cannot tell apart). The suite then holds every game to the same properties:

* ``legal_moves`` lists exactly the writable moves ``check`` accepts, each once;
* asking ``check`` what it consulted changes nothing, and every id it names is in spec/;
* self-play under every rule set gives records that validate;
* a record written back in canonical notation reads with the same verdict and plies, and
  writing it again changes nothing (write, read, write is a fixed point);
* every rule id an engine can produce (a literal in its source) is in spec/, of that game.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from types import ModuleType

import pytest

from referee import spec
from referee.compiled.build import source_file
from referee.jobs import registry
from referee.jobs.timeline import timelines
from referee.jobs.validate import validate_text

ROOT = Path(__file__).resolve().parents[1]
GAMES = registry.names()


def conformance(name: str) -> ModuleType:
    path = ROOT / "tests" / "games" / name / f"{name}_conformance.py"
    assert path.is_file(), f"{name} has no conformance module at {path.relative_to(ROOT)}"
    loaded = importlib.util.spec_from_file_location(f"{name}_conformance", path)
    assert loaded is not None and loaded.loader is not None
    module = importlib.util.module_from_spec(loaded)
    loaded.loader.exec_module(module)
    return module


@pytest.mark.parametrize("name", GAMES)
def test_legal_moves_are_exactly_what_check_accepts(name: str) -> None:
    game, helper = registry.game(name), conformance(name)
    engine = game.engine
    seen = 0
    for state in helper.positions(seed=20261201, count=30):
        listed = list(engine.legal_moves(state))
        for move in listed:
            assert engine.check(state, move) is None, (move, engine.check(state, move))
        keys = [helper.key(state, m) for m in listed]
        assert len(keys) == len(set(keys)), "each legal move listed once"
        accepted = {helper.key(state, m) for m in helper.writable(state) if engine.check(state, m) is None}
        assert set(keys) == accepted, set(keys) ^ accepted
        seen += 1
    assert seen == 30


@pytest.mark.parametrize("name", GAMES)
def test_what_check_consulted_is_in_spec_and_changes_nothing(name: str) -> None:
    game, helper = registry.game(name), conformance(name)
    catalog = spec.catalog()
    for state in helper.positions(seed=7, count=10):
        for move in list(helper.writable(state))[:400]:
            consulted: list[str] = []
            assert game.engine.check(state, move, consulted) == game.engine.check(state, move)
            assert set(consulted) <= set(catalog), set(consulted) - set(catalog)


def _selfplay(name: str, rules: str, count: int = 4) -> str:
    game = registry.game(name)
    return "\n".join(item.text() for item in game.selfplay.generate(count, 11, rules=rules))


@pytest.mark.parametrize("name,rules", [(g.name, r) for g in registry.games() for r in g.rule_sets])
def test_selfplay_validates(name: str, rules: str) -> None:
    reports = validate_text(_selfplay(name, rules), f"selfplay.{name}")
    assert reports and all(r.valid for r in reports), [r.errors[:1] for r in reports if not r.valid]
    assert all(r.rules == rules for r in reports)


@pytest.mark.parametrize("name,rules", [(g.name, r) for g in registry.games() for r in g.rule_sets])
def test_write_read_write_is_a_fixed_point(name: str, rules: str) -> None:
    game = registry.game(name)
    text = _selfplay(name, rules, 3)
    before = validate_text(text, "a")
    written = [game.part("annotate").write(t, {}, []) for t in timelines(text.splitlines(keepends=True), "a")]
    again = validate_text("\n".join(written), "b")
    assert [(r.valid, r.plies, r.rules) for r in again] == [(r.valid, r.plies, r.rules) for r in before]
    rewritten = [game.part("annotate").write(t, {}, [])
                 for t in timelines("\n".join(written).splitlines(keepends=True), "b")]
    assert rewritten == written


_RULE_ID = re.compile(r"""["']([a-z]+\.[a-z0-9-]+(?:\.[a-z0-9-]+)+)["']""")


@pytest.mark.parametrize("name", GAMES)
def test_every_rule_id_an_engine_can_produce_is_in_spec(name: str) -> None:
    engine = registry.game(name).engine
    source = source_file(engine.__name__)  # the .py, also when the engine is compiled
    assert source is not None
    files = sorted(source.parent.glob("*.py")) if source.name == "__init__.py" else [source]
    catalog = spec.catalog()
    produced = {m.group(1) for f in files for m in _RULE_ID.finditer(f.read_text(encoding="utf-8"))
                if m.group(1).startswith(name + ".")}
    assert produced, f"no rule id found in {name}'s engine"
    assert produced <= set(catalog), sorted(produced - set(catalog))


def test_every_game_has_a_conformance_module() -> None:
    for name in GAMES:
        helper = conformance(name)
        for needed in ("positions", "writable", "key"):
            assert callable(getattr(helper, needed, None)), f"{name}_conformance.{needed}"
