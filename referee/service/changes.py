"""When a client's ``ply`` is stale: only when a move made since then changed what that
client's seat may do. In a phase where one seat moves at a time every move does (the
mover's own options, and whoever moves next); where several seats move at once (a
simultaneous exchange) another seat's move may leave this seat's options as they were,
and a move sent with the ply it was read at still stands.

What a seat may do is its legal moves (``match.legal(seat)``), never empty exactly for
the seats ``match.movers()`` names: a move changes the options of its mover, of every
seat that starts or stops being a mover, and of any seat that stays one with different
legal moves (compared only where several seats move at once)."""

from __future__ import annotations

from dataclasses import dataclass

from referee.jobs.live import Match


@dataclass
class Before:
    """What the seats could do before a move: who could move, and (where several could)
    their legal moves."""

    movers: frozenset[int]
    legal: dict[int, list[str]]


def before(match: Match) -> Before:
    movers = frozenset(match.movers())
    return Before(movers, {s: match.legal(s) for s in movers} if len(movers) > 1 else {})


def changed(match: Match, was: Before, mover: int) -> set[int]:
    """The seats whose options the moves since ``was`` changed (``mover`` made the first)."""
    now = frozenset(match.movers())
    out = {mover} | (was.movers ^ now)
    for seat in was.movers & now:
        if seat not in out and (seat not in was.legal or match.legal(seat) != was.legal[seat]):
            out.add(seat)
    return out


def note(changed_at: dict[int, int], seats: set[int], ply: int) -> None:
    """Record that the options of ``seats`` changed at ``ply``."""
    for seat in seats:
        changed_at[seat] = ply


def stale(changed_at: dict[int, int], seat: int, ply: int, now: int) -> bool:
    """Is a move ``seat`` sent at ``ply`` stale, the table being at ``now``?"""
    return ply > now or (ply < now and changed_at.get(seat, 0) > ply)
