"""The finder of the compiled engines (installed by :mod:`referee.compiled.loader`): reads the builds'
manifests, checks them against the files beside it, and serves the extension modules of a
current build. Imported only when a build exists (or ``PITBOSS_COMPILED=1``).
"""

import os
import sys

from referee.compiled.cache import ENV, FORMAT, LIB_PREFIX, PACKAGE, ROOT, cache_folder, python_tag

TYPE_CHECKING = False
if TYPE_CHECKING:
    from importlib.machinery import ModuleSpec
    from typing import Any


def file_hash(path: str) -> str | None:
    import hashlib

    try:
        with open(path, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()
    except OSError:
        return None


class Build:
    """One build folder: a group's extension modules and what they were compiled from."""

    def __init__(self, folder: str, manifest: "dict[str, Any]") -> None:
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
        """Why the build is not current: the first source file that is not as it was compiled,
        or a file of the build that is missing (None: the build is current)."""
        for rel, digest in sorted(self.sources.items()):
            path = os.path.join(ROOT, rel)
            if path not in hashes:
                hashes[path] = file_hash(path)
            if hashes[path] != digest:
                return f"{rel} changed since it was built"
        for path in (*([self.lib_file] if self.lib_file else []), *self.binaries.values()):
            if not os.path.isfile(path):
                return f"{path} is missing from the build"
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
        self._by_group: dict[str, list[Build]] = {}
        self._libs: dict[str, Build] = {}
        #: group -> the build chosen for it (None: none is current), and why not
        self.chosen: dict[str, Build | None] = {}
        self.why: dict[str, str] = {}
        self.hashes: dict[str, str | None] = {}

    def _index(self) -> dict[str, list[Build]]:
        if self._by_name is None:
            self._by_name = {}
            for build in read_builds(self.folder):
                self._by_group.setdefault(build.group, []).append(build)
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
                    why = changed
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

    def find_spec(self, name: str, path: "Any" = None, target: "Any" = None) -> "ModuleSpec | None":
        if not name.startswith(PACKAGE):
            return None
        if name.startswith(LIB_PREFIX):
            lib = self._libs.get(name)
            return None if lib is None or lib.lib_file is None else _spec(name, lib.lib_file)
        index = self._index()
        if not index and self.required and not name.startswith(f"{PACKAGE}.compiled"):
            raise ImportError(f"{ENV}=1 but no compiled engine is built for this Python (in {self.folder}): "
                              "run python -m referee.compiled build", name=name)
        builds = index.get(name)
        if not builds:
            return None
        # the group's current build is chosen among all of the group's builds: an older one
        # may hold a module the current sources no longer have (a module become a package)
        group = builds[0].group
        build = self.choose(group, self._by_group[group])
        if build is not None and name not in build.binaries:
            return None  # not compiled in the current build: imported from source
        if build is None:
            if self.required:
                raise ImportError(f"{ENV}=1: the compiled {builds[0].group} engine cannot be used "
                                  f"({self.why[builds[0].group]}): run python -m referee.compiled build",
                                  name=name)
            return None
        return _spec(name, build.binaries[name])


def _spec(name: str, file: str) -> "ModuleSpec":
    from importlib.machinery import ExtensionFileLoader, ModuleSpec

    return ModuleSpec(name, ExtensionFileLoader(name, file), origin=file)


def current_groups() -> list[str]:
    """The groups (games) whose engine an import would load compiled, by their manifests'
    hashes; nothing is imported."""
    if not any(isinstance(entry, CompiledFinder) for entry in sys.meta_path):
        return []
    query = CompiledFinder(cache_folder(), required=False)
    builds = read_builds(query.folder)
    groups = sorted({b.group for b in builds})
    return [g for g in groups if query.choose(g, [b for b in builds if b.group == g], importing=False)]
