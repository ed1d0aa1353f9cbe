"""Set-up: the deck, the deal checks, seats, exchange duties, the first leader, and the
construction of a round (``new_round``) or a mid-round position (``snapshot``)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from referee.engines.base import ALL_CARDS, JOKER, Card, Violation
from referee.engines.message import J, M, N, T
from referee.games.daifugo.engine.cards import DIAMOND_3, _cards
from referee.games.daifugo.engine.combos import _invalid_message, _merge, readings
from referee.games.daifugo.engine.rules import RuleSet
from referee.games.daifugo.engine.state import (
    Duty,
    Play,
    RuleError,
    State,
    _end_round,
    _next_player,
    _v,
    players_in,
)


def deck(rules: RuleSet, n_players: int) -> tuple[Card, ...]:
    """The deck for ``n_players``: 52 cards and the rule set's jokers (daifugo.deal.missing)."""
    return ALL_CARDS[:-1] + (JOKER,) * rules.jokers(n_players)


def check_players(rules: RuleSet, n_players: int) -> Violation | None:
    """Is ``n_players`` a player count the rules allow (daifugo.deal.players)?"""
    if rules.min_players <= n_players <= rules.max_players:
        return None
    if rules.min_players == rules.max_players:
        return _v("daifugo.deal.players", T("{n} players; {rules} is played by exactly {least}",
                                            n=n_players, rules=rules.name, least=rules.min_players))
    return _v("daifugo.deal.players", T("{n} players; {rules} is played by {least} to {most}",
                                        n=n_players, rules=rules.name, least=rules.min_players, most=rules.max_players))


def check_seats(rules: RuleSet, order: Sequence[int], previous: Sequence[int] | None,
                names: Sequence[str] | None = None) -> Violation | None:
    """Is ``order`` (player ids, as a record's ``Order`` gives them) the turn order the rules
    fix for this round, where they fix one (``default_seats``)? Round 1: the listed order
    (daifugo.lead.first-round); later rounds: the reverse of the previous finishing order
    (daifugo.lead.later-rounds)."""
    fixed = default_seats(rules, len(order), previous)
    if fixed is None or tuple(order) == fixed:
        return None

    def said(seats: Sequence[int]) -> T:
        return J(" ", (names[p] if names is not None and 0 <= p < len(names) else T("player {n}", n=p + 1)
                       for p in seats))

    if previous is None:
        return _v("daifugo.lead.first-round",
                  T("the turn order is {fixed} (the listed order of the players), not {order}",
                    fixed=said(fixed), order=said(order)))
    return _v("daifugo.lead.later-rounds",
              T("the turn order is {fixed} (the reverse of the previous finishing order), not {order}",
                fixed=said(fixed), order=said(order)))


def check_deal(rules: RuleSet, hands: Sequence[Sequence[Card]],
               deal_order: Sequence[int] | None = None) -> list[Violation]:
    """Deal checks: the player count, every card of the deck dealt exactly once, the hand
    sizes of a one-at-a-time deal.

    ``deal_order``: the players in the order they were dealt to. Seed: the players' listed
    order in round 1 (the default), the previous finishing order (daifugo first) later.
    Uecda: the seats; the dealer is random, so any rotation of them is accepted.
    """
    n = len(hands)
    found: list[Violation] = []
    players = check_players(rules, n)
    if players is not None:
        found.append(players)
    jokers = rules.jokers(n)
    counts: dict[Card, int] = {}
    for hand in hands:
        for c in hand:
            counts[c] = counts.get(c, 0) + 1
    for card, k in counts.items():
        allowed_k = jokers if card.is_joker else 1
        if k > allowed_k:
            found.append(_v("daifugo.deal.duplicate",
                            N("{card} is dealt {k} times; the deck for {players} players holds {n} joker",
                              "{card} is dealt {k} times; the deck for {players} players holds {n} jokers",
                              allowed_k, card=card, k=k, players=n) if card.is_joker else
                            T("{card} is dealt {k} times; the deck for {players} players holds one of each card",
                              card=card, k=k, players=n)))
    missing = [c for c in ALL_CARDS[:-1] if c not in counts]
    missing += [JOKER] * max(0, jokers - counts.get(JOKER, 0))
    if missing:
        found.append(_v("daifugo.deal.missing",
                        T(M("not dealt: {cards} (the deck for {players} players is 52 cards and {jokers} joker)")
                          if jokers <= 1 else
                          M("not dealt: {cards} (the deck for {players} players is 52 cards and {jokers} jokers)"),
                          cards=_cards(missing), players=n, jokers=jokers)))
    # Hand sizes, once the right number of cards was dealt (else the deck rules say it all).
    if n and sum(counts.values()) == 52 + jokers:
        order = list(deal_order) if deal_order is not None else list(range(n))
        q, r = divmod(52 + jokers, n)
        sizes = [len(hands[p]) for p in order]
        expected = [q + 1] * r + [q] * (n - r)
        if rules.deal_start == "first":
            ok = sizes == expected
            how = T("the first players dealt to (from the first-ranked player) hold one card more")
        else:
            ok = any(sizes[i:] + sizes[:i] == expected for i in range(n))
            how = T("the dealer and the next {n} seats hold one card more", n=r - 1)
        if not ok:
            found.append(_v("daifugo.deal.count",
                            T("hand sizes {sizes} (in dealing order) are not those of "
                              "a one-at-a-time deal of {cards} cards to {players}: {q} or {q1} each, and {how}",
                              sizes=" ".join(map(str, sizes)), cards=52 + jokers, players=n, q=q, q1=q + 1, how=how)))
    return found


def default_seats(rules: RuleSet, n_players: int, previous: Sequence[int] | None) -> tuple[int, ...] | None:
    """The turn order the rules fix, or None when they do not (uecda: the server's seats).

    Seed: the listed order in round 1; later, the reverse of the previous finishing order
    (daihinmin, hinmin, the heimin, ..., daifugo) (daifugo.lead.later-rounds).
    """
    if rules.seating == "given":
        return None
    if previous is None:
        return tuple(range(n_players))
    return tuple(reversed(tuple(previous)))


def exchange_duties(rules: RuleSet, previous: Sequence[int] | None) -> tuple[Duty, ...]:
    """The gifts owed at the start of a round after ``previous`` (a finishing order), in
    the order they are made: the daihinmin's 2 strongest to the daifugo, then (4+ players)
    the hinmin's strongest to the fugo, then the daifugo's 2 and the fugo's 1 back
    (weakest, or any with exchange=choice). None in a first round or with exchange=none."""
    if previous is None or rules.exchange == "none" or len(previous) < 2:
        return ()
    order = tuple(previous)
    server = rules.exchange_style == "server"
    pairs = [(order[0], order[-1], 2)]
    if len(order) >= 4:
        pairs.append((order[1], order[-2], 1))
    lower = tuple(Duty(low, high, k, "strongest", server) for high, low, k in pairs)
    upper = tuple(Duty(high, low, k, rules.exchange) for high, low, k in pairs)
    return lower + upper


def unexplained_exchange(state: State, duties: Sequence[Duty], why: str) -> Violation:
    """An unlogged exchange that no legal choice explains (daifugo.exchange.choice): no gift
    by the ``duties``' givers, in ``state``, leaves every player holding the cards they later
    play; ``why`` says what the first try ran into."""
    givers = J(" and ", (T("{giver} ({n} to {receiver})", giver=state.name(d.giver), n=d.count,
                            receiver=state.name(d.receiver)) for d in duties))
    return _v("daifugo.exchange.choice", T("an exchange no legal choice could explain: no gift by {givers} leaves "
                                           "every player holding the cards they later play ({why})",
                                           givers=givers, why=why))


def _holder(hands: Sequence[Sequence[Card]], card: Card) -> int | None:
    for p, hand in enumerate(hands):
        if card in hand:
            return p
    return None


def _first_leader(rules: RuleSet, seats: tuple[int, ...], hands: Sequence[Sequence[Card]],
                  previous: tuple[int, ...] | None) -> tuple[int, tuple[str, ...]]:
    """Who leads the first trick of a round, and the rule that says so."""
    if rules.first_leader == "diamond3":
        holder = _holder(hands, DIAMOND_3)
        return (seats[0] if holder is None else holder), ("daifugo.lead.diamond3",)
    if previous is not None:
        return previous[-1], ("daifugo.lead.later-rounds",)
    if rules.diamond3_start:
        holder = _holder(hands, DIAMOND_3)
        if holder is not None:
            return holder, ("daifugo.option.diamond3-start",)
    return seats[0], ("daifugo.lead.first-round",)


def new_round(rules: RuleSet, hands: Sequence[Sequence[Card]], seats: Sequence[int] | None = None,
              previous: Sequence[int] | None = None, round_no: int = 1,
              names: Sequence[str] | None = None) -> State:
    """A round from the hands as dealt (by player id). ``seats``: the turn order (default:
    ``default_seats``, else the listed order). ``previous``: the previous round's finishing
    order (None: a first round, no titles, no exchange). The round starts in the exchange
    phase when gifts are owed (``exchange_duties``), else with the first leader to move.
    Run ``check_deal`` separately: this constructor does not judge the deal."""
    hands_t = tuple(tuple(h) for h in hands)
    n = len(hands_t)
    prev = tuple(previous) if previous is not None else None
    seat_t = tuple(seats) if seats is not None else (default_seats(rules, n, prev) or tuple(range(n)))
    if sorted(seat_t) != list(range(n)):
        raise ValueError(f"seats {seat_t} must name each of the {n} players once")
    if prev is not None and sorted(prev) != list(range(n)):
        raise ValueError(f"previous finishing order {prev} must name each of the {n} players once")
    duties = exchange_duties(rules, prev)
    state = State(rules=rules, seats=seat_t, hands=hands_t, to_move=None, phase="exchange",
                  pending=duties, dealt=hands_t, previous=prev, round_no=round_no,
                  names=tuple(names) if names is not None else None)
    if duties:
        return state
    return _start_play(state)


def _start_play(state: State) -> State:
    leader, why = _first_leader(state.rules, state.seats, state.hands, state.previous)
    state = state._replace(phase="play", to_move=leader, last_player=leader, events=why)
    return _settle_start(state)


def _settle_start(state: State) -> State:
    # A round whose players (all but one) hold nothing is over at once (snapshots).
    if len(players_in(state)) <= 1:
        return _end_round(state, state.events)
    if not state.is_in(state.to_move):  # type: ignore[arg-type]  # a dealt round has a player to move
        nxt = _next_player(state, state.to_move)  # type: ignore[arg-type]  # a dealt round has a player to move
        state = state._replace(to_move=nxt, last_player=nxt)
    return state


def snapshot(rules: RuleSet, hands: Sequence[Sequence[Card]], seats: Sequence[int], to_move: int, *,
             table: Play | None = None, passed: Iterable[int] = (), out: Sequence[int] = (),
             fouled: Sequence[int] = (), revolution: bool = False,
             lock: Iterable[str] | None = None, back: bool = False, direction: int = 1,
             previous: Sequence[int] | None = None, round_no: int = 1,
             names: Sequence[str] | None = None) -> State:
    """A mid-round position (notation.md section 5): hands, ``Table`` (the last play of the
    trick and who made it; None: ``to_move`` leads), ``Passed``, ``Out`` (gone out, in
    order; ``fouled`` for forbidden finishers), ``Revolution``, ``ToMove``, ``Lock``, ``Back``.

    Raises ``RuleError`` (with the violated rule) when the position cannot arise: a card
    twice, a table that is no combination, an out player holding cards, a player with no
    cards not listed as out, or a ``to_move`` who is out or has passed.
    """
    hands_t = tuple(tuple(h) for h in hands)
    n = len(hands_t)
    seat_t = tuple(seats)
    if sorted(seat_t) != list(range(n)):
        raise ValueError(f"seats {seat_t} must name each of the {n} players once")
    nm = tuple(names) if names is not None else None
    state = State(rules=rules, seats=seat_t, hands=hands_t, to_move=to_move, phase="play",
                  passed=frozenset(passed), finished=tuple(out), fouled=tuple(fouled),
                  revolution=revolution, back=back, direction=1 if direction >= 0 else -1,
                  lock=frozenset(lock) if lock is not None else None,
                  previous=tuple(previous) if previous is not None else None,
                  round_no=round_no, opening=False, names=nm)
    players = check_players(rules, n)
    if players is not None:
        raise RuleError(players)
    seen: dict[Card, int] = {}
    for c in [c for h in hands_t for c in h] + list(table.cards if table else ()):
        seen[c] = seen.get(c, 0) + 1
        if seen[c] > (rules.jokers(n) if c.is_joker else 1):
            raise RuleError(_v("daifugo.deal.duplicate", T("{card} appears more often than the deck holds it", card=c)))
    for p in set(state.finished) | set(state.fouled):
        if hands_t[p]:
            raise RuleError(_v("daifugo.turn.finished", T("{who} is listed as out but holds cards", who=state.name(p))))
    for p in range(n):
        if not hands_t[p] and p not in state.finished and p not in state.fouled:
            raise RuleError(_v("daifugo.turn.finished", T("{who} holds no cards but is not listed as out",
                                                          who=state.name(p))))
    if table is not None:
        found = readings(rules, table.cards, table.joker_as)
        if not found:
            raise RuleError(_v("daifugo.combo.invalid", _invalid_message(rules, table.cards, table.joker_as)))
        combo = _merge(found)
        if combo is None:
            raise RuleError(_v("daifugo.joker.ambiguous",
                               T("the table {cards} can be read several ways; write the joker's card, e.g. {example}",
                                 cards=_cards(table.cards), example="JK(5D)")))
        state = state._replace(table=combo, last_player=table.player)
    else:
        state = state._replace(last_player=to_move)
    if len(players_in(state)) <= 1:
        return _end_round(state, ())
    if not 0 <= to_move < n or not state.is_in(to_move) or to_move in state.passed:
        raise RuleError(_v("daifugo.turn.order",
                           T("{who} cannot be to move: they are out or have passed", who=state.name(to_move))))
    return state
