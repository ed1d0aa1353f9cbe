"""The shape of the code: layers import only downward, games only through the registry,
and no module imports itself through others (no import cycle).

Layers, lowest first: engines (rules and state, no I/O), notation (grammars, readers,
writers), jobs (validate, annotate, ..., each game's glue), faces (the command line, the
service). A module's layer is its folder's: ``referee/engines``, ``referee/notation``,
``referee/jobs``, ``referee/service``; inside a game's folder (``referee/games/<game>/``)
its ``engine`` and ``notation`` (and those of a package in it, such as Daifugo's
``uecda``) are those layers and the rest is jobs.

Generic modules (those whose path names no game) never import a game's module, except
the one registry, and never name a game in their code (docstrings and comments may).

An import is any ``import`` statement anywhere in a module: at its top, inside a function
or under ``TYPE_CHECKING`` (a cycle hidden in a function is still a cycle of the design).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from referee.jobs import registry

ROOT = Path(__file__).resolve().parents[1]
LAYERS = ("engines", "notation", "jobs", "faces")
REGISTRY = "referee.jobs.registry"


def _module(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    files = [ROOT / "cli.py", *sorted((ROOT / "referee").rglob("*.py"))]
    if (ROOT / "pitboss").is_dir():
        files += sorted((ROOT / "pitboss").rglob("*.py"))
    return {_module(p): p for p in files}


def layer(module: str) -> str:
    parts = module.split(".")
    faces = (["referee", "service"], ["referee", "commands"], ["referee", "arena"])
    if parts[0] in ("cli", "pitboss") or parts[:2] in faces:
        return "faces"
    if parts[:2] == ["referee", "games"]:
        if len(parts) <= 3:
            return "engines"  # the packages referee.games and referee.games.<game>: empty
        # a game's engine and notation, or those of a package of the game's (its contest's)
        for part in parts[3:5]:
            if part in ("engine", "notation"):
                return {"engine": "engines", "notation": "notation"}[part]
        return "jobs"
    if parts[:2] in (["referee", "engines"], ["referee", "notation"], ["referee", "jobs"]):
        return parts[1]
    # referee/__init__.py, resources.py (where the data files are), spec.py (the rules as data);
    # the compiled engines' import hook (referee/__init__.py installs it)
    low = ("referee", "referee.resources", "referee.compiled", "referee.compiled.cache", "referee.compiled.loader",
           "referee.compiled.finder")
    return "notation" if module in low else "jobs"


def game_of(module: str) -> str | None:
    parts = module.split(".")
    return parts[2] if parts[:2] == ["referee", "games"] and len(parts) > 2 else None


def _imports(path: Path, module: str) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            found.append((node.lineno, target))
            found += [(node.lineno, f"{target}.{a.name}") for a in node.names]
    modules = _modules()
    return [(line, t) for line, t in found if t in modules]


MODULES = _modules()


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_go_down(module: str) -> None:
    mine = LAYERS.index(layer(module))
    for line, target in _imports(MODULES[module], module):
        theirs = LAYERS.index(layer(target))
        assert theirs <= mine, f"{module}:{line} ({layer(module)}) imports {target} ({layer(target)}), a layer above"
        other = game_of(target)
        if other is None:
            continue
        if game_of(module) is None:
            assert module == REGISTRY, f"{module}:{line} is generic but imports {target}: go through the registry"
        else:
            assert game_of(module) == other, f"{module}:{line}: one game imports another's module {target}"


def _game_words() -> re.Pattern[str]:
    words = set()
    for g in registry.games():
        words |= {g.name, g.title.lower(), g.notation.name.lower()}
        words |= set(g.rule_sets)
    return re.compile(r"(?i)" + "|".join(sorted(re.escape(w) for w in words)))


def _code_words(tree: ast.AST) -> list[tuple[int, str]]:
    """Identifiers and string constants, docstrings left out."""
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                docstrings.add(id(first.value))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            out.append((node.lineno, node.value))
        elif isinstance(node, ast.Name):
            out.append((node.lineno, node.id))
        elif isinstance(node, ast.Attribute):
            out.append((node.lineno, node.attr))
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.append((node.lineno, node.name))
        elif isinstance(node, ast.arg):
            out.append((node.lineno, node.arg))
        elif isinstance(node, ast.keyword) and node.arg:
            out.append((node.value.lineno, node.arg))
    return out


GENERIC = sorted(m for m in MODULES if game_of(m) is None and m != REGISTRY)


@pytest.mark.parametrize("module", GENERIC)
def test_generic_code_names_no_game(module: str) -> None:
    pattern = _game_words()
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    named = [f"line {line}: {text!r}" for line, text in _code_words(tree) if pattern.search(text)]
    assert not named, f"{module} names a game (go through the Game object): " + "; ".join(named[:8])


def _graph() -> dict[str, set[str]]:
    """Module -> the project modules it imports (a package it is part of left out: importing
    one's own package is no cycle)."""
    return {m: {t for _, t in _imports(path, m) if t != m and not m.startswith(t + ".")}
            for m, path in MODULES.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import cycles: each strongly connected group of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(start: str) -> None:
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        while work:
            node, edges = work[-1]
            for nxt in edges:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                    break
                if nxt in stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = []
                    while True:
                        member = stack.pop()
                        group.append(member)
                        if member == node:
                            break
                    if len(group) > 1:
                        found.append(sorted(group))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return found


def test_no_module_imports_itself_through_others() -> None:
    found = cycles(_graph())
    assert found == [], "import cycles: " + "; ".join(" <-> ".join(c) for c in found)


def test_the_layer_of_every_module_is_known() -> None:
    assert {layer(m) for m in MODULES} <= set(LAYERS)
    assert layer("referee.games.caravan.engine") == "engines"
    assert layer("referee.games.daifugo.engine.cards") == "engines"
    assert layer("referee.games.daifugo.notation.dfn") == "notation"
    assert layer("referee.games.daifugo.referee") == "jobs"
    assert layer("referee.games.daifugo.uecda.engine.tndhms") == "engines"
    assert layer("referee.games.daifugo.uecda.notation.log") == "notation"
    assert layer("referee.games.daifugo.uecda.contest.table") == "jobs"
    assert layer("cli") == "faces"


def test_the_checks_catch_what_they_look_for(tmp_path: Path) -> None:
    """The word check sees names in code and strings, not in docstrings."""
    pattern = _game_words()
    tree = ast.parse('"""About Caravan."""\nx = "fnv"\ndef f(daifugo_state): pass\n')
    named = [t for _, t in _code_words(tree) if pattern.search(t)]
    assert named == ["fnv", "daifugo_state"]
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []
    assert layer("referee.jobs.validate") == "jobs" and LAYERS.index("notation") < LAYERS.index("jobs")


def test_no_test_module_is_named_like_a_package_of_the_project() -> None:
    """pytest puts a test folder without ``__init__.py`` on ``sys.path``, and processes that
    copy the path (Dask's workers) would then import a ``referee.py`` there instead of the
    package: the worker cannot read its tasks and the run waits for ever."""
    tops = {p.stem for p in ROOT.glob("*.py")} | {p.parent.name for p in ROOT.glob("*/__init__.py")}
    shadows = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "tests").rglob("*.py")
                     if p.stem in tops or (p.stem == "__init__" and p.parent.name in tops))
    assert "referee" in tops and "cli" in tops
    assert shadows == [], f"test modules named like the project's own: {shadows}"
