"""What a request to create a table must hold (``POST /v1/tables``), checked before the
game's live part sees it: its fields, their types, the seats' names, bots, seed, clock.
What the game's own rules allow (seat counts, rule sets, decks) its live part checks."""

from __future__ import annotations

import secrets
from typing import Any

from referee.jobs import registry
from referee.jobs.live import BOT_STYLES
from referee.service.errors import HubError

MAX_SEATS = 16
MAX_NAME = 40
FIELDS = {"game", "rules", "options", "seats", "bots", "decks", "rounds", "seed", "clock", "move_limit"}


def _bad(message: str, detail: Any = None, status: int = 422) -> HubError:
    return HubError(status, {"error": message, "detail": detail})


def check_body(body: Any) -> dict[str, Any]:
    """The request's fields, checked, with a random seed where none was given; a
    :class:`HubError` (400 or 422) says what is wrong."""
    if not isinstance(body, dict):
        raise _bad("the body must be a JSON object", status=400)
    extra = sorted(set(body) - FIELDS)
    if extra:
        raise _bad(f"unknown field{'s' if len(extra) > 1 else ''}: {', '.join(extra)}", extra)
    game = body.get("game")
    kind = registry.find(game) if isinstance(game, str) else None
    if kind is None or kind.live is None:
        raise _bad(f"game must be one of {', '.join(registry.names())}", {"game": game})
    seats = body.get("seats")
    if (not isinstance(seats, list) or not seats or len(seats) > MAX_SEATS
            or not all(isinstance(s, str) and 0 < len(s) <= MAX_NAME and s == s.strip() and s for s in seats)):
        raise _bad(f"seats is a list of player names (1 to {MAX_NAME} characters, no surrounding spaces)",
                   {"seats": seats})
    if len(set(seats)) != len(seats):
        raise _bad("seats must be different names", {"seats": seats})
    bots = body.get("bots") or {}
    if not isinstance(bots, dict) or any(k not in seats or v not in BOT_STYLES for k, v in bots.items()):
        raise _bad(f"bots maps seat names to {' or '.join(BOT_STYLES)}", {"bots": bots})
    seed = body.get("seed")
    if seed is None:
        seed = secrets.randbelow(2**62)
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**63:
        raise _bad("seed is a whole number from 0 to 2^63 - 1", {"seed": seed})
    _check_clock(body.get("clock"))
    for name in ("rules", "options"):
        if body.get(name) is not None and not isinstance(body[name], str):
            raise _bad(f"{name} is a string", {name: body[name]})
    return {**body, "seed": seed, "bots": bots}


def _check_clock(clock: Any) -> None:
    if clock is None:
        return
    seconds = clock.get("move_seconds") if isinstance(clock, dict) else None
    if (not isinstance(seconds, (int, float)) or isinstance(seconds, bool)
            or not 0.05 <= seconds <= 7 * 86400 or set(clock) != {"move_seconds"}):
        raise _bad('clock is {"move_seconds": N} with N from 0.05 to 604800', {"clock": clock})
