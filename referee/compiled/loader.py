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

import os
import sys

from referee.compiled.cache import cache_folder, mode

TYPE_CHECKING = False  # typing is not imported at start-up either
if TYPE_CHECKING:
    from typing import Any

    from referee.compiled.finder import CompiledFinder

def finder() -> "CompiledFinder | None":
    """The installed finder (None: not installed, nothing built or ``PITBOSS_COMPILED=0``)."""
    module = sys.modules.get(f"{__package__}.finder")
    if module is None:  # never installed: install() imports it
        return None
    for entry in sys.meta_path:
        if isinstance(entry, module.CompiledFinder):
            found: CompiledFinder = entry
            return found
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
    from referee.compiled.finder import CompiledFinder

    sys.meta_path.insert(0, CompiledFinder(folder, chosen == "1"))


def uninstall() -> None:
    """Take the finder off (the build command compiles from source, never from a build)."""
    found = finder()
    if found is not None:
        sys.meta_path.remove(found)


def is_compiled(module: "Any") -> bool:
    """Was this module loaded compiled (the project's modules are extensions only when built)?"""
    from importlib.machinery import ExtensionFileLoader

    spec = getattr(module, "__spec__", None)
    return isinstance(getattr(spec, "loader", None), ExtensionFileLoader)
