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

import _imp  # the interpreter's own import machinery, already loaded (importlib.machinery is not)

TYPE_CHECKING = False  # typing is not imported at start-up either
if TYPE_CHECKING:
    from typing import Any

    from referee.compiled.finder import CompiledFinder

ENV = "PITBOSS_COMPILED"
#: The manifest's format; a manifest of another format is not read.
FORMAT = 1
#: The package this hook serves (``referee``): only its modules and its builds' libraries.
PACKAGE = __name__.partition(".")[0]
#: A build's shared library is named ``<LIB_PREFIX><hash>`` (+ mypyc's ``__mypyc``).
LIB_PREFIX = f"{PACKAGE}_compiled_"
#: The folder holding the ``referee`` package: manifests name files relative to it.
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def extension_suffix() -> str:
    """What this interpreter's extension modules end with (``.cpython-311-x86_64-linux-gnu.so``)."""
    return str(_imp.extension_suffixes()[0])


def python_tag() -> str:
    """The interpreter's extension ABI (``cpython-311-x86_64-linux-gnu``): builds for one
    interpreter are never offered to another."""
    suffix = extension_suffix()
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
