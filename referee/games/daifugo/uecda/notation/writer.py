"""The UEC contest server's game log, written (tndhms 0.29 logger.c): the header,
then each game's lines once it has ended, as tndhms 0.29 writes them, and the later
revision's extra lines (hostname, TIME_START, change_cards, points, TIME_END,
TOTAL_POINT) when the table plays as that revision. Text only: the caller owns the file."""

from __future__ import annotations

from collections.abc import Sequence

from referee.engines.base import Card
from referee.games.daifugo.uecda.notation.log import LogHeader, hand_code

#: The header's keys after the names, in the server's order (logger.c).
HEADER_KEYS = ("WINDOW_TYPE", "GRAPH_WINDOW", "RAND_TYPE", "RULE_KAKUMEI", "RULE_SHIBARI", "RULE_KINSOKU",
               "RULE_KAIDAN", "RULE_CHANGE", "RULE_5TOBI", "RULE_6REVERS", "RULE_8GIRI", "RULE_11BACK",
               "RULE_SEKIGAE", "RULE_SEKIGAE_NUM", "GAME_NUMBER", "FLASH_MIBUN_NUMBER", "GAME_PORT", "RANDOM_SEED")
_FIXED = {"WINDOW_TYPE": "CONSOLE", "GRAPH_WINDOW": "NO"}


def header_lines(header: LogHeader, hostname: str = "", started: str = "") -> list[str]:
    """The header: names in player-id order, then the flags in the server's order (the
    window settings, where the header gives none, a headless console server's; a key
    with no value given is left out). The later revision opens with its host and start time."""
    out = []
    if header.later:
        out += [f"%-----%hostname% {hostname}\n", f"%-----%TIME_START% {started}\n"]
    out.append(f"%-----%palyer_name% {' '.join(header.names)}\n")
    for key in HEADER_KEYS:
        value = header.flags.get(key) or _FIXED.get(key)
        if value is not None:
            out.append(f"%-----%{key}% {value}\n")
    return out


def game_lines(header: LogHeader, number: int, mibun: str, seats: Sequence[int], hands: Sequence[Sequence[Card]],
               entries: Sequence[str], result: Sequence[int],
               changes: Sequence[tuple[int, int, Sequence[Card]]] = (),
               points: Sequence[int] = ()) -> list[str]:
    """One game's lines (``number`` 0-based): titles, seats, the hands as dealt, (the
    exchange,) every submission's code, the finishing order (, the running points)."""
    tag = f"%{number:05d}%"
    out = [f"{tag}mibun% {mibun}\n", f"{tag}seat% {''.join(map(str, seats))}\n",
           f"{tag}palyer_cards% {''.join(hand_code(h) + ' ' for h in hands)}\n"]
    if header.later:
        if changes:
            out.append(f"{tag}change_cards% {''.join(f' {g}{r}{hand_code(c)}EE' for g, r, c in changes)}\n")
        else:
            out.append(f"{tag}change_cards% NULL\n")
    out.append(f"{tag}play% {''.join(' ' + e for e in entries)}\n")
    out.append(f"{tag}result% {''.join(map(str, result))}\n")
    if header.later:
        out.append(f"{tag}points% {' '.join(map(str, points))}\n")
    return out


def trailer_lines(header: LogHeader, ended: str, totals: Sequence[int]) -> list[str]:
    """After the last game (the later revision only)."""
    if not header.later:
        return []
    return [f"%-----%TIME_END% {ended}\n", f"%-----%TOTAL_POINT% {' '.join(map(str, totals))}\n"]
