"""A season on a cluster: ``pitboss validate --dask SCHEDULER FILES...``.

Each file is one task on a ``dask.distributed`` cluster (a contest log is one unit: its
games are chained). The file's bytes travel with the task, so the workers need Pitboss
installed but not the files: any machine that can reach the scheduler can help. Reports
come back in input order, exactly as one process prints them. A worker that dies mid-run
costs nothing but time: the scheduler gives its files to another worker (up to
``distributed.scheduler.allowed-failures`` times per file, 3 by default).

Python::

    from referee.jobs.cluster import validate_on_dask

    for report in validate_on_dask("tcp://10.0.0.1:8786", ["season/day1.log", "season/day2.log"]):
        print(report.file, report.index, report.valid)

``scheduler`` may also be a ``distributed.Client`` (or a ``LocalCluster``'s address).
Needs the ``dask`` extra: ``pip install 'pitboss[dask]'``.
"""

from __future__ import annotations

import os
import pickle
import sys
import tempfile
import time
import uuid
import warnings
from collections import deque
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from referee.jobs.parallel import RunError, Unread
from referee.jobs.report import GameReport
from referee.jobs.validate import Choices, validate_lines
from referee.notation.records import open_text

#: How long to try to reach the scheduler.
CONNECT_TIMEOUT = "20s"
#: Files in flight per worker thread (what bounds the memory of the client and scheduler).
IN_FLIGHT_PER_THREAD = 2
#: Seconds a run waits while the cluster has no worker at all (its workers could not start,
#: or died and were not replaced) before it gives up, rather than waiting for ever.
NO_WORKER_GRACE = 60.0
#: How often a waiting run looks at the cluster's workers (seconds).
WORKER_CHECK = 2.0


class ClusterError(RunError):
    """The cluster cannot be reached, or gave up on a file."""


def validate_bytes(name: str, data: bytes, settings: Choices | None = None,
                   ) -> tuple[list[GameReport], str | None, OSError | None]:
    """The task a worker runs: every report of one file, given as its bytes, named as
    the user named it; the address of the worker that did it; and what stopped the file
    being read (binary data), if anything."""
    suffix = "".join(Path(name).suffixes[-2:]) if name != "<stdin>" else ""
    # Read back through the same opener as a local file, so a file means the same on
    # a worker as on the user's machine.
    fd, temp = tempfile.mkstemp(prefix="pitboss-", suffix=suffix)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        reports: list[GameReport] = []
        try:
            with open_text(temp) as handle:
                reports.extend(validate_lines(handle, name, settings))
        except OSError as err:
            return reports, _worker_address(), err
    finally:
        os.unlink(temp)
    return reports, _worker_address(), None


def _worker_address() -> str | None:
    try:
        from distributed import get_worker

        return get_worker().address
    except (ImportError, ValueError):
        return None


def _read(path: str) -> bytes:
    if path == "-":
        return sys.stdin.buffer.read()
    with open(path, "rb") as f:
        return f.read()


def connect(scheduler: Any) -> tuple[Any, bool]:
    """A client for a scheduler address (or the client itself), and whether it is ours
    to close."""
    try:
        from distributed import Client
    except ImportError as err:  # pragma: no cover - the extra is part of the test set
        raise ClusterError("--dask needs dask.distributed: pip install 'pitboss[dask]'") from err
    if isinstance(scheduler, Client):
        return scheduler, False
    try:
        return Client(scheduler, timeout=CONNECT_TIMEOUT), True
    except (OSError, TimeoutError, ValueError) as err:
        raise ClusterError(f"cannot reach the Dask scheduler at {scheduler}: {err}") from err


def wait_for_one(client: Any, futures: Iterable[Any]) -> None:
    """Return once one of ``futures`` is done (or failed); a :class:`ClusterError` once the
    cluster has had no worker for :data:`NO_WORKER_GRACE` seconds meanwhile."""
    from distributed import wait

    alone_since: float | None = None
    while True:
        try:
            wait(list(futures), timeout=WORKER_CHECK, return_when="FIRST_COMPLETED")
            return
        except TimeoutError:
            pass
        if client.nthreads():
            alone_since = None
            continue
        now = time.monotonic()
        alone_since = now if alone_since is None else alone_since
        if now - alone_since >= NO_WORKER_GRACE:
            raise ClusterError(f"the cluster has had no worker for {NO_WORKER_GRACE:g} s (workers that cannot "
                               "start, or that cannot import Pitboss: see their logs); giving up")


def run_files(client: Any, paths: Iterable[str], in_flight: int | None = None,
              settings: Choices | None = None,
              ) -> Iterator[tuple[str, list[GameReport], str | None, OSError | None]]:
    """(file, its reports, the worker that judged it, what stopped it being read) for
    each file, in input order; a file that cannot be read has no reports, and the run goes on."""
    try:  # said here, in one line, rather than by the cluster's serialiser mid-run
        pickle.dumps(settings, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception as err:  # noqa: BLE001 - PicklingError, TypeError, AttributeError, ...
        raise ClusterError(f"the settings cannot be sent to the cluster ({type(err).__name__}: {err})") from err
    if in_flight is None:
        threads = sum(client.nthreads().values()) or 1
        in_flight = IN_FLIGHT_PER_THREAD * threads
    run = uuid.uuid4().hex[:12]
    pending: deque[tuple[str, Any]] = deque()
    todo = iter(enumerate(paths))
    try:
        while True:
            while len(pending) < in_flight:
                item = next(todo, None)
                if item is None:
                    break
                number, path = item
                name = "<stdin>" if path == "-" else path
                try:
                    data = _read(path)
                except OSError as err:
                    pending.append((path, err))
                    continue
                with warnings.catch_warnings():
                    # the file travels inside its task on purpose (the workers need not
                    # see the client's disks): not the accident the warning is about
                    warnings.filterwarnings("ignore", message=".*[Ll]arge object.*")
                    future = client.submit(validate_bytes, name, data, settings,
                                           key=f"pitboss-validate-{run}-{number}", pure=False)
                pending.append((name, future))
            if not pending:
                return
            name, future = pending.popleft()
            if isinstance(future, OSError):
                yield name, [], None, future
                continue
            try:
                wait_for_one(client, [future])
                reports, worker, error = future.result()
            except Exception as err:  # noqa: BLE001 - KilledWorker, a lost scheduler, ...
                raise ClusterError(f"the cluster gave up on {name}: {type(err).__name__}: {err}") from err
            future.release()
            yield name, reports, worker, error
    finally:
        for _, future in pending:
            future.cancel()


def validate_on_dask(scheduler: Any, paths: Iterable[str], in_flight: int | None = None,
                     settings: Choices | None = None) -> Iterator[GameReport | Unread]:
    """Each record's report of each file, in input order, validated on the cluster whose
    scheduler is at that address (or through that ``distributed.Client``); a file that
    cannot be read is an :class:`Unread` in its place."""
    client, own = connect(scheduler)
    try:
        for name, reports, _, error in run_files(client, paths, in_flight, settings):
            yield from reports
            if error is not None:
                yield Unread(name, error)
    finally:
        if own:
            client.close()
