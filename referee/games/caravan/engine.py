"""The Caravan engine (Fallout: New Vegas), both rule sets.

State is immutable (named tuples); ``check`` says why a move is illegal with a rule id
from ``spec/caravan*.toml``; ``apply`` assumes the move passed ``check``; ``legal_moves``
lists the moves a player with a known hand can make, ``random_move`` draws one lazily.
Given a ``consulted`` list, ``check`` and ``apply`` also say which rules decided a legal
move and its effects (``effects``), from the very code that states each rule (there is no
second, hand-written list of "allowed by" rules); ``set_off`` names the rules that ended a
game reached without a move. ``check_result`` judges a declared result;
``after_illegal`` is the illegal-move policy (the replay stops).

Caravans are numbered 0-5 (A-F): 0-2 belong to player 0 (player "1" in records),
3-5 to player 1. Caravan i faces caravan i + 3. Number cards in a caravan are indexed
from 0 here (the notation counts from 1).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, fields
from functools import cache, lru_cache
from random import Random
from typing import NamedTuple, Union

from referee.engines.base import ALL_CARDS, Card, Violation
from referee.engines.message import M, N, T

JACK, QUEEN, KING = 11, 12, 13
LANES = ((0, 3), (1, 4), (2, 5))
LETTERS = "ABCDEF"
TARGET_LOW, TARGET_HIGH = 21, 26
OPENING_PLACEMENTS = 3
OPENING_HAND = 8

#: What ``python -m referee.compiled build`` compiles with mypyc: this module.
COMPILED = (__name__,)


def is_number(card: Card) -> bool:
    return 1 <= card.rank <= 10


#: ``is_number`` of every card, for the hot paths.
_IS_NUMBER = {card: is_number(card) for card in ALL_CARDS}


def owner(caravan: int) -> int:
    return caravan // 3


def own_caravans(player: int) -> range:
    return range(3 * player, 3 * player + 3)


def player_name(player: int) -> str:
    return str(player + 1)


# --------------------------------------------------------------------------- state


class Slot(NamedTuple):
    """A number card in a caravan with the face cards attached to it, oldest first."""

    card: Card
    faces: tuple[Card, ...] = ()


Caravan = tuple[Slot, ...]


#: Builds a named tuple from its fields without the generated ``__new__`` (hot paths only).
_new = tuple.__new__


class Hand(NamedTuple):
    """A hand: the cards known to be in it, plus ``unknown`` unseen cards.

    ``unknown`` is ``None`` when not even the number of unseen cards is known (a record
    without decks): possession can then not be checked.
    """

    known: tuple[Card, ...]
    unknown: int | None = 0

    @property
    def size(self) -> int | None:
        return None if self.unknown is None else len(self.known) + self.unknown

    @property
    def fully_known(self) -> bool:
        return self.unknown == 0

    def holds(self, card: Card) -> bool:
        return card in self.known or self.unknown is None or self.unknown > 0

    def after(self, played: Card | None, draws: bool, drawn: Card | None) -> Hand:
        """The hand after a move: ``played`` (None: no card) leaves it (a copy known to be
        in it, else one of the unseen cards); then, if the move ``draws``, ``drawn`` joins it
        at the end (None: an unseen card). What is not counted stays uncounted."""
        unknown = self.unknown
        cards = list(self.known)  # changed in place, then a tuple again: fewer copies than slices
        if played is not None:
            try:
                cards.remove(played)
            except ValueError:
                if unknown is not None:
                    unknown -= 1
        if draws:
            if drawn is not None:
                cards.append(drawn)
            elif unknown is not None:
                unknown += 1
        known = tuple(cards)
        return _new(Hand, (known, unknown))


# Before State, which names it: compiled by mypyc, a named tuple's field types are looked up
# when its class is made.
@dataclass(frozen=True)
class RuleSet:
    """The points on which Caravan rule sets differ, as plain data (no functions: a rule
    set is sent to worker processes and cluster workers as it is)."""

    name: str
    description: str
    #: Which number cards set the direction: "first-two" (the first two, reversed by each
    #: Queen in the caravan) or "last-two" (the last two, reversed by each Queen on the last).
    direction_from: str
    queen_last_only: bool
    max_faces_per_card: int | None
    max_numbers_per_caravan: int | None
    opening_first_empty: bool
    opening_discard: bool
    discard_with_empty_deck: bool
    #: May an empty caravan be disbanded (never when all three of the mover's are empty)?
    disband_empty: bool
    #: Who is checked first for running out: "mover" (the player who just moved) or
    #: "first" (player 1 always).
    out_checked_first: str
    #: The spec ids of this rule set's own rules for direction and running out together.
    direction_rule: str
    both_out_rule: str
    #: The ruling that a Queen on a lone card reverses the coming direction, where it holds.
    single_card_queen_rule: str | None
    deck_min: int
    deck_max: int | None

    def __repr__(self) -> str:  # keeps State reprs short
        return f"RuleSet({self.name!r})"

    def __reduce__(self) -> tuple[object, ...]:
        # Rebuilt through its constructor (compiled, a frozen class cannot have its fields
        # set one by one), and as the named rule set itself where it is one.
        return _restored, tuple(getattr(self, f.name) for f in fields(self))

    def direction(self, caravan: Caravan) -> int:
        """The caravan's direction under this rule set: 1 up, -1 down, 0 not set yet."""
        return direction_fnv(caravan) if self.direction_from == "last-two" else direction_holotape(caravan)

    def direction_pair(self, caravan: Caravan) -> tuple[Slot, Slot]:
        """The two number cards the direction is read from (for citing the equal-values ruling)."""
        return (caravan[-2], caravan[-1]) if self.direction_from == "last-two" else (caravan[0], caravan[1])

    def out_check_order(self, mover: int) -> tuple[int, int]:
        """The order in which players are checked for running out, given the mover."""
        return (0, 1) if self.out_checked_first == "first" else (mover, 1 - mover)


def _restored(*values: object) -> RuleSet:
    """A pickled rule set again: the named one when it is equal to it."""
    made = RuleSet(*values)  # type: ignore[arg-type]  # the fields, in order, as __reduce__ gave them
    named = RULESETS.get(made.name)
    return named if named == made else made


class State(NamedTuple):
    rules: RuleSet
    caravans: tuple[Caravan, ...]
    hands: tuple[Hand, Hand]
    #: Each deck's remaining cards, top first; ``None`` when unknown.
    decks: tuple[tuple[Card, ...] | None, tuple[Card, ...] | None]
    to_move: int
    #: Opening placements made by each player (the opening lasts 3 placements each).
    placed: tuple[int, int]
    #: Each caravan's value (derived from ``caravans``; kept because every move asks).
    values: tuple[int, ...] = (0,) * 6
    winner: int | None = None
    #: Why the game ended: "lanes", "out" (a player ran out of cards), "no-move".
    end: str | None = None

    @property
    def over(self) -> bool:
        return self.end is not None

    def in_opening(self, player: int | None = None) -> bool:
        return self.placed[self.to_move if player is None else player] < OPENING_PLACEMENTS


# --------------------------------------------------------------------------- moves


class PlayNumber(NamedTuple):
    """Put a card at the end of one of the mover's caravans (``7H>A``)."""

    card: Card
    caravan: int
    draw: Card | None = None


class Attach(NamedTuple):
    """Attach a face card to the ``index``-th number card of any caravan (``KS>D2``)."""

    card: Card
    caravan: int
    index: int  # type: ignore[assignment]  # the field deliberately shadows tuple.index; nothing calls that method on a move
    draw: Card | None = None


class Discard(NamedTuple):
    card: Card
    draw: Card | None = None


class Disband(NamedTuple):
    caravan: int
    draw: Card | None = None


Move = Union[PlayNumber, Attach, Discard, Disband]


# --------------------------------------------------------------------------- values


def card_value(slot: Slot) -> int:
    if not slot.faces:
        return slot.card.rank
    kings = sum(1 for f in slot.faces if f.rank == KING)
    return slot.card.rank << kings


def caravan_value(caravan: Caravan) -> int:
    return sum(card_value(s) for s in caravan)


def current_suit(caravan: Caravan) -> str | None:
    """The last number card's suit, or that of the latest Queen attached to it (both sets)."""
    if not caravan:
        return None
    last = caravan[-1]
    if last.faces:
        for face in reversed(last.faces):
            if face.rank == QUEEN:
                return face.suit
    return last.card.suit


def _queen_parity(slots: Iterable[Slot]) -> bool:
    """An odd number of Queens attached to these number cards?"""
    odd = False
    for slot in slots:
        if slot.faces:
            for face in slot.faces:
                if face.rank == QUEEN:
                    odd = not odd
    return odd


def _run(first: int, second: int) -> int:
    # Equal values (left so by a Jack) count as descending (ruling caravan.direction.equal).
    return 1 if second > first else -1


def direction_holotape(caravan: Caravan) -> int:
    """Set by the first two number cards, reversed by each Queen anywhere in the caravan."""
    if len(caravan) < 2:
        return 0
    d = _run(caravan[0].card.rank, caravan[1].card.rank)
    return -d if _queen_parity(caravan) else d


def direction_fnv(caravan: Caravan) -> int:
    """From the last two number cards, reversed by each Queen on the last one."""
    if len(caravan) < 2:
        return 0
    d = _run(caravan[-2].card.rank, caravan[-1].card.rank)
    return -d if _queen_parity(caravan[-1:]) else d


def lane_winner(a: int, b: int) -> int | None:
    """Which side holds a lane: 0 (first caravan), 1 (second) or None (still open)."""
    a_in = TARGET_LOW <= a <= TARGET_HIGH
    b_in = TARGET_LOW <= b <= TARGET_HIGH
    if a_in and b_in:
        return None if a == b else (0 if a > b else 1)
    if a_in:
        return 0
    if b_in:
        return 1
    return None


def lane_winners(state: State) -> tuple[int | None, int | None, int | None]:
    values = state.values
    # LANES holds three lanes: three winners
    return tuple(lane_winner(values[a], values[b]) for a, b in LANES)  # type: ignore[return-value]


# --------------------------------------------------------------------------- rule sets


RULESETS: dict[str, RuleSet] = {
    "holotape": RuleSet(
        name="holotape",
        description=T("the rules as the game's instruction holotape, How to play Caravan, writes them"),
        direction_from="first-two",
        queen_last_only=False,
        max_faces_per_card=None,
        max_numbers_per_caravan=None,
        opening_first_empty=False,
        opening_discard=False,
        discard_with_empty_deck=True,
        disband_empty=False,
        # Cannot arise in play; for a start position, the mover's own emptiness counts first.
        out_checked_first="mover",
        direction_rule="caravan.direction.first-two",
        both_out_rule="caravan.end.both-out-mover",
        single_card_queen_rule="caravan.queen.single-card",
        deck_min=30,
        deck_max=None,
    ),
    "fnv": RuleSet(
        name="fnv",
        description=T("what Fallout: New Vegas 1.4's own Caravan engine does, as the nv-rs project "
                      "reimplements it"),
        direction_from="last-two",
        queen_last_only=True,
        max_faces_per_card=3,
        max_numbers_per_caravan=7,
        opening_first_empty=True,
        opening_discard=True,
        discard_with_empty_deck=False,
        disband_empty=True,
        out_checked_first="first",
        direction_rule="caravan.direction.last-two",
        both_out_rule="caravan.end.both-out-first",
        single_card_queen_rule=None,
        deck_min=30,
        deck_max=108,
    ),
}
DEFAULT_RULES = "holotape"


def ruleset(name: str) -> RuleSet:
    """The rule set called ``name``; ValueError saying the known ones for another name."""
    found = RULESETS.get(name)
    if found is None:
        raise ValueError(T("{text} is not a Caravan rule set: use one of {choices}", text=repr(name),
                           choices=", ".join(RULESETS)))
    return found


# --------------------------------------------------------------------------- set-up


def check_deck(rules: RuleSet, deck: Iterable[tuple[Card, str]], who: str | T) -> list[Violation]:
    """Deck building: size bounds and no card twice from one set (a set has two jokers)."""
    cards = list(deck)
    found: list[Violation] = []
    if len(cards) < rules.deck_min:
        found.append(Violation("caravan.deck.size",
                               N("{who}'s deck has {n} card; at least {least} are needed",
                                 "{who}'s deck has {n} cards; at least {least} are needed",
                                 len(cards), who=who, least=rules.deck_min)))
    if rules.deck_max is not None and len(cards) > rules.deck_max:
        found.append(Violation("caravan.deck.max",
                               N("{who}'s deck has {n} card; {rules} allows at most {most}",
                                 "{who}'s deck has {n} cards; {rules} allows at most {most}",
                                 len(cards), who=who, rules=rules.name, most=rules.deck_max)))
    for (card, card_set), n in Counter(cards).items():
        if n > 1 and n > (2 if card.is_joker else 1):
            where = T("the default set") if not card_set else T("set {name}", name=repr(card_set))
            found.append(Violation("caravan.deck.duplicate",
                                   T("{who}'s deck holds {card} {n} times from {where}; a set has two jokers",
                                     who=who, card=card, n=n, where=where) if card.is_joker else
                                   T("{who}'s deck holds {card} {n} times from {where}; a set has one of each card",
                                     who=who, card=card, n=n, where=where)))
    return found


def new_game(rules: RuleSet, decks: tuple[list[Card] | None, list[Card] | None], first: int = 0) -> State:
    """The start of a game: each player takes the top 8 cards of their deck (unknown decks give
    hands whose contents are unknown)."""
    hands: list[Hand] = []
    rest: list[tuple[Card, ...] | None] = []
    for deck in decks:
        if deck is None:
            hands.append(Hand((), None))
            rest.append(None)
        else:
            hands.append(Hand(tuple(deck[:OPENING_HAND]), 0))
            rest.append(tuple(deck[OPENING_HAND:]))
    return State(rules, ((),) * 6, (hands[0], hands[1]), (rest[0], rest[1]), first, (0, 0))


def check_position(rules: RuleSet, caravans: tuple[Caravan, ...]) -> list[Violation]:
    """What no play could have left on the table: a face card standing as a number card, a
    number card or a Jack attached to one (a Jack leaves with its card), and the rule
    set's limits on face cards per card and number cards per caravan."""
    found: list[Violation] = []
    for c, caravan in enumerate(caravans):
        name = LETTERS[c]
        cap = rules.max_numbers_per_caravan
        if cap is not None and len(caravan) > cap:
            found.append(Violation("caravan.number.max-cards",
                                   N("caravan {name} holds {n} number card; {rules} allows at most {most}",
                                     "caravan {name} holds {n} number cards; {rules} allows at most {most}",
                                     len(caravan), name=name, rules=rules.name, most=cap)))
        for i, slot in enumerate(caravan, start=1):
            if not is_number(slot.card):
                found.append(Violation("caravan.face.target",
                                       T("{card} stands in caravan {name} as a number card; face cards are only "
                                         "ever attached to one", card=slot.card, name=name)))
            for face in slot.faces:
                if is_number(face):
                    found.append(Violation("caravan.number.end",
                                           T("{card} is attached to {place}; number cards are never attached",
                                             card=face, place=f"{name}{i}")))
                elif face.rank == JACK:
                    found.append(Violation("caravan.jack.remove",
                                           T("a Jack is attached to {place}; a Jack leaves the table with its card",
                                             place=f"{name}{i}")))
            faces = rules.max_faces_per_card
            if faces is not None and len(slot.faces) > faces:
                found.append(Violation("caravan.face.limit",
                                       N("{card} in caravan {name} holds {n} face card; {rules} allows at most {most}",
                                         "{card} in caravan {name} holds {n} face cards; {rules} allows at most {most}",
                                         len(slot.faces), card=slot.card, name=name, rules=rules.name, most=faces)))
    return found


def position(rules: RuleSet, caravans: tuple[Caravan, ...], hands: tuple[Hand, Hand],
             decks: tuple[tuple[Card, ...] | None, tuple[Card, ...] | None], to_move: int,
             opening: bool) -> State:
    """A start position (a puzzle or an excerpt). In the opening, placements already made are
    counted from the non-empty caravans."""
    if opening:
        placed = tuple(min(OPENING_PLACEMENTS, sum(1 for c in own_caravans(p) if caravans[c]))
                       for p in (0, 1))
    else:
        placed = (OPENING_PLACEMENTS, OPENING_PLACEMENTS)
    values = tuple(caravan_value(c) for c in caravans)
    # placed: one count per player
    state = State(rules, caravans, hands, decks, to_move, placed, values)  # type: ignore[arg-type]
    return _settle(state, 1 - to_move)  # the position is judged as after its last move


# --------------------------------------------------------------------------- check


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


# The violations random play meets most, each made once for what it says (the end of
# the game is searched after every move, and a random player's candidates are judged):
# a sentence is not built again for the same words.


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


# --------------------------------------------------------------------------- apply


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


_DISCARDS = {card: Discard(card) for card in ALL_CARDS}
_DISBANDS = tuple(Disband(c) for c in range(6))


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


# --------------------------------------------------------------------------- results


def check_result(state: State, declared: str, abandoned: bool = False) -> tuple[Violation, bool] | None:
    """Whether a declared result (``1-0``, ``0-1``, ``*``) is the outcome of the game as it
    stands after the record's last move: None when it is, else the Violation and whether it
    is only a doubt (True: the result cannot be confirmed, a warning) rather than a fault.
    ``abandoned``: the record says the game was given up ([Termination "forfeit"])."""
    if state.over:
        expected = "1-0" if state.winner == 0 else "0-1"
        if declared != expected:
            return Violation("caravan.result.wrong",
                             T("the result is {declared}, but {end}, so it is {expected}",
                               declared=declared, end=describe_end(state), expected=expected)), False
        return None
    if declared == "*" or abandoned:
        return None
    if any(state.hands[p].size is None or state.decks[p] is None for p in (0, 1)):
        return Violation("caravan.result.unverified",
                         T("the result {declared} cannot be confirmed: the lanes are not all "
                           "decided and without both decks nobody can tell whether a player ran out",
                           declared=declared)), True
    return Violation("caravan.result.unfinished",
                     T("the result is {declared}, but the game has not ended (not every lane is "
                       "decided and nobody ran out); only {tag} allows that",
                       declared=declared, tag='[Termination "forfeit"]')), False


def describe_end(state: State) -> T:
    """How a finished game was won, as a sentence."""
    winner = state.winner + 1  # type: ignore[operator]  # asked only of an ended game: it has a winner
    loser = 2 - state.winner  # type: ignore[operator]  # as above
    if state.end == "lanes":
        values = [caravan_value(c) for c in state.caravans]
        lanes = ", ".join(f"{LETTERS[a]}/{LETTERS[b]} {values[a]}-{values[b]}" for a, b in LANES)
        return T("player {winner} won: all three lanes are decided ({lanes})", winner=winner, lanes=lanes)
    if state.end == "out":
        return T("player {winner} won: player {loser} ran out of cards", winner=winner, loser=loser)
    return T("player {winner} won: player {loser} had no legal move", winner=winner, loser=loser)


# --------------------------------------------------------------------------- legal moves


def legal_moves(state: State) -> Iterator[Move]:
    """Every legal move of the player to move, made from the cards known to be in hand
    (each distinct card once; draws are left to ``apply``)."""
    if state.over:
        return
    p = state.to_move
    hand = sorted(set(state.hands[p].known))
    caravans = state.caravans
    for card in hand:
        if is_number(card):
            for c in own_caravans(p):
                m: Move = PlayNumber(card, c)
                if check(state, m) is None:
                    yield m
        elif not state.in_opening():
            for c, caravan in enumerate(caravans):
                for i in range(len(caravan)):
                    m = Attach(card, c, i)
                    if check(state, m) is None:
                        yield m
    for card in hand:
        m = Discard(card)
        if check(state, m) is None:
            yield m
    for c in own_caravans(p):
        m = Disband(c)
        if check(state, m) is None:
            yield m


def standard_deck() -> list[Card]:
    """One 54-card set: 52 cards and two jokers."""
    return list(ALL_CARDS) + [ALL_CARDS[-1]]


def random_move(state: State, rng: Random, tries: int = 12) -> Move | None:
    """A legal move drawn uniformly from ``legal_moves(state)`` (None when there is none),
    found lazily: a candidate (one of the moves ``legal_moves`` considers) is drawn at random
    and judged by ``check``, again until one is legal; each draw is uniform over the
    candidates, so the first legal one is uniform over the legal moves. After ``tries``
    candidates judged without a legal one the legal moves are listed and one is chosen.

    The candidates are drawn from a grid, so that finding the one drawn takes no count of
    the hand: a row for each card held, as wide as the widest row needs (a number card's
    placement on each own caravan, a face card's, after the opening, on each of the number
    cards on the table; then the card's discard), and after the rows the three disbands. A
    cell past the end of its row, or in the row of a second copy of a card (drawn at its
    first place only), is no candidate: it is drawn again, not judged."""
    if state.end is not None:
        return None
    p = state.to_move
    hand = state.hands[p].known
    caravans = state.caravans
    if state.placed[p] < OPENING_PLACEMENTS:
        slots = 0
        width = 4
    else:
        c0, c1, c2, c3, c4, c5 = caravans  # (unpacked one by one: faster than map)
        slots = len(c0) + len(c1) + len(c2) + len(c3) + len(c4) + len(c5)
        width = slots + 1 if slots > 3 else 4
    cells = len(hand) * width
    total = cells + 3
    first = 3 * p
    random = rng.random
    index = hand.index
    judged = 0
    while judged < tries:
        i = (random() * total).__trunc__()  # int(), without the call of a type
        if i >= cells:
            move: Move = _DISBANDS[first + i - cells]
        else:
            k, j = divmod(i, width)
            card = hand[k]
            if _IS_NUMBER[card]:
                if j < 3:
                    move = _new(PlayNumber, (card, first + j, None))
                elif j == 3:
                    move = _DISCARDS[card]
                else:
                    continue
            elif j < slots:
                c = 0
                for caravan in caravans:
                    if j < len(caravan):
                        break
                    j -= len(caravan)
                    c += 1
                move = _new(Attach, (card, c, j, None))
            elif j == slots:
                move = _DISCARDS[card]
            else:
                continue
            if k and index(card) != k:
                continue  # a second copy of a card: drawn at its first place only
        judged += 1
        if check(state, move) is None:
            return move
    legal = list(legal_moves(state))
    return rng.choice(legal) if legal else None
