"""How many live tables a service holds: the caps ``pitboss serve`` is given (a module of
its own, light enough for the CLI to read its defaults from)."""

from __future__ import annotations

from dataclasses import dataclass

#: Defaults of ``pitboss serve --max-tables`` and ``--max-tables-per-client``: unfinished
#: tables the service holds in all, and unfinished tables one client address may create.
MAX_TABLES = 5_000
MAX_TABLES_PER_CLIENT = 1_000
#: Default of ``pitboss serve --table-idle``: seconds after its last move that a table no
#: one is watching, waiting for a human seat, leaves memory (read back when used).
TABLE_IDLE = 600.0
#: What a refusal for too many tables tells a client to wait (seconds).
TABLES_RETRY_AFTER = 60


@dataclass(frozen=True)
class TableCaps:
    """How many unfinished tables the service holds (``total``), and how many of them one
    client address may have created (``per_client``); past either, creating one is refused.
    An unfinished table idle for ``idle`` seconds leaves memory and these counts (it stays
    in the database, and is read back when used)."""

    total: int = MAX_TABLES
    per_client: int = MAX_TABLES_PER_CLIENT
    idle: float = TABLE_IDLE
