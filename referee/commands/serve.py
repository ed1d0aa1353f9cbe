"""``pitboss serve``: the live referee. Its own options, then one ``--NAME PORT`` (and that
listener's options) per protocol listener a game offers (``Game.listeners``)."""

from __future__ import annotations

import socket
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit, urlunsplit

import click

from referee import i18n
from referee.jobs import registry
from referee.jobs.listener import Listener, OptionValue
from referee.service.caps import MAX_TABLES, MAX_TABLES_PER_CLIENT, TABLE_IDLE, TableCaps
from referee.service.deadlines import BODY_TIMEOUT, HEADER_TIMEOUT

from .base import Command, default_shown, done, fail, integer, kind, real

if TYPE_CHECKING:
    from referee.service.tables import TableHub

HELP = """Run the live referee: tables over HTTP and WebSocket, every move judged by the
    engines, committed to the database before it is answered.

    Serves until SIGINT or SIGTERM, then finishes the requests in flight and exits 0.
    The API is described at /openapi.json and /docs; / lists the tables in a browser.
    A port already in use, or a database that cannot be opened or reached, is said in
    one line, exit status 2.

    Examples:

      pitboss serve

      pitboss serve --port 8080 --db postgresql://localhost/pitboss
    """


def params() -> list[click.Parameter]:
    """The command's options, in the order its help lists them."""
    own: list[click.Parameter] = [
        click.Option(["--host"], default="127.0.0.1", help="Address to listen on (loopback by default)."),
        click.Option(["--port"], type=integer(0, 65535), default=8000, help="HTTP port (0: any free port)."),
        click.Option(["--db"], default="pitboss.db", metavar="PATH_OR_URL",
                     help="Database: a SQLite file path, or postgresql://... (created or migrated on start)."),
        click.Option(["--rate"], type=real(min=0.1), default=200.0,
                     help="Requests per second allowed per seat token (bursts up to twice that)."),
        click.Option(["--reader-backlog"], type=integer(16, 1 << 20), default=1024, metavar="KIB", show_default=True,
                     help="Events an event stream's reader may fall behind by, in KiB of JSON; a reader "
                          "further behind is closed (4408) and reconnects for a fresh view."),
        click.Option(["--reader-timeout"], type=real(min=0.1), default=30.0, metavar="SECONDS", show_default=True,
                     help="Seconds an event stream's connection may take nothing while a message waits for "
                          "it before it is closed (4408)."),
        click.Option(["--header-timeout"], type=real(min=0.1), default=HEADER_TIMEOUT, metavar="SECONDS",
                     show_default=True, help="Seconds a client has to send a request's headers (from its "
                                             "connection, or its request's first byte); then 408 and closed."),
        click.Option(["--body-timeout"], type=real(min=0.1), default=BODY_TIMEOUT, metavar="SECONDS",
                     show_default=True, help="Seconds a request's body may stop arriving before the "
                                             "request is answered 408 and its connection closed."),
        click.Option(["--max-tables"], type=integer(1, 10_000_000), default=MAX_TABLES, show_default=True,
                     help="Unfinished tables the service holds; creating one more answers 503 (Retry-After)."),
        click.Option(["--max-tables-per-client"], type=integer(1, 10_000_000), default=MAX_TABLES_PER_CLIENT,
                     show_default=True, help="Unfinished tables one client address may have created; one "
                                             "more answers 429 (Retry-After)."),
        click.Option(["--table-idle"], type=real(min=1.0), default=TABLE_IDLE, metavar="SECONDS", show_default=True,
                     help="Seconds after its last move that an unfinished table nobody watches, waiting for "
                          "a human seat, leaves memory and the counts above (it is read back when used)."),
    ]
    for listener in _listeners():
        own.append(click.Option([f"--{listener.name}", listener.key], type=integer(1, 65535), metavar="PORT",
                                help=listener.help))
        own += [click.Option([f"--{option.flag}", option.key], type=kind(option.type), default=option.default,
                             show_default=default_shown(option.default), help=option.help)
                for option in listener.options]
    return own


def _listeners() -> list[Listener]:
    """The protocol listeners the games offer."""
    return [listener for game in registry.games() for listener in game.listeners]


def listeners(host: str, given: dict[str, Any]) -> list[Callable[[TableHub], Awaitable[None]]]:
    """The protocol servers asked for (``--NAME PORT``), each with its options, to be
    started with the hub once the service is up."""
    extra: list[Callable[[TableHub], Awaitable[None]]] = []
    for listener in _listeners():
        if given.get(listener.key) is None:
            continue
        extra.append(_starter(listener, host, given[listener.key], listener.given(given)))
    return extra


def _starter(listener: Listener, address: str, port: int,
             options: dict[str, OptionValue]) -> Callable[[TableHub], Awaitable[None]]:
    """``listener`` on ``address:port`` with its options, waiting for the service's hub
    (which mypy holds here to what a listener is lent, ``ListenerHost``)."""
    serve = listener.serve()

    def start(hub: TableHub) -> Awaitable[None]:
        return serve(hub, address, port, announce=click.echo, **options)
    return start


def serve(host: str, port: int, db: str, rate: float, reader_backlog: int, reader_timeout: float,
          header_timeout: float, body_timeout: float, max_tables: int, max_tables_per_client: int,
          table_idle: float, **given: Any) -> None:
    from referee.service.app import serve as run
    from referee.service.views import Readers

    i18n.use("en")  # the service answers every client alike: its API speaks English
    readers = Readers(backlog=reader_backlog * 1024, timeout=reader_timeout)
    asked = [(listener.name, given[listener.key]) for listener in _listeners()
             if given.get(listener.key) is not None]
    check_ports(host, [("HTTP", port), *asked])
    check_database(db)
    try:
        code = run(host, port, db, rate=rate, burst=2 * rate, readers=readers, announce=click.echo,
                   extra_servers=listeners(host, given), deadlines=(header_timeout, body_timeout),
                   caps=TableCaps(max_tables, max_tables_per_client, table_idle))
    except (OSError, RuntimeError) as err:
        fail(f"cannot serve: {err}")
    done(code)


def address(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def check_ports(host: str, ports: list[tuple[str, int]]) -> None:
    """Each port the service is to listen on (what for, port) can be listened on: else
    one line saying which and why, exit 2 (checked before the servers start, whose own
    failure is a traceback and exit 3)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    asked: dict[int, str] = {}
    for what, port in ports:
        if port == 0:  # any free port: there is always one
            continue
        if port in asked:
            fail(f"cannot listen on {address(host, port)} for both {asked[port]} and {what}")
        asked[port] = what
        try:
            with socket.socket(family, socket.SOCK_STREAM) as sock:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the servers do
                sock.bind((host, port))
                sock.listen()
        except OSError as err:
            fail(f"cannot listen on {address(host, port)} ({what}): {err.strerror or err}")


def check_database(db: str) -> None:
    """The database opens (and is migrated, as the service would on start): else one line
    saying which (its password left out) and why, exit 2."""
    import sqlite3

    from referee.service.store import open_store

    errors: tuple[type[BaseException], ...] = (sqlite3.Error, OSError, RuntimeError, ValueError)
    if db.startswith(("postgresql://", "postgres://")):
        import psycopg

        errors += (psycopg.Error,)
    try:
        store = open_store(db)
    except errors as err:
        fail(f"cannot open the database {without_password(db)}: {' '.join(str(err).split())}")
    store.close()


def without_password(db: str) -> str:
    """A database URL as it can be shown (``postgresql://user:***@host/db``)."""
    parts = urlsplit(db)
    if "://" not in db or not parts.password:
        return db
    return urlunsplit(parts._replace(netloc=parts.netloc.replace(f":{parts.password}@", ":***@", 1)))


command = Command("serve", params=params(), callback=serve, help=HELP)
