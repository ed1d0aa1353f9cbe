"""Caravan's dispute scope: which records ``pitboss disputes caravan`` searches.

**Starts.** The opening, player 1 first (the rules are the same for either player: who
moves first changes nothing the rule sets dispute), with decks chosen freely within the
deck rules: every deck is as small as they allow (30 cards), so that it empties soonest,
and besides a deck of 109 cards (more than ``fnv``'s 108). A deck is written as the
record needs it: the cards each player uses, in the order used, then fillers. Hands are
therefore free: a player holds whatever card of the scope's cards they play (the engine's
unseen cards). One further start deals player 2 eight face cards and a deck of number
cards, both known, so that a player's having no legal move is judged too.

**Cards.** Number cards 2C, 3S, 4S; face cards JS, QS, KS and the joker: enough to set
and break a direction with a suit (two cards of one suit, one of another), and to put
every kind of face card on a card.

**Moves.** In the opening, a number card on each own empty caravan (the scope's number
cards on the first caravan of each side, A and D; 2C on the others) or a discard. After
it, on lane A/D only: a number card on one's own caravan of the lane, a face card on any
number card of A or D, a discard, a disband of an own caravan. (The rule sets decide
every rule per caravan or per player: one lane shows each of them; the other caravans
hold a card each, so that a disband always leaves one.)

**Length.** Records of at most ``depth`` moves (default 10); a record whose positions
parted by an effect is followed up to two moves further, to the move that shows it.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator, Sequence
from pathlib import Path
from dataclasses import dataclass
from typing import Any

from referee.engines import fields
from referee.engines.base import Card
from referee.games.caravan import engine as cv
from referee.games.caravan.notation.cvn import move_text, table_text, write_caravan
from referee.jobs.disputes.classes import ILLEGAL, LEGAL, Verdict
from referee.jobs.disputes.scope import Start
from referee.notation.cards import parse_card

#: The settings' fields that state each point where Caravan rule sets differ, by the
#: point's name: a class is that point's when copying these fields from one setting to
#: the other makes the two rule alike.
POINTS: dict[str, tuple[str, ...]] = {
    "direction": ("direction", "direction_from", "direction_rule", "direction_pair", "single_card_queen_rule"),
    "queen placement": ("queen_last_only",),
    "face cards per number card": ("max_faces_per_card",),
    "number cards per caravan": ("max_numbers_per_caravan",),
    "opening placement": ("opening_first_empty",),
    "discard in the opening": ("opening_discard",),
    "discard with an empty deck": ("discard_with_empty_deck",),
    "disband": ("disband_empty",),
    "both players out of cards": ("out_check_order", "out_checked_first", "both_out_rule"),
    "deck size": ("deck_min", "deck_max"),
}

NUMBERS = tuple(parse_card(c) for c in ("2C", "3S", "4S"))
FACES = tuple(parse_card(c) for c in ("JS", "QS", "KS", "JK"))
#: The number card the opening puts on the caravans off the lane searched.
FILLER = parse_card("2C")
#: Cards a deck is filled up with (never played: the record's moves do not reach them).
PADDING = tuple(parse_card(c) for c in ("10H", "9H", "8H", "7H", "6H", "5H", "10D", "9D", "8D", "7D", "6D", "5D"))
DECK = 30
BIG_DECK = 109
#: The lane searched after the opening: caravan A (player 1's) and D (player 2's).
LANE = (0, 3)


@dataclass(frozen=True)
class StartInfo:
    """What a record of the scope starts with: each player's deck size, and the deck of a
    player whose cards are known from the start (None: free)."""

    sizes: tuple[int, int]
    known: tuple[tuple[Card, ...] | None, tuple[Card, ...] | None] = (None, None)


def _free_hand() -> cv.Hand:
    return cv.Hand((), cv.OPENING_HAND)


class CaravanScope:
    """The scope for a list of Caravan rule sets (see the module's docstring)."""

    def __init__(self, settings: Sequence[cv.RuleSet]) -> None:
        self.settings = tuple(settings)

    def describe(self) -> dict[str, Any]:
        return {
            "starts": "the opening, player 1 first, decks of 30 cards chosen freely (and one of 109); or player 2 "
                      "dealt eight face cards",
            "cards": [str(c) for c in NUMBERS + FACES],
            "moves": "in the opening any placement or discard; after it, lane A/D only: number cards on one's own "
                     "caravan of it, face cards on its cards, discards, disbands",
        }

    # -------------------------------------------------------------- starts

    def starts(self) -> Iterator[Start]:
        free = StartInfo((DECK, DECK))
        states = tuple(cv.State(r, ((),) * 6, (_free_hand(), _free_hand()), (None, None), 0, (0, 0))
                       for r in self.settings)
        draws = (DECK - cv.OPENING_HAND,) * 2
        yield Start(states, free, extra=(draws,) * len(states))
        big = StartInfo((BIG_DECK, DECK))
        rejected = {}
        for i, rules in enumerate(self.settings):
            found = cv.check_deck(rules, _with_sets(_deck(big, 0, ())), "player 1")
            if found:
                rejected[i] = Verdict(ILLEGAL, found[0].rule)
        if rejected:
            yield Start(states, big, rejected=rejected)
        faces = tuple(FACES[i % len(FACES)] for i in range(cv.OPENING_HAND))
        deck = faces + tuple(NUMBERS[i % len(NUMBERS)] for i in range(DECK - cv.OPENING_HAND))
        dealt = StartInfo((DECK, DECK), (None, deck))
        states = tuple(cv.State(r, ((),) * 6, (_free_hand(), cv.Hand(faces, 0)), (None, deck[cv.OPENING_HAND:]), 0,
                                (0, 0)) for r in self.settings)
        yield Start(states, dealt, extra=((draws[0], 0),) * len(states))

    # -------------------------------------------------------------- moves

    def moves(self, states: Sequence[cv.State], extra: Hashable) -> Iterable[cv.Move]:
        seen: dict[cv.Move, None] = {}
        for state in states:
            for move in _moves(state):
                seen.setdefault(move)
        return seen

    def advance(self, states: Sequence[cv.State], afters: Sequence[cv.State], move: cv.Move,
                extra: Hashable) -> tuple[tuple[cv.State, ...], Hashable]:
        """Each free deck counts its draws; once it is spent, the state knows it is empty."""
        out, counts = [], []
        for before, after, left in zip(states, afters, extra):  # type: ignore[call-overload]  # one count pair per setting
            p = before.to_move
            left = list(left)
            if before.decks[p] is None and after.decks[p] is None:
                played = 0 if isinstance(move, cv.Disband) else 1
                size, was = after.hands[p].size, before.hands[p].size
                if size is not None and was is not None and size - was + played > 0:
                    left[p] -= 1
                    if left[p] == 0:
                        decks = list(after.decks)
                        decks[p] = ()
                        after = after._replace(decks=tuple(decks))
            out.append(after)
            counts.append(tuple(left))
        return tuple(out), tuple(counts)

    # -------------------------------------------------------------- readings

    def reading(self, state: cv.State) -> dict[str, Any]:
        return reading(state)

    def raw(self, state: cv.State) -> Hashable:
        return tuple(state)[1:]  # all but the rule set

    def endings(self, states: Sequence[cv.State]) -> Iterable[tuple[str, tuple[Verdict, ...]]]:
        for declared in ("1-0", "0-1"):
            said = []
            for state in states:
                found = cv.check_result(state, declared)
                # The scope's free hands leave a result unconfirmed where the written record,
                # its decks known, says the game is not over.
                said.append(Verdict(LEGAL) if found is None else
                            Verdict(ILLEGAL, "caravan.result.unfinished" if found[1] else found[0].rule))
            if any(v.kind == LEGAL for v in said):
                yield declared, tuple(said)

    # -------------------------------------------------------------- records

    def record(self, start: Start, moves: Sequence[cv.Move], ending: str | None = None) -> str:
        info: StartInfo = start.info
        tags = {"Game": "Caravan", "Rules": self.settings[0].name, "First": "1"}
        for p in (0, 1):
            tags[f"Deck{p + 1}"] = _deck_text(_deck(info, p, moves))
        tags["Result"] = ending or "*"
        return write_caravan(tags, list(moves), ending or "*")

    def describe_move(self, state: cv.State, move: cv.Move) -> str:
        return move_text(move)

    def position(self, state: cv.State, moves: Sequence[cv.Move] = ()) -> str:
        def cards(hand: cv.Hand) -> str:
            return " ".join([str(c) for c in hand.known] + ["?"] * (hand.unknown or 0)) if hand.unknown is not None \
                else "?"

        tags = {"Game": "Caravan", "Rules": state.rules.name, "Table": table_text(state.caravans),
                "Hand1": cards(state.hands[0]), "Hand2": cards(state.hands[1])}
        for p, deck in enumerate(state.decks):
            if deck is not None:
                tags[f"Deck{p + 1}"] = _deck_text(deck)
        tags["ToMove"] = cv.player_name(state.to_move)
        tags["Phase"] = "opening" if state.in_opening() else "main"
        return write_caravan(tags, [], "*").rstrip("\n").rpartition("\n")[0].rstrip("\n") + "\n"


def reading(state: cv.State) -> dict[str, Any]:
    """What the rules read in a position, by component (each caravan's direction under the
    state's own rule set)."""
    rules = state.rules
    return {
        "direction": tuple(rules.direction(c) for c in state.caravans),
        "suit": tuple(cv.current_suit(c) for c in state.caravans),
        "table": state.caravans,
        "turn": state.to_move,
        "opening": state.placed,
        "result": (state.end, state.winner),
        "hand": state.hands,
        "deck": state.decks,
    }


def _moves(state: cv.State) -> Iterator[cv.Move]:
    if state.over:
        return
    p = state.to_move
    own = cv.own_caravans(p)
    lane = LANE[p]
    hand = state.hands[p]
    discards = {FILLER, *hand.known}
    if state.in_opening():
        for c in own:
            for card in (NUMBERS if c == lane else (FILLER,)):
                yield cv.PlayNumber(card, c)
        yield from (cv.Discard(card) for card in discards)
        for card in hand.known:
            if cv.is_number(card):
                yield from (cv.PlayNumber(card, c) for c in own)
        return
    for card in NUMBERS + tuple(c for c in hand.known if cv.is_number(c) and c not in NUMBERS):
        yield cv.PlayNumber(card, lane)
    for c in LANE:
        for i in range(len(state.caravans[c])):
            for card in FACES + tuple(c for c in hand.known if not cv.is_number(c) and c not in FACES):
                yield cv.Attach(card, c, i)
    yield from (cv.Discard(card) for card in discards)
    yield from (cv.Disband(c) for c in own)


def _deck(info: StartInfo, p: int, moves: Sequence[cv.Move]) -> list[Card]:
    """Player ``p``'s deck: the one dealt (a known start), else the cards the player uses,
    in the order used, then padding up to the deck's size."""
    known = info.known[p]
    if known is not None:
        return list(known)
    used = [m.card for i, m in enumerate(moves) if i % 2 == p and not isinstance(m, cv.Disband)]
    size = info.sizes[p]
    padding = [PADDING[i % len(PADDING)] for i in range(max(0, size - len(used)))]
    return used + padding


def _with_sets(cards: Sequence[Card]) -> list[tuple[Card, str]]:
    """Each card of a deck with the set it comes from: the n-th copy of a card from the
    n-th set (a set holds two jokers); the first set is written without a name."""
    copies: dict[Card, int] = {}
    out = []
    for card in cards:
        copies[card] = copies.get(card, 0) + 1
        n = copies[card]
        n = (n + 1) // 2 if card.is_joker else n
        out.append((card, "" if n == 1 else str(n)))
    return out


def _deck_text(cards: Sequence[Card]) -> str:
    """A deck as CVN writes it (``2C 2C/2``)."""
    return " ".join(f"{card}/{name}" if name else str(card) for card, name in _with_sets(cards))


class LongLines(CaravanScope):
    """The scope's second part: long lines on one caravan. From the opening (the free start
    only), player 1 puts 3S or 4S on caravan A, or discards; player 2 discards. Records
    of up to 51 moves: long enough for a caravan of eight number cards and for player 1's
    deck to run out (22 draws after the opening) and be discarded from once more."""

    def describe(self) -> dict[str, Any]:
        return {"starts": "the opening, player 1 first, decks of 30 cards chosen freely",
                "cards": [str(c) for c in NUMBERS[1:]] + [str(FILLER)],
                "moves": "player 1 puts 3S or 4S on caravan A or discards; player 2 discards (the opening puts 2C "
                         "on the other caravans)"}

    def starts(self) -> Iterator[Start]:
        yield next(super().starts())

    def moves(self, states: Sequence[cv.State], extra: Hashable) -> Iterable[cv.Move]:
        state = states[0]
        p = state.to_move
        if state.over:
            return ()
        if state.in_opening():
            lane = LANE[p]
            return tuple(cv.PlayNumber(NUMBERS[1] if c == lane else FILLER, c) for c in cv.own_caravans(p))
        if p == 0:
            return (cv.PlayNumber(NUMBERS[1], 0), cv.PlayNumber(NUMBERS[2], 0), cv.Discard(FILLER))
        return (cv.Discard(FILLER),)


#: Records of at most this many moves (see the module's docstring), in each part of the scope.
DEPTH = 10
LONG_DEPTH = 51


#: The parts of the scope, by name.
PARTS: tuple[str, ...] = ("lane A/D", "long lines")


def scopes(settings: Sequence[cv.RuleSet]) -> list[tuple[str, CaravanScope, int]]:
    """The parts of the scope, each searched in full: its name, itself, its length."""
    return list(zip(PARTS, (CaravanScope(settings), LongLines(settings)), (DEPTH, LONG_DEPTH)))


def scope(settings: Sequence[cv.RuleSet]) -> CaravanScope:
    return CaravanScope(settings)


def atlas() -> list[tuple[str, tuple[cv.RuleSet, ...], bool]]:
    """The comparisons the shipped atlas holds: each two rule sets, the default first."""
    names = [cv.DEFAULT_RULES] + [n for n in cv.RULESETS if n != cv.DEFAULT_RULES]
    return [("rule sets", (cv.RULESETS[a], cv.RULESETS[b]), False)
            for i, a in enumerate(names) for b in names[i + 1:]]


def points(settings: Sequence[cv.RuleSet]) -> dict[str, tuple[str, ...]]:
    """The points where Caravan rule sets differ, by the fields that state each."""
    return POINTS


def atlas_file() -> Path:
    """The shipped atlas: ``atlas.json`` beside this module."""
    return Path(__file__).with_name("atlas.json")


#: How two settings differ, field by field; a setting with another's values of some fields.
differences = fields.differing
adopt = fields.adopted
