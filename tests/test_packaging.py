"""Issue 11, item 4: installing anywhere. The README's two commands make their own virtual
environment (and CI runs the same test command); the wheel holds nothing named ``cli`` at
the top level, ships the command line inside the package, and ``python -m pitboss`` and
``import pitboss`` work from it alone; LICENSE, CHANGELOG.md and .gitignore are there."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import sysconfig
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
INSTALL = ("python3 -m venv .venv && .venv/bin/pip install -e . && "
           ".venv/bin/pitboss validate examples/caravan.cvn examples/daifugo.dfn")
TEST = "python3 -m venv .venv && .venv/bin/pip install -e '.[test]' && .venv/bin/python -m pytest -q -n 2"


def test_readme_starts_with_the_two_commands_and_ci_runs_the_second() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    body = [line for line in readme if line.strip()]
    assert body[0].startswith("# ") and body[1] == "```sh" and body[2:5] == [INSTALL, TEST, "```"]
    assert TEST in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def test_license_changelog_gitignore() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["license"] == "MIT"
    assert (ROOT / "LICENSE").read_text(encoding="utf-8").startswith("MIT License")
    assert "## [Unreleased]" in (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    ignored = (ROOT / ".gitignore").read_text(encoding="utf-8").split()
    assert ".venv/" in ignored and "__pycache__/" in ignored
    assert project["scripts"]["pitboss"] == "pitboss.__main__:main"


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    proc = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(out), str(ROOT)],
                          capture_output=True, text=True, timeout=300)
    if proc.returncode != 0:
        missing = "No matching distribution" in proc.stderr or "Could not find" in proc.stderr
        if "hatchling" in proc.stderr and missing:
            pytest.skip("no hatchling to build the wheel with (no package index here)")
        pytest.fail(proc.stderr)
    (built,) = out.glob("pitboss-*.whl")
    return built


def test_the_wheel_has_no_top_level_cli(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    top = {name.split("/")[0] for name in names}
    assert top == {"pitboss", "referee", f"{wheel.name.split('-')[0]}-{wheel.name.split('-')[1]}.dist-info"}
    assert "pitboss/cli.py" in names and "cli.py" not in names
    assert "referee/_data/grammar/cvn.lark" in names and "referee/_data/spec/notation.toml" in names


def test_the_installed_wheel_runs_alone(wheel: Path, tmp_path: Path) -> None:
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(target), str(wheel)],
                   check=True, capture_output=True, timeout=300)
    # No site processing (-S): the editable install of this checkout is not on the path;
    # the dependencies come from this environment's site-packages.
    deps = sysconfig.get_paths()["purelib"]
    code = (f"import sys; sys.path[:0] = [{str(target)!r}, {deps!r}]\n"
            "import importlib.util, runpy\n"
            "assert importlib.util.find_spec('cli') is None, 'a top-level cli module'\n"
            "import pitboss\n"
            f"assert pitboss.__file__.startswith({str(target)!r})\n"
            f"sys.argv = ['pitboss', 'validate', {str(ROOT / 'examples' / 'caravan.cvn')!r}]\n"
            "runpy.run_module('pitboss', run_name='__main__')\n")
    alone = {k: v for k, v in os.environ.items() if k != "PITBOSS_GAMES"}  # the tests' own games are not installed
    proc = subprocess.run([sys.executable, "-S", "-c", code], capture_output=True, text=True, cwd=tmp_path, timeout=120,
                          env=alone)
    assert proc.returncode == 0, proc.stderr
    assert "2 games: 2 valid, 0 invalid" in proc.stdout


def test_the_wheel_ships_the_catalogs_and_the_rule_texts(wheel: Path) -> None:
    """The languages work from a wheel: the template, each catalog and its compiled form,
    and the rule texts per language (spec/i18n/ inside referee/_data/spec/)."""
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "referee/locale/pitboss.pot" in names
    for path in sorted((ROOT / "referee" / "locale").rglob("pitboss.*")):
        assert path.relative_to(ROOT).as_posix() in names
    for path in sorted((ROOT / "spec" / "i18n").rglob("*.toml")):
        assert f"referee/_data/spec/{path.relative_to(ROOT / 'spec').as_posix()}" in names


def test_the_wheel_names_no_file_that_does_not_ship(wheel: Path) -> None:
    """No message, spec entry, help text, docstring or document in the wheel names the
    project's working documents (rulings, the service and contest-server descriptions, the
    shared folder) or an issue; the README (the wheel's METADATA) does not call a working
    document the contract. Only the README may name bench/ (it describes the repository)."""
    unshipped = re.compile(rb"rulings\.md|uecda-server\.md|uecda-protocol\.md|service\.md|shared/|issue [0-9]"
                           rb"|\.\./shared|is the contract", re.IGNORECASE)
    found = []
    with zipfile.ZipFile(wheel) as archive:
        for name in archive.namelist():
            data = archive.read(name)
            hits = [m.group(0) for m in unshipped.finditer(data)]
            if not name.endswith("/METADATA"):
                hits += re.findall(rb"bench/", data)
            found += [f"{name}: {hit.decode()}" for hit in hits]
    assert found == []
