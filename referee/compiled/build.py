"""``python -m referee.compiled build | status | clean``: each game's engine compiled by mypyc.

Each game names its engine modules to compile (``Game.compiled``, which its engine package
declares as ``COMPILED``; what stays Python is simply left out). They are one *group*: compiled together, so that
they call each other natively, into one build folder ``<cache>/compiled/<python tag>/<hash>/``
(see :mod:`referee.compiled.loader`), ``<hash>`` naming what was compiled: the group's
modules and every project module they import (their dependencies), the mypy version and
the compiler options. The sources are copied to a temporary folder first and compiled
from there, and the manifest holds the hashes of those copies, so a file edited during
the build can only make the build stale, never wrongly current. The build is written to
``<hash>.part-<pid>`` and renamed when complete.

Compiling needs mypyc (it comes with mypy, a test dependency: ``pip install -e '.[test]'``),
setuptools and a C compiler; without them the command says what is missing and exits 2.
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from referee.compiled import cache, finder, loader

#: mypyc's optimisation level (the C compiler's -O); part of the build's hash.
OPT_LEVEL = "3"

#: Run in a child process, in the folder of the copied sources: mypyc writes C, setuptools
#: compiles it into the build folder (never into the source tree).
_CHILD = r"""
import json, sys
spec = json.loads(sys.argv[1])
from mypyc.build import mypycify
from setuptools import setup
extensions = mypycify(["--config-file", spec["ini"], "--cache-dir", spec["mypy_cache"], *spec["paths"]],
                      group_name=spec["group"], target_dir=spec["c"], opt_level=spec["opt"])
setup(name="pitboss-compiled", ext_modules=extensions, script_args=[
    "--quiet", "build_ext", "--build-lib", spec["out"], "--build-temp", spec["temp"]])
"""


class BuildError(Exception):
    """The build could not be made; the message says why and what to do."""


@dataclass(frozen=True)
class Group:
    """A game's engine modules to compile, as its game names them (``Game.compiled``)."""

    name: str
    modules: tuple[str, ...]


def groups() -> list[Group]:
    """Every game's group (games that name no engine modules to compile have none)."""
    from referee.jobs import registry

    return [Group(game.name, game.compiled) for game in registry.games() if game.compiled]


def source_file(module: str, root: Path = Path(cache.ROOT)) -> Path | None:
    base = root.joinpath(*module.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _imported(path: Path, module: str) -> set[str]:
    """The modules a file imports (anywhere in it, type-checking imports included)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1])
                target = f"{base}.{node.module}" if node.module else base
            else:
                target = node.module or ""
            found.add(target)
            found |= {f"{target}.{a.name}" for a in node.names}
    return found


def closure(modules: Iterable[str]) -> dict[str, Path]:
    """The modules and every project module they import, transitively: module name -> file.
    (A parent package is in only when imported: its code is not what the group runs.)"""
    todo = list(modules)
    seen: dict[str, Path] = {}
    while todo:
        name = todo.pop()
        if name in seen or name.partition(".")[0] != cache.PACKAGE:
            continue
        path = source_file(name)
        if path is None:
            continue  # a name imported from a module, not a module
        seen[name] = path
        todo += sorted(_imported(path, name))
    return seen


def _rel(path: Path) -> str:
    return path.relative_to(cache.ROOT).as_posix()


def _mypy_version() -> str | None:
    try:
        from mypy.version import __version__
    except ImportError:
        return None
    return str(__version__)


def _compiler() -> str | None:
    """The C compiler setuptools would call (None when it is not there)."""
    cc = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()
    return shutil.which(cc[0]) if cc else None


def missing_tools() -> list[str]:
    """What compiling needs and this machine lacks, said as what to do."""
    missing = []
    if _mypy_version() is None:
        missing.append("mypyc (it comes with mypy: pip install -e '.[test]', or pip install mypy)")
    if importlib.util.find_spec("setuptools") is None:
        missing.append("setuptools (pip install setuptools)")
    if _compiler() is None:
        missing.append("a C compiler (gcc or clang: apt-get install gcc)")
    if not Path(sysconfig.get_paths()["include"], "Python.h").is_file():
        missing.append("the Python headers (apt-get install python3-dev)")
    return missing


@dataclass(frozen=True)
class Plan:
    """What a group's build is made of, and where it goes."""

    group: Group
    files: dict[str, Path]  # module name -> file, group and dependencies
    digest: str

    @property
    def folder(self) -> Path:
        base = cache.cache_folder()
        if base is None:
            raise BuildError("the cache is turned off (PITBOSS_CACHE_DIR is empty): set it to a folder")
        return Path(base) / self.digest


def plan(group: Group) -> Plan:
    for module in group.modules:
        path = source_file(module)
        if path is None:
            raise BuildError(f"{group.name}: {module} is declared compiled but has no source file")
        if path.name == "__init__.py":
            raise BuildError(f"{group.name}: {module} is a package; only modules are compiled")
    files = closure(group.modules)
    return Plan(group, files, _digest(group, {name: path.read_bytes() for name, path in files.items()}))


def _digest(group: Group, contents: dict[str, bytes]) -> str:
    """A build's name: the interpreter, the compiler, the options and every file's bytes."""
    digest = hashlib.sha256()
    for part in (cache.python_tag(), _mypy_version() or "", OPT_LEVEL, ",".join(sorted(group.modules))):
        digest.update(part.encode() + b"\0")
    for name in sorted(contents):
        digest.update(name.encode() + b"\0" + contents[name] + b"\0")
    return digest.hexdigest()[:20]


def build(group: Group) -> tuple[Path, bool]:
    """Compile a group unless its current build exists: (the build folder, built now?)."""
    p = plan(group)
    folder = p.folder
    if (folder / "manifest.json").is_file():
        return folder, False
    missing = missing_tools()
    if missing:
        raise BuildError("cannot compile: missing " + "; ".join(missing))
    folder.parent.mkdir(parents=True, exist_ok=True)
    lib = f"{cache.LIB_PREFIX}{p.digest}"
    with tempfile.TemporaryDirectory(prefix="pitboss-compile-") as tmp:
        src, out = Path(tmp, "src"), Path(tmp, "out")
        hashes: dict[str, str] = {}
        copied: dict[str, bytes] = {}
        for name, path in p.files.items():
            copy = src / _rel(path)
            copy.parent.mkdir(parents=True, exist_ok=True)
            data = copied[name] = path.read_bytes()
            copy.write_bytes(data)
            hashes[name] = hashlib.sha256(data).hexdigest()
        if _digest(group, copied) != p.digest:  # the folder is named after what is compiled
            raise BuildError(f"{group.name}: a source file changed as the build began: run it again")
        for name in p.files:  # the packages on the way, empty unless the group imports them
            parts = name.split(".")
            for i in range(1, len(parts)):
                init = src.joinpath(*parts[:i], "__init__.py")
                if not init.exists():
                    init.parent.mkdir(parents=True, exist_ok=True)
                    init.write_text("", encoding="utf-8")
        Path(tmp, "mypy.ini").write_text("[mypy]\n", encoding="utf-8")
        spec = {
            "ini": str(Path(tmp, "mypy.ini")), "mypy_cache": str(Path(tmp, "mypy-cache")),
            "paths": [_rel(p.files[m]) for m in group.modules], "group": lib, "c": str(Path(tmp, "c")),
            "opt": OPT_LEVEL, "out": str(out), "temp": str(Path(tmp, "temp")),
        }
        env = {k: v for k, v in os.environ.items() if k != "MYPY_CONFIG_FILE_DIR"}
        done = subprocess.run([sys.executable, "-c", _CHILD, json.dumps(spec)], cwd=src, env=env,
                              capture_output=True, text=True)
        if done.returncode != 0:
            tail = (done.stdout + done.stderr).strip().splitlines()[-15:]
            raise BuildError(f"{group.name}: mypyc failed:\n  " + "\n  ".join(tail))
        suffix = cache.extension_suffix()
        modules = {}
        for module in group.modules:
            binary = Path(*module.split(".")).as_posix() + suffix
            if not (out / binary).is_file():
                raise BuildError(f"{group.name}: mypyc made no {binary}")
            modules[module] = {"path": _rel(p.files[module]), "sha256": hashes[module], "binary": binary}
        lib_file = f"{lib}__mypyc{suffix}"
        manifest = {
            "format": cache.FORMAT, "group": group.name, "python": cache.python_tag(),
            "mypy": _mypy_version(), "opt_level": OPT_LEVEL, "built": time.time(),
            "lib": f"{lib}__mypyc" if (out / lib_file).is_file() else None,
            "lib_file": lib_file if (out / lib_file).is_file() else None,
            "modules": modules,
            "dependencies": {_rel(p.files[n]): hashes[n] for n in sorted(p.files) if n not in group.modules},
        }
        (out / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
        part = folder.with_name(f"{folder.name}.part-{os.getpid()}")
        shutil.rmtree(part, ignore_errors=True)
        shutil.copytree(out, part)
        try:
            part.rename(folder)
        except OSError:  # built meanwhile by another process: theirs is the same
            shutil.rmtree(part, ignore_errors=True)
    return folder, True


@dataclass(frozen=True)
class Status:
    """What an import of a group's modules would load in this checkout, and why."""

    group: Group
    state: str  # "compiled" | "stale" | "not built"
    detail: str
    folder: Path | None = None


def status(group: Group) -> Status:
    """Judged as the import hook judges it: the hashes in the builds' manifests against the
    files of this checkout (a build of other sources, e.g. another checkout's, is stale here)."""
    builds = [b for b in finder.read_builds(cache.cache_folder()) if b.group == group.name]
    query = finder.CompiledFinder(cache.cache_folder(), required=False)
    chosen = query.choose(group.name, builds, importing=False) if builds else None
    if chosen is not None:
        return Status(group, "compiled", f"{len(chosen.binaries)} module{'s' if len(chosen.binaries) != 1 else ''}",
                      Path(chosen.folder))
    if builds:
        return Status(group, "stale", query.why[group.name] + "; run python -m referee.compiled build")
    return Status(group, "not built", "run python -m referee.compiled build")


def clean(everything: bool) -> list[Path]:
    """Remove the builds that no group of this checkout would load (all of them with
    ``everything``), half-written ones included. Returns what was removed."""
    base = cache.cache_folder()
    if base is None or not Path(base).is_dir():
        return []
    keep = set()
    if not everything:
        for group in groups():
            s = status(group)
            if s.folder is not None:
                keep.add(s.folder.resolve())
    removed = []
    for folder in sorted(Path(base).iterdir()):
        if folder.is_dir() and folder.resolve() not in keep:
            shutil.rmtree(folder, ignore_errors=True)
            removed.append(folder)
    return removed


def _cpu() -> float:
    """CPU time of this process and its finished children (mypyc and the C compiler)."""
    import resource

    mine, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return mine.ru_utime + mine.ru_stime + children.ru_utime + children.ru_stime


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m referee.compiled",
        description="Compile each game's engine with mypyc (opt-in; the source stays the rules). "
                    "A build is used only while the files it was compiled from are unchanged; "
                    "PITBOSS_COMPILED=0 turns compiled engines off, =1 makes a missing or stale build an error.")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("build", help="compile every game's engine whose current build is missing")
    commands.add_parser("status", help="say, for each game, whether its engine would be loaded compiled "
                                       "(exit status 1 when one would not)")
    cleaning = commands.add_parser("clean", help="remove the builds this checkout would not load")
    cleaning.add_argument("--all", action="store_true", help="remove every build (of this Python)")
    args = parser.parse_args(argv)
    loader.uninstall()  # the build and the checks read the sources, never a build
    try:
        if args.command == "build":
            from concurrent.futures import ThreadPoolExecutor

            from referee.jobs.parallel import available_cores

            start, todo = _cpu(), groups()
            with ThreadPoolExecutor(max_workers=max(1, min(len(todo), available_cores()))) as pool:
                results = list(pool.map(build, todo))  # each group's compiler is a process of its own
            for group, (folder, made) in zip(todo, results):
                print(f"{group.name}: {len(group.modules)} module{'s' if len(group.modules) != 1 else ''} compiled, "
                      f"{'built' if made else 'already built'}: {folder}")
            if any(made for _, made in results):
                print(f"built in {_cpu() - start:.1f} s CPU (mypyc and the C compiler)")
        elif args.command == "status":
            print(f"python {cache.python_tag()}, {cache.ENV}={cache.mode()}, builds in {cache.cache_folder()}")
            states = [status(group) for group in groups()]
            for s in states:
                where = f" ({s.folder})" if s.folder else ""
                print(f"{s.group.name}: {s.state}: {s.detail}{where}")
            return 0 if all(s.folder is not None for s in states) else 1
        else:
            for folder in clean(args.all):
                print(f"removed {folder}")
    except (BuildError, OSError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    return 0
