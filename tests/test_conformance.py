"""One conformance suite, run for every registered game (as OpenSpiel tests all its games
through one API test).

It asks of a game only what the contract (:mod:`referee.jobs.game`) requires: its engine,
its notation, its settings, its referee's plan, its rules in spec/ and its grammar; each
optional part a game has (renderer, live tables, analyser, solver, rulebook, self-play,
whole-file formats) is checked when it has it.

Beside its own tests each game gives ``tests/games/<game>/<game>_conformance.py`` with
``positions(seed, count)`` (positions met in random play), ``writable(state)`` (every move
its notation can write there, legal or not) and ``key(state, move)`` (a move up to what
the rules cannot tell apart). The suite then holds every game to the same properties:

* ``legal_moves`` lists exactly the writable moves ``check`` accepts, each once;
* asking ``check`` what it consulted changes nothing, and every id it names, and every id
  a move or a position set off, is in spec/;
* a record written back in canonical notation reads with the same verdict and plies, and
  writing it again changes nothing (write, read, write is a fixed point);
* every rule id an engine can produce (a literal in its source) is in spec/, of that game;
* self-play under every rule set gives records that validate.
"""

from __future__ import annotations

import importlib.util
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from types import ModuleType

import pytest

from referee import spec
from referee.compiled.build import source_file
from referee.jobs import registry, rulebook
from referee.jobs.analysis import Limits, MoveAnalysis
from referee.jobs.annotate import annotate_text
from referee.jobs.game import Lazy, Notation, Renderer, Settings
from referee.jobs.live import LiveError, Outcome
from referee.jobs.render.frames import frames_of
from referee.jobs.replay import allowed
from referee.jobs.selfplay import items
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


def _with(part: str) -> list[str]:
    """The games that have an optional part."""
    return [g.name for g in registry.games() if getattr(g, part) is not None]


def _records(name: str, rules: str | None = None, count: int = 3) -> str:
    """Some records of the game: its self-play's, or the valid records of its goldens."""
    game = registry.game(name)
    if game.selfplay is not None:
        return "\n".join(item.text() for item in items(game.selfplay.prepare(rules or game.default_rules), count, 11))
    texts = []
    for path in sorted(_golden_folder(name).rglob("*")):
        if path.suffix in game.notation.extensions:
            texts += [t.chunk.text for t in timelines(path.read_text(encoding="utf-8").splitlines(keepends=True), "g")
                      if t.report.valid and t.game == name]
    return "\n".join(texts[:count])


def _golden_folder(name: str) -> Path:
    own = ROOT / "tests" / "games" / name / "golden"
    return own if own.is_dir() else ROOT / "tests" / "golden" / name


# ------------------------------------------------------------------ the required parts


@pytest.mark.parametrize("name", GAMES)
def test_the_game_fills_the_contract(name: str) -> None:
    game = registry.game(name)
    assert game.name == name and name == name.lower() and game.title
    for member in ("check", "apply", "legal_moves", "after_illegal", "effects", "set_off"):
        assert callable(getattr(game.engine, member)), f"{name}: the engine has no {member}"
    assert isinstance(game.notation, Notation) and game.notation.extensions
    assert all(e.startswith(".") and e == e.lower() for e in game.notation.extensions)
    assert game.grammar.is_file(), f"{name}: no grammar at {game.grammar}"
    assert isinstance(game.settings, Lazy) and isinstance(game.settings.get(), Settings)
    assert game.rule_sets and all(game.settings.get().parse(r).name == r for r in game.rule_sets)
    assert callable(game.plan)


@pytest.mark.parametrize("name", GAMES)
def test_the_rules_are_found_by_the_games_name(name: str) -> None:
    """spec/<game>.toml (or the game's own folder) holds its rules, one topic heading for
    each topic they are grouped by, and every rule set is some rule's."""
    game = registry.game(name)
    assert game.spec_files and game.spec_files[0] == f"{name}.toml", game.spec_files
    rules = [r for r in spec.catalog().values() if r.file in game.spec_files]
    assert rules and all(r.id.startswith(name + ".") for r in rules)
    headings = rulebook.topics(game)
    missing = {rulebook.topic_of(r, game) for r in rules} - set(headings)
    assert not missing, f"{name}: topics with no heading in [topics]: {sorted(missing)}"
    assert set(game.rule_sets) <= {s for r in rules for s in r.rulesets}


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
def test_what_a_move_consulted_and_set_off_is_in_spec(name: str) -> None:
    """Asking ``check`` what it consulted changes nothing; the ids it names, those a legal
    move set off and those a position was brought about by are all spec ids."""
    game, helper = registry.game(name), conformance(name)
    catalog = spec.catalog()
    engine = game.engine
    for state in helper.positions(seed=7, count=10):
        assert set(engine.set_off(state)) <= set(catalog)
        for move in list(helper.writable(state))[:400]:
            consulted: list[str] = []
            assert engine.check(state, move, consulted) == engine.check(state, move)
            assert set(consulted) <= set(catalog), set(consulted) - set(catalog)
        for move in list(engine.legal_moves(state))[:20]:
            cited = allowed(engine, state, move, engine.apply(state, move))
            assert cited and set(cited) <= set(catalog), set(cited) - set(catalog)


_RULE_ID = re.compile(r"""["']([a-z]+\.[a-z0-9-]+(?:\.[a-z0-9-]+)+)["']""")


@pytest.mark.parametrize("name", GAMES)
def test_every_rule_id_an_engine_can_produce_is_in_spec(name: str) -> None:
    engine = registry.game(name).engine
    source = source_file(engine.__name__)  # the .py, also when the engine is compiled
    if source is None:  # a game kept outside the package (the test suite's own)
        found = importlib.util.find_spec(engine.__name__)
        assert found is not None and found.origin is not None
        source = Path(found.origin)
    files = sorted(source.parent.glob("*.py")) if source.name == "__init__.py" else [source]
    catalog = spec.catalog()
    produced = {m.group(1) for f in files for m in _RULE_ID.finditer(f.read_text(encoding="utf-8"))
                if m.group(1).startswith(name + ".")}
    assert produced, f"no rule id found in {name}'s engine"
    assert produced <= set(catalog), sorted(produced - set(catalog))


@pytest.mark.parametrize("name,rules", [(g.name, r) for g in registry.games() for r in g.rule_sets])
def test_write_read_write_is_a_fixed_point(name: str, rules: str) -> None:
    game = registry.game(name)
    text = _records(name, rules)
    assert text
    before = validate_text(text, "a")

    def written(source: str, file: str) -> list[str]:
        out = []
        for t in timelines(source.splitlines(keepends=True), file):
            assert t.record is not None
            out.append(game.notation.write(t.record, t.chunk, {}, []))
        return out

    first = written(text, "a")
    again = validate_text("\n".join(first), "b")
    assert [(r.valid, r.plies, r.rules) for r in again] == [(r.valid, r.plies, r.rules) for r in before]
    assert written("\n".join(first), "b") == first


def test_every_game_has_a_conformance_module() -> None:
    for name in GAMES:
        helper = conformance(name)
        for needed in ("positions", "writable", "key"):
            assert callable(getattr(helper, needed, None)), f"{name}_conformance.{needed}"


# ------------------------------------------------------------------ the optional parts


@pytest.mark.parametrize("name,rules", [(g.name, r) for g in registry.games() if g.selfplay is not None
                                        for r in g.rule_sets])
def test_selfplay_validates(name: str, rules: str) -> None:
    reports = validate_text(_records(name, rules, 4), f"selfplay.{name}")
    assert reports and all(r.valid for r in reports), [r.errors[:1] for r in reports if not r.valid]
    assert all(r.rules == rules for r in reports)


@pytest.mark.parametrize("name", _with("render"))
def test_the_renderer_draws_every_frame(name: str) -> None:
    game = registry.game(name)
    assert game.render is not None
    part = game.render.get()
    assert isinstance(part, Renderer)
    (annotated,) = annotate_text(_records(name, count=1), "r")[:1]
    frames = frames_of(annotated)
    assert len(frames) > 1
    for frame in frames[:: max(1, len(frames) // 5)]:
        assert part.text(frame, False).strip() and "\x1b" not in part.text(frame, False)
        ET.fromstring(part.svg(frame))
        assert "heading" in part.data(frame)
    assert "function" in part.script()


@pytest.mark.parametrize("name", _with("live"))
def test_a_live_table_plays_to_its_end_and_its_record_validates(name: str) -> None:
    game = registry.game(name)
    assert game.live is not None
    live = game.live.get()
    setup = None
    for seats in range(2, 9):
        try:
            setup = live.create({"game": name, "rules": game.default_rules, "seats": [f"P{i}" for i in range(seats)],
                                 "rounds": 1, "seed": 5})
            break
        except LiveError:
            continue
    assert setup is not None, f"{name}: no table of 2 to 8 seats could be created"
    match = live.open(setup)
    for _ in range(2000):
        if match.status() == "finished":
            break
        due = match.server_move()
        if due is not None:
            match.commit(due)
            continue
        seat = match.movers()[0]
        assert match.legal(seat)
        outcome = match.bot_move(seat, "random", 3)
        assert isinstance(outcome, Outcome) and outcome.counts
        match.commit(outcome)
        assert "hand" in match.view(seat) and "hand" not in match.view(None)
    assert match.status() == "finished"
    (report,) = validate_text(match.record(), "live")
    assert report.valid, report.errors


@pytest.mark.parametrize("name", _with("analyser"))
def test_the_analyser_answers_within_its_limits(name: str) -> None:
    game = registry.game(name)
    assert game.analyser is not None and game.analyser.summary
    (annotated,) = annotate_text(_records(name, count=1), "a")[:1]
    limits = Limits(query_seconds=0.05, move_seconds=0.1)
    for note in annotated.notes[:3]:
        found = game.analyser.analyse(note.step, limits)
        assert found is None or isinstance(found, MoveAnalysis)


@pytest.mark.parametrize("name", _with("solver"))
def test_the_solvers_questions_take_declared_options(name: str) -> None:
    game = registry.game(name)
    assert game.solver is not None and game.solver.questions
    declared = {o.name for o in game.solver.options} | {"method"}
    for question in game.solver.questions:
        assert question.takes <= declared, (question.name, question.takes - declared)
        assert question.summary and question.example.startswith("pitboss solve ")


@pytest.mark.parametrize("name", _with("rulebook"))
def test_the_rulebook_part_describes_every_rule_set(name: str) -> None:
    game = registry.game(name)
    assert game.rulebook is not None
    part = game.rulebook.get()
    for rule_set in game.rule_sets:
        assert isinstance(part.describe(rule_set), str) and part.describe(rule_set)
        assert all(isinstance(k, str) and isinstance(v, str) for k, v in part.options(rule_set).items())
