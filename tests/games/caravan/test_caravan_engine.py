"""Unit tests of the Caravan engine (referee/engines/caravan.py), straight against
``check`` / ``apply`` / ``legal_moves`` and the rules they say they consulted.

One case per rule id of spec/caravan*.toml and per ruling of rulings.md, for each rule
set the rule belongs to: the violation's id from ``check`` next to a legal counterpart.
Then behaviour tests (values, Jack, Joker, lanes, the end of the game, the rulings), and
property tests over random self-play: ``legal_moves`` lists exactly what ``check``
accepts, and what ``check`` and ``apply`` consulted is only spec ids.

Positions are written as in a CVN ``[Table]`` tag: ``"A: 3H 5S(QD); D: 10H"`` (caravans
not named are empty); hands as card lists, ``"?"`` for a hand whose contents are unknown.
"""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest
from caravan_conformance import _candidates, _random_states

from referee import spec
from referee.engines.base import Card
from referee.games.caravan import engine as cv
from referee.jobs.validate import validate_text
from referee.notation.cards import parse_card

HOLO = cv.ruleset("holotape")
FNV = cv.ruleset("fnv")
BOTH = ("holotape", "fnv")


# ---------------------------------------------------------------------------- helpers


def cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_card(w) for w in text.split())


def allowed(state: cv.State, move: cv.Move) -> list[str]:
    """The rules a legal move was judged and carried out by (``consulted`` of check, apply)."""
    consulted: list[str] = []
    assert cv.check(state, move, consulted) is None, cv.check(state, move)
    cv.apply(state, move, consulted)
    return consulted


def table(text: str) -> tuple[cv.Caravan, ...]:
    """``"A: 3H 5S(QD KH); D: 10H"`` -> six caravans (unnamed ones empty)."""
    caravans: list[cv.Caravan] = [()] * 6
    for part in filter(None, (p.strip() for p in text.split(";"))):
        letter, _, body = part.partition(":")
        slots = []
        for number, faces in re.findall(r"(\w+)(?:\(([^)]*)\))?", body):
            slots.append(cv.Slot(parse_card(number), cards(faces)))
        caravans[cv.LETTERS.index(letter.strip().upper())] = tuple(slots)
    return tuple(caravans)


def hand(text: str) -> cv.Hand:
    if text.strip() == "?":
        return cv.Hand((), None)
    words = text.split()
    return cv.Hand(tuple(parse_card(w) for w in words if w != "?"), words.count("?"))


def deck(text: str | None) -> tuple[Card, ...] | None:
    return None if text is None else cards(text)


def position(rules: str | cv.RuleSet, tbl: str = "", h1: str = "?", h2: str = "?",
             d1: str | None = None, d2: str | None = None, to_move: int = 1,
             opening: bool = False) -> cv.State:
    rs = cv.ruleset(rules) if isinstance(rules, str) else rules
    return cv.position(rs, table(tbl), (hand(h1), hand(h2)), (deck(d1), deck(d2)), to_move - 1, opening)


_MOVE = re.compile(r"^(?:(?P<card>\w+)>(?P<to>[A-Fa-f])(?P<index>\d*)|discard (?P<discard>\w+)"
                   r"|disband (?P<disband>[A-Fa-f]))(?: \+(?P<draw>\w+))?$")


def move(text: str) -> cv.Move:
    """``7H>A``, ``KS>D2``, ``discard 4C``, ``disband B``, each with an optional ``+9D``."""
    m = _MOVE.match(text)
    assert m, text
    draw = parse_card(m["draw"]) if m["draw"] else None
    if m["card"]:
        c = cv.LETTERS.index(m["to"].upper())
        if m["index"]:
            return cv.Attach(parse_card(m["card"]), c, int(m["index"]) - 1, draw)
        return cv.PlayNumber(parse_card(m["card"]), c, draw)
    if m["discard"]:
        return cv.Discard(parse_card(m["discard"]), draw)
    return cv.Disband(cv.LETTERS.index(m["disband"].upper()), draw)


def play(state: cv.State, *moves: str) -> cv.State:
    """Apply legal moves one after another (each must pass ``check``)."""
    for text in moves:
        m = move(text)
        violation = cv.check(state, m)
        assert violation is None, f"{text}: {violation}"
        state = cv.apply(state, m)
    return state


def rule_of(state: cv.State, text: str) -> str | None:
    v = cv.check(state, move(text))
    return None if v is None else v.rule


def deck_rules(rules: str, text: str) -> list[str]:
    entries = []
    for word in text.split():
        name, _, card_set = word.partition("/")
        entries.append((parse_card(name), card_set))
    return [v.rule for v in cv.check_deck(cv.ruleset(rules), entries, "player 1")]


ONE_SET = [f"{r}{s}" for s in "SHDC" for r in ("A", *map(str, range(2, 11)), "J", "Q", "K")] + ["JK", "JK"]
T0 = "A: 3H 5S; B: 7D; C: 9C; D: 10H; E: 8S; F: 6D"   # A runs up (suit S); no lane decided
OPEN_T = "A: 5H; D: 8C"                                # one opening placement each made
OVER_T = "A: 10H 9C 3S; B: 10D 9S 4C; C: 10C 8D 4H; D: 2S; E: 3S; F: 4S"   # all lanes P1's


# ------------------------------------------------------------- every violation, by rule id
#
# (rule id, rule set, position, illegal move, a legal counterpart in the same position)

CASES = [
    # opening
    ("caravan.opening.number-only", "holotape", dict(tbl=OPEN_T, h1="KS 9D 2C", opening=True), "KS>D1", "9D>B"),
    ("caravan.opening.number-only", "fnv", dict(tbl=OPEN_T, h1="KS 9D 2C", opening=True), "KS>D1", "9D>B"),
    ("caravan.opening.empty", "holotape", dict(tbl=OPEN_T, h1="KS 9D 2C", opening=True), "9D>A", "9D>C"),
    ("caravan.opening.empty", "fnv", dict(tbl=OPEN_T, h1="KS 9D 2C", opening=True), "9D>A", "9D>B"),
    ("caravan.opening.disband", "holotape", dict(tbl=OPEN_T, h1="KS 9D 2C", opening=True), "disband A", "2C>B"),
    ("caravan.opening.disband", "fnv", dict(tbl=OPEN_T, h1="KS 9D 2C", opening=True), "disband A", "2C>B"),
    ("caravan.opening.discard", "holotape", dict(tbl=OPEN_T, h1="KS 9D 2C", d1="4S", opening=True), "discard KS",
     "9D>B"),
    ("caravan.opening.order", "fnv", dict(tbl=OPEN_T, h1="KS 9D 2C", opening=True), "9D>C", "9D>B"),
    ("caravan.number.own", "holotape", dict(tbl=OPEN_T, h1="KS 9D 2C", opening=True), "9D>E", "9D>B"),
    ("caravan.number.own", "fnv", dict(tbl=OPEN_T, h1="KS 9D 2C", opening=True), "9D>E", "9D>B"),
    ("caravan.draw.none", "holotape", dict(tbl=OPEN_T, h1="KS 9D 2C", d1="4S", opening=True), "9D>B +4S", "9D>B"),
    ("caravan.draw.none", "fnv", dict(tbl=OPEN_T, h1="KS 9D 2C", d1="4S", opening=True), "9D>B +4S", "9D>B"),
    # turns, hands and draws
    ("caravan.hand.possession", "holotape", dict(tbl=T0, h1="5H KS"), "9D>B", "KS>D1"),
    ("caravan.hand.possession", "fnv", dict(tbl=T0, h1="5H KS"), "discard 9D", "discard KS"),
    ("caravan.draw.mismatch", "holotape", dict(tbl=T0, h1="5H KS", d1="9D 4S"), "discard KS +4S", "discard KS +9D"),
    ("caravan.draw.mismatch", "fnv", dict(tbl=T0, h1="5H KS", d1="9D 4S"), "KS>D1 +4S", "KS>D1 +9D"),
    ("caravan.draw.empty", "holotape", dict(tbl=T0, h1="5H KS", d1=""), "discard KS +9D", "discard KS"),
    ("caravan.draw.empty", "fnv", dict(tbl=T0, h1="5H KS", d1=""), "KS>D1 +9D", "KS>D1"),
    ("caravan.draw.none", "holotape", dict(tbl=T0, h1="5H KS", d1="9D"), "disband A +9D", "disband A"),
    ("caravan.draw.none", "fnv", dict(tbl=T0, h1="5H KS", d1="9D"), "disband B +9D", "disband B"),
    # number cards
    ("caravan.number.own", "holotape", dict(tbl=T0, h1="7H"), "7H>D", "7H>C"),
    ("caravan.number.own", "fnv", dict(tbl=T0, h2="7H 2C", to_move=2), "7H>A", "7H>D"),
    ("caravan.number.end", "holotape", dict(tbl=T0, h1="7H"), "7H>A1", "7H>A"),
    ("caravan.number.end", "fnv", dict(tbl=T0, h1="7H"), "7H>C1", "7H>C"),
    ("caravan.number.same-value", "holotape", dict(tbl=T0, h1="5H 8H"), "5H>A", "8H>A"),
    ("caravan.number.same-value", "fnv", dict(tbl=T0, h1="5S 8H"), "5S>A", "8H>A"),  # same suit too
    ("caravan.number.same-value", "holotape", dict(tbl="B: 7D", h1="7C 2C"), "7C>B", "2C>B"),  # 2nd card
    ("caravan.number.direction", "holotape", dict(tbl=T0, h1="2C 4S"), "2C>A", "4S>A"),
    ("caravan.number.direction", "fnv", dict(tbl=T0, h1="2C 8C"), "2C>A", "8C>A"),
    # equal values (left by a Jack) count as descending (ruling)
    ("caravan.number.direction", "holotape", dict(tbl="A: 5H 5C", h1="7D 3D"), "7D>A", "3D>A"),
    ("caravan.number.direction", "fnv", dict(tbl="A: 5H 5C", h1="7D 3D"), "7D>A", "3D>A"),
    # faces
    ("caravan.face.target", "holotape", dict(tbl=T0, h1="KS"), "KS>D2", "KS>D1"),
    ("caravan.face.target", "fnv", dict(tbl=T0, h1="KS"), "KS>D", "KS>D1"),
    ("caravan.face.target", "holotape", dict(tbl="A: 3H; D: 10H", h1="QS"), "QS>B1", "QS>A1"),
    ("caravan.face.target", "fnv", dict(tbl="A: 3H; D: 10H", h1="JS"), "JS>E1", "JS>D1"),
    ("caravan.queen.last", "fnv", dict(tbl=T0, h1="QD"), "QD>A1", "QD>A2"),
    ("caravan.face.limit", "fnv", dict(tbl="A: 3H 8S(KS KD KH); D: 10H", h1="JD KC"), "JD>A2", "JD>A1"),
    ("caravan.face.limit", "fnv", dict(tbl="A: 3H 8S(KS QD JK); D: 10H", h1="JD KC"), "KC>A2", "KC>A1"),
    ("caravan.number.max-cards", "fnv", dict(tbl="A: AH 2S 3H 4S 5H 6S 7H; D: 10H", h1="8D"), "8D>A", "8D>B"),
    # discard and disband
    ("caravan.discard.empty-deck", "fnv", dict(tbl=T0, h1="5H KS", d1=""), "discard KS", "KS>D1"),
    ("caravan.disband.own", "holotape", dict(tbl=T0, h1="5H"), "disband D", "disband A"),
    ("caravan.disband.own", "fnv", dict(tbl="A: 3H; D: 10H", h1="5H"), "disband E", "disband B"),
    ("caravan.disband.empty", "holotape", dict(tbl="A: 3H; D: 10H", h1="5H"), "disband B", "disband A"),
    ("caravan.disband.all-empty", "fnv", dict(tbl="D: 10H", h1="5H KS"), "disband A", "KS>D1"),
    # the end
    ("caravan.end.game-over", "holotape", dict(tbl=OVER_T, h1="5C"), "discard 5C", None),
    ("caravan.end.game-over", "fnv", dict(tbl=OVER_T, h1="5C"), "discard 5C", None),
]


@pytest.mark.parametrize("rule, rules, setup, illegal, legal", CASES,
                         ids=[f"{c[0]}[{c[1]}]:{c[3]}" for c in CASES])
def test_violation_and_legal_counterpart(rule: str, rules: str, setup: dict, illegal: str,
                                         legal: str | None) -> None:
    state = position(rules, **setup)
    assert rule in spec.catalog()
    assert rules in spec.rule(rule).rulesets, f"{rule} does not belong to {rules}"
    violation = cv.check(state, move(illegal))
    assert violation is not None and violation.rule == rule, violation
    assert violation.message
    if legal is not None:
        assert cv.check(state, move(legal)) is None


# Where the rule sets differ, the same move in the same position (rulings.md, the table).
DISPUTED = [
    # (position, move, holotape's verdict, fnv's verdict)
    # the current suit is the same in both: the latest Queen on the last card
    (dict(tbl="A: 3H 5S(QD QC); D: 10H", h1="2C"), "2C>A", None, None),
    (dict(tbl="A: 3H 5S(QD QC); D: 10H", h1="2D"), "2D>A", "caravan.number.direction", "caravan.number.direction"),
    (dict(tbl=T0, h1="QD"), "QD>A1", None, "caravan.queen.last"),
    (dict(tbl="A: 3H 8S(KS KD KH); D: 10H", h1="JD"), "JD>A2", None, "caravan.face.limit"),
    (dict(tbl="A: AH 2S 3H 4S 5H 6S 7H; D: 10H", h1="8D"), "8D>A", None, "caravan.number.max-cards"),
    (dict(tbl=OPEN_T, h1="9D", opening=True), "9D>C", None, "caravan.opening.order"),
    (dict(tbl=OPEN_T, h1="9D KS", d1="4S", opening=True), "discard KS", "caravan.opening.discard", None),
    (dict(tbl=T0, h1="5H KS", d1=""), "discard KS", None, "caravan.discard.empty-deck"),
    (dict(tbl="A: 3H; D: 10H", h1="5H"), "disband B", "caravan.disband.empty", None),
    (dict(tbl="D: 10H", h1="5H KS"), "disband A", "caravan.disband.empty", "caravan.disband.all-empty"),
    # direction: the disputed example of rulings.md (3H 5S 4S, then 2C) ...
    (dict(tbl="A: 3H 5S 4S; D: 10H", h1="2C"), "2C>A", "caravan.number.direction", None),
    # ... a Queen on a card that is no longer the last one ...
    (dict(tbl="A: 2H(QS) 6C 8D; D: 10H", h1="4H"), "4H>A", None, "caravan.number.direction"),
    # ... and a Queen on a caravan's only card (holotape ruling)
    (dict(tbl="A: 5H(QS) 8D; D: 10H", h1="9S"), "9S>A", "caravan.number.direction", None),
]


@pytest.mark.parametrize("setup, text, holotape, fnv", DISPUTED, ids=[d[1] for d in DISPUTED])
def test_where_the_rule_sets_differ(setup: dict, text: str, holotape: str | None, fnv: str | None) -> None:
    assert rule_of(position("holotape", **setup), text) == holotape
    assert rule_of(position("fnv", **setup), text) == fnv


# ------------------------------------------------------------------- deck building


@pytest.mark.parametrize("rules", BOTH)
def test_deck_size(rules: str) -> None:
    assert deck_rules(rules, " ".join(ONE_SET[:29])) == ["caravan.deck.size"]
    assert deck_rules(rules, " ".join(ONE_SET[:30])) == []
    assert deck_rules(rules, " ".join(ONE_SET)) == []


@pytest.mark.parametrize("rules", BOTH)
def test_deck_duplicate(rules: str) -> None:
    base = ONE_SET[:29]
    assert deck_rules(rules, " ".join(base + ["AS"])) == ["caravan.deck.duplicate"]
    assert deck_rules(rules, " ".join(base + ["AS/2"])) == []            # another set
    assert deck_rules(rules, " ".join(base + ["KS/2", "KS/2"])) == ["caravan.deck.duplicate"]
    jokers = [c for c in ONE_SET if c != "JK"][:28]
    assert deck_rules(rules, " ".join(jokers + ["JK", "JK"])) == []       # a set has two
    assert deck_rules(rules, " ".join(jokers + ["JK", "JK", "JK"])) == ["caravan.deck.duplicate"]
    assert deck_rules(rules, " ".join(jokers + ["JK", "JK", "JK/2"])) == []


def test_deck_max_is_fnv_only() -> None:
    two_sets = ONE_SET + [f"{c}/2" for c in ONE_SET]
    assert len(two_sets) == 108
    assert deck_rules("fnv", " ".join(two_sets)) == []
    assert deck_rules("fnv", " ".join(two_sets + ["AS/3"])) == ["caravan.deck.max"]
    assert deck_rules("holotape", " ".join(two_sets + ["AS/3"])) == []


# ------------------------------------------------------------------------ the opening


P1_DECK = cards("2H 5S 9D 10C KS QH JD 4C 7H 3S 6D 8C AH 2S 4D 9H 10S 5C 3D 7C 8S 6H AS 9C JK 2D KH QS JC KD")
P2_DECK = cards("3H 6S 8D AC KC QD JS 7S 5H 2C 9S 10H 4S 6C 3C 8H 10D 7D 5D AD 4H 9C KH QC JH KD 2S 6H JK QS")


@pytest.mark.parametrize("rules", BOTH)
@pytest.mark.parametrize("first", [0, 1])
def test_opening_deal(rules: str, first: int) -> None:
    """caravan.opening.deal: the top 8 cards, First moves first, three placements each,
    nothing drawn, 5 cards left in hand; then turns go on alternating."""
    state = cv.new_game(cv.ruleset(rules), (list(P1_DECK), list(P2_DECK)), first)
    assert state.hands[0].known == P1_DECK[:8] and state.hands[1].known == P2_DECK[:8]
    assert state.decks == (P1_DECK[8:], P2_DECK[8:])
    assert state.to_move == first and state.in_opening(0) and state.in_opening(1)
    placements = {0: ["2H>A", "5S>B", "9D>C"], 1: ["3H>D", "6S>E", "8D>F"]}
    for turn in range(6):
        p = (first + turn) % 2
        assert state.to_move == p
        assert "caravan.opening.deal" in allowed(state, move(placements[p][0]))
        state = play(state, placements[p].pop(0))
    assert [h.size for h in state.hands] == [5, 5]
    assert state.decks == (P1_DECK[8:], P2_DECK[8:])        # nothing drawn
    assert not state.in_opening(0) and not state.in_opening(1)
    assert state.to_move == first                           # the main phase, same order
    assert "caravan.turn.structure" in allowed(state, cv.Discard(state.hands[first].known[0]))


def test_fnv_opening_discard_gives_the_same_player_another_move() -> None:
    """caravan.opening.discard-redraw: a replacement is drawn, the same player moves again,
    and the discard does not use up a placement."""
    state = cv.new_game(FNV, (list(P1_DECK), list(P2_DECK)), 0)
    after = play(state, "discard KS +7H")
    assert after.to_move == 0
    assert after.placed == (0, 0) and after.in_opening()
    assert parse_card("7H") in after.hands[0].known and parse_card("KS") not in after.hands[0].known
    assert after.hands[0].size == 8 and after.decks[0] == P1_DECK[9:]
    assert "caravan.opening.discard-redraw" in allowed(state, move("discard KS"))
    after = play(after, "7H>A")                              # the drawn card, at once
    assert after.to_move == 1 and after.placed == (1, 0)
    # holotape: no discard in the opening at all
    assert rule_of(cv.new_game(HOLO, (list(P1_DECK), list(P2_DECK)), 0), "discard KS") == "caravan.opening.discard"


def test_opening_from_a_position_counts_the_placements_made() -> None:
    state = position("holotape", "A: 5H; B: 2C; D: 8C", h1="9D KS", opening=True)
    assert state.placed == (2, 1)
    state = play(state, "9D>C", "6H>E")
    assert state.placed == (3, 2) and not state.in_opening(0)
    assert rule_of(state, "KS>D1") is None                   # P1's main phase
    state = play(state, "KS>D1", "10S>F")
    assert state.placed == (3, 3)


# ---------------------------------------------------------------------- turn structure


@pytest.mark.parametrize("rules", BOTH)
def test_turn_structure_play_discard_disband(rules: str) -> None:
    """caravan.turn.structure: play then draw; discard then draw; disband, no draw; an empty
    deck gives nothing."""
    state = position(rules, T0, h1="5H KS 8D", d1="9D 4S")
    after = play(state, "8D>A")
    assert after.hands[0].known == cards("5H KS 9D") and after.decks[0] == cards("4S") and after.to_move == 1
    after = play(state, "discard KS")
    assert after.hands[0].known == cards("5H 8D 9D") and after.decks[0] == cards("4S")
    after = play(state, "disband B")
    assert after.hands[0].known == cards("5H KS 8D") and after.decks[0] == cards("9D 4S")
    assert after.caravans[1] == () and after.values[1] == 0
    empty = position(rules, T0, h1="5H KS 8D", d1="")
    after = play(empty, "8D>A")
    assert after.hands[0].known == cards("5H KS") and after.decks[0] == ()


def test_holotape_discard_with_an_empty_deck_shrinks_the_hand() -> None:
    state = play(position("holotape", T0, h1="5H KS", d1=""), "discard KS")
    assert state.hands[0].known == cards("5H") and not state.over


# ---------------------------------------------------------------------------- values


@pytest.mark.parametrize("rules", BOTH)
def test_kings_double_and_stack(rules: str) -> None:
    """caravan.value.king: each King doubles the card: 2 -> 4, 8, 16, 32 (fnv stops at 3
    face cards)."""
    state = position(rules, "A: 2H 9C; D: 10H 4S", h1="KS KH KD KC", h2="?")
    expected = [4, 8, 16, 32]
    for i, king in enumerate(("KS", "KH", "KD", "KC")):
        if rules == "fnv" and i == 3:
            assert rule_of(state, f"{king}>A1") == "caravan.face.limit"
            break
        assert "caravan.value.king" in allowed(state, move(f"{king}>A1"))
        state = play(state, f"{king}>A1", "discard 2C")
        assert cv.card_value(state.caravans[0][0]) == expected[i]
        assert state.values[0] == expected[i] + 9 == cv.caravan_value(state.caravans[0])
    # a King on the opponent's card doubles it too
    state = play(position(rules, "A: 2H 9C; D: 10H 4S", h1="KS"), "KS>D1")
    assert state.values[3] == 24 == cv.caravan_value(state.caravans[3])


def test_card_values() -> None:
    assert cv.card_value(cv.Slot(parse_card("AS"))) == 1
    assert cv.card_value(cv.Slot(parse_card("10S"), cards("QD JK"))) == 10     # no King: face value
    assert cv.card_value(cv.Slot(parse_card("AS"), cards("KS KD"))) == 4
    assert cv.caravan_value(table("A: AS(KS) 7D(QC KH) 3C")[0]) == 2 + 14 + 3


# --------------------------------------------------------------------------------- Jack


@pytest.mark.parametrize("rules", BOTH)
def test_jack_removes_its_card_with_attachments_and_renumbers(rules: str) -> None:
    """caravan.jack.remove: the card, its faces and the Jack go; later cards move up."""
    state = position(rules, "A: 4H 7S(KS QD) 9D; D: 10H", h1="JC KD", h2="?")
    assert state.values[0] == 4 + 14 + 9
    assert "caravan.jack.remove" in allowed(state, move("JC>A2"))
    state = play(state, "JC>A2")
    assert state.caravans[0] == (cv.Slot(parse_card("4H")), cv.Slot(parse_card("9D")))
    assert state.values[0] == 13
    assert not any(f.rank == cv.JACK for s in state.caravans[0] for f in s.faces)
    state = play(state, "discard 2S")
    assert rule_of(state, "KD>A3") == "caravan.face.target"  # only two cards now
    state = play(state, "KD>A2")                             # 9D is A2
    assert state.values[0] == 4 + 18


@pytest.mark.parametrize("rules", BOTH)
def test_jack_on_the_opponents_last_card_empties_the_caravan(rules: str) -> None:
    state = play(position(rules, "A: 3H; D: 10S(KH)", h1="JS", h2="10D"), "JS>D1")
    assert state.caravans[3] == () and state.values[3] == 0
    assert rule_of(state, "10D>D") is None                   # a first card again


# -------------------------------------------------------------------------------- Joker


@pytest.mark.parametrize("rules", BOTH)
def test_joker_on_an_ace_clears_its_suit_on_both_sides(rules: str) -> None:
    """caravan.joker.ace: every other number card of the Ace's printed suit goes, with its
    attachments; the Ace stays with the joker; face cards are never matched themselves."""
    tbl = "A: 10S 7H(KS) AH 3D; B: 5S(QH); C: 2H; D: 9H 4C(KH); E: 8S; F: AH 6C"
    state = position(rules, tbl, h1="JK", h2="?")
    assert "caravan.joker.ace" in allowed(state, move("JK>A3"))
    state = play(state, "JK>A3")
    after = table("A: 10S AH(JK) 3D; B: 5S(QH); C: ; D: 4C(KH); E: 8S; F: 6C")
    assert state.caravans == after
    assert state.values == tuple(cv.caravan_value(c) for c in after) == (14, 5, 0, 8, 8, 6)


@pytest.mark.parametrize("rules", BOTH)
def test_joker_on_a_number_clears_its_value_on_both_sides(rules: str) -> None:
    """caravan.joker.number: every other number card of that value, any suit, both sides,
    its own caravan included; the joker's own card stays."""
    tbl = "A: 7H 3C 7D(KS); B: 9S 7S; C: 4D; D: 10H 7C(QH); E: 7H; F: 8S(JK)"
    state = position(rules, tbl, h1="JK", h2="?")
    assert "caravan.joker.number" in allowed(state, move("JK>D2"))
    state = play(state, "JK>D2")
    after = table("A: 3C; B: 9S; C: 4D; D: 10H 7C(QH JK); E: ; F: 8S(JK)")
    assert state.caravans == after
    assert state.values == tuple(cv.caravan_value(c) for c in after)


# -------------------------------------------------------------------- direction and suit


@pytest.mark.parametrize("rules", BOTH)
def test_equal_values_count_as_descending(rules: str) -> None:
    """Ruling caravan.direction.equal: a Jack leaves 5H 5C; the caravan runs down."""
    state = play(position(rules, "A: 5H 9S 5C; D: 10H", h1="JD 3D 7D", h2="?"), "JD>A2", "discard 4C")
    assert state.rules.direction(state.caravans[0]) == -1
    assert rule_of(state, "7D>A") == "caravan.number.direction"
    assert rule_of(state, "3D>A") is None
    assert "caravan.direction.equal" in allowed(state, move("3D>A"))


def test_direction_holotape_first_two_and_any_queen() -> None:
    """caravan.direction.first-two: the first two cards, reversed by each Queen anywhere."""
    d = cv.direction_holotape
    assert d(table("A: 3H")[0]) == 0
    assert d(table("A: 3H 5S 4S")[0]) == 1                  # still up (the disputed example)
    assert d(table("A: 9H 5S 7S")[0]) == -1
    assert d(table("A: 3H(QC) 5S 4S")[0]) == -1              # a Queen on the first card
    assert d(table("A: 3H 5S(QC) 4S(QD)")[0]) == 1           # two Queens
    state = position("holotape", "A: 3H 5S 4S; D: 10H", h1="2C 6D")
    assert rule_of(state, "2C>A") == "caravan.number.direction"
    assert "caravan.direction.first-two" in allowed(state, move("6D>A"))


def test_direction_fnv_last_two_and_queens_on_the_last() -> None:
    """caravan.direction.last-two: the last two cards, reversed by Queens on the last only."""
    d = cv.direction_fnv
    assert d(table("A: 3H")[0]) == 0
    assert d(table("A: 3H 5S 4S")[0]) == -1                  # 5 -> 4: down (the disputed example)
    assert d(table("A: 3H(QC) 5S 4S")[0]) == -1              # a Queen elsewhere changes nothing
    assert d(table("A: 3H 5S 4S(QD)")[0]) == 1
    assert d(table("A: 3H 5S 4S(QD QH)")[0]) == -1
    state = position("fnv", "A: 3H 5S 4S; D: 10H", h1="2C 6D")
    assert rule_of(state, "2C>A") is None
    assert rule_of(state, "6D>A") == "caravan.number.direction"
    assert "caravan.direction.last-two" in allowed(state, move("2C>A"))


def test_holotape_queen_on_a_lone_card_reverses_the_coming_direction() -> None:
    """Ruling caravan.queen.single-card (holotape): 5H(QS), then 8D: down, not up."""
    state = position("holotape", "A: 5H(QS); D: 10S", h1="8D 9S 2C", h2="?")
    assert "caravan.queen.single-card" in allowed(state, move("8D>A"))
    state = play(state, "8D>A", "discard 4H")
    assert cv.direction_holotape(state.caravans[0]) == -1
    assert rule_of(state, "9S>A") == "caravan.number.direction"
    assert rule_of(state, "2C>A") is None
    # fnv reads the last two cards (5 -> 8, no Queen on 8D): up
    state = play(position("fnv", "A: 5H(QS); D: 10S", h1="8D 9S 2C", h2="?"), "8D>A", "discard 4H")
    assert cv.direction_fnv(state.caravans[0]) == 1 and rule_of(state, "9S>A") is None
    assert "caravan.queen.single-card" not in allowed(state, move("9S>A"))


@pytest.mark.parametrize("rules", BOTH)
def test_current_suit_is_the_latest_queens_on_the_last_card(rules: str) -> None:
    """caravan.suit.current: the last card's suit, or the latest Queen's on it."""
    assert cv.current_suit(table("A: 3H 5S")[0]) == "S"
    assert cv.current_suit(table("A: 3H 5S(QD)")[0]) == "D"
    assert cv.current_suit(table("A: 3H 5S(QD KH QC)")[0]) == "C"
    assert cv.current_suit(table("A: 3H(QD) 5S")[0]) == "S"  # not on the last card
    state = position(rules, "A: 3H 5S(QD QC); D: 10H", h1="2C 2D")
    assert rule_of(state, "2C>A") is None                    # lower, but the suit of QC
    assert rule_of(state, "2D>A") == "caravan.number.direction"
    assert "caravan.suit.current" in allowed(state, move("2C>A"))
    # A Queen played in the game changes the suit at once
    state = play(position(rules, "A: 3H 5S; D: 10H", h1="QH 2H 2C"), "QH>A2", "discard 4C")
    assert cv.current_suit(state.caravans[0]) == "H"
    assert rule_of(state, "2H>A") is None                    # up reversed: down, and hearts anyway


# ---------------------------------------------------------------------------- lanes


@pytest.mark.parametrize("a, b, winner", [
    (21, 20, 0), (20, 21, 1), (26, 27, 0), (27, 26, 1), (22, 22, None), (21, 21, None),
    (23, 25, 1), (26, 21, 0), (20, 20, None), (27, 30, None), (0, 0, None), (0, 26, 1),
])
def test_lane_decided(a: int, b: int, winner: int | None) -> None:
    """caravan.lane.decided: exactly one in 21-26, or both and different (the higher)."""
    assert cv.lane_winner(a, b) == winner


@pytest.mark.parametrize("rules", BOTH)
def test_the_game_ends_when_all_three_lanes_are_decided(rules: str) -> None:
    """caravan.end.lanes, checked after every move: two lanes are not enough; the game may
    end on the loser's own move."""
    tbl = "A: 10H 9C 3S; B: 10D 9S 4C; C: 10C 8D 4H; D: 10S 9D 8H; E: 5S; F: 9H 7C 6D"
    state = position(rules, tbl, h1="2C ?", h2="KS 4D")
    assert cv.lane_winners(state) == (0, 0, None) and not state.over   # C 22 vs F 22: open
    after = play(state._replace(to_move=1), "KS>F3")        # P2 puts F out of range
    assert after.over and after.end == "lanes" and after.winner == 0
    assert "caravan.end.lanes" in allowed(state._replace(to_move=1), move("KS>F3"))
    after = play(state, "discard 2C")                        # nothing changes: not over
    assert not after.over


@pytest.mark.parametrize("rules", BOTH)
def test_lanes_end_the_game_before_running_out(rules: str) -> None:
    """P1 plays its last card (empty deck) and so decides the last lane: the lanes decide
    the game (P1 wins), not P1's running out."""
    tbl = "A: 10H 9C 3S; B: 10D 9S 4C; C: 10C 8D; D: 2S; E: 3S; F: 10S 9D"
    state = position(rules, tbl, h1="4H", d1="", h2="?")
    assert not state.over
    state = play(state, "4H>C")                              # C 22 vs F 19
    assert state.hands[0].size == 0 and state.decks[0] == ()
    assert state.over and state.end == "lanes" and state.winner == 0


# ------------------------------------------------------------------------- the end


@pytest.mark.parametrize("rules", BOTH)
def test_running_out_loses(rules: str) -> None:
    """caravan.end.out: no card in hand and none in deck after a move."""
    state = position(rules, T0, h1="KS", d1="", h2="?")
    after = play(state, "KS>D1")
    assert after.over and after.end == "out" and after.winner == 1
    assert "caravan.end.out" in allowed(state, move("KS>D1"))
    assert rule_of(after, "discard 5C") == "caravan.end.game-over"
    # one card in the deck: not out
    assert not play(position(rules, T0, h1="KS", d1="9D", h2="?"), "KS>D1").over


def test_no_legal_move_loses_fnv() -> None:
    """caravan.end.no-move: fnv, P1 holds KS only, nothing to put it on, an empty deck
    (no discard) and three empty caravans (no disband)."""
    state = position("fnv", "D: 7C", h1="KS", d1="", h2="JH 5S", d2="2C 3C", to_move=2)
    assert not state.over
    after = play(state, "JH>D1")
    assert after.over and after.end == "no-move" and after.winner == 1
    assert list(cv.legal_moves(after._replace(end=None, winner=None))) == []
    assert "caravan.end.no-move" in allowed(state, move("JH>D1"))
    # holotape: P1 can still discard
    after = play(position("holotape", "D: 7C", h1="KS", d1="", h2="JH 5S", d2="2C 3C", to_move=2), "JH>D1")
    assert not after.over
    assert list(cv.legal_moves(after)) == [cv.Discard(parse_card("KS"))]


def test_no_legal_move_in_the_holotape_opening() -> None:
    """holotape: a player with no number card left in the opening cannot discard: loses."""
    p1 = cards("KS QS JS KH QH JH 5C 9D 2H 3H 4H 5H 6H 7H 8H 9H 10H AH 2D 3D 4D 5D 6D 7D 8D 10D AD 2C 3C 4C")
    for rules, over in (("holotape", True), ("fnv", False)):
        state = cv.new_game(cv.ruleset(rules), (list(p1), list(P2_DECK)), 0)
        state = play(state, "5C>A", "6S>D", "9D>B", "8D>E")
        assert state.over is over
        if over:
            assert state.end == "no-move" and state.winner == 1


def test_both_out_fnv_player_1_loses() -> None:
    """caravan.end.both-out-first (fnv): both out of cards: player 1 loses, whoever moves."""
    for to_move in (1, 2):
        state = position("fnv", T0, h1="", d1="", h2="", d2="", to_move=to_move)
        assert state.over and state.end == "out" and state.winner == 1


@pytest.mark.parametrize("to_move, loser", [(1, 2), (2, 1)])
def test_both_out_holotape_the_player_who_just_moved_loses(to_move: int, loser: int) -> None:
    state = position("holotape", T0, h1="", d1="", h2="", d2="", to_move=to_move)
    assert state.over and state.end == "out" and state.winner == 2 - loser


# ----------------------------------------------------------------------- results (referee)


LANES_GAME = """[Game "Caravan"]
[Rules "{rules}"]
[Deck1 "10H 10D 10C 9S 9C 8H 4D 3S 3D 2C 5H 6D 7S 2H 4C 5S 6H 7C 8S 9D AH AS 2D 5C 6S 7H 8D 9H 10S JD"]
[Deck2 "2S 3C 4H 5D 6C 7D KS QC AH 2H 3H 5H 6H 7H 8H 9H 10H JH QH KH AD 2D 3D 4D 6D 8D 9D 10D JD QD"]
[Result "{result}"]
{extra}
1. 10H>A 2S>D 2. 10D>B 3C>E 3. 10C>C 4H>F {more}
"""
LANES_REST = ("4. 9S>A discard KS 5. 9C>B discard QC 6. 4D>A discard 5D 7. 3S>B discard 6C "
              "8. 8H>C discard 7D 9. 3D>C")


def _verdict(text: str) -> tuple[list[str], list[str]]:
    (report,) = validate_text(text)
    return [f.rule for f in report.errors], [f.rule for f in report.warnings]


@pytest.mark.parametrize("rules", BOTH)
def test_results(rules: str) -> None:
    def game(result: str, extra: str = "", more: str = LANES_REST, decks: bool = True) -> str:
        text = LANES_GAME.format(rules=rules, result=result, extra=extra, more=f"{more} {result}")
        if not decks:
            text = "\n".join(line for line in text.splitlines() if not line.startswith("[Deck"))
        return text

    assert _verdict(game("1-0")) == ([], [])
    assert _verdict(game("0-1")) == (["caravan.result.wrong"], [])
    assert _verdict(game("*")) == (["caravan.result.wrong"], [])
    assert _verdict(game("1-0", more="")) == (["caravan.result.unfinished"], [])
    assert _verdict(game("1-0", '[Termination "forfeit"]', more="")) == ([], [])
    assert _verdict(game("*", more="")) == ([], [])
    assert _verdict(game("0-1", more="", decks=False)) == ([], ["caravan.result.unverified"])
    assert _verdict(game("0-1", decks=False)) == (["caravan.result.wrong"], [])


# ------------------------------------------------------------- random self-play properties


@pytest.mark.parametrize("rules", BOTH)
def test_random_move_is_a_uniform_draw_from_the_legal_moves(rules: str) -> None:
    rng = random.Random(5)
    spread = 0
    for state, moves in _random_states(cv.ruleset(rules), seed=31, games=6, every=7):
        if not moves:
            assert cv.random_move(state, rng) is None
            continue
        draws = 40 * len(moves)
        counts: dict[cv.Move, int] = {}
        for _ in range(draws):
            # tries: the grid's draws alone (the listed fallback never comes), so the grid's
            # candidates must be every move legal_moves considers
            m = cv.random_move(state, rng, tries=10_000)
            assert m in moves, (state, m)
            counts[m] = counts.get(m, 0) + 1
        # every legal move is drawn, none far more often than its share (40 draws each)
        assert set(counts) == set(moves)
        assert max(counts.values()) < 100, counts
        spread = max(spread, len(moves))
    assert spread > 10


def test_random_move_draws_a_card_held_twice_once() -> None:
    # two sets: the same card twice in hand; its moves are still drawn as often as the others
    state = position(HOLO, "A: 5H; B: 6S; C: 7C; D: 8D; E: 9D; F: 4H", "3C 3C KS", "?")
    moves = set(cv.legal_moves(state))
    rng = random.Random(2)
    counts: dict[cv.Move, int] = {}
    for _ in range(60 * len(moves)):
        m = cv.random_move(state, rng)
        counts[m] = counts.get(m, 0) + 1
    assert set(counts) == moves
    assert max(counts.values()) < 2 * min(counts.values()), counts


def test_random_move_is_uniform_over_a_wide_grid() -> None:
    # After the opening, eleven number cards on the table: a face card's row of candidates
    # is twelve cells wide, a number card's four; the cells past a row's end (and the row of
    # the second 3C) are drawn again, never judged nor taken for another move, so every
    # legal move is still drawn as often as any other.
    state = position(HOLO, "A: 2H 5H 9H; B: 3S 6S; C: 10C 7C; D: 8D 4D; E: 9D; F: 4H", "3C 3C KS QD 7H JC", "?")
    moves = set(cv.legal_moves(state))
    assert len(moves) > 30
    rng = random.Random(3)
    share = 300
    counts = Counter(cv.random_move(state, rng) for _ in range(share * len(moves)))
    assert set(counts) == moves
    assert all(0.75 * share < n < 1.25 * share for n in counts.values()), counts


@pytest.mark.parametrize("rules", BOTH)
def test_consulted_rules_are_spec_ids_of_its_rule_set(rules: str) -> None:
    catalog = spec.catalog()
    cited: set[str] = set()
    for state, moves in _random_states(cv.ruleset(rules), seed=7, games=12):
        for m in _candidates(state):
            consulted: list[str] = []
            verdict = cv.check(state, m, consulted)
            assert verdict == cv.check(state, m)  # asking what was consulted changes nothing
            if verdict is not None:  # the broken rule is never among those passed
                assert verdict.rule not in consulted, (m, verdict, consulted)
        for m in moves:
            ids = allowed(state, m)
            assert ids and len(ids) == len(set(ids)), ids
            for rule in ids:
                assert rule in catalog, rule
                assert rules in catalog[rule].rulesets, f"{rule} cited under {rules}"
            cited.update(ids)
    # random play reaches the everyday rules
    assert {"caravan.turn.structure", "caravan.opening.deal", "caravan.number.direction",
            "caravan.value.king", "caravan.jack.remove", "caravan.end.out"} <= cited


@pytest.mark.parametrize("rules", BOTH)
def test_cached_values_follow_the_caravans(rules: str) -> None:
    for state, _ in _random_states(cv.ruleset(rules), seed=99, games=6):
        assert state.values == tuple(cv.caravan_value(c) for c in state.caravans)
        if state.over:
            assert state.winner in (0, 1)


# ----------------------------------------------------------------- every rule id is tested


BEHAVIOUR = {
    # rule id: the tests above that show it (rule sets: as in spec)
    "caravan.opening.deal": "test_opening_deal",
    "caravan.opening.discard-redraw": "test_fnv_opening_discard_gives_the_same_player_another_move",
    "caravan.turn.structure": "test_turn_structure_play_discard_disband",
    "caravan.deck.size": "test_deck_size",
    "caravan.deck.duplicate": "test_deck_duplicate",
    "caravan.deck.max": "test_deck_max_is_fnv_only",
    "caravan.value.king": "test_kings_double_and_stack",
    "caravan.jack.remove": "test_jack_removes_its_card_with_attachments_and_renumbers",
    "caravan.joker.ace": "test_joker_on_an_ace_clears_its_suit_on_both_sides",
    "caravan.joker.number": "test_joker_on_a_number_clears_its_value_on_both_sides",
    "caravan.direction.equal": "test_equal_values_count_as_descending",
    "caravan.direction.first-two": "test_direction_holotape_first_two_and_any_queen",
    "caravan.direction.last-two": "test_direction_fnv_last_two_and_queens_on_the_last",
    "caravan.queen.single-card": "test_holotape_queen_on_a_lone_card_reverses_the_coming_direction",
    "caravan.suit.current": "test_current_suit_is_the_latest_queens_on_the_last_card",
    "caravan.lane.decided": "test_lane_decided",
    "caravan.end.lanes": "test_the_game_ends_when_all_three_lanes_are_decided",
    "caravan.end.out": "test_running_out_loses",
    "caravan.end.no-move": "test_no_legal_move_loses_fnv",
    "caravan.end.both-out-first": "test_both_out_fnv_player_1_loses",
    "caravan.end.both-out-mover": "test_both_out_holotape_the_player_who_just_moved_loses",
    "caravan.result.wrong": "test_results",
    "caravan.result.unfinished": "test_results",
    "caravan.result.unverified": "test_results",
}


def test_every_caravan_rule_id_has_a_test_for_each_of_its_rule_sets() -> None:
    tested: dict[str, set[str]] = {}
    for rule, rules, *_ in CASES:
        tested.setdefault(rule, set()).add(rules)
    for rule in BEHAVIOUR:
        tested.setdefault(rule, set()).update(spec.rule(rule).rulesets)  # parametrized or set-specific
    names = set(globals())
    assert set(BEHAVIOUR.values()) <= names
    for rule in sorted(spec.ids("caravan.")):
        assert rule in tested, f"no test for {rule}"
        assert set(spec.rule(rule).rulesets) <= tested[rule], f"{rule}: untested under " \
            f"{set(spec.rule(rule).rulesets) - tested[rule]}"
    assert not set(tested) - spec.ids("caravan."), "tests name ids that are not in spec/"
