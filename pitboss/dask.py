"""``pitboss.dask``: validate a season on a ``dask.distributed`` cluster, each file one task,
reports in input order as one process gives them (see ``referee.jobs.cluster``). Needs the
``dask`` extra: ``pip install 'pitboss[dask]'``."""

from __future__ import annotations

from referee.jobs.cluster import ClusterError, validate_bytes, validate_on_dask
from referee.jobs.parallel import Unread, validate_paths

__all__ = ["ClusterError", "Unread", "validate_bytes", "validate_on_dask", "validate_paths"]
