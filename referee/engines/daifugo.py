"""The Daifugo engine: presets ``seed`` and ``uecda`` and every option of notation.md.

State is immutable (named tuples); ``check`` says why a move is illegal with a rule id from
``spec/daifugo*.toml``; ``apply`` assumes the move passed ``check``; ``legal_moves`` lists
the moves of the player to move (or the gifts still owed during the exchange).

Conventions
-----------
* Players are ints ``0..n-1``: their index in the record's ``Players`` tag (a contest log's
  player id). ``seats`` is the turn order at the start of the round (player ids); turns go
  from seat s to seat s+1, or s-1 once ``six-reverse`` flips ``direction``.
* Strength (Daifugo order, normal): 3 = 1, 4 = 2, ... K = 11, A = 12, 2 = 13. The joker
  in a sequence may stand at 0 (below the 3) or 14 (above the 2) under ``uecda``, matching
  the server's columns 0 and 14. ``strength(card)`` and ``rank_of(strength)`` convert.
* A joker's reading is a ``Stand(suit, strength)``: suit ``S H D C``, or ``""`` for the
  server's joker row (only in a ``uecda`` 5-card group). ``JK(5D)`` is ``Stand("D", 3)``.
* Hands are tuples of ``Card`` (``base.ALL_CARDS``; a 2-joker deck holds ``JOKER`` twice).
* Behaviour that is not a violation is reported in ``State.events``: the ids of the rules a
  move set off (revolution, eight-cut, trick end, lock, finish, ...), so they can be cited.

Public API (stable; the notation readers rely on it)
----------------------------------------------------
Moves: ``Play(player, cards, joker_as=())``, ``Pass(player)``, ``Give(giver, receiver, cards)``.

Rules: ``ruleset(preset, toggles) -> RuleSet``; ``PRESETS``; ``OPTIONS``.

Set-up: ``deck(rules, n)``, ``check_deal(rules, hands, deal_order=None)``,
``default_seats(rules, n, previous)``, ``exchange_duties(rules, previous)``,
``new_round(rules, hands, seats=None, previous=None, round_no=1)``, ``snapshot(...)``.

Play: ``check(state, move)``, ``apply(state, move)``, ``reject(state, move)`` (uecda: what
the server does with an illegal submission), ``legal_moves(state)``, ``TURN_RULES``.

Combinations: ``readings(rules, cards, joker_as=())`` (every way the cards form a
combination), ``combination(rules, cards, joker_as=())`` (the one reading, or None).

Results: ``round_over(state)``, ``finishing_order(state)``, ``title_names(n)``,
``titles(order)``, ``check_finish(state, claimed)``, ``check_titles(order, claimed)``,
``strongest_cards(rules, hand, n)``, ``weakest_cards(hand, n)``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from itertools import combinations
from typing import NamedTuple, Union

from .base import ALL_CARDS, JOKER, SUITS, Card, Violation

# --------------------------------------------------------------------------- strength

#: The server's out-of-range joker columns (uecda sequences only).
BELOW_3, ABOVE_2 = 0, 14
#: Strength of the 8, the 6 and the Jack (eight-cut, six-reverse, eleven-back).
EIGHT, SIX, JACK = 6, 4, 9
#: Strength the lone joker is given for display; comparisons treat it specially.
LONE_JOKER_STRENGTH = 14


def strength(card: Card) -> int:
    """Daifugo strength of a real card in normal order: 3 -> 1 ... K -> 11, A -> 12, 2 -> 13."""
    return (card.rank - 3) % 13 + 1


def rank_of(s: int) -> int:
    """The card rank (1 = ace ... 13 = king) of strength 1..13."""
    return (s + 1) % 13 + 1


def card_at(suit: str, s: int) -> Card | None:
    """The real card a joker reading names, or None for the out-of-range columns / joker row."""
    if suit == "" or not 1 <= s <= 13:
        return None
    return Card(rank_of(s), suit)


# --------------------------------------------------------------------------- moves


class Stand(NamedTuple):
    """What a joker stands for: ``suit`` (S H D C, or "" for the uecda joker row) and
    ``strength`` (1..13 = 3..2; 0 / 14 = the uecda columns below the 3 / above the 2)."""

    suit: str
    strength: int

    @classmethod
    def of(cls, card: Card) -> Stand:
        """The reading ``JK(card)``."""
        return cls(card.suit, strength(card))

    def __str__(self) -> str:
        c = card_at(self.suit, self.strength)
        if c is not None:
            return str(c)
        col = {BELOW_3: "below-3", ABOVE_2: "above-2"}.get(self.strength, str(self.strength))
        return f"{self.suit or 'joker-row'}:{col}"


class Play(NamedTuple):
    """``player`` plays ``cards`` as one combination.

    ``joker_as`` gives one reading per joker in ``cards``, in order, each a ``Stand`` or
    None (unstated: a bare ``JK``). ``()`` means every joker is unstated. The engine
    resolves unstated jokers when only one reading is legal (rule ``daifugo.joker.ambiguous``).
    A lone joker's reading is ignored: it is always the lone joker.
    """

    player: int
    cards: tuple[Card, ...]
    joker_as: tuple[Stand | None, ...] = ()


class Pass(NamedTuple):
    player: int


class Give(NamedTuple):
    """An exchange gift before the first play of a round (``Dai -> Aki: 2S JK``)."""

    giver: int
    receiver: int
    cards: tuple[Card, ...]


Move = Union[Play, Pass, Give]

# Combination kinds.
SINGLE, GROUP, SEQUENCE = "single", "group", "sequence"


class Combo(NamedTuple):
    """A combination as read: what the table shows and what later plays must beat.

    ``low``/``high``: strength range (equal for singles and groups; the lone joker has 14).
    ``suits``: the set of suits used (a joker counts as its reading's suit; "" = joker row);
    None for a lone joker or when a bare joker's suit is undetermined
    (ruling ``daifugo.joker.ambiguous``). ``stands``: the jokers' readings, in order.
    """

    kind: str
    size: int
    low: int
    high: int
    suits: frozenset[str] | None
    stands: tuple[Stand, ...] = ()
    lone_joker: bool = False

    def includes(self, s: int) -> bool:
        """Does the play 'include' strength ``s`` (eight-cut, six-reverse, eleven-back)?
        A lone joker never does."""
        return not self.lone_joker and self.low <= s <= self.high

    def __str__(self) -> str:
        if self.lone_joker:
            return "a lone joker"
        if self.kind == SINGLE:
            return f"a single {_strength_name(self.low)}"
        if self.kind == GROUP:
            return f"a group of {self.size} {_strength_name(self.low)}s"
        return f"a {self.size}-card sequence {_strength_name(self.low)}-{_strength_name(self.high)}"


def _strength_name(s: int) -> str:
    if s == BELOW_3:
        return "(below 3)"
    if s == ABOVE_2:
        return "(above 2)"
    return Card(rank_of(s), "").__str__()


# --------------------------------------------------------------------------- rule sets

#: Option names of notation.md, in the order the spec lists them.
OPTIONS = (
    "revolution", "stairs-revolution", "forbidden-finish", "miyako-ochi", "diamond3-start",
    "consecutive-revolution", "spade3", "eight-cut", "suit-lock", "eleven-back",
    "six-reverse", "exchange",
)
EXCHANGE_MODES = ("weakest", "choice", "none")


@dataclass(frozen=True)
class RuleSet:
    """A preset plus toggles: every point on which Daifugo rule sets differ, as data.

    The option fields carry notation.md's option names (``-`` becomes ``_``). The fields
    after them are preset behaviours that no toggle changes; each names the rule it decides.
    """

    name: str
    # --- options (notation.md section 4)
    revolution: bool = True
    stairs_revolution: int | None = None
    forbidden_finish: bool = True
    miyako_ochi: bool = False
    diamond3_start: bool = False
    consecutive_revolution: bool = False
    spade3: bool = False
    eight_cut: bool = False
    suit_lock: bool = False
    eleven_back: bool = False
    six_reverse: bool = False
    exchange: str = "weakest"
    # --- preset behaviours
    #: Player counts allowed (daifugo.deal.players).
    min_players: int = 3
    max_players: int = 8
    #: Jokers in the deck: n players -> count (daifugo.deal.missing).
    jokers_for_5_plus: int = 2
    #: Largest group; 5 = four plus the joker is a combination (daifugo.combo.five-group).
    max_group: int = 4
    #: How sequences compare: "top" (seed, daifugo.play.sequence-top) or "above"
    #: (uecda, daifugo.play.sequence-above).
    sequence_compare: str = "top"
    #: The joker may stand below the 3 / above the 2 at a sequence's end (uecda).
    joker_out_of_range: bool = False
    #: May the leader pass (daifugo.pass.leader / daifugo.pass.empty-stage)?
    leader_may_pass: bool = False
    #: "others-passed" (seed, daifugo.trick.end) or "all-marked" (uecda, daifugo.trick.clear).
    trick_end: str = "others-passed"
    #: Who leads a round: "seed" (daifugo.lead.first-round / later-rounds) or "diamond3"
    #: (uecda, daifugo.lead.diamond3).
    first_leader: str = "seed"
    #: Seats: "seed" (listed order, then reverse finishing order) or "given" (uecda).
    seating: str = "seed"
    #: Who is dealt the extra cards: "first" (from the first-ranked player) or "any"
    #: (uecda: from a random dealer) (daifugo.deal.count).
    deal_start: str = "first"
    #: Exchange: "simultaneous" (seed, judged on the hands as dealt) or "server"
    #: (uecda: the server's transfers first, exact strongest cards).
    exchange_style: str = "simultaneous"
    #: An illegal submission counts as a pass (uecda; daifugo.turn.rejected).
    rejection_is_pass: bool = False
    #: Consecutive passes and rejections that end a game (uecda stall rule), or None.
    stall_limit: int | None = None

    def __repr__(self) -> str:  # keeps State reprs short
        changed = [f"{f.name}={getattr(self, f.name)!r}" for f in fields(self)
                   if f.name != "name" and getattr(self, f.name) != getattr(PRESETS[self.name], f.name)]
        return f"RuleSet({self.name!r}{''.join(', ' + c for c in changed)})"

    def jokers(self, n_players: int) -> int:
        """Jokers in the deck for ``n_players`` (seed: 1 up to 4 players, 2 from 5)."""
        return 1 if n_players <= 4 else self.jokers_for_5_plus

    def option(self, name: str) -> object:
        """The value of the option ``name`` (notation.md spelling)."""
        return getattr(self, name.replace("-", "_"))


PRESETS: dict[str, RuleSet] = {
    "seed": RuleSet(name="seed"),
    "uecda": RuleSet(
        name="uecda",
        stairs_revolution=5,
        forbidden_finish=False,
        spade3=True,
        eight_cut=True,
        suit_lock=True,
        exchange="choice",
        min_players=5,
        max_players=5,
        jokers_for_5_plus=1,
        max_group=5,
        sequence_compare="above",
        joker_out_of_range=True,
        leader_may_pass=True,
        trick_end="all-marked",
        first_leader="diamond3",
        seating="given",
        deal_start="any",
        exchange_style="server",
        rejection_is_pass=True,
        stall_limit=20,
    ),
}
DEFAULT_PRESET = "seed"


def ruleset(preset: str = DEFAULT_PRESET, toggles: Mapping[str, object] | None = None) -> RuleSet:
    """The rule set of ``preset`` with ``toggles`` applied.

    ``toggles`` maps option names (notation.md spelling) to values: True/False for the
    on/off options; for ``stairs-revolution`` an int >= 3, or None/False/0 for off; for
    ``exchange`` one of "weakest", "choice", "none" (no exchange: the contest server's
    RULE_CHANGE NO). Unknown presets, options or values raise ValueError.
    """
    base = PRESETS.get(preset)
    if base is None:
        raise ValueError(f"unknown Daifugo rules {preset!r}: use one of {', '.join(PRESETS)}")
    changes: dict[str, object] = {}
    for name, value in (toggles or {}).items():
        if name not in OPTIONS:
            raise ValueError(f"unknown Daifugo option {name!r}: options are {', '.join(OPTIONS)}")
        field_name = name.replace("-", "_")
        if name == "stairs-revolution":
            if value is None or value is False or value == 0:
                changes[field_name] = None
            elif value is True:
                changes[field_name] = 4
            elif isinstance(value, int) and value >= 3:
                changes[field_name] = value
            else:
                raise ValueError(f"stairs-revolution takes a sequence length of 3 or more, not {value!r}")
        elif name == "exchange":
            if value not in EXCHANGE_MODES:
                raise ValueError(f"exchange takes {'|'.join(EXCHANGE_MODES)}, not {value!r}")
            changes[field_name] = value
        else:
            if not isinstance(value, bool):
                raise ValueError(f"option {name} is on or off (+{name} / -{name}), not {value!r}")
            changes[field_name] = value
    return replace(base, **changes) if changes else base


# --------------------------------------------------------------------------- state


class Duty(NamedTuple):
    """An exchange gift owed: ``giver`` gives ``count`` cards to ``receiver``.

    ``choose``: "strongest" (the lower titles), "weakest" or "choice" (the upper titles).
    ``server``: the contest server makes this transfer itself, before the choices (uecda).
    """

    giver: int
    receiver: int
    count: int
    choose: str
    server: bool = False


class State(NamedTuple):
    """A Daifugo round in progress. Build it with ``new_round`` or ``snapshot``."""

    rules: RuleSet
    #: Player ids in turn order at the start of the round (direction +1).
    seats: tuple[int, ...]
    #: Each player's cards, by player id.
    hands: tuple[tuple[Card, ...], ...]
    #: Whose turn it is; None during the exchange and once the round is over.
    to_move: int | None
    #: "exchange", "play" or "over".
    phase: str = "play"
    #: The play to beat, None when the next play leads.
    table: Combo | None = None
    #: Who made the last accepted play (it persists after a trick ends: the contest
    #: server's ``last_player``); at the start of a round, the first leader.
    last_player: int | None = None
    #: Players who passed (or, under uecda, were rejected) in this trick.
    passed: frozenset[int] = frozenset()
    #: Players who went out normally, in order.
    finished: tuple[int, ...] = ()
    #: Players who went out on a forbidden finish, in order (daifugo.option.forbidden-finish).
    fouled: tuple[int, ...] = ()
    #: The previous daifugo, when ``miyako-ochi`` made them drop out.
    dropped: tuple[int, ...] = ()
    revolution: bool = False
    #: Eleven-back in force for this trick.
    back: bool = False
    #: The suit set every play must use (suit-lock), or None.
    lock: frozenset[str] | None = None
    #: +1 or -1 (six-reverse).
    direction: int = 1
    #: A revolution was made in this trick (consecutive-revolution).
    trick_revolted: bool = False
    #: Exchange gifts still owed, in the order they are made.
    pending: tuple[Duty, ...] = ()
    #: The hands as dealt (the seed exchange is judged on them); None for a snapshot.
    dealt: tuple[tuple[Card, ...], ...] | None = None
    #: The previous round's finishing order (titles), None in a first round.
    previous: tuple[int, ...] | None = None
    round_no: int = 1
    #: No play made yet this round (daifugo.lead.diamond3-free).
    opening: bool = True
    #: Consecutive passes and rejections since the last accepted play (uecda stall rule).
    stall: int = 0
    #: The round ended by the stall rule: the places of those still in are random.
    stalled: bool = False
    #: Rule ids of the behaviours the last move set off (revolution, trick end, ...).
    events: tuple[str, ...] = ()
    #: Player names for messages, or None ("player 1", ...).
    names: tuple[str, ...] | None = None

    @property
    def over(self) -> bool:
        return self.phase == "over"

    @property
    def reversed(self) -> bool:
        """Is the order in force reversed (revolution XOR eleven-back)?"""
        return self.revolution != self.back

    def name(self, player: int) -> str:
        if self.names is not None and 0 <= player < len(self.names):
            return self.names[player]
        return f"player {player + 1}"

    def is_in(self, player: int) -> bool:
        """Still in the round: holding cards and not dropped by miyako-ochi."""
        return bool(self.hands[player]) and player not in self.dropped


class RuleError(ValueError):
    """A start position the rules cannot accept; ``violation`` says which rule it breaks."""

    def __init__(self, violation: Violation):
        super().__init__(violation.message)
        self.violation = violation


#: Violations that mean a move came at a wrong time or from the wrong player. In every
#: record they are errors; under uecda every *other* violation is a submission the server
#: rejected and counted as a pass (see ``reject``).
TURN_RULES = frozenset({
    "daifugo.end.game-over", "daifugo.exchange.pending", "daifugo.exchange.duty",
    "daifugo.exchange.order", "daifugo.exchange.strongest", "daifugo.exchange.weakest",
    "daifugo.exchange.simultaneous", "daifugo.turn.order", "daifugo.turn.finished",
    "daifugo.pass.sat-out",
})

_STRENGTH = {c: strength(c) for c in ALL_CARDS[:-1]}
_STRENGTH[JOKER] = LONE_JOKER_STRENGTH
DIAMOND_3 = Card(3, "D")
SPADE_3 = Card(3, "S")
_SUIT_ORDER = {s: i for i, s in enumerate(SUITS)}


def _v(rule: str, message: str) -> Violation:
    return Violation(rule, message)


def _cards(cards: Iterable[Card]) -> str:
    return " ".join(str(c) for c in cards)


# --------------------------------------------------------------------------- deal


def deck(rules: RuleSet, n_players: int) -> tuple[Card, ...]:
    """The deck for ``n_players``: 52 cards and the rule set's jokers (daifugo.deal.missing)."""
    return ALL_CARDS[:-1] + (JOKER,) * rules.jokers(n_players)


def check_deal(rules: RuleSet, hands: Sequence[Sequence[Card]],
               deal_order: Sequence[int] | None = None) -> list[Violation]:
    """Deal checks: the player count, every card of the deck dealt exactly once, the hand
    sizes of a one-at-a-time deal.

    ``deal_order``: the players in the order they were dealt to. Seed: the players' listed
    order in round 1 (the default), the previous finishing order (daifugo first) later.
    Uecda: the seats; the dealer is random, so any rotation of them is accepted.
    """
    n = len(hands)
    found: list[Violation] = []
    if not rules.min_players <= n <= rules.max_players:
        allowed = (f"exactly {rules.min_players}" if rules.min_players == rules.max_players
                   else f"{rules.min_players} to {rules.max_players}")
        found.append(_v("daifugo.deal.players", f"{n} players; {rules.name} is played by {allowed}"))
    jokers = rules.jokers(n)
    counts: dict[Card, int] = {}
    for hand in hands:
        for c in hand:
            counts[c] = counts.get(c, 0) + 1
    for card, k in counts.items():
        allowed_k = jokers if card.is_joker else 1
        if k > allowed_k:
            holds = f"{allowed_k} joker{'s' if allowed_k != 1 else ''}" if card.is_joker else "one of each card"
            found.append(_v("daifugo.deal.duplicate",
                            f"{card} is dealt {k} times; the deck for {n} players holds {holds}"))
    missing = [c for c in ALL_CARDS[:-1] if c not in counts]
    missing += [JOKER] * max(0, jokers - counts.get(JOKER, 0))
    if missing:
        found.append(_v("daifugo.deal.missing",
                        f"not dealt: {_cards(missing)} (the deck for {n} players is 52 cards and "
                        f"{jokers} joker{'s' if jokers > 1 else ''})"))
    if n:
        order = list(deal_order) if deal_order is not None else list(range(n))
        q, r = divmod(52 + jokers, n)
        sizes = [len(hands[p]) for p in order]
        expected = [q + 1] * r + [q] * (n - r)
        if rules.deal_start == "first":
            ok = sizes == expected
            how = "the first players dealt to (from the first-ranked player) hold one card more"
        else:
            ok = any(sizes[i:] + sizes[:i] == expected for i in range(n))
            how = f"the dealer and the next {r - 1} seats hold one card more"
        if not ok:
            found.append(_v("daifugo.deal.count",
                            f"hand sizes {' '.join(map(str, sizes))} (in dealing order) are not those of "
                            f"a one-at-a-time deal of {52 + jokers} cards to {n}: {q} or {q + 1} each, "
                            f"and {how}"))
    return found


def default_seats(rules: RuleSet, n_players: int, previous: Sequence[int] | None) -> tuple[int, ...] | None:
    """The turn order the rules fix, or None when they do not (uecda: the server's seats).

    Seed: the listed order in round 1; later, the reverse of the previous finishing order
    (daihinmin, hinmin, the heimin, ..., daifugo) (daifugo.lead.later-rounds).
    """
    if rules.seating != "seed":
        return None
    if previous is None:
        return tuple(range(n_players))
    return tuple(reversed(tuple(previous)))


def exchange_duties(rules: RuleSet, previous: Sequence[int] | None) -> tuple[Duty, ...]:
    """The gifts owed at the start of a round after ``previous`` (a finishing order), in
    the order they are made: the daihinmin's 2 strongest to the daifugo, then (4+ players)
    the hinmin's strongest to the fugo, then the daifugo's 2 and the fugo's 1 back
    (weakest, or any with exchange=choice). None in a first round or with exchange=none."""
    if previous is None or rules.exchange == "none" or len(previous) < 2:
        return ()
    order = tuple(previous)
    server = rules.exchange_style == "server"
    pairs = [(order[0], order[-1], 2)]
    if len(order) >= 4:
        pairs.append((order[1], order[-2], 1))
    lower = tuple(Duty(low, high, k, "strongest", server) for high, low, k in pairs)
    upper = tuple(Duty(high, low, k, rules.exchange) for high, low, k in pairs)
    return lower + upper


def _server_key(card: Card) -> tuple[int, int]:
    # Strongest first: the joker, then 2, A, K, ...; within a rank S, H, D, C.
    return (-_STRENGTH[card], _SUIT_ORDER.get(card.suit, -1))


def strongest_cards(hand: Sequence[Card], n: int) -> tuple[Card, ...]:
    """The ``n`` strongest cards in the contest server's fixed order (joker, 2, A, K, ...;
    ties S, H, D, C), normal order whatever the previous revolution (daifugo.exchange.strongest)."""
    return tuple(sorted(hand, key=_server_key)[:n])


def weakest_cards(hand: Sequence[Card], n: int) -> tuple[Card, ...]:
    """The ``n`` weakest cards in normal order (3 upward, ties S, H, D, C; the joker last)."""
    return tuple(sorted(hand, key=lambda c: (_STRENGTH[c], _SUIT_ORDER.get(c.suit, 9)))[:n])


def _strengths(cards: Iterable[Card]) -> list[int]:
    return sorted(_STRENGTH[c] for c in cards)


# --------------------------------------------------------------------------- construction


def _holder(hands: Sequence[Sequence[Card]], card: Card) -> int | None:
    for p, hand in enumerate(hands):
        if card in hand:
            return p
    return None


def _first_leader(rules: RuleSet, seats: tuple[int, ...], hands: Sequence[Sequence[Card]],
                  previous: tuple[int, ...] | None) -> tuple[int, tuple[str, ...]]:
    """Who leads the first trick of a round, and the rule that says so."""
    if rules.first_leader == "diamond3":
        holder = _holder(hands, DIAMOND_3)
        return (seats[0] if holder is None else holder), ("daifugo.lead.diamond3",)
    if previous is not None:
        return previous[-1], ("daifugo.lead.later-rounds",)
    if rules.diamond3_start:
        holder = _holder(hands, DIAMOND_3)
        if holder is not None:
            return holder, ("daifugo.option.diamond3-start",)
    return seats[0], ("daifugo.lead.first-round",)


def new_round(rules: RuleSet, hands: Sequence[Sequence[Card]], seats: Sequence[int] | None = None,
              previous: Sequence[int] | None = None, round_no: int = 1,
              names: Sequence[str] | None = None) -> State:
    """A round from the hands as dealt (by player id). ``seats``: the turn order (default:
    ``default_seats``, else the listed order). ``previous``: the previous round's finishing
    order (None: a first round, no titles, no exchange). The round starts in the exchange
    phase when gifts are owed (``exchange_duties``), else with the first leader to move.
    Run ``check_deal`` separately: this constructor does not judge the deal."""
    hands_t = tuple(tuple(h) for h in hands)
    n = len(hands_t)
    prev = tuple(previous) if previous is not None else None
    seat_t = tuple(seats) if seats is not None else (default_seats(rules, n, prev) or tuple(range(n)))
    if sorted(seat_t) != list(range(n)):
        raise ValueError(f"seats {seat_t} must name each of the {n} players once")
    if prev is not None and sorted(prev) != list(range(n)):
        raise ValueError(f"previous finishing order {prev} must name each of the {n} players once")
    duties = exchange_duties(rules, prev)
    state = State(rules=rules, seats=seat_t, hands=hands_t, to_move=None, phase="exchange",
                  pending=duties, dealt=hands_t, previous=prev, round_no=round_no,
                  names=tuple(names) if names is not None else None)
    if duties:
        return state
    return _start_play(state)


def _start_play(state: State) -> State:
    leader, why = _first_leader(state.rules, state.seats, state.hands, state.previous)
    state = state._replace(phase="play", to_move=leader, last_player=leader, events=why)
    return _settle_start(state)


def _settle_start(state: State) -> State:
    # A round whose players (all but one) hold nothing is over at once (snapshots).
    if len(players_in(state)) <= 1:
        return _end_round(state, state.events)
    if not state.is_in(state.to_move):  # type: ignore[arg-type]
        nxt = _next_player(state, state.to_move)  # type: ignore[arg-type]
        state = state._replace(to_move=nxt, last_player=nxt)
    return state


def snapshot(rules: RuleSet, hands: Sequence[Sequence[Card]], seats: Sequence[int], to_move: int, *,
             table: Play | None = None, passed: Iterable[int] = (), out: Sequence[int] = (),
             fouled: Sequence[int] = (), revolution: bool = False,
             lock: Iterable[str] | None = None, back: bool = False, direction: int = 1,
             previous: Sequence[int] | None = None, round_no: int = 1,
             names: Sequence[str] | None = None) -> State:
    """A mid-round position (notation.md section 5): hands, ``Table`` (the last play of the
    trick and who made it; None: ``to_move`` leads), ``Passed``, ``Out`` (gone out, in
    order; ``fouled`` for forbidden finishers), ``Revolution``, ``ToMove``, ``Lock``, ``Back``.

    Raises ``RuleError`` (with the violated rule) when the position cannot arise: a card
    twice, a table that is no combination, an out player holding cards, a player with no
    cards not listed as out, or a ``to_move`` who is out or has passed.
    """
    hands_t = tuple(tuple(h) for h in hands)
    n = len(hands_t)
    seat_t = tuple(seats)
    if sorted(seat_t) != list(range(n)):
        raise ValueError(f"seats {seat_t} must name each of the {n} players once")
    nm = tuple(names) if names is not None else None
    state = State(rules=rules, seats=seat_t, hands=hands_t, to_move=to_move, phase="play",
                  passed=frozenset(passed), finished=tuple(out), fouled=tuple(fouled),
                  revolution=revolution, back=back, direction=1 if direction >= 0 else -1,
                  lock=frozenset(lock) if lock is not None else None,
                  previous=tuple(previous) if previous is not None else None,
                  round_no=round_no, opening=False, names=nm)
    if not rules.min_players <= n <= rules.max_players:
        raise RuleError(_v("daifugo.deal.players", f"{n} players; {rules.name} allows "
                                                   f"{rules.min_players} to {rules.max_players}"))
    seen: dict[Card, int] = {}
    for c in [c for h in hands_t for c in h] + list(table.cards if table else ()):
        seen[c] = seen.get(c, 0) + 1
        if seen[c] > (rules.jokers(n) if c.is_joker else 1):
            raise RuleError(_v("daifugo.deal.duplicate", f"{c} appears more often than the deck holds it"))
    for p in set(state.finished) | set(state.fouled):
        if hands_t[p]:
            raise RuleError(_v("daifugo.turn.finished", f"{state.name(p)} is listed as out but holds cards"))
    for p in range(n):
        if not hands_t[p] and p not in state.finished and p not in state.fouled:
            raise RuleError(_v("daifugo.turn.finished", f"{state.name(p)} holds no cards but is not listed as out"))
    if table is not None:
        found = readings(rules, table.cards, table.joker_as)
        if not found:
            raise RuleError(_v("daifugo.combo.invalid", _invalid_message(rules, table.cards, table.joker_as)))
        combo = _merge(found)
        if combo is None:
            raise RuleError(_v("daifugo.joker.ambiguous",
                               f"the table {_cards(table.cards)} can be read several ways; "
                               f"write the joker's card, e.g. JK(5D)"))
        state = state._replace(table=combo, last_player=table.player)
    else:
        state = state._replace(last_player=to_move)
    if len(players_in(state)) <= 1:
        return _end_round(state, ())
    if not state.is_in(to_move) or to_move in state.passed:
        raise RuleError(_v("daifugo.turn.order",
                           f"{state.name(to_move)} cannot be to move: they are out or have passed"))
    return state


# --------------------------------------------------------------------------- turn order


def players_in(state: State) -> tuple[int, ...]:
    """The players still in the round, in seat order."""
    return tuple(p for p in state.seats if state.is_in(p))


def _next_player(state: State, after: int, skip: frozenset[int] = frozenset()) -> int | None:
    """The next player in the current direction after ``after`` who is still in and not in
    ``skip``; ``after`` itself comes last (the uecda own turn)."""
    seats = state.seats
    n = len(seats)
    i = seats.index(after)
    d = state.direction
    for k in range(1, n + 1):
        q = seats[(i + k * d) % n]
        if q not in skip and state.is_in(q):
            return q
    return None


def _leader_after(state: State, player: int) -> int | None:
    """Who leads after a trick ends with ``player`` on the table: that player, or if they
    are out, the next player still in after them (daifugo.trick.leader)."""
    if state.is_in(player):
        return player
    return _next_player(state, player)
