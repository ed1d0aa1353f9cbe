"""Checking moves: the one statement of each rule a move must keep.

``check`` says why a move is illegal (and, given a list, which rules decided a legal one):
the turn, possession, the combination and its joker readings against the table, the
suit-lock, and an exchange gift's duty and cards. ``resolved`` is the combination a play
makes on this table, as :mod:`~referee.games.daifugo.engine.play` applies it and the
search for legal moves (:mod:`~referee.games.daifugo.engine.legal`) ranks it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

from referee.engines.base import JOKER, Card, Violation
from referee.engines.message import J, M, N, T
from referee.games.daifugo.engine.cards import (
    _SUIT_NAMES,
    SPADE_3,
    _cards,
    _strengths,
    _suit_pos,
    strength,
    strongest_cards,
    weakest_cards,
)
from referee.games.daifugo.engine.combos import (
    GROUP,
    SEQUENCE,
    SINGLE,
    Combo,
    _invalid_message,
    _merge,
    known_readings,
    readings,
)
from referee.games.daifugo.engine.state import (
    Give,
    Move,
    Pass,
    Play,
    State,
    Unreadable,
    _v,
)


def check(state: State, move: Move, consulted: list[str] | None = None) -> Violation | None:
    """Why ``move`` is illegal now, or None if it is legal.

    ``consulted``: when given a list, each rule check that passes appends the id of the rule
    that decided it (turn, possession, combination, joker reading, the table, suit-lock;
    for a gift the duty, the order or the simultaneous exchange, possession, strongest or
    weakest), in the order they are checked. The phase preconditions (the round is not
    over, the exchange is not pending) decide nothing about a move and are not listed.
    What a legal move sets off is in the ``events`` of ``apply``'s result."""
    phase = state.phase
    if phase != "play":
        if phase == "over":
            return _v("daifugo.end.game-over", T("the round is already over"))
        if isinstance(move, Give):
            return _check_give(state, move, consulted)
        return _v("daifugo.exchange.pending", T("the card exchange is not complete: {owed}", owed=_owed(state)))
    if isinstance(move, Give):
        return _check_give(state, move, consulted)
    p = move.player
    if p != state.to_move:
        return _check_turn(state, p)
    if consulted is not None:
        consulted.append("daifugo.turn.order")
    if isinstance(move, Pass):
        if state.table is None:
            if not state.rules.leader_may_pass:
                return _v("daifugo.pass.leader", T("{who} leads this trick and must play; only followers may pass",
                                                   who=state.name(p)))
            if consulted is not None:
                consulted.append("daifugo.pass.empty-stage")
        return None
    if isinstance(move, Unreadable):
        return _v("daifugo.hand.possession",
                  T("{move} holds a card outside the server's table (a real card below the 3 or above the 2)",
                    move=move.text) if move.text else
                  T("the submission holds a card outside the server's table (a real card below the 3 or above the 2)"))
    v = _check_possession(state, p, move.cards)
    if v is not None:
        return v
    if consulted is not None:
        consulted.append("daifugo.hand.possession")
    if consulted is None:
        fault = _resolve(state, move)[1]
    else:
        ids: list[str] = []
        fault = _resolve_uncached(state, move, ids)[1]
        if fault is None:
            consulted += ids
    return None if fault is None else fault.violation()


def _check_turn(state: State, p: int) -> Violation:
    """Why ``p``, who is not to move, may not move (daifugo.turn.order and its cases)."""
    mover = state.name(state.to_move)  # type: ignore[arg-type]  # during play someone is to move
    if not 0 <= p < len(state.hands):
        return _v("daifugo.turn.order", T("there is no player {n}; it is {mover}'s turn", n=p + 1, mover=mover))
    if p in state.passed:
        return _v("daifugo.pass.sat-out", T("{who} passed earlier in this trick and may not play "
                                            "again until it ends; it is {mover}'s turn", who=state.name(p),
                                            mover=mover))
    if not state.is_in(p):
        return _v("daifugo.turn.finished", T("{who} is out of this round; it is {mover}'s turn",
                                             who=state.name(p), mover=mover))
    return _v("daifugo.turn.order", T("it is {mover}'s turn, not {who}'s", mover=mover, who=state.name(p)))


def _holds(hand: Sequence[Card], cards: Sequence[Card]) -> Card | None:
    """The first card of ``cards`` that ``hand`` does not hold (as often), or None."""
    for c in cards:
        if c not in hand:
            return c
    if len(cards) > 1 and len(set(cards)) != len(cards):
        for c in set(cards):
            if cards.count(c) > hand.count(c):
                return c
    return None


def _check_possession(state: State, p: int, cards: Sequence[Card]) -> Violation | None:
    if not cards:
        return _v("daifugo.combo.invalid", T("a play needs at least one card (or pass)"))
    missing = _holds(state.hands[p], cards)
    if missing is None:
        return None
    if missing in state.hands[p]:
        return _v("daifugo.hand.possession", T("{who} does not hold {card} that often", who=state.name(p),
                                               card=missing))
    return _v("daifugo.hand.possession", T("{who} does not hold {card}", who=state.name(p), card=missing))


_SPADE_3_STRENGTH = strength(SPADE_3)
_SPADES = frozenset(SPADE_3.suit)


class _Fault(NamedTuple):
    """A rule a play breaks on this table, its message written only when a caller asks
    (``check`` does; the search for legal moves discards most candidates unread)."""

    rule: str
    write: Callable[[], str]

    def violation(self) -> Violation:
        return Violation(self.rule, self.write())


Resolution = tuple[Combo | None, _Fault | None]

#: The last resolution (state, move, result). Bound: one entry. Reason: a replay runs
#: ``check`` then ``apply`` on the same (state, move), and resolving a play (its readings
#: against the table) is the costliest part of both; the entry is keyed by identity and
#: the result is a pure function of the pair, so a stale or raced entry is only a miss.
_last_resolved: tuple[object, object, Resolution] | None = None


def resolved(state: State, move: Play) -> Combo | None:
    """The combination a play makes on this table as the engine reads it (a bare joker
    resolved), or None if the play is no legal combination here."""
    return _resolve(state, move)[0]


def _resolve(state: State, move: Play) -> Resolution:
    """The combination a play makes on this table, or the violation (daifugo.joker.ambiguous
    when a bare joker leaves several legal readings that differ in kind or strength)."""
    global _last_resolved
    last = _last_resolved
    if last is not None and last[0] is state and last[1] is move:
        return last[2]
    result = _resolve_uncached(state, move)
    _last_resolved = (state, move, result)
    return result


def judged(state: State, move: Play, found: Sequence[Combo]) -> Resolution:
    """``_resolve`` of a play whose readings ``found`` are known (the search for a legal
    move reads its candidates once); remembered for ``apply`` as ``_resolve`` does."""
    global _last_resolved
    if len(found) == 1:  # _resolve_uncached's one-reading case, without its bookkeeping
        fault = _fits(state, found[0])
        result: Resolution = (found[0], None) if fault is None else (None, fault)
    else:
        result = _resolve_uncached(state, move, None, found)
    _last_resolved = (state, move, result)
    return result


def _resolve_uncached(state: State, move: Play, consulted: list[str] | None = None,
                      found: Sequence[Combo] | None = None) -> Resolution:
    """``_resolve``; ``consulted`` as for ``check`` (the ids of the rules that decided a legal
    play; left as it was for an illegal one); ``found``: the play's readings, when known."""
    if found is None:
        cards, stated = move.cards, move.joker_as
        found = (known_readings(state.rules, cards, stated) if type(cards) is tuple and type(stated) is tuple
                 else readings(state.rules, cards, stated))
    if not found:
        return None, _Fault("daifugo.combo.invalid",
                            lambda: _invalid_message(state.rules, move.cards, move.joker_as))
    ids: list[str] | None = None
    if consulted is not None:
        ids = ["daifugo.combo.invalid"]
        if len(move.cards) > 1 and JOKER in move.cards and (
                len(move.joker_as) < move.cards.count(JOKER) or None in move.joker_as):
            ids.append("daifugo.joker.ambiguous")  # a bare joker, read the one legal way
    if len(found) == 1:
        v = _fits(state, found[0], ids)
        if v is not None:
            return None, v
        if consulted is not None and ids is not None:
            consulted += ids
        return found[0], None
    legal = []
    first_v = None
    decided: list[str] | None = None
    for c in found:
        why = None if ids is None else list(ids)
        v = _fits(state, c, why)
        if v is None:
            legal.append(c)
            decided = decided or why
        elif first_v is None:
            first_v = v
    if not legal:
        return None, first_v
    merged = _merge(legal)
    if merged is None:
        return None, _Fault("daifugo.joker.ambiguous", lambda: T("the joker can be read several legal ways here "
                                                                 "({options}); write its card, e.g. {example}",
                                                                 options=_readings(legal), example="JK(5D)"))
    if consulted is not None and decided is not None:
        consulted += decided
    return merged, None


def _readings(combos: Sequence[Combo]) -> T:
    """The legal readings of a play, each once, in words."""
    said = {str(d): d for d in (c.describe() for c in combos)}
    return J(", ", [said[k] for k in sorted(said)])


def _stronger(state: State, combo: Combo, table: Combo) -> bool:
    """Does ``combo`` (same kind and size) beat ``table`` under the order in force?"""
    rev = state.reversed
    if combo.kind == SEQUENCE:
        if state.rules.sequence_compare == "above":
            return combo.high < table.low if rev else combo.low > table.high
        return combo.low < table.low if rev else combo.high > table.high
    return combo.low < table.low if rev else combo.low > table.low


def _waived(state: State, combo: Combo) -> bool:
    """consecutive-revolution: after a revolution in this trick a revolting group needs no
    strength (daifugo.option.consecutive-revolution)."""
    rules = state.rules
    return (rules.consecutive_revolution and rules.revolution and state.trick_revolted
            and combo.kind == GROUP and combo.size >= 4)


def _fits(state: State, combo: Combo, consulted: list[str] | None = None) -> _Fault | None:
    """May ``combo`` be played now: against the table, then (last, as the contest server
    checks it) whether the rules allow sequences at all (daifugo.option.sequences)."""
    v = _against_table(state, combo, consulted)
    if v is None and combo.kind == SEQUENCE and not state.rules.sequences:
        return _Fault("daifugo.option.sequences",
                      lambda: T("{combo}: sequences are not played under these rules ({option})",
                                combo=combo.describe(), option="-sequences"))
    return v


def _against_table(state: State, combo: Combo, consulted: list[str] | None = None) -> _Fault | None:
    """Kind, size, strength and suit-lock against the play on the table; ``consulted`` as
    for ``check``."""
    table = state.table
    if table is None:
        if consulted is not None:
            consulted.append("daifugo.play.same-kind")  # the leader plays any combination
        return None
    rules = state.rules
    if table.lone_joker:
        if rules.spade3 and combo.kind == SINGLE and not combo.lone_joker \
                and combo.low == _SPADE_3_STRENGTH and combo.suits == _SPADES:
            if consulted is not None:
                consulted.append("daifugo.play.lone-joker")
            return None
        if rules.spade3:
            return _Fault("daifugo.play.lone-joker",
                          lambda: T("a lone joker is on the table: only the spade 3 beats it ({option})",
                                    option="spade3"))
        return _Fault("daifugo.play.lone-joker", lambda: T("a lone joker is on the table: nothing beats it"))
    if combo.lone_joker:
        if table.kind == SINGLE:
            if consulted is not None:
                consulted += ("daifugo.play.same-kind", "daifugo.play.lone-joker")
            return None
        return _Fault("daifugo.play.same-kind",
                      lambda: T("the table holds {table}: a lone joker can only follow a single",
                                table=table.describe()))
    if combo.kind != table.kind or combo.size != table.size:
        return _Fault("daifugo.play.same-kind",
                      lambda: N("the table holds {table}; the play must be the same kind with {n} card, not {combo}",
                                "the table holds {table}; the play must be the same kind with {n} cards, not {combo}",
                                table.size, table=table.describe(), combo=combo.describe()))
    if not _stronger(state, combo, table) and not _waived(state, combo):
        rev = state.reversed
        if combo.kind == SEQUENCE:
            if rules.sequence_compare == "above":
                return _Fault("daifugo.play.sequence-above",
                              lambda: T(M("{combo} does not lie wholly below {table} (reversed order)") if rev else
                                        M("{combo} does not lie wholly above {table} (normal order)"),
                                        combo=combo.describe(), table=table.describe()))
            return _Fault("daifugo.play.sequence-top",
                          lambda: T(M("{combo} is not stronger than {table}: sequences compare by their strongest "
                                      "card (reversed order)") if rev else
                                    M("{combo} is not stronger than {table}: sequences compare by their strongest "
                                      "card (normal order)"), combo=combo.describe(), table=table.describe()))
        return _Fault("daifugo.play.stronger",
                      lambda: T(M("{combo} does not beat {table} (reversed order)") if rev else
                                M("{combo} does not beat {table} (normal order)"),
                                combo=combo.describe(), table=table.describe()))
    if consulted is not None:
        consulted.append("daifugo.play.same-kind")
        if combo.kind == SEQUENCE:
            consulted.append("daifugo.play.sequence-above" if rules.sequence_compare == "above"
                             else "daifugo.play.sequence-top")
        else:
            consulted.append("daifugo.play.stronger")
    if state.lock is not None:
        if combo.suits != state.lock:
            lock = state.lock
            return _Fault("daifugo.option.suit-lock", lambda: T("the suits are locked to {suits}; "
                                                                "this play must use exactly those suits",
                                                                suits=_suit_names(lock)))
        if consulted is not None:
            consulted.append("daifugo.option.suit-lock")
    return None


def _suit_names(suits: frozenset[str]) -> T:
    return J(", ", (T(_SUIT_NAMES[x]) for x in sorted(suits, key=_suit_pos)))


def _owed(state: State) -> T:
    return J("; ", (N("{giver} owes {receiver} {n} card ({choose})", "{giver} owes {receiver} {n} cards ({choose})",
                      d.count, giver=state.name(d.giver), receiver=state.name(d.receiver), choose=d.choice)
                    for d in state.pending))


def _check_give(state: State, move: Give, consulted: list[str] | None = None) -> Violation | None:
    rules = state.rules
    if state.phase != "exchange":
        return _v("daifugo.exchange.duty", T("no exchange is due now (gifts come before the first play "
                                             "of a round after the first)"))
    g = move.giver
    duty = next((d for d in state.pending if d.giver == g), None)
    if duty is None:
        return _v("daifugo.exchange.duty", T("{who} owes no cards now; {owed}", who=state.name(g), owed=_owed(state)))
    if move.receiver != duty.receiver or len(move.cards) != duty.count:
        return _v("daifugo.exchange.duty", N("{who} must give {n} card to {receiver}",
                                             "{who} must give {n} cards to {receiver}",
                                             duty.count, who=state.name(g), receiver=state.name(duty.receiver)))
    why = ["daifugo.exchange.duty"]
    if rules.exchange_style == "server":
        if not duty.server and any(d.server for d in state.pending):
            return _v("daifugo.exchange.order", T("the server first moves the lower titles' strongest cards; "
                                                  "the upper titles choose after that"))
        why.append("daifugo.exchange.order")
    simultaneous = rules.exchange_style == "simultaneous" and state.dealt is not None
    if simultaneous:
        why.append("daifugo.exchange.simultaneous")
    source = state.dealt[g] if simultaneous else state.hands[g]  # type: ignore[index]  # simultaneous implies dealt is set
    missing = _holds(source, move.cards)
    if missing is not None:
        if simultaneous and _holds(state.hands[g], move.cards) is None:
            return _v("daifugo.exchange.simultaneous",
                      T("{card} was not dealt to {who}: the exchange is simultaneous, so "
                        "a card received cannot be passed on", card=missing, who=state.name(g)))
        return _v("daifugo.hand.possession", T("{who} does not hold {card}", who=state.name(g), card=missing))
    why.append("daifugo.hand.possession")
    if duty.choose == "strongest":
        if duty.server:
            best = strongest_cards(source, duty.count)
            ok = sorted(move.cards) == sorted(best)
        else:
            best = strongest_cards(source, duty.count)
            ok = _strengths(move.cards) == _strengths(best)
        if not ok:
            return _v("daifugo.exchange.strongest",
                      N("{who} must give the {n} strongest card ({best}), not {given}",
                        "{who} must give the {n} strongest cards ({best}), not {given}",
                        duty.count, who=state.name(g), best=_cards(best), given=_cards(move.cards)))
        why.append("daifugo.exchange.strongest")
    elif duty.choose == "weakest":
        worst = weakest_cards(source, duty.count)
        if _strengths(move.cards) != _strengths(worst):
            return _v("daifugo.exchange.weakest",
                      N("{who} must give the {n} weakest card ({worst}), not {given} ({option})",
                        "{who} must give the {n} weakest cards ({worst}), not {given} ({option})",
                        duty.count, who=state.name(g), worst=_cards(worst), given=_cards(move.cards),
                        option="exchange=weakest"))
        why.append("daifugo.exchange.weakest")
    if consulted is not None:
        consulted += why
    return None
