"""Setting up: deck building, the start of a game, and a start position given as it
stands (a puzzle or an excerpt)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from referee.engines.base import Card, Violation
from referee.engines.message import N, T
from referee.games.caravan.engine.play import _settle
from referee.games.caravan.engine.rules import RuleSet
from referee.games.caravan.engine.state import State
from referee.games.caravan.engine.table import (
    JACK,
    LETTERS,
    OPENING_HAND,
    OPENING_PLACEMENTS,
    Caravan,
    Hand,
    is_number,
    own_caravans,
)
from referee.games.caravan.engine.values import caravan_value


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
