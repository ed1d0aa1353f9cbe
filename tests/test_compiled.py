"""The compiled engines (referee/compiled): a build is used only while every file it was
compiled from is unchanged, never mixed with a changed source, and is opt-in.

The tests that need a real build (``python -m referee.compiled build``; CI makes one) use
the current one from the per-user cache, copied beside a copy of the sources; without one
they skip, saying so, except under ``PITBOSS_COMPILED=1`` (CI's second run), where a
missing build fails.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from referee.compiled import build, loader
from referee.compiled import cache as where
from tests.test_layers import game_of, layer

ROOT = Path(__file__).resolve().parents[1]
REQUIRED = where.mode() == "1"

#: Prints, for every group's modules, whether it was loaded compiled.
PROBE = """
import importlib, json, sys
from referee.compiled import loader
names = json.loads(sys.argv[1])
print(json.dumps({n: loader.is_compiled(importlib.import_module(n)) for n in names}))
"""


def _copy_sources(tmp_path: Path) -> Path:
    copy = tmp_path / "src"
    shutil.copytree(ROOT / "referee", copy / "referee",
                    ignore=shutil.ignore_patterns("__pycache__", "*.so", "locale", "service"))
    return copy


def _probe(copy: Path, cache: Path, names: list[str], compiled: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PITBOSS_CACHE_DIR": str(cache), "PITBOSS_COMPILED": compiled}
    env.pop("PYTHONPATH", None)
    return subprocess.run([sys.executable, "-c", PROBE, json.dumps(names)], cwd=copy, env=env,
                          capture_output=True, text=True, timeout=120)


def _group(name: str | None = None) -> build.Group:
    groups = build.groups()
    return next(g for g in groups if g.name == name) if name else min(groups, key=lambda g: len(g.modules))


def test_every_game_declares_its_engine_modules() -> None:
    groups = build.groups()
    assert groups, "no game's engine declares COMPILED"
    for group in groups:
        for module in group.modules:
            assert layer(module) == "engines" and game_of(module) == group.name, module
            assert build.source_file(module) is not None, module
        files = build.closure(group.modules)
        # what they import from the project is part of what the build is checked against
        assert "referee.engines.base" in files and set(group.modules) <= set(files)


def test_a_build_whose_sources_changed_is_not_used(tmp_path: Path) -> None:
    """Without any compiled file: a manifest whose hashes are not the files' is ignored (auto)
    and refused (PITBOSS_COMPILED=1)."""
    group = _group()
    copy = _copy_sources(tmp_path)
    folder = tmp_path / "cache" / "compiled" / where.python_tag() / "0123456789abcdef0123"
    folder.mkdir(parents=True)
    modules = {m: {"path": build.source_file(m).relative_to(ROOT).as_posix(),  # type: ignore[union-attr]
                   "sha256": "0" * 64, "binary": "missing.so"} for m in group.modules}
    (folder / "manifest.json").write_text(json.dumps({
        "format": where.FORMAT, "group": group.name, "python": where.python_tag(), "built": 1.0,
        "lib": None, "lib_file": None, "modules": modules, "dependencies": {}}))
    done = _probe(copy, tmp_path / "cache", list(group.modules))
    assert done.returncode == 0, done.stderr
    assert not any(json.loads(done.stdout).values())
    refused = _probe(copy, tmp_path / "cache", list(group.modules), compiled="1")
    assert refused.returncode != 0
    assert "PITBOSS_COMPILED=1" in refused.stderr and "changed since it was built" in refused.stderr


def _current_build(group: build.Group) -> Path:
    status = build.status(group)
    if status.folder is None:
        reason = f"{group.name}: no current compiled build ({status.state}): python -m referee.compiled build"
        if REQUIRED:
            pytest.fail(reason)
        pytest.skip(reason)
    return status.folder


@pytest.mark.parametrize("edited", ["module", "dependency"])
def test_a_real_build_is_used_until_a_source_is_edited(tmp_path: Path, edited: str) -> None:
    group = _group()
    current = _current_build(group)
    copy = _copy_sources(tmp_path)
    cache = tmp_path / "cache"
    shutil.copytree(current, cache / "compiled" / where.python_tag() / current.name)
    names = list(group.modules)
    done = _probe(copy, cache, names)
    assert done.returncode == 0, done.stderr
    assert all(json.loads(done.stdout).values()), done.stdout  # the copy is the same source: used
    off = _probe(copy, cache, names, compiled="0")
    assert not any(json.loads(off.stdout).values())
    target = build.source_file(names[0]) if edited == "module" else ROOT / "referee" / "engines" / "base.py"
    assert target is not None
    edited_file = copy / target.relative_to(ROOT)
    edited_file.write_text(edited_file.read_text(encoding="utf-8") + "\n# edited after the build\n", encoding="utf-8")
    stale = _probe(copy, cache, names)
    assert stale.returncode == 0, stale.stderr
    assert not any(json.loads(stale.stdout).values()), stale.stdout  # the whole group is pure Python
    refused = _probe(copy, cache, names, compiled="1")
    assert refused.returncode != 0 and target.name in refused.stderr, refused.stderr


def test_an_older_build_of_a_module_now_gone_does_not_hide_the_current_one(tmp_path: Path) -> None:
    """The cache keeps older builds: one that compiled a module the sources no longer have
    as such (a module become a package) is passed over for the group's current build, and
    the package itself is imported from source, also under PITBOSS_COMPILED=1."""
    group = _group("caravan")
    current = _current_build(group)
    copy = _copy_sources(tmp_path)
    cache = tmp_path / "cache"
    builds = cache / "compiled" / where.python_tag()
    shutil.copytree(current, builds / current.name)
    package = "referee.games.caravan.engine"
    assert package not in group.modules and (ROOT / "referee" / "games" / "caravan" / "engine").is_dir()
    old = builds / "0123456789abcdef0123"
    old.mkdir()
    (old / "manifest.json").write_text(json.dumps({
        "format": where.FORMAT, "group": group.name, "python": where.python_tag(), "built": 1.0,
        "lib": None, "lib_file": None, "dependencies": {},
        "modules": {package: {"path": "referee/games/caravan/engine.py", "sha256": "0" * 64,
                              "binary": "missing.so"}}}))
    done = _probe(copy, cache, [package, *group.modules], compiled="1")
    assert done.returncode == 0, done.stderr
    used = json.loads(done.stdout)
    assert not used[package] and all(used[m] for m in group.modules), used


def test_the_engines_under_test_are_the_ones_asked_for() -> None:
    """CI's second run (PITBOSS_COMPILED=1) tests the compiled engines, every module of them;
    its main run (PITBOSS_COMPILED=0) the engines as written, none compiled. Left to itself
    (auto), it checks less: that what is imported agrees with what ``pitboss --version``
    reports (both read the manifests; the staleness itself is tested above on copies)."""
    import importlib

    from referee.compiled.finder import current_groups

    current = set(current_groups())
    for group in build.groups():
        if REQUIRED:
            _current_build(group)
        expected = REQUIRED or (where.mode() == "auto" and group.name in current)
        for module in group.modules:
            assert loader.is_compiled(importlib.import_module(module)) == expected, (module, where.mode())


def test_nothing_built_installs_nothing(tmp_path: Path) -> None:
    code = ("import sys, referee; from referee.compiled import loader; "
            "print(loader.finder() is None and 'referee.compiled.finder' not in sys.modules)")
    for value in ("", "0"):
        env = {**os.environ, "PITBOSS_CACHE_DIR": str(tmp_path / "empty"), "PITBOSS_COMPILED": value}
        done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True)
        assert done.stdout.strip() == "True", done.stderr


def test_missing_tools_are_said_and_nothing_is_made(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PITBOSS_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(build, "_mypy_version", lambda: None)
    monkeypatch.setattr(build, "_compiler", lambda: None)
    with pytest.raises(build.BuildError) as err:
        build.build(_group())
    assert "mypyc" in str(err.value) and "C compiler" in str(err.value)
    assert not list((tmp_path / "cache").rglob("manifest.json"))


def test_required_with_nothing_built_is_an_error_and_the_build_command_still_runs(tmp_path: Path) -> None:
    env = {**os.environ, "PITBOSS_CACHE_DIR": str(tmp_path / "empty"), "PITBOSS_COMPILED": "1"}
    done = subprocess.run([sys.executable, "-c", "import referee.jobs.registry"], cwd=ROOT, env=env,
                          capture_output=True, text=True)
    assert done.returncode != 0 and "no compiled engine is built" in done.stderr, done.stderr
    status = subprocess.run([sys.executable, "-m", "referee.compiled", "status"], cwd=ROOT, env=env,
                            capture_output=True, text=True)
    assert status.returncode == 1 and "not built" in status.stdout, status.stdout + status.stderr
