"""Where the compiled engines' builds are kept and whether they are wanted: the cache
folder, the interpreter a build is for, ``PITBOSS_COMPILED``. Shared by the import hook
(:mod:`referee.compiled.loader`), its finder and the build command; standard library only,
and nothing that ``python -c pass`` has not already imported.
"""

import _imp  # the interpreter's own import machinery, already loaded (importlib.machinery is not)
import os
import sys

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
