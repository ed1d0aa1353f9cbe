"""The service's refusals: every answer other than 2xx is a :class:`HubError` on its way
to the client, a status and a JSON body (with ``rule`` where a rule decided it)."""

from __future__ import annotations

from typing import Any


class HubError(Exception):
    """An answer other than 200: ``status``, a JSON body, and any headers it needs
    (``Retry-After``, ``Allow``)."""

    def __init__(self, status: int, body: dict[str, Any], headers: dict[str, str] | None = None):
        super().__init__(body.get("error") or body.get("message"))
        self.status = status
        self.body = body
        self.headers = headers or {}
