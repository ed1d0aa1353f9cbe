"""Applying moves: the one statement of what each move sets off.

``apply`` makes a legal move (judged by :mod:`~referee.games.daifugo.engine.judging`) and
records in ``State.events`` what it set off; ``after_illegal`` is the rules' verdict on an
illegal move (the uecda reject-as-pass, ``reject``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from referee.engines.base import Card, Violation
from referee.games.daifugo.engine.cards import (
    ABOVE_2,
    BELOW_3,
    DIAMOND_3,
    EIGHT,
    JACK,
    SIX,
    card_at,
)
from referee.games.daifugo.engine.combos import (
    GROUP,
    SEQUENCE,
    Combo,
    _merge,
    readings,
    revolution_rule,
)
from referee.games.daifugo.engine.deal import _start_play
from referee.games.daifugo.engine.judging import _against_table, _resolve, _stronger, _waived
from referee.games.daifugo.engine.results import forbidden_finish
from referee.games.daifugo.engine.rules import RuleSet, memo_for
from referee.games.daifugo.engine.state import (
    _ORDERS,
    BACK,
    DIRECTION,
    DROPPED,
    EVENTS,
    FINISHED,
    FOULED,
    HANDS,
    LAST_PLAYER,
    LOCK,
    OPENING,
    PASSED,
    PENDING,
    REVOLUTION,
    RULES,
    SEATS,
    STALL,
    STALLED,
    TABLE,
    TO_MOVE,
    TRICK_REVOLTED,
    TURN_RULES,
    Give,
    Move,
    Pass,
    Play,
    State,
    Unreadable,
    _new,
    _turn_orders,
    clear_trick,
    end_round,
    leader_after,
)


def apply(state: State, move: Move) -> State:
    """The state after a legal move (run ``check`` first). ``events`` of the result names
    the behaviours it set off."""
    kind = type(move)  # the move types are final
    if kind is Pass:
        return _apply_pass(state, move.player)  # type: ignore[union-attr]  # a Pass
    if kind is Play:
        return _apply_play(state, move)  # type: ignore[arg-type]  # a Play
    if kind is Give:
        return _apply_give(state, move)  # type: ignore[arg-type]  # a Give
    raise ValueError(f"{move!r} is not a legal move: run check() first")


def reject(state: State, move: Move, violation: Violation | None = None) -> State:
    """What the contest server does with a submission it rejects: it counts as a pass by the
    player to move (daifugo.turn.rejected). Only for rule sets where ``rejection_is_pass``
    (uecda), and only for violations outside ``TURN_RULES`` (see ``after_illegal``).

    The server updates the suit-lock before it refuses a sequence for want of
    RULE_KAIDAN (tndhms 0.29 daihu.c: the lock before RULE_KAIDAN): a sequence refused only by
    ``daifugo.option.sequences`` can still switch the lock on."""
    if not state.rules.rejection_is_pass:
        raise ValueError(f"under {state.rules.name} an illegal move is an error, not a pass")
    p = state.to_move
    if state.phase != "play" or p is None:
        raise ValueError("only a submission during play can be rejected")
    events: tuple[str, ...] = ("daifugo.turn.rejected",)
    if violation is not None and violation.rule == "daifugo.option.sequences" and isinstance(move, Play):
        fits = [c for c in readings(state.rules, move.cards, move.joker_as)
                if c.kind == SEQUENCE and _against_table(state, c) is None]
        lock = _lock_after(state, _merge(fits) if fits else None)
        if lock != state.lock:
            state = state._replace(lock=lock)
            events += ("daifugo.option.suit-lock",)
    after = _apply_pass(state, p)
    return after._replace(events=events + after.events)


def after_illegal(state: State, move: Move, violation: Violation) -> State | None:
    """The rules' verdict on an illegal move: the position after it when they count it,
    None when the record is wrong there and its replay stops. Under ``rejection_is_pass``
    (uecda) a submission by the player to move during play that breaks any rule outside
    ``TURN_RULES`` is what the contest server rejects and counts as a pass (``reject``);
    everything else, and every illegal move under the other rule sets, is an error."""
    if (state.rules.rejection_is_pass and violation.rule not in TURN_RULES and state.phase == "play"
            and isinstance(move, (Play, Pass, Unreadable)) and move.player == state.to_move):
        return reject(state, move, violation)
    return None


def _without(hand: tuple[Card, ...], cards: Sequence[Card]) -> tuple[Card, ...]:
    if len(cards) == 1:
        i = hand.index(cards[0])
        return hand[:i] + hand[i + 1:]
    rest = list(hand)
    for c in cards:
        rest.remove(c)
    return tuple(rest)


def _lock_after(state: State, combo: Combo | None) -> frozenset[str] | None:
    """The suit-lock once ``combo`` is played: it starts when two consecutive plays of a trick
    use the same suits (daifugo.option.suit-lock); a lone joker ends it
    (daifugo.lock.lone-joker)."""
    lock = state.lock
    if combo is None:
        return lock
    if combo.lone_joker:
        return None
    table = state.table
    if (state.rules.suit_lock and lock is None and table is not None and combo.suits is not None
            and combo.suits == table.suits):
        return combo.suits
    return lock


def _apply_play(state: State, move: Play) -> State:
    """A play: the cards leave the hand, the player may go out (forbidden finish,
    miyako-ochi), then the effects of every play but a lone joker (revolution, six-reverse,
    eleven-back, eight-cut) and the suit-lock; then ``_after`` moves the turn on."""
    rules = state.rules
    p = move.player
    cards = move.cards
    combo = _resolve(state, move)[0]
    assert combo is not None, "apply() needs a legal move: run check() first"
    table = state.table
    events: list[str] = []
    hands = state.hands
    hand_before = hands[p]
    hand = _without(hand_before, cards)
    f = list(state)
    new_hands = list(hands)
    new_hands[p] = hand
    f[HANDS] = tuple(new_hands)
    lone = combo.lone_joker
    if combo.stands:
        if len(combo.stands) > 1:
            events.append("daifugo.joker.two-jokers")
        if any(card_at(*st) in hand_before for st in combo.stands):
            events.append("daifugo.joker.held-card")
        if any(st.strength in (BELOW_3, ABOVE_2) for st in combo.stands):
            events.append("daifugo.joker.out-of-range")
    if combo.size == 5 and combo.kind == GROUP:
        events.append("daifugo.combo.five-group")
    if state.opening:
        f[OPENING] = False
        if DIAMOND_3 in hand_before and DIAMOND_3 not in cards and (
                rules.first_leader == "diamond3" or (rules.diamond3_start and state.previous is None)):
            events.append("daifugo.lead.diamond3-free")
    cut = False
    if table is not None:
        if p == state.last_player:
            events.append("daifugo.trick.own-cards")
        if table.lone_joker:
            if not lone:
                events.append("daifugo.option.spade3")
                cut = True
        elif _waived(state, combo) and not _stronger(state, combo, table):
            events.append("daifugo.option.consecutive-revolution")
    if lone or rules.suit_lock or state.lock is not None:  # else there is no lock to start or end
        lock = _lock_after(state, combo)
        if lock != state.lock:
            f[LOCK] = lock
            events.append("daifugo.lock.lone-joker" if lone else "daifugo.option.suit-lock")
    # Going out.
    if not hand:
        if forbidden_finish(rules, cards, state.reversed):
            f[FOULED] = (*state.fouled, p)
            events += ("daifugo.option.forbidden-finish", "daifugo.finish.forbidden-order")
        else:
            finished = f[FINISHED] = (*state.finished, p)
            prev = state.previous
            if (rules.miyako_ochi and prev is not None and len(finished) == 1 and prev[0] != p
                    and state.is_in(prev[0])):
                f[DROPPED] = (*state.dropped, prev[0])
                events += ("daifugo.option.miyako-ochi", "daifugo.miyako.first-place")
    # Effects of every play but a lone joker.
    if not lone:
        revolt, six, jack, eight = _effects(rules, combo)
        if revolt is not None:
            f[REVOLUTION] = not state.revolution
            f[TRICK_REVOLTED] = True
            events.append(revolt)
        if six:
            f[DIRECTION] = -state.direction
            events.append("daifugo.option.six-reverse")
        if jack:
            f[BACK] = not state.back
            events.append("daifugo.option.eleven-back")
        if eight:
            cut = True
            events.append("daifugo.option.eight-cut")
    f[TABLE] = combo
    f[LAST_PLAYER] = p
    f[STALL] = 0
    return _after(f, p, events, cut, not hand)


def _effects(rules: RuleSet, combo: Combo) -> tuple[str | None, bool, bool, bool]:
    """What playing ``combo`` (not a lone joker) sets off under ``rules``: the revolution's
    rule (or None), six-reverse, eleven-back, eight-cut; remembered (``_EFFECTS``)."""
    memo = memo_for(_EFFECTS, rules)
    got = memo.get(id(combo))
    if got is None or got[0] is not combo:
        if len(memo) >= 1 << 14:
            memo.clear()
        got = memo[id(combo)] = (combo, (revolution_rule(rules, combo),
                                         rules.six_reverse and combo.includes(SIX),
                                         rules.eleven_back and combo.includes(JACK),
                                         rules.eight_cut and combo.includes(EIGHT)))
    return got[1]


#: ``_effects`` already found, per rule set (keyed by its identity; the entry holds it),
#: by the combination's identity (the entry holds it too, so the identity stays its own).
#: A play's readings are kept (``known_readings``), so a play's combination is mostly one
#: object from round to round; one made anew each time (``_merge`` of a bare joker's
#: readings that differ in suits) only misses and takes another entry, found correctly.
#: Bound: 2^14 combinations per rule set, forgotten all at once when full. Reason: every
#: play asks, the same combinations recur in every round, and hashing one costs more
#: than the identity.
_EFFECTS: dict[int, tuple[RuleSet, dict[int, tuple[Combo, tuple[str | None, bool, bool, bool]]]]] = {}


def _apply_pass(state: State, p: int) -> State:
    f: list[Any] = list(state)
    events: list[str] = [] if f[TABLE] is not None else ["daifugo.pass.empty-stage"]
    passed = f[PASSED]
    f[PASSED] = _WITH.get((passed, p)) or _with(passed, p)
    stall = f[STALL] = f[STALL] + 1
    limit = f[RULES].stall_limit
    if limit is not None and stall >= limit:
        f[STALLED] = True
        return end_round(f, (*events, "daifugo.end.stall"))
    return _after(f, p, events, False, False)


def _with(passed: frozenset[int], p: int) -> frozenset[int]:
    """``passed | {p}``, remembered (``_WITH``)."""
    if len(_WITH) >= 1 << 12:
        _WITH.clear()
    got = _WITH[passed, p] = passed | {p}
    return got


#: The passes of a trick after one more (a pass's new ``passed``). Bound: 2^12 entries
#: (a table of 8 has 8 x 2^8 of them), cleared when full. Reason: every pass makes one,
#: and the same few sets recur in every trick.
_WITH: dict[tuple[frozenset[int], int], frozenset[int]] = {}


def _after(f: list[Any], actor: int, events: list[str], cut: bool, out: bool) -> State:
    """Round end, trick end or the next player, after ``actor``'s move, on the new state's
    fields ``f`` (``cut``: the play ended the trick; ``out``: the actor went out, so the
    round may be over; a round goes on while two players are still in, and only one who
    goes out changes how many are)."""
    passed = f[PASSED]
    hands, dropped = f[HANDS], f[DROPPED]  # in_turn_order(f, actor), inlined: once a move
    try:  # _turn_orders(), its usual case inlined (a subscript, no call)
        orders = _ORDERS[f[SEATS]]
    except KeyError:
        orders = _turn_orders(f[SEATS])
    order: Sequence[int] = orders[0 if f[DIRECTION] > 0 else 1][actor]
    if out:
        if dropped:
            ins = [q for q in order if hands[q] and q not in dropped]
        else:
            ins = [q for q in order if hands[q]]
        if len(ins) <= 1:
            return end_round(f, events)
    if cut:
        return _clear(f, actor, events)
    # The first player still in who has not passed, and whether another follows them: all
    # that the ends of a trick ask about those not passed.
    first = None
    more = False
    for q in order:
        if hands[q] and q not in passed and q not in dropped:
            if first is not None:
                more = True
                break
            first = q
    rule = f[RULES].trick_end
    if rule == "all-but-one":
        done, why = not more, "daifugo.option.trick-end"
    elif rule == "others" and f[TABLE] is not None:
        done, why = first is None or (not more and first == f[LAST_PLAYER]), "daifugo.trick.end"  # (each player once)
    else:
        done = first is None
        why = "daifugo.trick.end" if rule == "others" else "daifugo.trick.clear"
    if done:
        events.append(why)
        return _clear(f, f[LAST_PLAYER], events)
    f[TO_MOVE] = first
    f[EVENTS] = tuple(events)
    return _new(State, f)


def _clear(f: list[Any], last: int, events: list[str]) -> State:
    """End the trick: the table, the passes, the lock, eleven-back go; ``last`` leads, or the
    next player still in after them (daifugo.trick.leader)."""
    leader = leader_after(f, last)
    if leader != last:
        events.append("daifugo.trick.leader")
    clear_trick(f, leader)
    f[EVENTS] = tuple(events)
    return _new(State, f)


def _apply_give(state: State, move: Give) -> State:
    duty = next(d for d in state.pending if d.giver == move.giver)
    pending = list(state.pending)
    pending.remove(duty)
    hands = list(state.hands)
    hands[move.giver] = _without(hands[move.giver], move.cards)
    hands[move.receiver] = hands[move.receiver] + tuple(move.cards)
    events = ("daifugo.exchange.choice",) if duty.choose == "choice" else ()
    f = list(state)
    f[HANDS], f[PENDING], f[EVENTS] = tuple(hands), tuple(pending), events
    after = _new(State, f)
    if pending:
        return after
    started = _start_play(after)
    f = list(started)
    f[EVENTS] = events + started.events
    return _new(State, f)
