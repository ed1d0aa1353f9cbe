"""Results: forbidden finishes, the finishing order, titles and the checks of a recorded
finishing order and recorded titles."""

from __future__ import annotations

from collections.abc import Sequence

from referee.engines.base import Card, Violation
from referee.games.daifugo.engine.rules import RuleSet
from referee.games.daifugo.engine.state import State, _v


def forbidden_finish(rules: RuleSet, cards: Sequence[Card], reversed_order: bool) -> bool:
    """Would going out on these cards be a forbidden finish? Where the rules have them: the
    play holds the joker, or a 2 (a 3 when the order in force is reversed)
    (daifugo.option.forbidden-finish, daifugo.finish.forbidden-order)."""
    if not rules.forbidden_finish:
        return False
    banned = 3 if reversed_order else 2
    return any(c.is_joker or c.rank == banned for c in cards)


def round_over(state: State) -> bool:
    return state.over


def finishing_order(state: State) -> tuple[int, ...] | None:
    """The round's finishing order (daifugo.round.end), None while it goes on: those who went
    out normally in order, then the player left holding cards, then forbidden finishers
    (the earlier lower), then a daifugo dropped by miyako-ochi. After a stall the places
    of those still in are random; they are listed in seat order."""
    if not state.over:
        return None
    remaining = tuple(p for p in state.seats if state.is_in(p))
    return state.finished + remaining + tuple(reversed(state.fouled)) + state.dropped


def title_names(n: int) -> tuple[str, ...]:
    """Titles by finishing place: 3 players daifugo, heimin, daihinmin; 4 daifugo, fugo,
    hinmin, daihinmin; 5 and more: heimin in between (daifugo.result.titles)."""
    if n == 3:
        return ("daifugo", "heimin", "daihinmin")
    if n < 3:  # not a legal player count; kept total for degenerate inputs
        return ("daifugo", "daihinmin")[:max(n, 0)]
    return ("daifugo", "fugo") + ("heimin",) * (n - 4) + ("hinmin", "daihinmin")


#: The contest log's ``mibun`` digits, 0..4.
UECDA_TITLES = ("daifugo", "fugo", "heimin", "hinmin", "daihinmin")


def titles(order: Sequence[int]) -> tuple[str, ...]:
    """Each player's title (by player id) from a finishing order."""
    names = title_names(len(order))
    out = [""] * len(order)
    for place, p in enumerate(order):
        out[p] = names[place]
    return tuple(out)


def check_finish(state: State, claimed: Sequence[int]) -> Violation | None:
    """Does a recorded finishing order (``[Finish]``, a contest log's ``result``) follow from
    the play (daifugo.result.finish)?"""
    order = finishing_order(state)
    claimed = tuple(claimed)
    said = ", ".join(state.name(p) for p in claimed)
    if order is None:
        return _v("daifugo.result.finish", f"the record gives the finishing order {said}, but the round "
                                           f"is not over")
    if state.stalled:
        top = state.finished
        remaining = [p for p in state.seats if state.is_in(p)]
        bottom = tuple(reversed(state.fouled)) + state.dropped
        mid = claimed[len(top):len(top) + len(remaining)]
        ok = (len(claimed) == len(order) and claimed[:len(top)] == top and sorted(mid) == sorted(remaining)
              and claimed[len(top) + len(remaining):] == bottom)
    else:
        ok = claimed == order
    if ok:
        return None
    return _v("daifugo.result.finish", f"the finishing order is {', '.join(state.name(p) for p in order)}, "
                                       f"not {said}")


def check_titles(order: Sequence[int], claimed: Sequence[str],
                 names: Sequence[str] | None = None) -> Violation | None:
    """Do recorded titles (``claimed[p]``: player p's title going into the next round, e.g. a
    contest log's ``mibun`` mapped through ``UECDA_TITLES``) follow from the finishing order
    ``order`` (daifugo.result.titles)?"""
    want = titles(order)
    claimed = tuple(claimed)
    if claimed == want:
        return None

    def who(p: int) -> str:
        return names[p] if names is not None and p < len(names) else f"player {p + 1}"

    wrong = [p for p in range(len(want)) if p >= len(claimed) or claimed[p] != want[p]]
    p = wrong[0]
    got = claimed[p] if p < len(claimed) else "nothing"
    return _v("daifugo.result.titles", f"{who(p)} finished {order.index(p) + 1} of {len(order)} and is "
                                       f"{want[p]}, not {got}")


def check_round_over(state: State, next_round: int) -> Violation | None:
    """May round ``next_round`` start after ``state``, the end of the round before it? Only
    once that round is over (daifugo.round.end)."""
    if state.over:
        return None
    left = [state.name(p) for p in state.seats if state.is_in(p)]
    mover = f"{state.name(state.to_move)} is to move, " if state.to_move is not None else ""
    return _v("daifugo.round.end", f"round {next_round - 1} is not over ({mover}{', '.join(left)} still hold "
                                   f"cards), yet round {next_round} starts")


def check_held_titles(held: Sequence[str] | None, n_players: int, *, new_block: bool,
                      previous: Sequence[int] | None = None,
                      names: Sequence[str] | None = None) -> Violation | None:
    """Do the titles the players hold going into a game follow (daifugo.result.titles)?

    ``held[p]``: player p's title, or None when nobody holds one. ``new_block``: the game
    starts a block of games (the contest server's FLASH_MIBUN_NUMBER), where titles are
    reset, so nobody holds one. ``previous``: the finishing order of the game just before,
    when it is known and this game follows it."""
    if new_block:
        if held is not None:
            return _v("daifugo.result.titles", "the titles are reset at the start of a block of games: nobody "
                                               "holds one yet")
        return None
    if held is None:
        if previous is not None:
            return _v("daifugo.result.titles", "nobody holds a title, but the game before gave titles and this "
                                               "game does not start a new block")
        return None
    if sorted(held) != sorted(title_names(n_players)):
        return _v("daifugo.result.titles", f"the titles held ({', '.join(held)}) are not the {n_players} titles "
                                           f"({', '.join(title_names(n_players))}) once each")
    if previous is not None:
        return check_titles(previous, held, names)
    return None
