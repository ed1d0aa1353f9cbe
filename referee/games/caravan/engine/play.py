"""Applying moves: the position after a legal move, the effects it set off (a face
card's, a lane decided) and the game's end, decided after every move."""

from __future__ import annotations

from referee.engines.base import Card
from referee.games.caravan.engine.judging import _check_discard, check
from referee.games.caravan.engine.legal import legal_moves
from referee.games.caravan.engine.rules import RuleSet
from referee.games.caravan.engine.state import _DISBANDS, Attach, Disband, Move, PlayNumber, State, lane_winners
from referee.games.caravan.engine.table import (
    _IS_NUMBER,
    JACK,
    KING,
    OPENING_PLACEMENTS,
    Caravan,
    Slot,
    _new,
    own_caravans,
)
from referee.games.caravan.engine.values import caravan_value, card_value, lane_winner


def apply(state: State, move: Move, consulted: list[str] | None = None) -> State:
    """The state after a legal move (run ``check`` first). ``consulted`` (optional) receives
    the ids of the rules that decide the move's effects: a face card's, a lane decided, the
    game's end."""
    rules, caravans, hands, decks, p, placed, values, _, _ = state
    deck = decks[p]
    next_player = 1 - p
    draws = True
    card: Card | None
    if isinstance(move, Disband):
        card = None
        c = move.caravan
        caravans = _put(caravans, c, ())
        values = _put(values, c, 0)
        draws = False
    else:
        card = move.card
        if isinstance(move, PlayNumber):
            c = move.caravan
            # (a list changed in place and made a tuple again: fewer copies than slices)
            grown = list(caravans)
            grown[c] += (_new(Slot, (card, ())),)
            caravans = tuple(grown)
            raised = list(values)
            raised[c] += move.card.rank
            values = tuple(raised)
            if placed[p] < OPENING_PLACEMENTS:
                placed = (placed[0] + 1, placed[1]) if p == 0 else (placed[0], placed[1] + 1)
                draws = False
        elif isinstance(move, Attach):
            caravans, values = _attach(caravans, values, move, rules, consulted)
        elif placed[p] < OPENING_PLACEMENTS:
            next_player = p  # a discard in the opening (fnv): a replacement, then the same player
    drawn = None
    if draws:
        if deck is None:
            drawn = move.draw
        elif deck:
            drawn = deck[0]
            deck = deck[1:]
        else:
            draws = False
    hand = hands[p].after(card, draws, drawn)
    if p == 0:
        hands = (hand, hands[1])
        decks = (deck, decks[1])
    else:
        hands = (hands[0], hand)
        decks = (decks[0], deck)
    after = _new(State, (rules, caravans, hands, decks, next_player, placed, values, None, None))
    if consulted is None:
        return _settle(after, p)
    after = _settle(after, p, consulted)
    if not after.over and lane_winners(after) != lane_winners(state):
        consulted.append("caravan.lane.decided")
    return after


def _put(items: tuple, i: int, item) -> tuple:
    """``items`` with its ``i``-th replaced by ``item``."""
    changed = list(items)
    changed[i] = item
    return tuple(changed)


def _attach(caravans: tuple[Caravan, ...], values: tuple[int, ...], move: Attach, rules: RuleSet,
            consulted: list[str] | None) -> tuple[tuple[Caravan, ...], tuple[int, ...]]:
    c, i = move.caravan, move.index
    caravan = caravans[c]
    slot = caravan[i]
    rank = move.card.rank
    if rank == JACK:
        if consulted is not None:
            consulted.append("caravan.jack.remove")
        rest = caravan[:i] + caravan[i + 1 :]
        return _put(caravans, c, rest), _put(values, c, values[c] - card_value(slot))
    target = _new(Slot, (slot.card, slot.faces + (move.card,)))
    caravans = _put(caravans, c, caravan[:i] + (target,) + caravan[i + 1 :])
    if rank == KING:
        if consulted is not None:
            consulted.append("caravan.value.king")
        return caravans, _put(values, c, values[c] + card_value(slot))
    if rank != 0:
        # A Queen changes the caravan's suit and turns its direction (as the rule set reads it).
        if consulted is not None:
            consulted += (rules.direction_rule, "caravan.suit.current")
        return caravans, values
    # Joker: on an Ace, every other number card of the Ace's suit goes; on 2-10, every
    # other number card of that value, any suit, both sides. The Joker's own card stays.
    target_card = slot.card
    ace = target_card.rank == 1
    if consulted is not None:
        consulted.append("caravan.joker.ace" if ace else "caravan.joker.number")
    suit, rank = target_card.suit, target_card.rank
    out = list(caravans)
    new_values = list(values)
    for ci, cv in enumerate(caravans):
        kept: list[Slot] | None = None  # the caravan's cards that stay, once one goes
        for si, s in enumerate(cv):
            if ((s.card.suit == suit) if ace else (s.card.rank == rank)) and (si != i or ci != c):
                if kept is None:
                    kept = list(cv[:si])
            elif kept is not None:
                kept.append(s)  # (the Joker's own card stays)
        if kept is not None:
            out[ci] = tuple(kept)
            new_values[ci] = caravan_value(out[ci])
    return tuple(out), tuple(new_values)


def _settle(state: State, mover: int, consulted: list[str] | None = None) -> State:
    """Decide whether the game has ended after a move by ``mover``."""
    a0, a1, a2, b0, b1, b2 = state.values
    w0 = lane_winner(a0, b0)
    if w0 is not None:
        w1 = lane_winner(a1, b1)
        if w1 is not None:
            w2 = lane_winner(a2, b2)
            if w2 is not None:
                if consulted is not None:
                    consulted += ("caravan.lane.decided", "caravan.end.lanes")
                wins_first = (w0 == 0) + (w1 == 0) + (w2 == 0)
                return state._replace(winner=0 if wins_first >= 2 else 1, end="lanes")
    decks = state.decks
    hands = state.hands
    if decks[0] == () or decks[1] == ():
        order = state.rules.out_check_order(mover)
        for p in order:
            if decks[p] == () and hands[p].size == 0:
                if consulted is not None:
                    consulted.append("caravan.end.out")
                    q = 1 - p
                    if decks[q] == () and hands[q].size == 0:
                        consulted.append(state.rules.both_out_rule)
                return state._replace(winner=1 - p, end="out")
    p = state.to_move
    if hands[p].unknown == 0 and decks[p] is not None and not _has_move(state):
        if consulted is not None:
            consulted.append("caravan.end.no-move")
        return state._replace(winner=1 - p, end="no-move")
    return state


def _has_move(state: State) -> bool:
    """Has the player to move a legal move? Every candidate is judged by ``check``; the
    cheap ones (a discard, a disband, a number card placed) are tried before the full list."""
    p = state.to_move
    # A card held may be discarded: ``check`` of that discard, whose other parts (the game
    # goes on, the card is held, no draw is written) hold here.
    if state.hands[p].known and _check_discard(state, state.placed[p] < OPENING_PLACEMENTS, None) is None:
        return True
    for c in own_caravans(p):
        if state.caravans[c] and check(state, _DISBANDS[c]) is None:
            return True
    # The first number card held on each own caravan (in the opening, where neither a
    # discard nor a disband may be allowed, one of these is what there usually is).
    for card in state.hands[p].known:
        if _IS_NUMBER[card]:
            for c in own_caravans(p):
                if check(state, _new(PlayNumber, (card, c, None))) is None:
                    return True
            break
    return next(iter(legal_moves(state)), None) is not None


def effects(before: State, move: Move, after: State) -> list[str]:
    """The ids of the rules a legal move set off (``apply``'s account: a jack's removal, a
    lane decided, the game's end), in order."""
    consulted: list[str] = []
    apply(before, move, consulted)
    return consulted


def set_off(state: State) -> list[str]:
    """The ids of the rules that ended a game (none while it goes on), for a position
    reached without a move of its own: the end decided again, as after the last move."""
    if not state.over:
        return []
    ids: list[str] = []
    _settle(state._replace(winner=None, end=None), 1 - state.to_move, ids)
    return ids
