"""What a request to create a table must hold (``POST /v1/tables``), checked before the
game's live part sees it: its fields, their types, the seats' names, bots, seed, clock.
What the game's own rules allow (seat counts, rule sets, decks) its live part checks."""

from __future__ import annotations

import secrets
import unicodedata
from typing import Any

from referee.jobs import registry
from referee.jobs.live import BOT_STYLES
from referee.service.errors import HubError
from referee.service.incoming import whole

MAX_SEATS = 16
MAX_NAME = 32
#: Quotes and brackets, besides the Unicode categories of opening and closing
#: punctuation and of initial and final quotes (``「`` ``」`` ``«`` ``»`` ...).
QUOTES = frozenset("\"'")
FIELDS = {"game", "rules", "options", "seats", "bots", "decks", "rounds", "seed", "clock", "move_limit"}


def _bad(message: str, detail: Any = None, status: int = 422) -> HubError:
    return HubError(status, {"error": message, "detail": detail})


def check_body(body: Any) -> dict[str, Any]:
    """The request's fields, checked, with a random seed where none was given; a
    :class:`HubError` (400 or 422) says what is wrong."""
    if not isinstance(body, dict):
        raise _bad("the body must be a JSON object", status=400)
    body = {k: v for k, v in body.items() if v is not None}  # null: left out
    extra = sorted(set(body) - FIELDS)
    if extra:
        raise _bad(f"unknown field{'s' if len(extra) > 1 else ''}: {', '.join(extra)}", extra)
    game = body.get("game")
    kind = registry.find(game) if isinstance(game, str) else None
    if kind is None or kind.live is None:
        raise _bad(f"game must be one of {', '.join(registry.names())}", {"game": game})
    seats = body.get("seats")
    if not isinstance(seats, list) or not seats or len(seats) > MAX_SEATS or not all(map(name_ok, seats)):
        raise _bad(f"seats is a list of 1 to {MAX_SEATS} player names, each 1 to {MAX_NAME} printable characters "
                   "of any script with no surrounding spaces, line break, control character, quote or bracket",
                   {"seats": seats})
    if len(set(seats)) != len(seats):
        raise _bad("seats must be different names", {"seats": seats})
    bots = body.get("bots", {})
    if not isinstance(bots, dict) or any(k not in seats or v not in BOT_STYLES for k, v in bots.items()):
        raise _bad(f"bots maps seat names to {' or '.join(BOT_STYLES)}", {"bots": bots})
    decks = body.get("decks", {})
    if not isinstance(decks, dict) or not all(isinstance(v, str) for v in decks.values()):
        raise _bad("decks maps seat names to decks, each as a Deck tag writes it", {"decks": decks})
    if "rounds" in body:
        rounds = whole(body["rounds"])
        if rounds is None or rounds < 1:
            raise _bad("rounds is a whole number from 1", {"rounds": body["rounds"]})
        body["rounds"] = rounds
    seed = whole(body["seed"]) if "seed" in body else secrets.randbelow(2**62)
    if seed is None or not 0 <= seed < 2**63:
        raise _bad("seed is a whole number from 0 to 2^63 - 1", {"seed": body.get("seed")})
    _check_clock(body.get("clock"))
    for name in ("rules", "options"):
        if name in body and not isinstance(body[name], str):
            raise _bad(f"{name} is a string", {name: body[name]})
    return {**body, "seed": seed, "bots": bots}


def name_ok(name: Any) -> bool:
    """Can a player be called ``name``? It must survive in a record's tags and move
    lines: 1 to MAX_NAME printable characters (letters of every script welcome), no
    surrounding space, no line break or other control or format character, no quote or
    bracket. (A game may allow fewer: its live part says.)"""
    return (isinstance(name, str) and 0 < len(name) <= MAX_NAME and name == name.strip() and name.isprintable()
            and not any(c in QUOTES or unicodedata.category(c) in ("Ps", "Pe", "Pi", "Pf") for c in name))


def shown(name: str) -> str:
    """A stored name as a listing shows it: any character a name may not hold (a row the
    checks above never saw) as U+FFFD, so that the listing is always text."""
    if name.isprintable():
        return name
    return "".join(c if c.isprintable() else "\ufffd" for c in name)


def _check_clock(clock: Any) -> None:
    if clock is None:
        return
    seconds = clock.get("move_seconds") if isinstance(clock, dict) else None
    if (not isinstance(seconds, (int, float)) or isinstance(seconds, bool)
            or not 0.05 <= seconds <= 7 * 86400 or set(clock) != {"move_seconds"}):
        raise _bad('clock is {"move_seconds": N} with N from 0.05 to 604800', {"clock": clock})
