"""Daifugo's dispute scope: which records ``pitboss disputes daifugo`` searches.

**Deals.** A first round of three players (five where a setting seats only five), dealt
freely: a record deals each player the scope's cards they play, the cards of the deck no
move uses as they fall, the diamond 3 to the first player (or, where a setting reads who
holds it, to the second), every hand as large as the deal makes it (18, 18 and 17 cards).
No hand runs out within the scope's length, so a player holds whatever scope card they
play (each card once: a card one player played no other holds). Settings whose decks
differ (the preset's two jokers for five players, the contest's one) share no deal: the
deal is then also searched as a start position (the same hands, the first player to
move), and its records start there.

**Cards.** 3H 4H 5S 5H 5C, 6S 6H 6C 6D, 7S, 8S, JS, the spade 3 and the joker: two groups
of four (the joker completing the fives), two same-suit runs of four (5S to 8S, and 3H to
6H with the joker), a card of each rank an option reads (6, 8, J, the spade 3) and cards
of other suits to lock or break a suit-lock.

**Moves.** Every move some setting allows the player it names (the pass, and each play
of the scope's cards: ``engine.legal_moves`` under each setting, a joker read every way
that matters), each judged under every setting.

**Length.** Records of at most five moves (four for a pair of options, judged under four
settings at once); a record whose positions parted is followed two moves further, to the
move that shows it.

**Endings.** Rounds as they end, from start positions (DFN snapshot rounds, not deals):
the player to move holds one or two of 3S 6S 8S JS 2S JK, each other player one card; a
single 4D on the table (played by the last seat) or none; the order normal, or reversed
by a revolution or by eleven-back where every setting compared can make one; a first
round, or a second after a round the second player won (its daifugo) and the first lost.
Records of up to three moves, their finishing order claimed where the round ends.

**Next round.** A second round dealt (the deck in order, one card at a time from the
daifugo down the titles) after such a first round: its exchange and first moves, up to
three.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator, Sequence
from pathlib import Path
from dataclasses import dataclass
from itertools import combinations, product
from typing import Any

from referee.engines import fields
from referee.engines.base import Card
from referee.games.daifugo import engine as df
from referee.games.daifugo.notation.dfn import HAND_PREFIX, cards_text, hand_text, move_text, options_text, write_daifugo
from referee.jobs.disputes.classes import ILLEGAL, LEGAL, Verdict
from referee.jobs.disputes.scope import Start
from referee.notation.cards import parse_card

NAMES = ("Aki", "Ben", "Chie", "Dai", "Eri", "Fumi", "Gen", "Hana")


def _cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_card(c) for c in text.split())


CARDS = _cards("3H 4H 5S 5H 5C 6S 6H 6C 6D 7S 8S JS 3S JK")
DIAMOND_3 = df.DIAMOND_3


def players(settings: Sequence[df.RuleSet]) -> int:
    """The table the scope deals: three players, or the one count every setting seats."""
    least = max(s.min_players for s in settings)
    return least if least > 3 else 3


@dataclass(frozen=True)
class DealInfo:
    """A deal of the scope: the player count and who holds the diamond 3. ``position``:
    the deal written as a start position (a snapshot round, the first player to move),
    for settings that share no deal (their decks differ)."""

    n: int
    diamond3: int
    position: bool = False


class DealScope:
    """The deals part of the scope (see the module's docstring)."""

    def __init__(self, settings: Sequence[df.RuleSet]) -> None:
        self.settings = tuple(settings)
        self.n = players(self.settings)
        self.names = NAMES[:self.n]

    def describe(self) -> dict[str, Any]:
        return {"starts": f"a first round of {self.n} players, dealt freely (the diamond 3 with the first player, or "
                          "the second)",
                "cards": [str(c) for c in CARDS],
                "moves": "every move some setting allows, of the scope's cards"}

    # -------------------------------------------------------------- starts

    def _reads_diamond3(self) -> bool:
        return any(s.diamond3_start or s.first_leader == "diamond3" for s in self.settings)

    def starts(self) -> Iterator[Start]:
        """Each deal (the first setting's deck: the record's), judged under every setting;
        where some setting rejects it, the same deal again as a start position."""
        holders = (0, 1) if self._reads_diamond3() else (0,)
        dealt = _deal(self.settings[0], DealInfo(self.n, 0), ())
        for holder in holders:
            info = DealInfo(self.n, holder)
            hands = [self._superhand(p, holder, ()) for p in range(self.n)]
            states, rejected = [], {}
            for i, rules in enumerate(self.settings):
                found = df.check_deal(rules, dealt, None if rules.deal_start == "first" else tuple(range(self.n)))
                if found:
                    rejected[i] = Verdict(ILLEGAL, found[0].rule)
                states.append(df.new_round(rules, hands, names=self.names))
            yield Start(tuple(states), info, rejected=rejected, extra=frozenset())
            if rejected:
                seats = tuple(range(self.n))
                single = [(_RESERVE[p],) for p in range(self.n)]
                states = [df.snapshot(rules, single, seats, 0, names=self.names)._replace(hands=tuple(hands))
                          for rules in self.settings]
                yield Start(tuple(states), DealInfo(self.n, holder, True), legal=False, extra=frozenset())

    def _superhand(self, p: int, holder: int, played: Iterable[Card]) -> tuple[Card, ...]:
        """What player ``p`` may play: every scope card not played yet, and their own card
        outside the scope (so that a hand never empties)."""
        gone = set(played)
        own = (DIAMOND_3,) if p == holder else (_RESERVE[p],)
        return tuple(c for c in CARDS if c not in gone) + own

    # -------------------------------------------------------------- moves

    def moves(self, states: Sequence[df.State], extra: Hashable) -> Iterable[df.Move]:
        """What some setting allows, but the cards held outside the scope."""
        return [m for m in allowed_moves(states) if not isinstance(m, df.Play)
                or not (DIAMOND_3 in m.cards or any(c in _RESERVE for c in m.cards))]

    def advance(self, states: Sequence[df.State], afters: Sequence[df.State], move: df.Move,
                extra: Hashable) -> tuple[tuple[df.State, ...], Hashable]:
        """A card played leaves every hand (each card is dealt once)."""
        played: frozenset[Card] = extra  # type: ignore[assignment]  # the cards played so far
        if isinstance(move, df.Play) and len(afters[0].hands[move.player]) < len(states[0].hands[move.player]):
            played = played | frozenset(move.cards)
            out = []
            for after in afters:
                hands = tuple(tuple(c for c in h if c not in move.cards) if p != move.player else h
                              for p, h in enumerate(after.hands))
                out.append(after._replace(hands=hands))
            return tuple(out), played
        return tuple(afters), played

    # -------------------------------------------------------------- readings

    def reading(self, state: df.State) -> dict[str, Any]:
        return reading(state)

    def raw(self, state: df.State) -> Hashable:
        return raw(state)

    def endings(self, states: Sequence[df.State]) -> Iterable[tuple[str, tuple[Verdict, ...]]]:
        return endings(states)

    # -------------------------------------------------------------- records

    def record(self, start: Start, moves: Sequence[df.Move], ending: str | None = None) -> str:
        info: DealInfo = start.info
        rules = self.settings[0]
        if info.position:  # the deck every setting holds: the fewest jokers
            rules = min(self.settings, key=lambda r: r.jokers(info.n))
        played: dict[int, list[Card]] = {p: [] for p in range(info.n)}
        for m in moves:
            if isinstance(m, df.Play):
                played[m.player] += m.cards
        hands = _deal(rules, info, [c for p in range(info.n) for c in played[p]], played)
        tags = _game_tags(self.settings[0], self.names)
        round_tags = {"Round": "1", **{HAND_PREFIX + self.names[p]: hand_text(hands[p]) for p in range(info.n)}}
        if info.position:
            round_tags["ToMove"] = self.names[0]
        if ending:
            round_tags["Finish"] = ending
        return write_daifugo(tags, [(round_tags, list(moves))])

    def describe_move(self, state: df.State, move: df.Move) -> str:
        return move_text(move, self.names)

    def position(self, state: df.State, moves: Sequence[df.Move]) -> str | None:
        return position(state, self.names, _last_play(moves))


#: Each player's card outside the scope (the diamond 3's holder holds it instead).
_RESERVE = _cards("10C 10D 10H 10S QC QD QH QS")


def allowed_moves(states: Sequence[df.State]) -> list[df.Move]:
    """Every move some setting allows in its position (``engine.legal_moves``, a joker read
    every way that matters), and the pass of each player to move; each once."""
    seen: dict[df.Move, None] = {}
    for state in states:
        if state.over:
            continue
        for move in df.legal_moves(state):
            seen.setdefault(move)
        if state.to_move is not None:
            seen.setdefault(df.Pass(state.to_move))
    return list(seen)


def _deal(rules: df.RuleSet, info: DealInfo, used: Sequence[Card],
          played: dict[int, list[Card]] | None = None) -> list[tuple[Card, ...]]:
    """A deal of the whole deck: each player the cards they play, the diamond 3 to its
    holder, the rest as it falls, every hand as large as a one-at-a-time deal from the
    first player makes it."""
    n = info.n
    deck = list(df.deck(rules, n))
    q, r = divmod(len(deck), n)
    sizes = [q + 1 if p < r else q for p in range(n)]
    hands: list[list[Card]] = [list(played.get(p, ())) if played else [] for p in range(n)]
    hands[info.diamond3].append(DIAMOND_3)
    rest = list(deck)
    for hand in hands:
        for c in hand:
            rest.remove(c)
    for p in range(n):
        while len(hands[p]) < sizes[p]:
            hands[p].append(rest.pop(0))
    return [tuple(sorted(h, key=_order)) for h in hands]


def _order(card: Card) -> tuple[int, int]:
    return (df.strength(card) if not card.is_joker else 99, "SHDC".find(card.suit))


def _game_tags(rules: df.RuleSet, names: Sequence[str]) -> dict[str, str]:
    tags = {"Game": "Daifugo", "Rules": rules.name}
    extra = options_text(rules)
    if extra:
        tags["Options"] = extra
    tags["Players"] = " ".join(names)
    return tags


# ------------------------------------------------------------------ what the rules read


def reading(state: df.State) -> dict[str, Any]:
    """What the rules read in a position, by component (under its own rule set: a
    revolution made in this trick only where consecutive-revolution reads it, the count of
    passes only where a stall rule does)."""
    revolted, stall = _read(state)
    return {
        "turn": state.to_move,
        "direction": state.direction,
        "trick": (state.table, state.passed, state.last_player, stall),
        "suit": state.lock,
        "revolution": (state.revolution, revolted),
        "back": state.back,
        "titles": (state.finished, state.fouled, state.dropped),
        "result": (state.phase, state.stalled),
        "exchange": state.pending,
        "hands": state.hands,
        "opening": state.opening,
    }


def _read(state: df.State) -> tuple[bool, int]:
    """A revolution made in this trick and the count of passes, as the rules of the state
    read them: only consecutive-revolution reads the one, only a stall rule the other."""
    rules = state.rules
    return (state.trick_revolted and rules.consecutive_revolution and rules.revolution,
            state.stall if rules.stall_limit else 0)


def raw(state: df.State) -> Hashable:
    """The position as its rules read it, their setting aside (an exchange duty's choice,
    weakest or any, is the setting's: the reading's ``exchange`` says it)."""
    revolted, stall = _read(state)
    plain = state._replace(events=(), trick_revolted=revolted, stall=stall, pending=())
    return tuple(plain)[1:], tuple((d.giver, d.receiver, d.count) for d in state.pending)


def endings(states: Sequence[df.State]) -> Iterator[tuple[str, tuple[Verdict, ...]]]:
    """Each finishing order one of the settings gives, claimed: judged under each."""
    orders = {df.finishing_order(s) for s in states if s.over}
    for order in sorted(o for o in orders if o is not None):
        said = []
        for state in states:
            v = df.check_finish(state, order)
            said.append(Verdict(LEGAL) if v is None else Verdict(ILLEGAL, v.rule))
        names = states[0].names or NAMES
        yield " ".join(names[p] for p in order), tuple(said)


def _last_play(moves: Sequence[df.Move]) -> df.Play | None:
    return next((m for m in reversed(moves) if isinstance(m, df.Play)), None)


def position(state: df.State, names: Sequence[str], table: df.Play | None) -> str | None:
    """A position as a DFN record of it (a snapshot; ``table``: the play on the table), or
    None where a snapshot cannot say it all (turns passing backwards, a revolution made in
    this trick, a forbidden finish or a player dropped out, the exchange, a later round,
    the contest's count of passes)."""
    if (state.phase != "play" or state.direction < 0 or _read(state) != (False, 0) or state.round_no > 1
            or state.fouled or state.dropped or (state.table is not None and table is None)):
        return None
    tags = _game_tags(state.rules, names)
    for p, hand in enumerate(state.hands):
        tags[HAND_PREFIX + names[p]] = hand_text(hand)
    if state.table is not None and table is not None:
        tags["Table"] = f"{names[table.player]}: {cards_text(table.cards, table.joker_as)}"
    if state.passed:
        tags["Passed"] = " ".join(names[p] for p in sorted(state.passed))
    if state.finished:
        tags["Out"] = " ".join(names[p] for p in state.finished)
    if state.revolution:
        tags["Revolution"] = "yes"
    if state.back:
        tags["Back"] = "yes"
    if state.lock:
        tags["Lock"] = " ".join(sorted(state.lock))
    if state.to_move is not None:
        tags["ToMove"] = names[state.to_move]
    return write_daifugo(tags, [])


# ------------------------------------------------------------------ endings


#: The cards the player to move may hold at a round's end.
ENDING_CARDS = _cards("3S 6S 8S JS 2S JK")
#: What the other players hold there (one card each), and the single on the table.
OTHERS = _cards("4H 5H 7H 9H 10H 4C 5C")
TABLE = parse_card("4D")


@dataclass(frozen=True)
class Ending:
    """A start position of the endings part: each player's hand, the single on the table
    (played by the last seat) or None, the order in force, and the previous round's
    finishing order (None: a first round)."""

    hands: tuple[tuple[Card, ...], ...]
    table: df.Play | None
    revolution: bool
    back: bool
    previous: tuple[int, ...] | None


class EndingScope(DealScope):
    """The endings part of the scope (see the module's docstring): start positions, not
    deals; the record that shows a class starts from one (a DFN snapshot round)."""

    def describe(self) -> dict[str, Any]:
        return {"starts": f"positions of {self.n} players: the first to move holds one or two of the cards, each "
                          "other player one card; a single on the table or none; the order normal, or reversed by a "
                          "revolution or by eleven-back where every setting compared makes one; a first round, or a "
                          "second after a round the second player won",
                "cards": [str(c) for c in ENDING_CARDS],
                "moves": "every move some setting allows"}

    def starts(self) -> Iterator[Start]:
        n = self.n
        others = [(OTHERS[i],) for i in range(n - 1)]
        mine = [h for k in (1, 2) for h in combinations(ENDING_CARDS, k)]
        # A position every setting compared can reach: a reversed order only where each makes one.
        revolts = all(s.revolution or s.stairs_revolution for s in self.settings)
        backs = all(s.eleven_back for s in self.settings)
        for hand, with_table, revolution, back, later in product(mine, (False, True), (False, revolts),
                                                                 (False, backs), (False, True)):
            if back and not with_table:
                continue  # eleven-back lasts while its trick does
            table = df.Play(n - 1, (TABLE,)) if with_table else None
            previous = (1,) + tuple(p for p in range(n) if p != 1) if later else None
            ending = Ending((tuple(hand), *others), table, revolution, back, previous)
            states = []
            for rules in self.settings:
                try:
                    states.append(self._snapshot(rules, ending))
                except (df.RuleError, ValueError):
                    break
            else:
                yield Start(tuple(states), ending, legal=False, extra=frozenset())

    def _snapshot(self, rules: df.RuleSet, e: Ending) -> df.State:
        seats = df.default_seats(rules, self.n, e.previous) or tuple(range(self.n))
        return df.snapshot(rules, e.hands, seats, 0, table=e.table, revolution=e.revolution, back=e.back,
                           previous=e.previous, round_no=1 if e.previous is None else 2, names=self.names)

    def moves(self, states: Sequence[df.State], extra: Hashable) -> Iterable[df.Move]:
        return allowed_moves(states)

    def advance(self, states: Sequence[df.State], afters: Sequence[df.State], move: df.Move,
                extra: Hashable) -> tuple[tuple[df.State, ...], Hashable]:
        return tuple(afters), extra

    def record(self, start: Start, moves: Sequence[df.Move], ending: str | None = None) -> str:
        e: Ending = start.info
        rules = self.settings[0]
        names = self.names
        tags = _game_tags(rules, names)
        rounds: list[tuple[dict[str, str], list[df.Move]]] = []
        if e.previous is not None:
            rounds.append((_first_round(names, e.previous), []))
        here: dict[str, str] = {"Round": "1" if e.previous is None else "2"}
        for p, hand in enumerate(e.hands):
            here[HAND_PREFIX + names[p]] = hand_text(hand)
        if e.previous is not None:
            here["Order"] = " ".join(names[p] for p in reversed(e.previous))
        if e.table is not None:
            here["Table"] = f"{names[e.table.player]}: {cards_text(e.table.cards)}"
        if e.revolution:
            here["Revolution"] = "yes"
        if e.back:
            here["Back"] = "yes"
        here["ToMove"] = names[0]
        if ending:
            here["Finish"] = ending
        rounds.append((here, list(moves)))
        return write_daifugo(tags, rounds)


# ------------------------------------------------------------------ the next round


def _first_round(names: Sequence[str], previous: Sequence[int]) -> dict[str, str]:
    """A first round over at once (every player out in the ``previous`` order but the last):
    what gives a second round its titles."""
    last = previous[-1]
    return {"Round": "1", HAND_PREFIX + names[last]: hand_text(OTHERS[-1:]),
            "Out": " ".join(names[p] for p in previous[:-1]), "ToMove": names[last]}


class NextRound(DealScope):
    """The next-round part of the scope: a second round, dealt (the deck in order, one card
    at a time from the daifugo down the titles) after a first round the second player won
    and the first lost; its exchange and its first plays."""

    def __init__(self, settings: Sequence[df.RuleSet]) -> None:
        super().__init__(settings)
        self.previous = (1,) + tuple(range(2, self.n)) + (0,)

    def describe(self) -> dict[str, Any]:
        return {"starts": f"a second round of {self.n} players, the deck dealt in order from the daifugo (the second "
                          "player; the first is daihinmin)",
                "cards": "every card dealt",
                "moves": "every gift and move some setting allows"}

    def deal(self, rules: df.RuleSet) -> list[tuple[Card, ...]]:
        deck = df.deck(rules, self.n)
        hands: list[list[Card]] = [[] for _ in range(self.n)]
        for i, card in enumerate(deck):
            hands[self.previous[i % self.n]].append(card)
        return [tuple(h) for h in hands]

    def starts(self) -> Iterator[Start]:
        states, rejected = [], {}
        for i, rules in enumerate(self.settings):
            hands = self.deal(self.settings[0])
            found = df.check_deal(rules, hands, self.previous if rules.deal_start == "first" else None)
            if found:
                rejected[i] = Verdict(ILLEGAL, found[0].rule)
            states.append(df.new_round(rules, hands, None, self.previous, 2, self.names))
        yield Start(tuple(states), self.previous, legal=False, rejected=rejected, extra=frozenset())

    moves = EndingScope.moves
    advance = EndingScope.advance

    def record(self, start: Start, moves: Sequence[df.Move], ending: str | None = None) -> str:
        names = self.names
        here = {"Round": "2", **{HAND_PREFIX + names[p]: hand_text(h) for p, h in
                                  enumerate(self.deal(self.settings[0]))}}
        if ending:
            here["Finish"] = ending
        return write_daifugo(_game_tags(self.settings[0], names),
                             [(_first_round(names, self.previous), []), (here, list(moves))])


#: Records of at most this many moves (see the module's docstring), in each part.
DEPTH = 5
PAIR_DEPTH = 4
ENDING_DEPTH = 3
NEXT_DEPTH = 3


#: The parts of the scope, by name.
PARTS: tuple[str, ...] = ("deals", "endings", "next round")


def scopes(settings: Sequence[df.RuleSet]) -> list[tuple[str, Any, int]]:
    """The parts of the scope, each searched in full: its name, itself, its length (deals
    of a pair of options, judged under four settings at once, one move shorter)."""
    deals = DEPTH if len(settings) <= 2 else PAIR_DEPTH
    return list(zip(PARTS, (DealScope(settings), EndingScope(settings), NextRound(settings)),
                    (deals, ENDING_DEPTH, NEXT_DEPTH)))


def atlas() -> list[tuple[str, tuple[df.RuleSet, ...], bool]]:
    """The comparisons the shipped atlas holds: the default preset against each option
    toggled (as ``annotate`` toggles one), each pair of options toggled (the preset, each
    alone, both), and each other preset."""
    from referee.games.daifugo.settings import flipped

    base = df.PRESETS[df.DEFAULT_PRESET]
    toggles = [(name, flipped(base, name)) for name in df.OPTIONS]
    out: list[tuple[str, tuple[df.RuleSet, ...], bool]] = [
        ("options", (base, df.ruleset(base.name, {name: value})), False) for name, value in toggles]
    for (a, va), (b, vb) in combinations(toggles, 2):
        out.append(("pairs of options", (base, df.ruleset(base.name, {a: va}), df.ruleset(base.name, {b: vb}),
                                         df.ruleset(base.name, {a: va, b: vb})), True))
    out += [("presets", (base, rules), False) for name, rules in df.PRESETS.items() if name != base.name]
    return out


def points(settings: Sequence[df.RuleSet]) -> dict[str, tuple[str, ...]]:
    """Each option (or preset behaviour) that differs between the settings is a point."""
    first = settings[0]
    names = dict.fromkeys(n for s in settings[1:] for n in fields.differing(first, s))
    return {name.replace("_", "-"): (name,) for name in names}


def atlas_file() -> Path:
    """The shipped atlas: ``atlas.json`` beside this module."""
    return Path(__file__).with_name("atlas.json")


#: How two settings differ, field by field; a setting with another's values of some fields.
differences = fields.differing
adopt = fields.adopted
