"""The import hook of the compiled engines: a compiled module is loaded only while the
files it was compiled from are byte for byte the files beside it.

``python -m referee.compiled build`` compiles each game's engine modules (a *group*: the
list its engine package declares as ``COMPILED``) with mypyc into
``<cache>/compiled/<python tag>/<hash>/`` (``<cache>`` is ``$PITBOSS_CACHE_DIR``, else
``$XDG_CACHE_HOME/pitboss``, else ``~/.cache/pitboss``), with ``manifest.json``: the
SHA-256 of every module of the group and of every project module they import (their
"dependencies"), as compiled.

:func:`install` (called by ``referee/__init__.py``) costs one ``stat`` when nothing is
built. Otherwise it puts a finder first on ``sys.meta_path``; asked for a module of a
group, the finder reads the manifests once, hashes the current files of the group and
its dependencies, and serves the group's extension modules only when every hash is the
manifest's: a group is compiled as a whole or not at all (the modules of one build call
each other natively, so mixing a compiled module with a changed ``.py`` of its group is
never done). Anything else is left to the normal import, i.e. the ``.py``.

``PITBOSS_COMPILED``: unset or ``auto``, compiled when a current build exists; ``0``, pure
Python always; ``1``, a module of a group whose build is stale is an ImportError (and
:func:`required_missing` names the declared groups with no build at all), for CI.

Only the standard library is used here, and nothing is imported that ``python -c pass``
has not already imported until a build exists.
"""

from __future__ import annotations

import os
import sys
from importlib.machinery import EXTENSION_SUFFIXES, ExtensionFileLoader, ModuleSpec
from typing import Any

ENV = "PITBOSS_COMPILED"
#: The manifest's format; a manifest of another format is not read.
FORMAT = 1
#: The package this hook serves (``referee``): only its modules and its builds' libraries.
PACKAGE = __name__.partition(".")[0]
#: A build's shared library is named ``<LIB_PREFIX><hash>`` (+ mypyc's ``__mypyc``).
LIB_PREFIX = f"{PACKAGE}_compiled_"
#: The folder holding the ``referee`` package: manifests name files relative to it.
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def python_tag() -> str:
    """The interpreter's extension ABI (``cpython-311-x86_64-linux-gnu``): builds for one
    interpreter are never offered to another."""
    suffix = EXTENSION_SUFFIXES[0]
    return suffix[1:].rsplit(".", 1)[0] if suffix.count(".") > 1 else sys.implementation.cache_tag


def cache_folder() -> str | None:
    """``<cache>/compiled/<python tag>`` (None: ``PITBOSS_CACHE_DIR=""`` turns the cache off).
    The same root as the parsers' cache (referee.notation.grammar.cache_dir)."""
    configured = os.environ.get("PITBOSS_CACHE_DIR")
    if configured is not None:
        if not configured:
            return None
        root = configured
    else:
        xdg = os.environ.get("XDG_CACHE_HOME")
        root = os.path.join(xdg if xdg else os.path.join(os.path.expanduser("~"), ".cache"), "pitboss")
    return os.path.join(root, "compiled", python_tag())


def mode() -> str:
    """``"0"`` (pure Python), ``"1"`` (compiled required) or ``"auto"``, from ``PITBOSS_COMPILED``."""
    value = os.environ.get(ENV, "").strip().lower()
    if value in ("0", "no", "off", "false"):
        return "0"
    if value in ("1", "yes", "on", "true"):
        return "1"
    if value not in ("", "auto"):
        import warnings

        warnings.warn(f"{ENV}={value!r} is not 0, 1 or auto: taken as auto", stacklevel=2)
    return "auto"


def file_hash(path: str) -> str | None:
    import hashlib

    try:
        with open(path, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()
    except OSError:
        return None


class Build:
    """One build folder: a group's extension modules and what they were compiled from."""

    def __init__(self, folder: str, manifest: dict[str, Any]) -> None:
        self.folder = folder
        self.group: str = manifest["group"]
        #: the group's shared library (None: a group of one module is one extension)
        self.lib: str | None = manifest["lib"]
        self.lib_file: str | None = os.path.join(folder, manifest["lib_file"]) if self.lib else None
        #: module name -> its extension file
        self.binaries: dict[str, str] = {m: os.path.join(folder, e["binary"]) for m, e in manifest["modules"].items()}
        #: every source file it was compiled from (the group's and its dependencies) -> SHA-256
        self.sources: dict[str, str] = {e["path"]: e["sha256"] for e in manifest["modules"].values()}
        self.sources.update(manifest["dependencies"])
        self.built: float = manifest.get("built", 0.0)

    def stale(self, hashes: dict[str, str | None]) -> str | None:
        """The first source file that is not as it was compiled (None: the build is current)."""
        for rel, digest in sorted(self.sources.items()):
            path = os.path.join(ROOT, rel)
            if path not in hashes:
                hashes[path] = file_hash(path)
            if hashes[path] != digest:
                return rel
        for path in (*([self.lib_file] if self.lib_file else []), *self.binaries.values()):
            if not os.path.isfile(path):
                return os.path.relpath(path, self.folder)
        return None


def read_builds(folder: str | None) -> list[Build]:
    """Every readable build under the cache folder, newest first (unreadable ones are skipped:
    a half-written build is a ``.part-<pid>`` folder and never read)."""
    import json

    found = []
    try:
        names = os.listdir(folder) if folder else []
    except OSError:
        names = []
    for name in names:
        if ".part" in name:
            continue
        path = os.path.join(folder or "", name)
        try:
            with open(os.path.join(path, "manifest.json"), encoding="utf-8") as f:
                manifest = json.load(f)
            if manifest.get("format") != FORMAT or manifest.get("python") != python_tag():
                continue
            found.append(Build(path, manifest))
        except (OSError, ValueError, KeyError, TypeError):
            continue
    return sorted(found, key=lambda b: (-b.built, b.folder))


class CompiledFinder:
    """First on ``sys.meta_path``: serves the modules of current builds, nothing else."""

    def __init__(self, folder: str | None, required: bool) -> None:
        self.folder = folder
        self.required = required
        self._by_name: dict[str, list[Build]] | None = None
        self._libs: dict[str, Build] = {}
        #: group -> the build chosen for it (None: none is current), and why not
        self.chosen: dict[str, Build | None] = {}
        self.why: dict[str, str] = {}
        self.hashes: dict[str, str | None] = {}

    def _index(self) -> dict[str, list[Build]]:
        if self._by_name is None:
            self._by_name = {}
            for build in read_builds(self.folder):
                for name in build.binaries:
                    self._by_name.setdefault(name, []).append(build)
        return self._by_name

    def choose(self, group: str, builds: list[Build], importing: bool = True) -> Build | None:
        """The current build of a group (checked once per process). ``importing``: not when
        a module of the group was already imported from source."""
        if group not in self.chosen:
            chosen = None
            why = "no build"
            for build in builds:
                changed = build.stale(self.hashes)
                if changed is None:
                    chosen = build
                    break
                if why == "no build":
                    why = f"{changed} changed since it was built"
            if chosen is not None and importing:
                mixed = [m for m in chosen.binaries if m in sys.modules]
                if mixed:  # already imported from source: never mix the two in one group
                    chosen, why = None, f"{mixed[0]} was imported from source before the build was looked for"
            self.chosen[group] = chosen
            if chosen is None:
                self.why[group] = why
            elif chosen.lib:
                self._libs[chosen.lib] = chosen
        return self.chosen[group]

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> ModuleSpec | None:
        if not name.startswith(PACKAGE):
            return None
        if name.startswith(LIB_PREFIX):
            lib = self._libs.get(name)
            return None if lib is None or lib.lib_file is None else _spec(name, lib.lib_file)
        builds = self._index().get(name)
        if not builds:
            return None
        build = self.choose(builds[0].group, [b for b in builds if b.group == builds[0].group])
        if build is None:
            if self.required:
                raise ImportError(f"{ENV}=1: the compiled {builds[0].group} engine cannot be used "
                                  f"({self.why[builds[0].group]}): run python -m referee.compiled build",
                                  name=name)
            return None
        return _spec(name, build.binaries[name])


def _spec(name: str, file: str) -> ModuleSpec:
    return ModuleSpec(name, ExtensionFileLoader(name, file), origin=file)


def finder() -> CompiledFinder | None:
    """The installed finder (None: not installed, nothing built or ``PITBOSS_COMPILED=0``)."""
    for entry in sys.meta_path:
        if isinstance(entry, CompiledFinder):
            return entry
    return None


def install() -> None:
    """Put the finder first on ``sys.meta_path`` when a build may be used; one ``stat``
    when nothing is built (and none at all with ``PITBOSS_COMPILED=0``)."""
    chosen = mode()
    if chosen == "0" or finder() is not None:
        return
    folder = cache_folder()
    if chosen == "auto" and (folder is None or not os.path.isdir(folder)):
        return
    sys.meta_path.insert(0, CompiledFinder(folder, chosen == "1"))


def current_groups() -> list[str]:
    """The groups (games) whose engine an import would load compiled, by their manifests'
    hashes; nothing is imported."""
    if finder() is None:
        return []
    query = CompiledFinder(cache_folder(), required=False)
    builds = read_builds(query.folder)
    groups = sorted({b.group for b in builds})
    return [g for g in groups if query.choose(g, [b for b in builds if b.group == g], importing=False)]


def uninstall() -> None:
    """Take the finder off (the build command compiles from source, never from a build)."""
    found = finder()
    if found is not None:
        sys.meta_path.remove(found)


def is_compiled(module: Any) -> bool:
    """Was this module loaded from a compiled build?"""
    spec = getattr(module, "__spec__", None)
    return isinstance(getattr(spec, "loader", None), ExtensionFileLoader) and \
        str(getattr(spec, "origin", "")).startswith(cache_folder() or "\0")
