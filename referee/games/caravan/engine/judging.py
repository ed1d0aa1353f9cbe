"""Checking moves: why a move is illegal for the player to move, with a rule id from
``spec/caravan*.toml``, and (given a ``consulted`` list) which rules decided a legal one,
from the very code that states each rule."""

from __future__ import annotations

from functools import cache, lru_cache

from referee.engines.base import Card, Violation
from referee.engines.message import M, N, T
from referee.games.caravan.engine.rules import RuleSet
from referee.games.caravan.engine.state import Attach, Disband, Discard, Move, PlayNumber, State
from referee.games.caravan.engine.table import (
    _IS_NUMBER,
    LETTERS,
    OPENING_PLACEMENTS,
    QUEEN,
    Caravan,
    own_caravans,
    owner,
    player_name,
)
from referee.games.caravan.engine.values import current_suit


def check(state: State, move: Move, consulted: list[str] | None = None) -> Violation | None:
    """Why ``move`` is illegal for the player to move, or None if it is legal.

    ``consulted`` (optional): a list that receives, in order, the id of every rule whose
    check the move passed (what an annotator cites as "allowed by"), appended by the same
    code that would have returned that rule's Violation. ``apply`` adds the rules that
    decide the move's effects."""
    p = state.to_move
    if state.end is not None:
        return Violation("caravan.end.game-over", T("the game is already over"))
    opening = state.placed[p] < OPENING_PLACEMENTS
    if consulted is not None:
        consulted.append("caravan.opening.deal" if opening else "caravan.turn.structure")
    if isinstance(move, Disband):
        found, draws = _check_disband(state, move, opening, consulted), False
    else:
        found, draws = _check_play(state, move, p, opening, consulted)
    # The draw recorded after the move (if any) is judged once the move itself is legal;
    # most records write none, and those skip the call.
    return found if found is not None or move.draw is None else _check_draw(state, move, draws, consulted)


def _check_play(state: State, move: PlayNumber | Attach | Discard, p: int, opening: bool,
                consulted: list[str] | None) -> tuple[Violation | None, bool]:
    """``check`` for a card played or discarded: the violation (None: legal) and whether
    the move is one after which the mover draws."""
    card = move.card
    hand = state.hands[p]
    if card not in hand.known and not hand.holds(card):
        return Violation("caravan.hand.possession", T("{who} does not hold {card}", who=_who(p), card=card)), False
    if consulted is not None:
        consulted.append("caravan.hand.possession")
    if isinstance(move, Discard):
        return _check_discard(state, opening, consulted), True
    number = _IS_NUMBER[card]
    if isinstance(move, PlayNumber):
        if not number:
            return Violation("caravan.face.target",
                             T("{card} is a face card: it must be attached to a number card, e.g. {move}",
                               card=card, move=f"{card}>{LETTERS[move.caravan]}1")), False
        if opening:
            return _check_opening(state, move, consulted), False
        c = move.caravan
        if owner(c) != p:
            return Violation("caravan.number.own", T("caravan {name} is not {who}'s; number cards go "
                                                     "only on one's own caravans", name=LETTERS[c], who=_who(p))), False
        if consulted is not None:
            consulted += ("caravan.number.own", "caravan.number.end")
        return placement_violation(state.rules, state.caravans[c], card, LETTERS[c], consulted), True
    if number:
        return Violation("caravan.number.end",
                         T("{card} is a number card: it goes at the end of a caravan ({move})",
                           card=card, move=f"{card}>{LETTERS[move.caravan]}")), False
    if opening:
        return _check_opening(state, move, consulted), False
    return _check_face(state, move, consulted), True


# The violations that say nothing of the position, made once: the end-of-game check asks
# after every move whether a discard or a disband is possible, and must not build a
# sentence each time.
_NO_OPENING_DISCARD = Violation("caravan.opening.discard", T("no card may be discarded during the opening"))
_NO_OPENING_FACE = Violation("caravan.opening.number-only",
                             T("face cards cannot be played in the opening: each of the first three turns "
                               "places a number card"))
_NO_OPENING_DISBAND = Violation("caravan.opening.disband", T("no caravan may be disbanded during the opening"))


@cache
def _not_own(c: int, p: int) -> Violation:
    """A placement in the opening on the other side's caravan (the legal-move search tries them all)."""
    return Violation("caravan.number.own", T("caravan {name} is not {who}'s", name=LETTERS[c], who=_who(p)))


@cache
def _occupied(c: int) -> Violation:
    return Violation("caravan.opening.empty",
                     T("caravan {name} already has a card; opening cards go on empty caravans", name=LETTERS[c]))


def _who(p: int) -> T:
    return T("player {number}", number=player_name(p))


def _check_discard(state: State, opening: bool, consulted: list[str] | None) -> Violation | None:
    """May the player to move discard (a card they hold)?"""
    rules = state.rules
    if opening:
        if not rules.opening_discard:
            return _NO_OPENING_DISCARD
        if consulted is not None:
            consulted.append("caravan.opening.discard-redraw")
    if not rules.discard_with_empty_deck:
        p = state.to_move
        if state.decks[p] == ():
            return _empty_deck_discard(p, rules.name)
        if consulted is not None:
            consulted.append("caravan.discard.empty-deck")
    return None


def _check_opening(state: State, move: Move, consulted: list[str] | None) -> Violation | None:
    if type(move) is Attach:
        return _NO_OPENING_FACE
    assert isinstance(move, PlayNumber)
    p = state.to_move
    c = move.caravan
    if owner(c) != p:
        return _not_own(c, p)
    if state.caravans[c]:
        return _occupied(c)
    if consulted is not None:
        consulted += ("caravan.number.own", "caravan.opening.empty")
    if state.rules.opening_first_empty:
        first = next(i for i in own_caravans(p) if not state.caravans[i])
        if first != c:
            return _not_first_empty(state.rules.name, first)
        if consulted is not None:
            consulted.append("caravan.opening.order")
    return None


def placement_violation(rules: RuleSet, caravan: Caravan, card: Card, name: str = "",
                        consulted: list[str] | None = None) -> Violation | None:
    """The rules for adding a number card to the end of a caravan (after the opening)."""
    cap = rules.max_numbers_per_caravan
    if cap is not None:
        if len(caravan) >= cap:
            return Violation("caravan.number.max-cards",
                             N("caravan {name} already holds {n} number card, the most {rules} allows",
                               "caravan {name} already holds {n} number cards, the most {rules} allows",
                               cap, name=name, rules=rules.name))
        if consulted is not None:
            consulted.append("caravan.number.max-cards")
    if not caravan:
        return None
    last = caravan[-1].card
    if card.rank == last.rank:
        return _same_value(card, last)
    if consulted is not None:
        consulted.append("caravan.number.same-value")
        if (len(caravan) == 1 and rules.single_card_queen_rule
                and any(f.rank == QUEEN for f in caravan[0].faces)):
            consulted.append(rules.single_card_queen_rule)
    d = rules.direction(caravan)
    if d == 0:
        return None
    suit: str | None = None  # the caravan's suit, read only when the direction is not followed
    if ((d > 0 and card.rank > last.rank) or (d < 0 and card.rank < last.rank)
            or card.suit == (suit := current_suit(caravan))):
        if consulted is not None:
            consulted += ("caravan.number.direction", rules.direction_rule, "caravan.suit.current")
            first, second = rules.direction_pair(caravan)
            if first.card.rank == second.card.rank:
                consulted.append("caravan.direction.equal")
        return None
    return _against_direction(d > 0, name, last, suit, card)


@cache
def _same_value(card: Card, last: Card) -> Violation:
    return Violation("caravan.number.same-value",
                     T("{card} cannot follow {last}: a number card never follows one of the same value",
                       card=card, last=last))


@lru_cache(maxsize=16384)
def _against_direction(ascending: bool, name: str, last: Card, suit: str | None, card: Card) -> Violation:
    template = (M("caravan {name} is ascending from {last} and its suit is {suit}; "
                  "{card} neither continues the direction nor matches the suit") if ascending else
                M("caravan {name} is descending from {last} and its suit is {suit}; "
                  "{card} neither continues the direction nor matches the suit"))
    return Violation("caravan.number.direction",
                     T(template, name=name, last=last, suit=_suit_name(suit), card=card))


@cache
def _not_first_empty(rules: str, first: int) -> Violation:
    return Violation("caravan.opening.order",
                     T("under {rules} the opening card goes on the first empty caravan, {name}",
                       rules=rules, name=LETTERS[first]))


@cache
def _queen_not_last(rules: str, name: str, n: int) -> Violation:
    return Violation("caravan.queen.last",
                     T("under {rules} a Queen goes only on the last number card of a caravan ({place})",
                       rules=rules, place=f"{name}{n}"))


@cache
def _empty_deck_discard(p: int, rules: str) -> Violation:
    return Violation("caravan.discard.empty-deck",
                     T("{who}'s deck is empty; {rules} forbids discarding then", who=_who(p), rules=rules))


@cache
def _disband_not_own(c: int, p: int) -> Violation:
    return Violation("caravan.disband.own", T("caravan {name} is not {who}'s", name=LETTERS[c], who=_who(p)))


@cache
def _disband_empty(c: int) -> Violation:
    return Violation("caravan.disband.empty", T("caravan {name} is empty; there is nothing to disband",
                                                name=LETTERS[c]))


@cache
def _disband_all_empty(p: int, rules: str) -> Violation:
    return Violation("caravan.disband.all-empty",
                     T("all of {who}'s caravans are empty; {rules} allows no disband then", who=_who(p), rules=rules))


_SUIT_NAMES = {"S": M("spades"), "H": M("hearts"), "D": M("diamonds"), "C": M("clubs")}


def _suit_name(suit: str | None) -> T:
    return T(_SUIT_NAMES.get(suit or "", M("none")))


def _check_face(state: State, move: Attach, consulted: list[str] | None) -> Violation | None:
    rules = state.rules
    caravan = state.caravans[move.caravan]
    name = LETTERS[move.caravan]
    n = len(caravan)
    if not 0 <= move.index < n:
        return Violation("caravan.face.target",
                         T("caravan {name} has no number cards", name=name) if n == 0 else
                         N("caravan {name} has only {n} number card", "caravan {name} has only {n} number cards",
                           n, name=name))
    if consulted is not None:
        consulted.append("caravan.face.target")
    cap = rules.max_faces_per_card
    if cap is not None:
        slot = caravan[move.index]
        if len(slot.faces) >= cap:
            return Violation("caravan.face.limit",
                             N("{card} in caravan {name} already holds {n} face card, the most {rules} allows",
                               "{card} in caravan {name} already holds {n} face cards, the most {rules} allows",
                               cap, card=slot.card, name=name, rules=rules.name))
        if consulted is not None:
            consulted.append("caravan.face.limit")
    if move.card.rank == QUEEN and rules.queen_last_only:
        if move.index != n - 1:
            return _queen_not_last(rules.name, name, n)
        if consulted is not None:
            consulted.append("caravan.queen.last")
    return None


def _check_disband(state: State, move: Disband, opening: bool, consulted: list[str] | None) -> Violation | None:
    rules = state.rules
    p = state.to_move
    c = move.caravan
    if opening:
        return _NO_OPENING_DISBAND
    if owner(c) != p:
        return _disband_not_own(c, p)
    if consulted is not None:
        consulted.append("caravan.disband.own")
    if not rules.disband_empty:
        if not state.caravans[c]:
            return _disband_empty(c)
        if consulted is not None:
            consulted.append("caravan.disband.empty")
    else:
        if not state.caravans[c] and not any(state.caravans[i] for i in own_caravans(p)):
            return _disband_all_empty(p, rules.name)
        if consulted is not None:
            consulted.append("caravan.disband.all-empty")
    return None


def _check_draw(state: State, move: Move, draws: bool, consulted: list[str] | None) -> Violation | None:
    """A draw recorded after a move (``+9D``) must be what the deck gives."""
    recorded = move.draw
    if recorded is None:
        return None
    if not draws:
        return Violation("caravan.draw.none",
                         T("nothing is drawn after a disband, but the record shows {draw}", draw=f"+{recorded}")
                         if isinstance(move, Disband) else
                         T("nothing is drawn after an opening placement, but the record shows {draw}",
                           draw=f"+{recorded}"))
    deck = state.decks[state.to_move]
    if deck is None:
        return None
    if not deck:
        return Violation("caravan.draw.empty",
                         T("the deck is empty, so nothing is drawn, but the record shows {draw}", draw=f"+{recorded}"))
    if deck[0] != recorded:
        return Violation("caravan.draw.mismatch",
                         T("the next card of the deck is {card}, not {recorded}", card=deck[0], recorded=recorded))
    if consulted is not None:
        consulted.append("caravan.draw.mismatch")
    return None


def check_mover(state: State, player: int) -> Violation | None:
    """May ``player`` move now? A move names no player: at a live table the seat that
    sends it must be the player to move (caravan.turn.structure)."""
    if player == state.to_move:
        return None
    return Violation("caravan.turn.structure", T("it is player {mover}'s turn, not player {player}'s",
                                                 mover=state.to_move + 1, player=player + 1))


def after_illegal(state: State, move: Move, violation: Violation) -> State | None:
    """Caravan's illegal-move policy: an illegal move ends the replay (None), whatever the
    rule it broke; nothing is applied in its place."""
    return None
