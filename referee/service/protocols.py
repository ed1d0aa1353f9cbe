"""Other protocols the service also speaks beside HTTP (``pitboss serve --NAME PORT``).

A protocol is a package ``referee/service/<NAME>/`` holding a module ``server`` with

    async def serve(hub, host: str, port: int, **options) -> None

which listens on ``port`` until it is cancelled, and creates tables, submits moves and
observes them through the hub (:class:`referee.service.tables.TableHub`: ``create``,
``submit``, ``observe``, ``view``), so that its tables are tables of the HTTP API too.
The package's ``__init__`` may declare ``CLI_OPTIONS``, more ``pitboss serve`` options:
``[(flag, type, default, help), ...]`` (flags such as ``"NAME-config"``), passed to
``serve`` as keywords (``NAME_config``) when ``--NAME`` is given. The command line reads
it at start-up, so the ``__init__`` imports nothing heavy.
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
from types import ModuleType
from typing import Any

import referee.service as _service


def names() -> list[str]:
    """The protocol packages present (without importing their servers)."""
    found = []
    for info in pkgutil.iter_modules(_service.__path__):
        if info.ispkg and importlib.util.find_spec(f"referee.service.{info.name}.server") is not None:
            found.append(info.name)
    return sorted(found)


def cli_options(name: str) -> list[tuple[str, type, Any, str]]:
    package = importlib.import_module(f"referee.service.{name}")
    return list(getattr(package, "CLI_OPTIONS", ()))


def server(name: str) -> ModuleType:
    return importlib.import_module(f"referee.service.{name}.server")
