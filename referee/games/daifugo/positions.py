"""Deals to start games from, read from a file: the first round of each DFN record, or each
game of a UEC contest log (``pitboss arena --positions``, ``pitboss serve
--uecda-positions``).

A deal is the hands by seat, in turn order from the first seat (a contest log's hands by
player, put in its ``seat`` line's order; a DFN round's hands in its ``Order``, else in
the players' order), each as a ``Hand`` tag writes it: ``{"hands": [...]}``, the set-up a
live table takes for its first round. Hands by seat keep a deal's shape wherever it is
replayed: the players dealt one card more sit side by side, as the deal gave them.
Records whose first round does not deal every player are left out.
"""

from __future__ import annotations

from referee.engines.base import Card
from referee.games.daifugo.notation.dfn import hand_text, read_daifugo
from referee.games.daifugo.uecda.notation.header import is_contest_log
from referee.games.daifugo.uecda.notation.log import read_log
from referee.jobs.validate import split
from referee.notation.records import open_text

Start = dict[str, list[str]]


def read_starts(path: str) -> list[Start]:
    """The file's deals, in file order (OSError when it cannot be read)."""
    with open_text(path) as handle:
        lines = list(handle)
    first = next((line.lstrip("\ufeff").strip() for line in lines if line.strip()), "")
    if is_contest_log(first):
        return [_start([game.hands[p] for p in game.seats]) for game in read_log(lines, path)
                if not game.errors and len(game.hands) == 5 and sorted(game.seats) == list(range(5))]
    out = []
    for index, chunk in enumerate(split(lines), start=1):
        record = read_daifugo(chunk, path, index)
        n = len(record.players)
        if not record.rounds or n == 0 or sorted(record.rounds[0].hands) != list(range(n)):
            continue
        first_round = record.rounds[0]
        order = first_round.order or record.order or tuple(range(n))
        if sorted(order) == list(range(n)):
            out.append(_start([first_round.hands[p] for p in order]))
    return out


def _start(hands: list[tuple[Card, ...]]) -> Start:
    return {"hands": [hand_text(h) for h in hands]}
