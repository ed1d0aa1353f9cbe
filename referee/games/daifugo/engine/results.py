"""Results: forbidden finishes, the finishing order, titles and the checks of a recorded
finishing order and recorded titles."""

from __future__ import annotations

from collections.abc import Sequence

from referee.engines.base import Card, Violation
from referee.engines.message import J, M, T
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

#: The titles as words in a sentence (the catalog says them as the players do: 大富豪, 大貧民).
_TITLE_WORDS = {"daifugo": M("daifugo"), "fugo": M("fugo"), "heimin": M("heimin"), "hinmin": M("hinmin"),
                "daihinmin": M("daihinmin")}


def title_word(title: str) -> str:
    """A title (``daifugo``, ...) as a word of a sentence; anything else as it is."""
    word = _TITLE_WORDS.get(title)
    return T(word) if word is not None else title


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
    if order is None:
        return _v("daifugo.result.finish", T("the record gives the finishing order {said}, but the round "
                                             "is not over", said=J(", ", (state.name(p) for p in claimed))))
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
    return _v("daifugo.result.finish", T("the finishing order is {order}, not {said}",
                                         order=J(", ", (state.name(p) for p in order)),
                                         said=J(", ", (state.name(p) for p in claimed))))


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
        return names[p] if names is not None and p < len(names) else T("player {n}", n=p + 1)

    wrong = [p for p in range(len(want)) if p >= len(claimed) or claimed[p] != want[p]]
    p = wrong[0]
    if p >= len(claimed):
        return _v("daifugo.result.titles", T("{who} finished {place} of {n} and is {title}, not nothing",
                                             who=who(p), place=order.index(p) + 1, n=len(order),
                                             title=title_word(want[p])))
    return _v("daifugo.result.titles", T("{who} finished {place} of {n} and is {title}, not {got}",
                                         who=who(p), place=order.index(p) + 1, n=len(order),
                                         title=title_word(want[p]), got=title_word(claimed[p])))


def check_round_over(state: State, next_round: int) -> Violation | None:
    """May round ``next_round`` start after ``state``, the end of the round before it? Only
    once that round is over (daifugo.round.end)."""
    if state.over:
        return None
    left = J(", ", (state.name(p) for p in state.seats if state.is_in(p)))
    if state.to_move is not None:
        return _v("daifugo.round.end", T("round {ended} is not over ({mover} is to move, {left} still hold "
                                         "cards), yet round {next} starts", ended=next_round - 1,
                                         mover=state.name(state.to_move), left=left, next=next_round))
    return _v("daifugo.round.end", T("round {ended} is not over ({left} still hold cards), yet round {next} starts",
                                     ended=next_round - 1, left=left, next=next_round))


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
            return _v("daifugo.result.titles", T("the titles are reset at the start of a block of games: nobody "
                                                 "holds one yet"))
        return None
    if held is None:
        if previous is not None:
            return _v("daifugo.result.titles", T("nobody holds a title, but the game before gave titles and this "
                                                 "game does not start a new block"))
        return None
    if sorted(held) != sorted(title_names(n_players)):
        return _v("daifugo.result.titles", T("the titles held ({held}) are not the {n} titles ({titles}) once each",
                                             held=J(", ", map(title_word, held)), n=n_players,
                                             titles=J(", ", map(title_word, title_names(n_players)))))
    if previous is not None:
        return check_titles(previous, held, names)
    return None
