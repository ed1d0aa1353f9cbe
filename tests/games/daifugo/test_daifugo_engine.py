"""The Daifugo engine: one test per rule id and ruling of spec/daifugo*.toml, for both presets
and every option, each showing the violation (or the behaviour) and its legal counterpart;
random play to the end of rounds; and a replay of the real contest-server logs."""

from __future__ import annotations

import random

import pytest
from conftest import fixtures_dir

from referee import spec
from referee.engines.base import JOKER, Card
from referee.games.daifugo import engine as D
from referee.notation.cards import parse_card

CLASSIC = D.ruleset("classic")
UECDA = D.ruleset("uecda")

# ---------------------------------------------------------------- helpers

#: Rule ids each test shows; the last test checks that every spec id is shown somewhere.
COVERED: set[str] = set()


def covers(*ids: str):
    COVERED.update(ids)
    return lambda f: f


def cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_card(t) for t in text.split())


def play(player: int, text: str) -> D.Play:
    """``"4D JK(5D) 6D"``: a joker may carry its card in parentheses; bare ``JK`` is unstated."""
    out: list[Card] = []
    stands: list[D.Stand | None] = []
    for tok in text.split():
        if tok.upper().startswith("JK"):
            out.append(JOKER)
            stands.append(D.Stand.of(parse_card(tok[3:-1])) if "(" in tok else None)
        else:
            out.append(parse_card(tok))
    return D.Play(player, tuple(out), tuple(stands) if any(s is not None for s in stands) else ())


def snap(rules: D.RuleSet, hands: list[str], to_move: int = 0, table: tuple[int, str] | None = None,
         **kw) -> D.State:
    t = play(*table) if table is not None else None
    return D.snapshot(rules, [cards(h) for h in hands], tuple(range(len(hands))), to_move, table=t, **kw)


def violates(state: D.State, move: D.Move, rule: str) -> D.Violation:
    v = D.check(state, move)
    assert v is not None and v.rule == rule, f"expected {rule}, got {v}"
    assert v.message
    return v


def legal(state: D.State, move: D.Move) -> D.State:
    v = D.check(state, move)
    assert v is None, f"expected legal, got {v}"
    return D.apply(state, move)


def run(state: D.State, *moves: D.Move) -> D.State:
    for m in moves:
        state = legal(state, m)
    return state


def deal(rules: D.RuleSet, n: int, order: list[int] | None = None) -> list[tuple[Card, ...]]:
    """A one-at-a-time deal of the sorted deck in ``order``."""
    order = order or list(range(n))
    hands: list[list[Card]] = [[] for _ in range(n)]
    for i, c in enumerate(D.deck(rules, n)):
        hands[order[i % n]].append(c)
    return [tuple(h) for h in hands]


UE5 = ["3S 4S", "5S 6S", "7S 9S", "10S JS", "QS KS"]  # five small uecda hands (no 8s)
PRESETS = pytest.mark.parametrize("rules", [CLASSIC, UECDA], ids=["classic", "uecda"])


def seats_for(rules: D.RuleSet, hands: list[str]) -> list[str]:
    """Pad a hand list with idle players up to the rule set's minimum (uecda plays 5)."""
    idle = ["QH KH", "QC KC", "QD KD", "AH AC"]
    return hands + idle[:max(0, rules.min_players - len(hands))]

# ---------------------------------------------------------------- rule sets


def test_ruleset_presets_and_toggles():
    r = D.ruleset("classic", {"spade3": True, "stairs-revolution": 4, "exchange": "choice"})
    assert r.spade3 and r.stairs_revolution == 4 and r.exchange == "choice" and r.name == "classic"
    assert D.ruleset("uecda", {"stairs-revolution": False}).stairs_revolution is None
    assert D.ruleset("uecda", {"eleven-back": True}).option("eleven-back") is True
    assert D.ruleset("classic") is CLASSIC and "spade3=True" in repr(r)
    for preset, toggles in [("nope", {}), ("classic", {"eight-kill": True}), ("classic", {"exchange": "all"}),
                            ("classic", {"stairs-revolution": 2}), ("classic", {"spade3": "yes"})]:
        with pytest.raises(ValueError):
            D.ruleset(preset, toggles)


def test_combination_is_pure_and_reusable():
    c = D.combination(CLASSIC, cards("4D 5D 6D"))
    assert (c.kind, c.size, c.low, c.high) == ("sequence", 3, 2, 4)
    assert D.combination(CLASSIC, cards("4D 5H")) is None
    assert D.combination(CLASSIC, (JOKER,)).lone_joker
    assert len(D.readings(CLASSIC, (Card(4, "D"), Card(5, "D"), JOKER))) == 2  # 3-4-5 or 4-5-6
    assert D.combination(CLASSIC, (Card(4, "D"), Card(5, "D"), JOKER)) is None


# ---------------------------------------------------------------- deal


@covers("daifugo.deal.players")
def test_deal_players():
    assert any(v.rule == "daifugo.deal.players" for v in D.check_deal(CLASSIC, deal(CLASSIC, 2)))
    assert D.check_deal(CLASSIC, deal(CLASSIC, 3)) == []
    assert D.check_deal(CLASSIC, deal(CLASSIC, 8)) == []
    assert any(v.rule == "daifugo.deal.players" for v in D.check_deal(UECDA, deal(UECDA, 4)))
    assert D.check_deal(UECDA, deal(UECDA, 5)) == []


@covers("daifugo.deal.duplicate")
def test_deal_duplicate():
    hands = [list(h) for h in deal(CLASSIC, 4)]
    hands[1][0] = hands[0][0]
    assert "daifugo.deal.duplicate" in {v.rule for v in D.check_deal(CLASSIC, hands)}
    # A second joker: a duplicate with 4 players (seed) and in uecda; the seed deck for 5 has two.
    four = [list(h) for h in deal(CLASSIC, 4)]
    four[0].append(JOKER)
    assert "daifugo.deal.duplicate" in {v.rule for v in D.check_deal(CLASSIC, four)}
    five = deal(CLASSIC, 5)
    assert D.check_deal(CLASSIC, five) == [] and sum(h.count(JOKER) for h in five) == 2
    ue = [list(h) for h in deal(UECDA, 5)]
    ue[4].append(JOKER)
    assert "daifugo.deal.duplicate" in {v.rule for v in D.check_deal(UECDA, ue)}


@covers("daifugo.deal.missing")
def test_deal_missing():
    hands = [list(h) for h in deal(CLASSIC, 5)]
    hands[0].remove(JOKER) if JOKER in hands[0] else None
    hands[2].pop()
    rules = {v.rule for v in D.check_deal(CLASSIC, hands)}
    assert "daifugo.deal.missing" in rules
    assert len(D.deck(CLASSIC, 4)) == 53 and len(D.deck(CLASSIC, 5)) == 54 and len(D.deck(UECDA, 5)) == 53


@covers("daifugo.deal.count")
def test_deal_count():
    # Seed: the players dealt first hold one card more (53 cards to 4: 14 13 13 13).
    good = deal(CLASSIC, 4)
    assert [len(h) for h in good] == [14, 13, 13, 13] and D.check_deal(CLASSIC, good) == []
    shifted = deal(CLASSIC, 4, [1, 2, 3, 0])  # dealt from player 1
    assert [v.rule for v in D.check_deal(CLASSIC, shifted)] == ["daifugo.deal.count"]
    assert D.check_deal(CLASSIC, shifted, deal_order=[1, 2, 3, 0]) == []
    # Uecda: a random dealer, so any rotation along the seats.
    seats = [4, 1, 0, 3, 2]
    rot = deal(UECDA, 5, [seats[(2 + i) % 5] for i in range(5)])
    assert D.check_deal(UECDA, rot, deal_order=seats) == []
    bad = [list(h) for h in deal(UECDA, 5)]  # sizes 11 11 11 10 10 by player
    bad[1].append(bad[3].pop())  # 11 12 11 9 10
    assert [v.rule for v in D.check_deal(UECDA, bad)] == ["daifugo.deal.count"]


# ---------------------------------------------------------------- exchange

SMALL4 = ["3S 4S 9S", "3H 4H 9H", "3D 4D 9D", "2C AC JK 5C"]


def _round2(rules: D.RuleSet, hands: list[str], previous: tuple[int, ...]) -> D.State:
    return D.new_round(rules, [cards(h) for h in hands], previous=previous, round_no=2)


@covers("daifugo.exchange.duty")
def test_exchange_duty():
    # Previous order: 0 daifugo, 1 fugo, 2 hinmin, 3 daihinmin.
    s = _round2(CLASSIC, SMALL4, (0, 1, 2, 3))
    assert s.phase == "exchange" and [(d.giver, d.receiver, d.count) for d in s.pending] == [
        (3, 0, 2), (2, 1, 1), (0, 3, 2), (1, 2, 1)]
    violates(s, D.Give(3, 1, cards("JK 2C")), "daifugo.exchange.duty")     # wrong receiver
    violates(s, D.Give(3, 0, cards("JK")), "daifugo.exchange.duty")        # wrong count
    s2 = legal(s, D.Give(3, 0, cards("JK 2C")))
    violates(s2, D.Give(3, 0, cards("AC 5C")), "daifugo.exchange.duty")    # already given
    # Three players: only daifugo and daihinmin swap; a gift in play is no duty.
    three = _round2(CLASSIC, ["3S 4S", "3H 4H", "3D 4D"], (2, 0, 1))
    assert [(d.giver, d.receiver) for d in three.pending] == [(1, 2), (2, 1)]
    started = D.new_round(CLASSIC, [cards(h) for h in SMALL4])
    violates(started, D.Give(0, 1, cards("3S")), "daifugo.exchange.duty")
    assert D.exchange_duties(D.ruleset("classic", {"exchange": "none"}), (0, 1, 2, 3)) == ()


@covers("daifugo.exchange.strongest")
def test_exchange_strongest_seed_ties_any():
    s = _round2(CLASSIC, ["3S 4S 9S", "3H 4H 9H", "3D 4D 9D", "AC AD 5C"], (0, 1, 2, 3))
    violates(s, D.Give(3, 0, cards("AC 5C")), "daifugo.exchange.strongest")
    legal(s, D.Give(3, 0, cards("AD AC")))
    s = _round2(CLASSIC, ["3S 4S 9S", "3H 4H 9H", "3D 4D 9D", "AC AD AH 5C"], (0, 1, 2, 3))
    legal(s, D.Give(3, 0, cards("AH AC")))  # ties between equal ranks: any


@covers("daifugo.exchange.strongest")
def test_exchange_strongest_uecda_fixed_order():
    hands = ["3S 4S 5S", "3H 4H 5H", "3C 4C 5C", "6D 7D 9D", "AC AD AH 5D"]
    s = _round2(UECDA, hands, (0, 1, 2, 3, 4))
    violates(s, D.Give(4, 0, cards("AD AC")), "daifugo.exchange.strongest")
    assert D.strongest_cards(cards("AC AD AH 5D JK 2S"), 3) == cards("JK 2S AH")
    legal(s, D.Give(4, 0, cards("AH AD")))


@covers("daifugo.exchange.weakest")
def test_exchange_weakest():
    s = _round2(CLASSIC, SMALL4, (0, 1, 2, 3))
    violates(s, D.Give(0, 3, cards("4S 9S")), "daifugo.exchange.weakest")
    legal(s, D.Give(0, 3, cards("3S 4S")))
    violates(s, D.Give(1, 2, cards("9H")), "daifugo.exchange.weakest")
    legal(s, D.Give(1, 2, cards("3H")))


@covers("daifugo.exchange.choice")
def test_exchange_choice():
    choice = D.ruleset("classic", {"exchange": "choice"})
    s = _round2(choice, SMALL4, (0, 1, 2, 3))
    after = legal(s, D.Give(0, 3, cards("4S 9S")))
    assert "daifugo.exchange.choice" in after.events
    # The lower titles still give their strongest.
    violates(s, D.Give(3, 0, cards("5C AC")), "daifugo.exchange.strongest")


@covers("daifugo.exchange.pending", "daifugo.lead.later-rounds")
def test_exchange_pending_then_daihinmin_leads():
    s = _round2(CLASSIC, SMALL4, (0, 1, 2, 3))
    violates(s, play(3, "5C"), "daifugo.exchange.pending")
    violates(s, D.Pass(3), "daifugo.exchange.pending")
    s = run(s, D.Give(3, 0, cards("JK 2C")), D.Give(2, 1, cards("9D")),
            D.Give(0, 3, cards("3S 4S")), D.Give(1, 2, cards("3H")))
    assert s.phase == "play" and s.to_move == 3 and "daifugo.lead.later-rounds" in s.events
    assert s.seats == (3, 2, 1, 0) and D.default_seats(CLASSIC, 4, (0, 1, 2, 3)) == (3, 2, 1, 0)
    assert sorted(s.hands[0]) == sorted(cards("9S JK 2C")) and sorted(s.hands[3]) == sorted(cards("AC 5C 3S 4S"))
    assert sum(len(h) for h in s.hands) == 13


@covers("daifugo.exchange.simultaneous", "daifugo.hand.possession")
def test_exchange_simultaneous_seed_vs_server_uecda():
    choice = D.ruleset("classic", {"exchange": "choice"})
    s = legal(_round2(choice, SMALL4, (0, 1, 2, 3)), D.Give(3, 0, cards("JK 2C")))
    violates(s, D.Give(0, 3, cards("JK 3S")), "daifugo.exchange.simultaneous")
    violates(s, D.Give(0, 3, cards("5D 3S")), "daifugo.hand.possession")
    # Under uecda the daifugo chooses after receiving, so it may even give back what it got.
    hands = ["3S 4S 5S", "3H 4H 5H", "3C 4C 5C", "6D 7D 9D", "AC AD AH 5D"]
    u = run(_round2(UECDA, hands, (0, 1, 2, 3, 4)), D.Give(4, 0, cards("AH AD")), D.Give(3, 1, cards("9D")))
    legal(u, D.Give(0, 4, cards("AH 3S")))


@covers("daifugo.exchange.order")
def test_exchange_order_uecda():
    hands = ["3S 4S 5S", "3H 4H 5H", "3C 4C 5C", "6D 7D 9D", "AC AD AH 5D"]
    s = _round2(UECDA, hands, (0, 1, 2, 3, 4))
    violates(s, D.Give(0, 4, cards("3S 4S")), "daifugo.exchange.order")
    s = run(s, D.Give(4, 0, cards("AH AD")), D.Give(3, 1, cards("9D")))
    s = legal(s, D.Give(0, 4, cards("3S 4S")))
    assert [type(m) for m in D.legal_moves(s)] and all(m.giver == 1 for m in D.legal_moves(s))


# ---------------------------------------------------------------- leading a round


@covers("daifugo.lead.first-round", "daifugo.option.diamond3-start")
def test_first_round_leader_seed():
    hands = [cards("4S 5S"), cards("4H 5H"), cards("3D 5D")]
    s = D.new_round(CLASSIC, hands)
    assert s.to_move == 0 and s.events == ("daifugo.lead.first-round",)
    violates(s, play(2, "3D"), "daifugo.turn.order")
    d3 = D.new_round(D.ruleset("classic", {"diamond3-start": True}), hands)
    assert d3.to_move == 2 and d3.events == ("daifugo.option.diamond3-start",)
    legal(d3, play(2, "3D"))


@covers("daifugo.lead.diamond3", "daifugo.lead.diamond3-free")
def test_uecda_diamond3_leads_and_need_not_play_it():
    hands = [cards(h) for h in ["4S 5S", "4H 5H", "3D 5D", "4C 5C", "6C 7C"]]
    s = D.new_round(UECDA, hands, seats=(4, 1, 0, 3, 2))
    assert s.to_move == 2 and s.events == ("daifugo.lead.diamond3",)
    after = legal(s, play(2, "5D"))
    assert "daifugo.lead.diamond3-free" in after.events
    assert "daifugo.lead.diamond3-free" not in legal(s, play(2, "3D")).events
    d3 = D.new_round(D.ruleset("classic", {"diamond3-start": True}), hands)
    assert "daifugo.lead.diamond3-free" in legal(d3, play(2, "5D")).events


# ---------------------------------------------------------------- turns


@covers("daifugo.turn.order")
@PRESETS
def test_turn_order(rules):
    s = snap(rules, seats_for(rules, ["3S 4S", "5S 6S", "7S 9S"]))
    violates(s, play(1, "5S"), "daifugo.turn.order")
    violates(s, play(7, "5S"), "daifugo.turn.order")
    s = legal(s, play(0, "3S"))
    assert s.to_move == 1
    violates(s, D.Pass(2), "daifugo.turn.order")


@covers("daifugo.turn.finished")
def test_turn_finished():
    s = snap(CLASSIC, ["", "5S 6S", "7S 9S", "4H 5H"], to_move=1, out=(0,))
    violates(s, play(0, "5H"), "daifugo.turn.finished")
    legal(s, play(1, "5S"))
    with pytest.raises(D.RuleError) as err:
        snap(CLASSIC, ["", "5S", "7S"], to_move=1)
    assert err.value.violation.rule == "daifugo.turn.finished"


@covers("daifugo.pass.sat-out")
@PRESETS
def test_pass_sat_out(rules):
    s = snap(rules, seats_for(rules, ["3S 4S", "5S 6S", "7S 9S", "10S JS"]), to_move=0)
    s = run(s, play(0, "3S"), D.Pass(1), play(2, "7S"), play(3, "10S"))
    if rules is UECDA:
        s = legal(s, D.Pass(4))
    assert s.to_move == 0
    violates(s, play(1, "6S"), "daifugo.pass.sat-out")
    s = legal(s, D.Pass(0))
    assert s.to_move == 2  # player 1 is skipped


@covers("daifugo.hand.possession")
@PRESETS
def test_hand_possession(rules):
    s = snap(rules, seats_for(rules, ["3S 4S JK", "5S 6S", "7S 9S"]))
    violates(s, play(0, "9H"), "daifugo.hand.possession")
    violates(s, play(0, "JK JK"), "daifugo.hand.possession")
    violates(s, play(0, "3S 3S"), "daifugo.hand.possession")
    legal(s, play(0, "3S"))


@covers("daifugo.end.game-over", "daifugo.round.end")
def test_round_end_and_game_over():
    s = snap(CLASSIC, ["3S", "5S", "7S 9S"])
    s = legal(s, play(0, "3S"))
    assert not D.round_over(s) and D.finishing_order(s) is None
    s = legal(s, play(1, "5S"))
    assert D.round_over(s) and "daifugo.round.end" in s.events
    assert D.finishing_order(s) == (0, 1, 2)
    violates(s, play(2, "7S"), "daifugo.end.game-over")
    violates(s, D.Pass(2), "daifugo.end.game-over")
    assert list(D.legal_moves(s)) == []


@covers("daifugo.pass.leader")
def test_seed_leader_must_play():
    s = snap(CLASSIC, ["3S 4S", "5S 6S", "7S 9S"])
    violates(s, D.Pass(0), "daifugo.pass.leader")
    assert D.Pass(0) not in list(D.legal_moves(s))
    legal(legal(s, play(0, "3S")), D.Pass(1))


@covers("daifugo.pass.empty-stage")
def test_uecda_leader_may_pass():
    s = snap(UECDA, UE5, to_move=2)
    s = legal(s, D.Pass(2))
    assert "daifugo.pass.empty-stage" in s.events and s.to_move == 3 and s.table is None
    s = run(s, D.Pass(3), D.Pass(4), D.Pass(0), D.Pass(1))
    assert s.to_move == 2 and not s.passed and "daifugo.trick.clear" in s.events  # back to the leader
    # At the start of a game the lead comes back to the diamond 3 holder (our ruling).
    r = D.new_round(UECDA, [cards(h) for h in ["4S", "5S", "3D", "6S", "7S"]], seats=(0, 1, 2, 3, 4))
    r = run(r, *(D.Pass(p) for p in (2, 3, 4, 0, 1)))
    assert r.to_move == 2 and r.table is None


# ---------------------------------------------------------------- combinations


@covers("daifugo.combo.invalid")
@PRESETS
def test_combo_invalid_both(rules):
    s = snap(rules, seats_for(rules, ["3S 4S 4H 5S 6S KS AS 2S 5H 5D 5C JK", "7H", "9H"]))
    for bad in ["3S 4H", "KS AS 2S 3S", "4H JK(5H) 6S", "3S 4H 5S", "5S 6S", "5S 5H 6S"]:
        violates(s, play(0, bad), "daifugo.combo.invalid")
    for good in ["5S 6S JK(7S)", "KS AS 2S", "5S 5H 5D 5C", "5S 5H JK", "4H", "3S 4S 5S 6S"]:
        legal(s, play(0, good))


@covers("daifugo.combo.invalid")
def test_combo_invalid():
    s = snap(CLASSIC, ["3S 4S 4H 5S 6S KS AS 2S 5H 5D 5C JK", "7H", "8H"])
    v = violates(s, play(0, "5S 5H 5D 5C JK"), "daifugo.combo.invalid")
    assert "5-card group" in v.message
    low = D.Play(0, cards("3S 4S") + (JOKER,), (D.Stand("S", D.BELOW_3),))
    violates(s, low, "daifugo.combo.invalid")  # no card below 3 in classic
    violates(s, D.Play(0, ()), "daifugo.combo.invalid")
    for good in ["5S 6S JK(7S)", "KS AS 2S", "5S 5H 5D 5C", "5S 5H JK", "4H"]:
        legal(s, play(0, good))


@covers("daifugo.combo.five-group", "daifugo.option.revolution")
def test_uecda_five_group():
    hands = ["5S 5H 5D 5C JK", "6S 6H 6D 6C", "7S 7H 7D 7C", "10S JS", "QS KS"]
    s = snap(UECDA, hands)
    five = D.Play(0, cards("5S 5H 5D 5C") + (JOKER,), (D.Stand("", 3),))
    after = legal(s, five)
    assert after.revolution and "daifugo.combo.five-group" in after.events
    violates(after, play(1, "6S 6H 6D 6C"), "daifugo.play.same-kind")
    wrong_row = D.Play(0, cards("5S 5H 5D 5C") + (JOKER,), (D.Stand("S", 3),))
    violates(s, wrong_row, "daifugo.combo.invalid")
    violates(s, D.Play(0, cards("5S") + (JOKER,), (D.Stand("", 3),)), "daifugo.combo.invalid")


@covers("daifugo.joker.out-of-range")
def test_uecda_joker_below_three():
    s = snap(UECDA, ["3D 4D JK", "5S 6S", "7S 9S", "10S JS", "QS KS"])
    low = D.Play(0, cards("3D 4D") + (JOKER,), (D.Stand("D", D.BELOW_3),))
    after = legal(s, low)
    assert (after.table.low, after.table.high) == (0, 2) and "daifugo.joker.out-of-range" in after.events
    violates(snap(CLASSIC, ["3D 4D JK", "5S", "6S"]), low, "daifugo.combo.invalid")


@covers("daifugo.joker.ambiguous")
def test_bare_joker_needs_one_legal_reading():
    s = snap(CLASSIC, ["4D 5D JK 9S", "3H 4H 5H 7C", "9C"])
    violates(s, play(0, "4D 5D JK"), "daifugo.joker.ambiguous")        # 3-4-5 or 4-5-6
    legal(s, play(0, "4D 5D JK(6D)"))
    t = snap(CLASSIC, ["4D 5D JK 9S", "7C", "9C"], table=(1, "3H 4H 5H"))
    after = legal(t, play(0, "4D 5D JK"))                              # only 4-5-6 beats 3-4-5
    assert after.table.high == D.strength(parse_card("6D"))


@covers("daifugo.joker.ambiguous", "daifugo.option.suit-lock")
def test_bare_joker_suit_undetermined_starts_no_lock():
    lock = D.ruleset("classic", {"suit-lock": True})
    s = snap(lock, ["9S JK 3C", "10D 10C 3H", "3D"], table=(2, "7S 7H"), to_move=0)
    bare = legal(s, play(0, "9S JK"))
    assert bare.lock is None and bare.table.suits is None
    legal(bare, play(1, "10D 10C"))
    stated = legal(s, play(0, "9S JK(9H)"))
    assert stated.lock == frozenset("SH") and "daifugo.option.suit-lock" in stated.events
    violates(stated, play(1, "10D 10C"), "daifugo.option.suit-lock")


@covers("daifugo.joker.held-card")
def test_joker_may_stand_for_a_held_card():
    for rules in (CLASSIC, UECDA):
        hands = ["5S 5H JK", "6S 6H", "7S 9S", "10S JS", "QS KS"]
        s = snap(rules, hands if rules is UECDA else hands[:3])
        after = legal(s, play(0, "5S JK(5H)"))
        assert "daifugo.joker.held-card" in after.events
        assert "daifugo.joker.held-card" not in legal(s, play(0, "5S JK(5D)")).events


@covers("daifugo.joker.two-jokers", "daifugo.play.lone-joker")
def test_two_jokers_seed():
    hands = ["5S JK JK 9S", "6S 6H 6D", "7S", "9H", "10H"]
    s = snap(CLASSIC, hands)
    violates(s, play(0, "5S JK JK"), "daifugo.joker.ambiguous")         # a triple or three sequences
    after = legal(s, play(0, "5S JK(5H) JK(5D)"))
    assert "daifugo.joker.two-jokers" in after.events and after.table.kind == "group"
    legal(after, play(1, "6S 6H 6D"))
    one = legal(s, play(0, "JK"))
    assert one.table.lone_joker
    t = snap(CLASSIC, ["9S", "JK 6H", "7S", "9H", "10H"], table=(0, "JK"), to_move=1)
    violates(t, play(1, "JK"), "daifugo.play.lone-joker")


# ---------------------------------------------------------------- following


@covers("daifugo.play.same-kind")
def test_same_kind_and_size():
    for rules, hands in ((CLASSIC, ["9S 9H JK 10S JS QS", "5C", "6S"]),
                         (UECDA, ["9S 9H JK 10S JS QS", "5C", "6S", "3H", "4H"])):
        s = snap(rules, hands, table=(1, "5D"))
        violates(s, play(0, "9S 9H"), "daifugo.play.same-kind")
        legal(s, play(0, "9S"))
        legal(s, play(0, "JK"))  # the lone joker follows any single
        t = s._replace(table=D.combination(rules, cards("5H 5D")))
        violates(t, play(0, "JK"), "daifugo.play.same-kind")
        u = t._replace(table=D.combination(rules, cards("3C 4C 5C 6C")))
        violates(u, play(0, "10S JS QS"), "daifugo.play.same-kind")


@covers("daifugo.play.stronger", "daifugo.play.lone-joker")
def test_stronger_single_and_group():
    for rules, extra in ((CLASSIC, []), (UECDA, ["3H", "4H"])):
        s = snap(rules, ["5S 9S JK", "7C", "2C"] + extra, table=(1, "7H"))
        violates(s, play(0, "5S"), "daifugo.play.stronger")
        legal(s, play(0, "9S"))
        r = s._replace(revolution=True)
        legal(r, play(0, "5S"))
        violates(r, play(0, "9S"), "daifugo.play.stronger")
        two = snap(rules, ["5S 9S JK", "7C", "2C"] + extra, table=(2, "2H"))
        legal(two, play(0, "JK"))
        three = snap(rules, ["5S 9S JK", "7C", "3D"] + extra, table=(2, "3C"), revolution=True)
        legal(three, play(0, "JK"))  # the lone joker stays strongest in a revolution


@covers("daifugo.play.sequence-top")
def test_seed_sequences_compare_by_top_card():
    s = snap(CLASSIC, ["3S 4S 5S 6S 7S", "9H", "9C"], table=(1, "4H 5H 6H"))
    legal(s, play(0, "5S 6S 7S"))
    violates(s, play(0, "3S 4S 5S"), "daifugo.play.sequence-top")
    r = snap(CLASSIC, ["4S 5S 6S 7S", "9H", "9C"], table=(1, "5H 6H 7H"), revolution=True)
    legal(r, play(0, "4S 5S 6S"))
    violates(r, play(0, "5S 6S 7S"), "daifugo.play.sequence-top")


@covers("daifugo.play.sequence-above")
def test_uecda_sequence_must_lie_wholly_above():
    hands = ["5S 6S 7S 9S 10S JS", "9H", "9C", "3C", "4C"]
    s = snap(UECDA, hands, table=(1, "4H 5H 6H"))
    violates(s, play(0, "5S 6S 7S"), "daifugo.play.sequence-above")
    legal(s, play(0, "9S 10S JS"))
    r = snap(UECDA, ["3S 4S 5S JK", "9H", "9C", "3C", "4C"], table=(1, "5H 6H 7H"), revolution=True)
    violates(r, play(0, "3S 4S 5S"), "daifugo.play.sequence-above")  # classic would take it
    legal(r, D.Play(0, cards("3S 4S") + (JOKER,), (D.Stand("S", D.BELOW_3),)))


@covers("daifugo.option.spade3", "daifugo.play.lone-joker")
def test_spade3_over_lone_joker():
    hands = ["3S 2S", "5H", "9C"]
    s = snap(CLASSIC, hands, table=(1, "JK"))
    violates(s, play(0, "3S"), "daifugo.play.lone-joker")
    violates(s, play(0, "2S"), "daifugo.play.lone-joker")
    s3 = snap(D.ruleset("classic", {"spade3": True}), hands, table=(1, "JK"))
    after = legal(s3, play(0, "3S"))
    assert "daifugo.option.spade3" in after.events and after.table is None and after.to_move == 0
    violates(s3, play(0, "2S"), "daifugo.play.lone-joker")
    u = snap(UECDA, ["3S 2S", "5H", "9C", "3C", "4C"], table=(1, "JK"))
    assert legal(u, play(0, "3S")).table is None


# ---------------------------------------------------------------- tricks


@covers("daifugo.trick.end")
def test_seed_trick_ends_when_all_others_passed():
    s = snap(CLASSIC, ["3S 4S", "5S 6S", "7S 9S"])
    s = run(s, play(0, "3S"), D.Pass(1))
    assert s.table is not None and s.to_move == 2
    s = legal(s, D.Pass(2))
    assert s.table is None and s.to_move == 0 and "daifugo.trick.end" in s.events and not s.passed


@covers("daifugo.trick.clear", "daifugo.trick.own-cards")
def test_uecda_table_player_gets_own_turn():
    s = snap(UECDA, UE5)
    s = run(s, play(0, "3S"), D.Pass(1), D.Pass(2), D.Pass(3), D.Pass(4))
    assert s.to_move == 0 and s.table is not None  # not cleared yet
    over_own = legal(s, play(0, "4S"))
    assert "daifugo.trick.own-cards" in over_own.events
    cleared = legal(s, D.Pass(0))
    assert cleared.table is None and cleared.to_move == 0 and "daifugo.trick.clear" in cleared.events


@covers("daifugo.trick.leader")
def test_leader_after_last_player_went_out():
    s = snap(CLASSIC, ["9S", "5S 6S", "7S 10S", "4H 5H"])
    s = run(s, play(0, "9S"), D.Pass(1), D.Pass(2))
    assert s.to_move == 3
    s = legal(s, D.Pass(3))
    assert s.to_move == 1 and "daifugo.trick.leader" in s.events
    u = snap(UECDA, ["9S", "5S 6S", "7S 10S", "4H 5H", "QS KS"])
    u = run(u, play(0, "9S"), D.Pass(1), D.Pass(2), D.Pass(3))
    assert u.to_move == 4 and u.table is not None  # going out did not end the trick
    u = legal(u, D.Pass(4))
    assert u.to_move == 1 and "daifugo.trick.leader" in u.events


@covers("daifugo.option.trick-end")
def test_trick_end_all_but_one():
    rules = D.ruleset("uecda", {"trick-end": "all-but-one"})
    s = snap(rules, UE5)
    s = run(s, play(0, "3S"), D.Pass(1), D.Pass(2), D.Pass(3))
    assert s.to_move == 4 and s.table is not None
    cleared = legal(s, D.Pass(4))  # all but the player on the table: no own turn
    assert cleared.table is None and cleared.to_move == 0 and "daifugo.option.trick-end" in cleared.events
    # The player on the table went out: all but one of those still in is enough.
    s = snap(rules, ["9S", "5S 6S", "7S 10S", "4H 5H", "QS KS"])
    s = run(s, play(0, "9S"), D.Pass(1), D.Pass(2))
    assert s.to_move == 3 and s.table is not None
    s = legal(s, D.Pass(3))
    assert s.table is None and s.to_move == 1 and "daifugo.option.trick-end" in s.events
    assert "daifugo.trick.leader" in s.events
    # Leaders may pass under uecda: four passes on an empty table clear it back to the leader.
    e = run(snap(rules, UE5), D.Pass(0), D.Pass(1), D.Pass(2))
    assert e.to_move == 3
    e = legal(e, D.Pass(3))
    assert e.to_move == 0 and not e.passed and "daifugo.option.trick-end" in e.events
    # The default is the whole table (the own turn above) and classic's, everyone else.
    assert UECDA.trick_end == "all" and CLASSIC.trick_end == "others"
    with pytest.raises(ValueError, match="trick-end takes"):
        D.ruleset("uecda", {"trick-end": "most"})


@covers("daifugo.option.sequences")
@PRESETS
def test_no_sequences(rules):
    off = D.ruleset(rules.name, {"sequences": False})
    hands = seats_for(rules, ["3S 4S 5S 6H", "7H 8H 9H 3H"])
    s = snap(off, hands)
    violates(s, play(0, "3S 4S 5S"), "daifugo.option.sequences")
    assert not any(isinstance(m, D.Play) and len(m.cards) == 3 for m in D.legal_moves(s))
    legal(snap(rules, hands), play(0, "3S 4S 5S"))
    legal(s, play(0, "6H"))  # singles and groups as usual


@covers("daifugo.turn.rejected", "daifugo.option.sequences", "daifugo.option.suit-lock")
def test_refused_sequence_still_locks():
    """The server updates the lock before it refuses a sequence (uecda-server.md checks 4, 6)."""
    off = D.ruleset("uecda", {"sequences": False})
    s = snap(off, ["6H 7H", "8H 9H 10H JH", "7S 9S", "10S JS", "QS KS"], to_move=1,
             table=(0, "3H 4H 5H"))
    move = play(1, "8H 9H 10H")
    v = violates(s, move, "daifugo.option.sequences")
    after = D.after_illegal(s, move, v)
    assert after is not None and after.lock == frozenset("H") and after.passed == {1}
    assert after.events[:2] == ("daifugo.turn.rejected", "daifugo.option.suit-lock")
    # Refused for another reason first, it locks nothing.
    weak = play(1, "9H 10H JH")
    s2 = s._replace(table=D.combination(off, cards("10H JH QH")))
    v2 = D.check(s2, weak)
    assert v2 is not None and v2.rule == "daifugo.play.sequence-above"
    assert D.after_illegal(s2, weak, v2).lock is None


def test_after_illegal_policy():
    """Only uecda counts an illegal submission, and only one by the player to move."""
    u = snap(UECDA, UE5)
    bad = play(0, "5S")
    v = D.check(u, bad)
    after = D.after_illegal(u, bad, v)
    assert after is not None and after.passed == {0} and after.events[0] == "daifugo.turn.rejected"
    wrong = play(1, "5S")
    assert D.after_illegal(u, wrong, D.check(u, wrong)) is None  # out of turn: an error
    s = snap(CLASSIC, ["3S 4S", "5S 6S", "7S 9S"])
    assert D.after_illegal(s, play(0, "5S"), D.check(s, play(0, "5S"))) is None


def consulted(state: D.State, move: D.Move) -> list[str]:
    ids: list[str] = []
    assert D.check(state, move, ids) is None
    return ids


def test_check_says_what_it_consulted():
    s = snap(CLASSIC, ["3S 4S 5S JK", "5H 6H 7H 9H", "7S 9S"])
    assert consulted(s, play(0, "3S 4S 5S")) == [
        "daifugo.turn.order", "daifugo.hand.possession", "daifugo.combo.invalid", "daifugo.play.same-kind"]
    t = legal(s, play(0, "3S 4S 5S"))
    assert consulted(t, play(1, "5H 6H 7H")) == [
        "daifugo.turn.order", "daifugo.hand.possession", "daifugo.combo.invalid", "daifugo.play.same-kind",
        "daifugo.play.sequence-top"]
    assert consulted(t, D.Pass(1)) == ["daifugo.turn.order"]
    j = snap(CLASSIC, ["4S 6S JK", "9H", "7S 9S"])
    assert consulted(j, play(0, "4S JK 6S"))[3] == "daifugo.joker.ambiguous"  # a bare joker read one way
    u = snap(UECDA, UE5)
    assert consulted(u, D.Pass(0)) == ["daifugo.turn.order", "daifugo.pass.empty-stage"]
    locked = snap(UECDA, ["3D 5H", "6S 7S", "7C 9S", "10S JS", "QS KS"], to_move=1, table=(0, "4S"),
                  lock={"S"})
    assert consulted(locked, play(1, "6S"))[-1] == "daifugo.option.suit-lock"
    # An illegal move: the list holds what passed before the rule it broke.
    ids: list[str] = []
    v = D.check(t, play(1, "9H"), ids)
    assert v is not None and v.rule == "daifugo.play.same-kind"
    assert ids == ["daifugo.turn.order", "daifugo.hand.possession"]


# ---------------------------------------------------------------- results


@covers("daifugo.result.finish", "daifugo.result.titles")
def test_results():
    s = snap(CLASSIC, ["3S", "5S", "7S 9S"])
    violates_finish = D.check_finish(s, (0, 1, 2))
    assert violates_finish is not None and violates_finish.rule == "daifugo.result.finish"
    s = run(s, play(0, "3S"), play(1, "5S"))
    assert D.check_finish(s, (0, 1, 2)) is None
    v = D.check_finish(s, (1, 0, 2))
    assert v is not None and v.rule == "daifugo.result.finish"
    assert D.titles((2, 0, 1)) == ("heimin", "daihinmin", "daifugo")
    assert D.title_names(4) == ("daifugo", "fugo", "hinmin", "daihinmin")
    assert D.title_names(7) == ("daifugo", "fugo", "heimin", "heimin", "heimin", "hinmin", "daihinmin")
    assert D.check_titles((2, 0, 1), ("heimin", "daihinmin", "daifugo")) is None
    v = D.check_titles((2, 0, 1), ("daifugo", "daihinmin", "heimin"))
    assert v is not None and v.rule == "daifugo.result.titles"
    order = (3, 1, 4, 0, 2)
    mibun = [D.UECDA_TITLES.index(t) for t in D.titles(order)]
    assert mibun == [3, 1, 4, 0, 2]


# ---------------------------------------------------------------- options


@covers("daifugo.option.revolution")
def test_revolution():
    s = snap(CLASSIC, ["5S 5H 5D 5C 9S", "4S 4H 4D 4C 6H", "7S"])
    after = legal(s, play(0, "5S 5H 5D 5C"))
    assert after.revolution and "daifugo.option.revolution" in after.events
    legal(after, play(1, "4S 4H 4D 4C"))  # reversed: 4 beats 5
    joker = snap(CLASSIC, ["5S 5H 5D JK 9S", "4H", "7S"])
    assert legal(joker, play(0, "5S 5H 5D JK")).revolution  # three plus the joker
    off = snap(D.ruleset("classic", {"revolution": False}), ["5S 5H 5D 5C 9S", "4H", "7S"])
    assert not legal(off, play(0, "5S 5H 5D 5C")).revolution
    # The revolution lasts across tricks.
    s2 = run(after, D.Pass(1), D.Pass(2))
    assert s2.table is None and s2.revolution


@covers("daifugo.option.stairs-revolution")
def test_stairs_revolution():
    hands = ["3S 4S 5S 6S 9H", "7H", "9C"]
    after = legal(snap(CLASSIC, hands), play(0, "3S 4S 5S 6S"))  # seed 8: on, with N = 4
    assert after.revolution and "daifugo.option.stairs-revolution" in after.events
    assert not legal(snap(CLASSIC, hands), play(0, "3S 4S 5S")).revolution
    off = D.ruleset("classic", {"stairs-revolution": False})
    assert not legal(snap(off, hands), play(0, "3S 4S 5S 6S")).revolution
    longer = D.ruleset("classic", {"stairs-revolution": 5})
    assert not legal(snap(longer, hands), play(0, "3S 4S 5S 6S")).revolution
    ue = ["9S 10S JS QS KS 3H", "5H", "6C", "7C", "4D"]
    assert legal(snap(UECDA, ue), play(0, "9S 10S JS QS KS")).revolution
    assert not legal(snap(UECDA, ue), play(0, "9S 10S JS QS")).revolution


@covers("daifugo.option.revolution", "daifugo.option.stairs-revolution")
@pytest.mark.parametrize("preset", ["classic", "uecda"])
def test_off_revolution_turns_off_every_revolution(preset):
    """A Pitboss ruling: -revolution turns off four of a kind and long sequences alike, in
    every preset, as the contest server's RULE_KAKUMEI NO does; a length beside it says
    nothing (-revolution stairs-revolution=5 is -revolution)."""
    hands = ["8S 8H 8D 8C 3S 4S 5S 6S 7S", "4H", "9C", "10C", "JD"][: 5 if preset == "uecda" else 3]
    base = D.ruleset(preset)
    for toggles in ({"revolution": False}, {"revolution": False, "stairs-revolution": 5},
                    {"revolution": False, "stairs-revolution": 3}, {"revolution": False, "stairs-revolution": None}):
        off = D.ruleset(preset, toggles)
        assert off is D.ruleset(preset, {"revolution": False}) and off.stairs_revolution is None
        for cards_played in ("8S 8H 8D 8C", "3S 4S 5S 6S 7S"):
            after = legal(snap(off, hands), play(0, cards_played))
            assert not after.revolution and not any("revolution" in e for e in after.events)
            assert legal(snap(base, hands), play(0, cards_played)).revolution  # on by default
    # a rule set made by hand with both fields still revolts on nothing
    from dataclasses import replace

    by_hand = replace(base, revolution=False, stairs_revolution=3)
    assert not legal(snap(by_hand, hands), play(0, "3S 4S 5S 6S 7S")).revolution


@covers("daifugo.option.forbidden-finish")
def test_forbidden_finish():
    hands = ["2S", "3H", "4H 5H"]
    s = run(snap(CLASSIC, hands), play(0, "2S"))
    assert s.fouled == (0,) and "daifugo.option.forbidden-finish" in s.events
    s = run(s, D.Pass(1), D.Pass(2))
    assert s.to_move == 1
    s = legal(s, play(1, "3H"))
    assert D.finishing_order(s) == (1, 2, 0)
    off = run(snap(D.ruleset("classic", {"forbidden-finish": False}), hands), play(0, "2S"))
    assert off.finished == (0,) and off.fouled == ()
    ue = run(snap(UECDA, ["2S", "3H", "4H 5H", "6C", "7C"]), play(0, "2S"))
    assert ue.finished == (0,)  # no forbidden finish under uecda
    joker = run(snap(CLASSIC, ["JK", "3H", "4H 5H"]), play(0, "JK"))
    assert joker.fouled == (0,)


@covers("daifugo.finish.forbidden-order")
def test_forbidden_finish_order_rulings():
    four2 = run(snap(CLASSIC, ["2S 2H 2D 2C", "3H", "4H 5H"]), play(0, "2S 2H 2D 2C"))
    assert four2.fouled == (0,) and four2.revolution and "daifugo.finish.forbidden-order" in four2.events
    four3 = run(snap(CLASSIC, ["3S 3H 3D 3C", "4H", "5H 6H"]), play(0, "3S 3H 3D 3C"))
    assert four3.finished == (0,)
    rev3 = run(snap(CLASSIC, ["3S", "4H", "5H 6H"], revolution=True), play(0, "3S"))
    assert rev3.fouled == (0,)
    back3 = run(snap(D.ruleset("classic", {"eleven-back": True}), ["3S", "4H", "5H 6H"], back=True), play(0, "3S"))
    assert back3.fouled == (0,)
    # Two forbidden finishers: the earlier ranks lower; the player left holding cards above both.
    s = snap(CLASSIC, ["2S", "2H", "4H 5H", "6C 7C"])
    s = run(s, play(0, "2S"), D.Pass(1), D.Pass(2), D.Pass(3))
    assert s.to_move == 1
    s = run(s, play(1, "2H"), D.Pass(2), D.Pass(3))
    assert s.fouled == (0, 1) and s.to_move == 2
    s = run(s, play(2, "4H"), D.Pass(3), play(2, "5H"))
    assert D.finishing_order(s) == (2, 3, 1, 0)


@covers("daifugo.option.miyako-ochi", "daifugo.miyako.first-place")
def test_miyako_ochi():
    miyako = D.ruleset("classic", {"miyako-ochi": True})
    hands = ["9S 10S", "3H", "4H 5H", "6C 7C"]
    s = snap(miyako, hands, to_move=1, previous=(0, 1, 2, 3))
    s = legal(s, play(1, "3H"))
    assert s.dropped == (0,) and "daifugo.option.miyako-ochi" in s.events
    assert not s.is_in(0) and s.to_move == 2
    s = run(s, play(2, "4H"), play(3, "6C"), D.Pass(2))
    s = run(s, play(3, "7C"))
    assert D.finishing_order(s) == (1, 3, 2, 0)
    # Without the option, or when the daifugo finishes first, nobody drops.
    plain = legal(snap(CLASSIC, hands, to_move=1, previous=(0, 1, 2, 3)), play(1, "3H"))
    assert plain.dropped == ()
    # A forbidden finish takes no first place: no drop yet.
    foul = legal(snap(miyako, ["9S 10S", "2H", "4H 5H", "6C 7C"], to_move=1, previous=(0, 1, 2, 3)),
                 play(1, "2H"))
    assert foul.fouled == (1,) and foul.dropped == () and "daifugo.miyako.first-place" not in foul.events


@covers("daifugo.option.consecutive-revolution")
def test_consecutive_revolution():
    hands = ["5S 5H 5D 5C 9C", "9S 9H 9D JK", "7S"]
    s = legal(snap(CLASSIC, hands), play(0, "5S 5H 5D 5C"))
    violates(s, play(1, "9S 9H 9D JK"), "daifugo.play.stronger")
    cr = legal(snap(D.ruleset("classic", {"consecutive-revolution": True}), hands), play(0, "5S 5H 5D 5C"))
    after = legal(cr, play(1, "9S 9H 9D JK"))
    assert not after.revolution and "daifugo.option.consecutive-revolution" in after.events
    # Only in the trick of the revolution.
    later = run(after, D.Pass(2), D.Pass(0))
    assert later.table is None and not later.trick_revolted


@covers("daifugo.option.eight-cut")
def test_eight_cut():
    cut = D.ruleset("classic", {"eight-cut": True})
    hands = ["8S 7H JK 9H 4C", "10S", "JS"]
    for text in ["8S", "7H JK(8H) 9H"]:
        after = legal(snap(cut, hands), play(0, text))
        assert after.table is None and after.to_move == 0 and "daifugo.option.eight-cut" in after.events
    assert legal(snap(cut, hands), play(0, "JK")).table is not None  # a lone joker never cuts
    as_eight = D.Play(0, (JOKER,), (D.Stand.of(parse_card("8D")),))
    assert legal(snap(cut, hands), as_eight).table.lone_joker  # its written reading is ignored
    assert legal(snap(CLASSIC, hands), play(0, "8S")).table is not None  # off in classic
    out = legal(snap(cut, ["8S", "10S", "JS"]), play(0, "8S"))
    assert out.to_move == 1 and "daifugo.trick.leader" in out.events
    ue = legal(snap(UECDA, ["7S 8S 9S 3H", "5H", "6C", "7C", "4D"]), play(0, "7S 8S 9S"))
    assert ue.table is None and ue.to_move == 0


@covers("daifugo.option.suit-lock")
def test_suit_lock():
    lock = D.ruleset("classic", {"suit-lock": True})
    s = snap(lock, ["9H 9S 4C", "5S 3C", "7S 3D"], to_move=1)
    s = run(s, play(1, "5S"), play(2, "7S"))
    assert s.lock == frozenset("S") and "daifugo.option.suit-lock" in s.events
    violates(s, play(0, "9H"), "daifugo.option.suit-lock")
    locked = legal(s, play(0, "9S"))
    cleared = run(locked, D.Pass(1), D.Pass(2))
    assert cleared.table is None and cleared.lock is None
    free = run(snap(CLASSIC, ["9H 9S 4C", "5S 3C", "7S 3D"], to_move=1), play(1, "5S"), play(2, "7S"))
    assert free.lock is None
    legal(free, play(0, "9H"))


@covers("daifugo.lock.lone-joker")
def test_lone_joker_breaks_the_lock():
    lock = D.ruleset("classic", {"suit-lock": True})
    s = run(snap(lock, ["9H JK 4C", "5S 3C", "7S 10S"], to_move=1), play(1, "5S"), play(2, "7S"))
    after = legal(s, play(0, "JK"))
    assert after.lock is None and "daifugo.lock.lone-joker" in after.events


@covers("daifugo.option.eleven-back")
def test_eleven_back():
    back = D.ruleset("classic", {"eleven-back": True})
    s = legal(snap(back, ["JS 4C", "10S QS", "3D"]), play(0, "JS"))
    assert s.back and "daifugo.option.eleven-back" in s.events
    violates(s, play(1, "QS"), "daifugo.play.stronger")
    s = legal(s, play(1, "10S"))
    s = run(s, D.Pass(2), D.Pass(0))
    assert s.table is None and not s.back
    assert not legal(snap(CLASSIC, ["JS 4C", "10S QS", "3D"]), play(0, "JS")).back
    ue = legal(snap(D.ruleset("uecda", {"eleven-back": True}), ["JS 4C", "10S", "3D", "5C", "6D"]), play(0, "JS"))
    assert ue.back and ue.reversed


@covers("daifugo.option.six-reverse")
def test_six_reverse():
    rev = D.ruleset("classic", {"six-reverse": True})
    s = legal(snap(rev, ["6S 4C", "10S", "3D", "9H"]), play(0, "6S"))
    assert s.direction == -1 and s.to_move == 3 and "daifugo.option.six-reverse" in s.events
    assert legal(snap(CLASSIC, ["6S 4C", "10S", "3D", "9H"]), play(0, "6S")).to_move == 1
    twice = legal(s, play(3, "9H"))
    assert twice.to_move == 2


# ---------------------------------------------------------------- uecda server behaviour


@covers("daifugo.turn.rejected")
def test_rejected_submission_counts_as_pass():
    s = legal(snap(UECDA, UE5), play(0, "4S"))
    bad = play(1, "5S 6S")
    v = D.check(s, bad)
    assert v is not None and v.rule not in D.TURN_RULES
    after = D.reject(s, bad)
    assert "daifugo.turn.rejected" in after.events and 1 in after.passed and after.to_move == 2
    assert D.TURN_RULES >= {"daifugo.turn.order", "daifugo.pass.sat-out"}
    with pytest.raises(ValueError):
        D.reject(snap(CLASSIC, ["3S", "4S", "5S"]), play(0, "9S"))


@covers("daifugo.end.stall")
def test_stall_rule():
    s = snap(UECDA, UE5)
    for _ in range(19):
        s = legal(s, D.Pass(s.to_move))
    assert not s.over
    s = legal(s, D.Pass(s.to_move))
    assert s.over and s.stalled and "daifugo.end.stall" in s.events
    assert D.check_finish(s, (4, 2, 0, 1, 3)) is None  # random places
    assert D.check_finish(s, (4, 2, 0, 1)) is not None


# ---------------------------------------------------------------- snapshots


def test_snapshot_checks():
    s = snap(CLASSIC, ["3S 9D JK", "4H 4C KS", "7S 8S 9S 2H"], to_move=0, table=(1, "5S 5C"),
             passed=(2,), lock=None)
    assert s.table.kind == "group" and s.last_player == 1
    with pytest.raises(D.RuleError) as e:
        snap(CLASSIC, ["3S 3S", "4H", "5H"])
    assert e.value.violation.rule == "daifugo.deal.duplicate"
    with pytest.raises(D.RuleError) as e:
        snap(CLASSIC, ["3S", "4H", "5H"], table=(1, "5S 6C"))
    assert e.value.violation.rule == "daifugo.combo.invalid"
    with pytest.raises(D.RuleError) as e:
        snap(CLASSIC, ["3S", "4H", "5H"], to_move=2, passed=(2,), table=(1, "5S"))
    assert e.value.violation.rule == "daifugo.turn.order"


# ---------------------------------------------------------------- random play


def _random_round(rng: random.Random, rules: D.RuleSet, n: int, previous, max_moves: int = 5000):
    full = list(D.deck(rules, n))
    rng.shuffle(full)
    order = list(previous) if previous is not None else list(range(n))
    dealt: list[list[Card]] = [[] for _ in range(n)]
    for i, c in enumerate(full):  # one at a time from the first-ranked player
        dealt[order[i % n]].append(c)
    hands = [tuple(h) for h in dealt]
    assert D.check_deal(rules, hands, order) == []
    state = D.new_round(rules, hands, previous=previous, round_no=2 if previous else 1)
    played: list[Card] = []
    for _ in range(max_moves):
        if state.over:
            break
        moves = list(D.legal_moves(state))
        assert moves, "a player to move always has a move"
        assert len(moves) == len(set(moves)), "no move is listed twice"
        move = rng.choice(moves)
        assert D.check(state, move) is None, (move, D.check(state, move))
        if isinstance(move, D.Play):
            played.extend(move.cards)
        state = D.apply(state, move)
        held = sorted([c for h in state.hands for c in h] + played)
        assert held == sorted(D.deck(rules, n)), "cards are conserved"
    assert state.over, "the round ends"
    order = D.finishing_order(state)
    assert sorted(order) == list(range(n))
    assert D.check_finish(state, order) is None
    return order


@pytest.mark.parametrize("seed", range(12))
def test_random_play(seed):
    rng = random.Random(seed)
    names = [o for o in D.OPTIONS if o != "stairs-revolution" and o not in D.OPTION_CHOICES]
    for preset in ("classic", "uecda"):
        toggles: dict[str, object] = {o: rng.random() < 0.5 for o in names}
        toggles["stairs-revolution"] = rng.choice([None, 3, 4, 5])
        toggles["exchange"] = rng.choice(["weakest", "choice"])
        toggles["trick-end"] = rng.choice(D.TRICK_ENDS)
        rules = D.ruleset(preset, toggles)
        counts = [5] if preset == "uecda" else [3, 4, 5, 6, 7, 8]
        for n in counts:
            previous = None
            for _ in range(2):
                previous = _random_round(rng, rules, n, previous)


# ---------------------------------------------------------------- the real contest logs


_LOG_RANKS = {"3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "T": 10, "J": 11, "Q": 12, "K": 13,
              "A": 1, "2": 2}
_JOKER_ROWS = {"K": "S", "L": "H", "M": "D", "N": "C", "J": ""}


def _log_move(entry: str) -> D.Move:
    """A contest log entry (``2S6S7S8EE``, ``3MxD3D4EE``) as a move (a minimal reader for
    this test; the real one lives in the notation layer)."""
    pid, body = int(entry[0]), entry[1:-2]
    codes = [body[i:i + 2] for i in range(0, len(body), 2)]
    out: list[Card] = []
    stands: list[D.Stand] = []
    for i, (s, r) in enumerate(codes):
        if s in "SHDC":
            out.append(Card(_LOG_RANKS[r], s))
            continue
        row = _JOKER_ROWS[s]
        if r == "x":
            later = any(c[0] == row for c in codes[i + 1:])
            col = D.BELOW_3 if later else D.ABOVE_2
        else:
            col = D.strength(Card(_LOG_RANKS[r], "S"))
        out.append(JOKER)
        stands.append(D.Stand(row, col))
    return D.Play(pid, tuple(out), tuple(stands)) if out else D.Pass(pid)


def _log_hand(text: str) -> tuple[Card, ...]:
    return tuple(JOKER if text[i:i + 2] == "J3" else Card(_LOG_RANKS[text[i + 1]], text[i])
                 for i in range(0, len(text), 2))


@pytest.mark.parametrize("name", ["uecda-sample.log", "uecda-11back-6revers-sample.log"])
def test_replay_contest_logs(name):
    """Every game of the real server logs replays: deal, titles, the exchange (the default
    client gives its lowest non-joker cards), every entry accepted or rejected as the server
    did (a wrong guess would derail the turn order), and the result line."""
    folder = fixtures_dir()
    header: dict[str, str] = {}
    games: dict[int, dict[str, str]] = {}
    for line in (folder / name).read_text().splitlines():
        _, tag, key, value = line.split("%", 3)
        if tag == "-----":
            header[key] = value.strip()
        else:
            games.setdefault(int(tag), {})[key] = value
    rules = D.ruleset("uecda", {"eleven-back": header["RULE_11BACK"] == "YES",
                                "six-reverse": header["RULE_6REVERS"] == "YES"})
    previous_result = None
    rejected = 0
    for index in sorted(games):
        g = games[index]
        seats = tuple(int(c) for c in g["seat"].strip())
        hands = [_log_hand(h) for h in g["palyer_cards"].split()]
        assert D.check_deal(rules, hands, seats) == [], index
        previous = None
        if g["mibun"].strip() != "22222":
            classes = [int(c) for c in g["mibun"].strip()]
            assert D.check_titles(previous_result, [D.UECDA_TITLES[c] for c in classes]) is None
            previous = tuple(sorted(range(5), key=classes.__getitem__))
        state = D.new_round(rules, hands, seats, previous, round_no=index + 1)
        while state.phase == "exchange":
            duty = next(iter(state.pending))
            if duty.server:
                gift = D.strongest_cards(state.hands[duty.giver], duty.count)
            else:
                gift = D.weakest_cards([c for c in state.hands[duty.giver] if not c.is_joker], duty.count)
            state = legal(state, D.Give(duty.giver, duty.receiver, gift))
        for entry in g["play"].split():
            move = _log_move(entry)
            v = D.check(state, move)
            if v is None:
                state = D.apply(state, move)
            else:
                assert v.rule not in D.TURN_RULES, (index, entry, v)
                state = D.reject(state, move)
                rejected += 1
        result = tuple(int(c) for c in g["result"].strip())
        assert D.check_finish(state, result) is None, (index, D.check_finish(state, result))
        previous_result = result
    assert rejected > 0


# ---------------------------------------------------------------- the spec


# The contest-log checks outside the engine's moves (the log's seed, its change_cards and
# points lines, a log cut short) are shown by tests/games/daifugo/test_uecda_*.py and goldens.
covers("daifugo.deal.seed", "daifugo.exchange.logged", "daifugo.result.points", "daifugo.log.cut-short")


def test_every_spec_id_is_shown_and_every_shown_id_exists():
    ids = spec.ids("daifugo.")
    assert ids, "spec/daifugo*.toml must define the Daifugo rules"
    assert COVERED - ids == set(), "tests cite ids the spec lacks"
    assert ids - COVERED == set(), "spec ids without a test"
    for rule_id in ids:
        r = spec.rule(rule_id)
        assert set(r.rulesets) <= {"classic", "uecda"}, rule_id
        assert set(r.options) <= set(D.OPTIONS), rule_id
        assert r.file.startswith("daifugo"), rule_id


# ---------------------------------------------------------------- rule ids only from the engine


@covers("daifugo.deal.players", "daifugo.lead.first-round", "daifugo.lead.later-rounds")
def test_player_count_and_seat_order_are_engine_checks():
    assert D.check_players(CLASSIC, 3) is None and D.check_players(UECDA, 5) is None
    assert D.check_players(UECDA, 4).rule == "daifugo.deal.players"
    assert D.check_players(CLASSIC, 9).rule == "daifugo.deal.players"
    names = ("Aki", "Ben", "Chie")
    assert D.check_seats(CLASSIC, (0, 1, 2), None, names) is None
    v = D.check_seats(CLASSIC, (1, 0, 2), None, names)
    assert v.rule == "daifugo.lead.first-round" and "Aki Ben Chie" in v.message and "Ben Aki Chie" in v.message
    assert D.check_seats(CLASSIC, (0, 2, 1), (1, 2, 0), names) is None  # the reverse of the finish
    assert D.check_seats(CLASSIC, (0, 1, 2), (1, 2, 0), names).rule == "daifugo.lead.later-rounds"
    assert D.check_seats(UECDA, (4, 3, 2, 1, 0), None) is None  # the server's seats: any order


@covers("daifugo.round.end")
def test_a_round_starts_only_after_the_last_one_ended():
    s = snap(CLASSIC, ["3S 4S", "5S 6S", "7S 9S"])
    v = D.check_round_over(s, 2)
    assert v.rule == "daifugo.round.end" and "round 1 is not over" in v.message
    over = run(snap(CLASSIC, ["3S", "5S 6S", "7S 9S"]), play(0, "3S"), D.Pass(1), D.Pass(2))
    assert over.over or D.check_round_over(over, 2) is not None
    done = snap(CLASSIC, ["3S", "", ""], out=[1, 2])
    assert done.over and D.check_round_over(done, 2) is None


@covers("daifugo.result.titles")
def test_titles_held_going_into_a_game():
    t5 = D.title_names(5)
    assert D.check_held_titles(None, 5, new_block=True) is None
    assert D.check_held_titles(t5, 5, new_block=True).rule == "daifugo.result.titles"
    assert D.check_held_titles(None, 5, new_block=False) is None
    assert D.check_held_titles(None, 5, new_block=False, previous=(0, 1, 2, 3, 4)).rule == "daifugo.result.titles"
    assert D.check_held_titles(("daifugo",) * 5, 5, new_block=False).rule == "daifugo.result.titles"
    assert D.check_held_titles(t5, 5, new_block=False, previous=(0, 1, 2, 3, 4)) is None
    v = D.check_held_titles(t5, 5, new_block=False, previous=(1, 0, 2, 3, 4))
    assert v.rule == "daifugo.result.titles" and "player 1" in v.message


@covers("daifugo.exchange.choice")
def test_an_exchange_no_choice_explains():
    s = D.new_round(UECDA, deal(UECDA, 5), (0, 1, 2, 3, 4), previous=(0, 1, 2, 3, 4))
    duties = [d for d in s.pending if not d.server]
    v = D.unexplained_exchange(s, duties, "player 2 does not hold 3S")
    assert v.rule == "daifugo.exchange.choice" and "player 1 (2 to player 5)" in v.message
