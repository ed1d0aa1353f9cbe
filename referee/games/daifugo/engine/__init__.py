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
Moves: ``Play(player, cards, joker_as=())``, ``Pass(player)``, ``Give(giver, receiver, cards)``;
``Stand(suit, strength)`` (``Stand.of(card)``), ``BELOW_3``, ``ABOVE_2``.

Rules: ``ruleset(preset="seed", toggles=None) -> RuleSet``; ``PRESETS``; ``OPTIONS``.

Set-up: ``deck(rules, n)``, ``check_deal(rules, hands, deal_order=None) -> list[Violation]``,
``default_seats(rules, n, previous)``, ``exchange_duties(rules, previous) -> tuple[Duty, ...]``,
``new_round(rules, hands, seats=None, previous=None, round_no=1, names=None) -> State``,
``snapshot(rules, hands, seats, to_move, *, table=None, passed=(), out=(), fouled=(),
revolution=False, lock=None, back=False, direction=1, previous=None, round_no=1, names=None)``
(raises ``RuleError`` carrying a ``Violation``).

Play: ``check(state, move) -> Violation | None``, ``apply(state, move) -> State``,
``reject(state, move) -> State`` (uecda: what the server does with an illegal submission),
``legal_moves(state)``, ``players_in(state)``, ``TURN_RULES`` (violations that are record
errors even under uecda).

Combinations: ``readings(rules, cards, joker_as=()) -> list[Combo]`` (every way the cards
form a combination), ``combination(rules, cards, joker_as=()) -> Combo | None``.

Results: ``round_over(state)``, ``finishing_order(state)``, ``title_names(n)``,
``titles(order)``, ``UECDA_TITLES``, ``check_finish(state, claimed)``,
``check_titles(order, claimed, names=None)``, ``strongest_cards(hand, n)``,
``weakest_cards(hand, n)``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from itertools import combinations
from typing import NamedTuple, Union

from referee.engines.base import ALL_CARDS, JOKER, SUITS, Card, Violation

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


class Unreadable(NamedTuple):
    """A submission whose cells hold no card the table can hold (a contest client's value
    in column 0 or 14 of a row): the server cannot take it as cards (``text`` as logged)."""

    player: int
    text: str = ""


Move = Union[Play, Pass, Give, Unreadable]

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
        suit = next(iter(self.suits)) if self.suits and len(self.suits) == 1 else ""
        return f"a {self.size}-card sequence {_strength_name(self.low)}{suit}-{_strength_name(self.high)}{suit}"


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
    "six-reverse", "exchange", "sequences", "trick-end",
)
EXCHANGE_MODES = ("weakest", "choice", "none")
#: When a trick ends (daifugo.trick.end, daifugo.trick.clear, daifugo.option.trick-end):
#: "others" (seed: everyone still in but the player on the table has passed), "all" (the
#: contest server: everyone still in is marked, the player on the table included),
#: "all-but-one" (the server's later revision: all but one of those still in are marked).
TRICK_ENDS = ("others", "all", "all-but-one")
#: The options that take a word rather than on/off or a number, and the words they take.
OPTION_CHOICES: dict[str, tuple[str, ...]] = {"exchange": EXCHANGE_MODES, "trick-end": TRICK_ENDS}


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
    #: Sequences may be played (daifugo.option.sequences; the server's RULE_KAIDAN).
    sequences: bool = True
    #: One of TRICK_ENDS.
    trick_end: str = "others"
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
    #: Who leads a round: "listed-then-daihinmin" (the first listed player, later the
    #: daihinmin: daifugo.lead.first-round / later-rounds) or "diamond3" (the holder of the
    #: diamond 3: daifugo.lead.diamond3).
    first_leader: str = "listed-then-daihinmin"
    #: Seats: "listed-then-reverse-finish" (listed order, then reverse finishing order) or
    #: "given" (the record says, as the contest server's seat draws do).
    seating: str = "listed-then-reverse-finish"
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
    # rulings.md, seed 8: a same-suit sequence of 4 or more revolts, as a core rule (it is
    # not among the local rules of seed 10 that are off unless turned on).
    "seed": RuleSet(name="seed", stairs_revolution=4),
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
        trick_end="all",
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
    RULE_CHANGE NO); for ``trick-end`` one of ``TRICK_ENDS``. Unknown presets, options or values raise ValueError.
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
        elif name in OPTION_CHOICES:
            if value not in OPTION_CHOICES[name]:
                raise ValueError(f"{name} takes {'|'.join(OPTION_CHOICES[name])}, not {value!r}")
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
    # Hand sizes, once the right number of cards was dealt (else the deck rules say it all).
    if n and sum(counts.values()) == 52 + jokers:
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
    if rules.seating == "given":
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
    if not 0 <= to_move < n or not state.is_in(to_move) or to_move in state.passed:
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


# --------------------------------------------------------------------------- combinations

LONE_JOKER = Combo(SINGLE, 1, LONE_JOKER_STRENGTH, LONE_JOKER_STRENGTH, None, (), True)


def readings(rules: RuleSet, cards: Sequence[Card], joker_as: Sequence[Stand | None] = ()) -> list[Combo]:
    """Every way ``cards`` form a combination under ``rules`` (daifugo.combo.invalid):
    a single; a group of 2 to ``max_group`` cards of one rank; a sequence of 3 or more
    consecutive cards of one suit. Jokers stand in as ``joker_as`` says; an unstated joker
    (None) takes every possible reading. No table is considered here. Pure: the solver
    and the puzzle search reuse it.
    """
    cards = tuple(cards)
    n = len(cards)
    if n == 0:
        return []
    reals = tuple(c for c in cards if not c.is_joker)
    k = n - len(reals)
    if len(joker_as) > k or len(set(reals)) != len(reals):
        return []
    stated = tuple(joker_as) + (None,) * (k - len(joker_as))
    if n == 1:
        if k:
            return [LONE_JOKER]
        s = _STRENGTH[reals[0]]
        return [Combo(SINGLE, 1, s, s, frozenset((reals[0].suit,)))]
    return _group_readings(rules, reals, stated) + _sequence_readings(rules, reals, stated)


def combination(rules: RuleSet, cards: Sequence[Card], joker_as: Sequence[Stand | None] = ()) -> Combo | None:
    """The combination ``cards`` form, or None when they form none or can be read in ways
    that differ in kind or strength (a bare joker's suit alone may stay undetermined)."""
    found = readings(rules, cards, joker_as)
    return _merge(found) if found else None


def _group_readings(rules: RuleSet, reals: tuple[Card, ...], stated: tuple[Stand | None, ...]) -> list[Combo]:
    n = len(reals) + len(stated)
    if n > rules.max_group:
        return []
    if reals:
        s0 = _STRENGTH[reals[0]]
        if any(_STRENGTH[c] != s0 for c in reals):
            return []
        ranks: Iterable[int] = (s0,)
    else:
        ranks = range(1, 14)
    real_suits = frozenset(c.suit for c in reals)
    # A 5-card group is four suits plus the joker in the server's joker row.
    pool = ("",) if n == 5 else tuple(x for x in SUITS if x not in real_suits)
    fixed = [st.suit for st in stated if st is not None]
    if len(set(fixed)) != len(fixed) or any(x not in pool for x in fixed):
        return []
    free = [x for x in pool if x not in fixed]
    slots = [i for i, st in enumerate(stated) if st is None]
    out = []
    for s in ranks:
        if any(st is not None and st.strength != s for st in stated):
            continue
        for chosen in combinations(free, len(slots)):
            suits = [st.suit if st is not None else "" for st in stated]
            for i, x in zip(slots, chosen, strict=True):
                suits[i] = x
            stands = tuple(Stand(x, s) for x in suits)
            out.append(Combo(GROUP, n, s, s, real_suits | frozenset(suits), stands))
    return out


def _sequence_readings(rules: RuleSet, reals: tuple[Card, ...], stated: tuple[Stand | None, ...]) -> list[Combo]:
    n = len(reals) + len(stated)
    if n < 3 or not reals:
        return []
    suit = reals[0].suit
    if any(c.suit != suit for c in reals) or any(st is not None and st.suit != suit for st in stated):
        return []
    present = sorted(_STRENGTH[c] for c in reals)
    lo_min, hi_max = (BELOW_3, ABOVE_2) if rules.joker_out_of_range else (1, 13)
    fixed = sorted(st.strength for st in stated if st is not None)
    if len(set(fixed)) != len(fixed):
        return []
    slots = [i for i, st in enumerate(stated) if st is None]
    out = []
    for lo in range(max(lo_min, present[-1] - n + 1), min(present[0], hi_max - n + 1) + 1):
        holes = [x for x in range(lo, lo + n) if x not in present]
        if any(x not in holes for x in fixed):
            continue
        rest = iter(x for x in holes if x not in fixed)
        strengths = [st.strength if st is not None else 0 for st in stated]
        for i in slots:
            strengths[i] = next(rest)
        stands = tuple(Stand(suit, x) for x in strengths)
        out.append(Combo(SEQUENCE, n, lo, lo + n - 1, frozenset((suit,)), stands))
    return out


def _merge(found: Sequence[Combo]) -> Combo | None:
    """One combination from several readings: None when they differ in kind or strength;
    when only the suits a bare joker takes differ, they stay undetermined (suits None)."""
    first = found[0]
    key = first[:4] + (first.lone_joker,)
    for c in found[1:]:
        if c[:4] + (c.lone_joker,) != key:
            return None
    if any(c.suits != first.suits for c in found[1:]):
        return first._replace(suits=None)
    return first


def _invalid_message(rules: RuleSet, cards: Sequence[Card], joker_as: Sequence[Stand | None]) -> str:
    if not cards:
        return "a play needs at least one card"
    reals = [c for c in cards if not c.is_joker]
    k = len(cards) - len(reals)
    if len(joker_as) > k:
        return f"{len(joker_as)} joker readings are given for {k} joker{'s' if k != 1 else ''}"
    for c in reals:
        if reals.count(c) > 1:
            return f"{c} appears twice in one play"
    shown = list(map(str, reals))
    shown += [f"JK({st})" if st is not None else "JK" for st in tuple(joker_as) + (None,) * (k - len(joker_as))]
    what = " ".join(shown)
    if reals and len({_STRENGTH[c] for c in reals}) == 1 and len(cards) > rules.max_group:
        extra = f" (a 5-card group is no combination under {rules.name})" if rules.max_group == 4 and len(cards) == 5 else ""
        return f"{what}: a group has at most {rules.max_group} cards{extra}"
    if rules.joker_out_of_range:
        ends = "; the joker may also stand below the 3 or above the 2 at a sequence's end"
    else:
        ends = "; no sequence wraps between 2 and 3"
    return (f"{what} form no combination: a single card, 2 to {rules.max_group} cards of one rank, or 3 or "
            f"more consecutive cards of one suit (a joker may stand in for any one card){ends}")


# --------------------------------------------------------------------------- check


def check(state: State, move: Move) -> Violation | None:
    """Why ``move`` is illegal now, or None if it is legal."""
    if state.over:
        return _v("daifugo.end.game-over", "the round is already over")
    if isinstance(move, Give):
        return _check_give(state, move)
    if state.phase == "exchange":
        return _v("daifugo.exchange.pending", "the card exchange is not complete: " + _owed(state))
    p = move.player
    v = _check_turn(state, p)
    if v is not None:
        return v
    if isinstance(move, Unreadable):
        return _v("daifugo.hand.possession", f"{move.text or 'the submission'} holds a card outside the "
                                             f"server's table (a real card below the 3 or above the 2)")
    if isinstance(move, Pass):
        if state.table is None and not state.rules.leader_may_pass:
            return _v("daifugo.pass.leader", f"{state.name(p)} leads this trick and must play; "
                                             f"only followers may pass")
        return None
    v = _check_possession(state, p, move.cards)
    if v is not None:
        return v
    return _resolve(state, move)[1]


def _check_turn(state: State, p: int) -> Violation | None:
    if p == state.to_move:
        return None
    mover = state.name(state.to_move)  # type: ignore[arg-type]
    if not 0 <= p < len(state.hands):
        return _v("daifugo.turn.order", f"there is no player {p + 1}; it is {mover}'s turn")
    if p in state.passed:
        return _v("daifugo.pass.sat-out", f"{state.name(p)} passed earlier in this trick and may not play "
                                          f"again until it ends; it is {mover}'s turn")
    if not state.is_in(p):
        return _v("daifugo.turn.finished", f"{state.name(p)} is out of this round; it is {mover}'s turn")
    return _v("daifugo.turn.order", f"it is {mover}'s turn, not {state.name(p)}'s")


def _holds(hand: Sequence[Card], cards: Sequence[Card]) -> Card | None:
    """The first card of ``cards`` that ``hand`` does not hold (as often), or None."""
    for c in cards:
        if c not in hand:
            return c
    if len(set(cards)) != len(cards):
        for c in set(cards):
            if cards.count(c) > hand.count(c):
                return c
    return None


def _check_possession(state: State, p: int, cards: Sequence[Card]) -> Violation | None:
    if not cards:
        return _v("daifugo.combo.invalid", "a play needs at least one card (or pass)")
    missing = _holds(state.hands[p], cards)
    if missing is None:
        return None
    times = " that often" if missing in state.hands[p] else ""
    return _v("daifugo.hand.possession", f"{state.name(p)} does not hold {missing}{times}")


#: The last resolution (state, move, result): ``check`` then ``apply`` of one move resolve once.
_last_resolved: tuple[object, object, tuple[Combo | None, Violation | None]] | None = None


def resolved(state: State, move: Play) -> Combo | None:
    """The combination a play makes on this table as the engine reads it (a bare joker
    resolved), or None if the play is no legal combination here."""
    return _resolve(state, move)[0]


def _resolve(state: State, move: Play) -> tuple[Combo | None, Violation | None]:
    """The combination a play makes on this table, or the violation (daifugo.joker.ambiguous
    when a bare joker leaves several legal readings that differ in kind or strength)."""
    global _last_resolved
    last = _last_resolved
    if last is not None and last[0] is state and last[1] is move:
        return last[2]
    result = _resolve_uncached(state, move)
    _last_resolved = (state, move, result)
    return result


def _resolve_uncached(state: State, move: Play) -> tuple[Combo | None, Violation | None]:
    found = readings(state.rules, move.cards, move.joker_as)
    if not found:
        return None, _v("daifugo.combo.invalid", _invalid_message(state.rules, move.cards, move.joker_as))
    if len(found) == 1:
        v = _fits(state, found[0])
        return (found[0], None) if v is None else (None, v)
    legal = []
    first_v = None
    for c in found:
        v = _fits(state, c)
        if v is None:
            legal.append(c)
        elif first_v is None:
            first_v = v
    if not legal:
        return None, first_v
    merged = _merge(legal)
    if merged is None:
        options = ", ".join(sorted({str(c) for c in legal}))
        return None, _v("daifugo.joker.ambiguous",
                        f"the joker can be read several legal ways here ({options}); write its card, e.g. JK(5D)")
    return merged, None


def _stronger(state: State, combo: Combo, table: Combo) -> bool:
    """Does ``combo`` (same kind and size) beat ``table`` under the order in force?"""
    rev = state.reversed
    if combo.kind == SEQUENCE:
        if state.rules.sequence_compare == "above":
            return combo.high < table.low if rev else combo.low > table.high
        return combo.low < table.low if rev else combo.high > table.high
    return combo.low < table.low if rev else combo.low > table.low


def _waived(state: State, combo: Combo) -> bool:
    """consecutive-revolution: after a revolution in this trick a revolting group needs no
    strength (daifugo.option.consecutive-revolution)."""
    rules = state.rules
    return (rules.consecutive_revolution and rules.revolution and state.trick_revolted
            and combo.kind == GROUP and combo.size >= 4)


def _fits(state: State, combo: Combo) -> Violation | None:
    """May ``combo`` be played now: against the table, then (last, as the contest server
    checks it) whether the rules allow sequences at all (daifugo.option.sequences)."""
    v = _against_table(state, combo)
    if v is None and combo.kind == SEQUENCE and not state.rules.sequences:
        return _v("daifugo.option.sequences", f"{combo}: sequences are not played under these rules (-sequences)")
    return v


def _against_table(state: State, combo: Combo) -> Violation | None:
    """Kind, size, strength and suit-lock against the play on the table."""
    table = state.table
    if table is None:
        return None
    rules = state.rules
    if table.lone_joker:
        if rules.spade3 and combo.kind == SINGLE and not combo.lone_joker \
                and combo.low == strength(SPADE_3) and combo.suits == frozenset(SPADE_3.suit):
            return None
        tail = "only the spade 3 beats it (spade3)" if rules.spade3 else "nothing beats it"
        return _v("daifugo.play.lone-joker", f"a lone joker is on the table: {tail}")
    if combo.lone_joker:
        if table.kind == SINGLE:
            return None
        return _v("daifugo.play.same-kind", f"the table holds {table}: a lone joker can only follow a single")
    if combo.kind != table.kind or combo.size != table.size:
        return _v("daifugo.play.same-kind",
                  f"the table holds {table}; the play must be the same kind with {table.size} "
                  f"card{'s' if table.size > 1 else ''}, not {combo}")
    if not _stronger(state, combo, table) and not _waived(state, combo):
        order = "reversed order" if state.reversed else "normal order"
        if combo.kind == SEQUENCE:
            if rules.sequence_compare == "above":
                return _v("daifugo.play.sequence-above",
                          f"{combo} does not lie wholly {'below' if state.reversed else 'above'} "
                          f"{table} ({order})")
            return _v("daifugo.play.sequence-top",
                      f"{combo} is not stronger than {table}: sequences compare by their strongest "
                      f"card ({order})")
        return _v("daifugo.play.stronger", f"{combo} does not beat {table} ({order})")
    if state.lock is not None and combo.suits != state.lock:
        locked = ", ".join(_SUIT_NAMES[x] for x in sorted(state.lock, key=_suit_pos))
        return _v("daifugo.option.suit-lock",
                  f"the suits are locked to {locked}; this play must use exactly those suits")
    return None


_SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs", "": "the joker row"}


def _suit_pos(s: str) -> int:
    return _SUIT_ORDER.get(s, 4)


def _owed(state: State) -> str:
    return "; ".join(f"{state.name(d.giver)} owes {state.name(d.receiver)} {d.count} "
                     f"card{'s' if d.count > 1 else ''} ({d.choose})" for d in state.pending)


def _check_give(state: State, move: Give) -> Violation | None:
    rules = state.rules
    if state.phase != "exchange":
        return _v("daifugo.exchange.duty", "no exchange is due now (gifts come before the first play "
                                           "of a round after the first)")
    g = move.giver
    duty = next((d for d in state.pending if d.giver == g), None)
    if duty is None:
        return _v("daifugo.exchange.duty", f"{state.name(g)} owes no cards now; {_owed(state)}")
    if move.receiver != duty.receiver or len(move.cards) != duty.count:
        return _v("daifugo.exchange.duty", f"{state.name(g)} must give {duty.count} card"
                                           f"{'s' if duty.count > 1 else ''} to {state.name(duty.receiver)}")
    if rules.exchange_style == "server" and not duty.server and any(d.server for d in state.pending):
        return _v("daifugo.exchange.order", "the server first moves the lower titles' strongest cards; "
                                            "the upper titles choose after that")
    simultaneous = rules.exchange_style == "simultaneous" and state.dealt is not None
    source = state.dealt[g] if simultaneous else state.hands[g]  # type: ignore[index]
    missing = _holds(source, move.cards)
    if missing is not None:
        if simultaneous and _holds(state.hands[g], move.cards) is None:
            return _v("daifugo.exchange.simultaneous",
                      f"{missing} was not dealt to {state.name(g)}: the exchange is simultaneous, so "
                      f"a card received cannot be passed on")
        return _v("daifugo.hand.possession", f"{state.name(g)} does not hold {missing}")
    if duty.choose == "strongest":
        if duty.server:
            best = strongest_cards(source, duty.count)
            ok = sorted(move.cards) == sorted(best)
        else:
            best = strongest_cards(source, duty.count)
            ok = _strengths(move.cards) == _strengths(best)
        if not ok:
            return _v("daifugo.exchange.strongest",
                      f"{state.name(g)} must give the {duty.count} strongest card"
                      f"{'s' if duty.count > 1 else ''} ({_cards(best)}), not {_cards(move.cards)}")
    elif duty.choose == "weakest":
        worst = weakest_cards(source, duty.count)
        if _strengths(move.cards) != _strengths(worst):
            return _v("daifugo.exchange.weakest",
                      f"{state.name(g)} must give the {duty.count} weakest card"
                      f"{'s' if duty.count > 1 else ''} ({_cards(worst)}), not {_cards(move.cards)} "
                      f"(exchange=weakest)")
    return None


# --------------------------------------------------------------------------- apply


def apply(state: State, move: Move) -> State:
    """The state after a legal move (run ``check`` first). ``events`` of the result names
    the behaviours it set off."""
    if isinstance(move, Give):
        return _apply_give(state, move)
    if isinstance(move, Pass):
        return _apply_pass(state, move.player)
    return _apply_play(state, move)


def after_illegal(state: State, move: Move, violation: Violation) -> State | None:
    """The state after an illegal ``move`` (``violation`` is what ``check`` said) when the
    rules count it, else None (the replay stops there). Under ``rejection_is_pass`` (uecda)
    a submission during play by the player to move is rejected and counts as a pass, as the
    contest server does (daifugo.turn.rejected); an entry by the wrong player or at the
    wrong time (``TURN_RULES``) is an error in the record, never a rejection."""
    if (not state.rules.rejection_is_pass or violation.rule in TURN_RULES or state.phase != "play"
            or isinstance(move, Give) or move.player != state.to_move):
        return None
    return reject(state, move, violation)


def reject(state: State, move: Move, violation: Violation | None = None) -> State:
    """What the contest server does with a submission it rejects: it counts as a pass by the
    player to move (daifugo.turn.rejected). Only for rule sets where ``rejection_is_pass``
    (uecda), and only for violations outside ``TURN_RULES`` (see ``after_illegal``).

    The server updates the suit-lock before it refuses a sequence for want of
    RULE_KAIDAN (uecda-server.md, checks 4 and 6): a sequence refused only by
    ``daifugo.option.sequences`` can still switch the lock on."""
    if not state.rules.rejection_is_pass:
        raise ValueError(f"under {state.rules.name} an illegal move is an error, not a pass")
    if state.phase != "play" or state.to_move is None:
        raise ValueError("only a submission during play can be rejected")
    events: tuple[str, ...] = ("daifugo.turn.rejected",)
    if violation is not None and violation.rule == "daifugo.option.sequences" and isinstance(move, Play):
        fits = [c for c in readings(state.rules, move.cards, move.joker_as)
                if c.kind == SEQUENCE and _against_table(state, c) is None]
        lock = _lock_after(state, _merge(fits) if fits else None)
        if lock != state.lock:
            state = state._replace(lock=lock)
            events += ("daifugo.option.suit-lock",)
    after = _apply_pass(state, state.to_move)
    return after._replace(events=events + after.events)


def after_illegal(state: State, move: Move, violation: Violation) -> State | None:
    """The rules' verdict on an illegal move: the position after it when they count it,
    None when the record is wrong there and its replay stops. Under ``rejection_is_pass``
    (uecda) a submission by the player to move during play that breaks any rule outside
    ``TURN_RULES`` is what the contest server rejects and counts as a pass (``reject``);
    everything else, and every illegal move under the other rule sets, is an error."""
    if (state.rules.rejection_is_pass and violation.rule not in TURN_RULES and state.phase == "play"
            and isinstance(move, (Play, Pass, Unreadable)) and move.player == state.to_move):
        return reject(state, move)
    return None


def _without(hand: tuple[Card, ...], cards: Sequence[Card]) -> tuple[Card, ...]:
    rest = list(hand)
    for c in cards:
        rest.remove(c)
    return tuple(rest)


def forbidden_finish(rules: RuleSet, cards: Sequence[Card], reversed_order: bool) -> bool:
    """Would going out on these cards be a forbidden finish? Where the rules have them: the
    play holds the joker, or a 2 (a 3 when the order in force is reversed)
    (daifugo.option.forbidden-finish, daifugo.finish.forbidden-order)."""
    if not rules.forbidden_finish:
        return False
    banned = 3 if reversed_order else 2
    return any(c.is_joker or c.rank == banned for c in cards)


def revolution_rule(rules: RuleSet, combo: Combo) -> str | None:
    """The rule by which playing ``combo`` makes a revolution, or None if it makes none
    (daifugo.option.revolution: a group of four or more; daifugo.option.stairs-revolution:
    a long enough sequence; never a lone joker)."""
    if combo.lone_joker:
        return None
    if combo.kind == GROUP and combo.size >= 4 and rules.revolution:
        return "daifugo.option.revolution"
    if combo.kind == SEQUENCE and rules.stairs_revolution is not None and combo.size >= rules.stairs_revolution:
        return "daifugo.option.stairs-revolution"
    return None


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


def fresh_trick(state: State, leader: int) -> State:
    """``state`` with a new trick led by ``leader``: the table, the passes, the lock and
    eleven-back cleared (what the end of a trick clears)."""
    return state._replace(table=None, passed=frozenset(), lock=None, back=False, trick_revolted=False,
                          to_move=leader)


def _apply_play(state: State, move: Play) -> State:
    """A play: the cards leave the hand, the player may go out (forbidden finish,
    miyako-ochi), then the effects of every play but a lone joker (revolution, six-reverse,
    eleven-back, eight-cut) and the suit-lock; then ``_after`` moves the turn on."""
    rules = state.rules
    p = move.player
    combo, _ = _resolve(state, move)
    assert combo is not None, "apply() needs a legal move: run check() first"
    table = state.table
    events: list[str] = []
    hand_before = state.hands[p]
    hand = _without(hand_before, move.cards)
    hands = state.hands[:p] + (hand,) + state.hands[p + 1:]
    if combo.stands:
        if len(combo.stands) > 1:
            events.append("daifugo.joker.two-jokers")
        if any(card_at(*st) in hand_before for st in combo.stands):
            events.append("daifugo.joker.held-card")
        if any(st.strength in (BELOW_3, ABOVE_2) for st in combo.stands):
            events.append("daifugo.joker.out-of-range")
    if combo.kind == GROUP and combo.size == 5:
        events.append("daifugo.combo.five-group")
    if state.opening and DIAMOND_3 in hand_before and DIAMOND_3 not in move.cards and (
            rules.first_leader == "diamond3" or (rules.diamond3_start and state.previous is None)):
        events.append("daifugo.lead.diamond3-free")
    if table is not None and p == state.last_player:
        events.append("daifugo.trick.own-cards")
    cut = False
    if table is not None and table.lone_joker and not combo.lone_joker:
        events.append("daifugo.option.spade3")
        cut = True
    if table is not None and not table.lone_joker and not _stronger(state, combo, table) and _waived(state, combo):
        events.append("daifugo.option.consecutive-revolution")
    lock = _lock_after(state, combo)
    if lock != state.lock:
        events.append("daifugo.lock.lone-joker" if combo.lone_joker else "daifugo.option.suit-lock")
    # Going out.
    finished, fouled, dropped = state.finished, state.fouled, state.dropped
    if not hand:
        if forbidden_finish(rules, move.cards, state.reversed):
            fouled = fouled + (p,)
            events += ["daifugo.option.forbidden-finish", "daifugo.finish.forbidden-order"]
        else:
            finished = finished + (p,)
            prev = state.previous
            if (rules.miyako_ochi and prev is not None and len(finished) == 1 and prev[0] != p
                    and state.is_in(prev[0])):
                dropped = dropped + (prev[0],)
                events += ["daifugo.option.miyako-ochi", "daifugo.miyako.first-place"]
    # Effects of every play but a lone joker.
    revolution, back, direction, revolted = state.revolution, state.back, state.direction, state.trick_revolted
    if not combo.lone_joker:
        revolt = revolution_rule(rules, combo)
        if revolt is not None:
            revolution, revolted = not revolution, True
            events.append(revolt)
        if rules.six_reverse and combo.includes(SIX):
            direction = -direction
            events.append("daifugo.option.six-reverse")
        if rules.eleven_back and combo.includes(JACK):
            back = not back
            events.append("daifugo.option.eleven-back")
        if rules.eight_cut and combo.includes(EIGHT):
            cut = True
            events.append("daifugo.option.eight-cut")
    after = state._replace(hands=hands, table=combo, last_player=p, lock=lock, finished=finished,
                           fouled=fouled, dropped=dropped, revolution=revolution, back=back,
                           direction=direction, trick_revolted=revolted, stall=0, opening=False)
    return _after(after, p, events, cut)


def _apply_pass(state: State, p: int) -> State:
    events: list[str] = []
    if state.table is None:
        events.append("daifugo.pass.empty-stage")
    after = state._replace(passed=state.passed | {p}, stall=state.stall + 1)
    limit = state.rules.stall_limit
    if limit is not None and after.stall >= limit:
        return _end_round(after._replace(stalled=True), events + ["daifugo.end.stall"])
    return _after(after, p, events, False)


def _after(state: State, actor: int, events: list[str], cut: bool) -> State:
    """Round end, trick end or the next player, after ``actor``'s move."""
    ins = players_in(state)
    if len(ins) <= 1:
        return _end_round(state, events)
    if cut:
        return _clear(state, actor, events)
    passed = state.passed
    rule = state.rules.trick_end
    if rule == "all-but-one":
        done, why = sum(q in passed for q in ins) >= len(ins) - 1, "daifugo.option.trick-end"
    elif rule == "others" and state.table is not None:
        done, why = all(q in passed for q in ins if q != state.last_player), "daifugo.trick.end"
    else:
        done = all(q in passed for q in ins)
        why = "daifugo.trick.end" if rule == "others" else "daifugo.trick.clear"
    if done:
        events.append(why)
        return _clear(state, state.last_player, events)  # type: ignore[arg-type]
    return state._replace(to_move=_next_player(state, actor, passed), events=tuple(events))


def _clear(state: State, last: int, events: list[str]) -> State:
    """End the trick: the table, the passes, the lock, eleven-back go; ``last`` leads, or the
    next player still in after them (daifugo.trick.leader)."""
    leader = _leader_after(state, last)
    if leader != last:
        events.append("daifugo.trick.leader")
    return fresh_trick(state, leader)._replace(events=tuple(events))


def _end_round(state: State, events: Sequence[str]) -> State:
    return state._replace(phase="over", to_move=None, events=tuple(events) + ("daifugo.round.end",))


def _apply_give(state: State, move: Give) -> State:
    duty = next(d for d in state.pending if d.giver == move.giver)
    pending = list(state.pending)
    pending.remove(duty)
    hands = list(state.hands)
    hands[move.giver] = _without(hands[move.giver], move.cards)
    hands[move.receiver] = hands[move.receiver] + tuple(move.cards)
    events = ("daifugo.exchange.choice",) if duty.choose == "choice" else ()
    after = state._replace(hands=tuple(hands), pending=tuple(pending), events=events)
    if pending:
        return after
    started = _start_play(after)
    return started._replace(events=events + started.events)


# --------------------------------------------------------------------------- legal moves


def legal_moves(state: State) -> Iterator[Move]:
    """Every legal move now: the gifts still owed during the exchange (every choice), else
    the pass (where allowed) and every play of the player to move, each joker with an
    explicit reading (every suit a joker may take only where suit-lock makes it matter)."""
    if state.over:
        return
    if state.phase == "exchange":
        yield from _legal_gives(state)
        return
    p = state.to_move
    assert p is not None
    if state.table is not None or state.rules.leader_may_pass:
        yield Pass(p)
    for play in _candidates(state, p):
        if check(state, play) is None:
            yield play


def _legal_gives(state: State) -> Iterator[Give]:
    server_first = state.rules.exchange_style == "server" and any(d.server for d in state.pending)
    for duty in state.pending:
        if server_first and not duty.server:
            continue
        source = state.dealt[duty.giver] if (state.rules.exchange_style == "simultaneous"
                                             and state.dealt is not None) else state.hands[duty.giver]
        if duty.server:
            options: Iterable[tuple[Card, ...]] = [strongest_cards(source, duty.count)]
        else:
            options = sorted(set(combinations(sorted(source), duty.count)))
        for cards in options:
            move = Give(duty.giver, duty.receiver, tuple(cards))
            if check(state, move) is None:
                yield move


def _candidates(state: State, p: int) -> Iterator[Play]:
    """Plays made of ``p``'s cards that could fit the table's kind and size."""
    rules = state.rules
    hand = state.hands[p]
    table = state.table
    jokers = hand.count(JOKER)
    reals = sorted({c for c in hand if not c.is_joker}, key=lambda c: (_STRENGTH[c], _suit_pos(c.suit)))
    kind = size = None
    if table is not None:
        kind, size = (SINGLE, 1) if table.lone_joker else (table.kind, table.size)
    if kind in (None, SINGLE):
        for c in reals:
            yield Play(p, (c,))
        if jokers:
            yield Play(p, (JOKER,))
    if kind in (None, GROUP):
        sizes = range(2, rules.max_group + 1) if size is None else (size,)
        yield from _group_candidates(rules, p, reals, jokers, sizes)
    if kind in (None, SEQUENCE) and rules.sequences:
        yield from _sequence_candidates(rules, p, reals, jokers, size)


def _group_candidates(rules: RuleSet, p: int, reals: list[Card], jokers: int, sizes: Iterable[int]) -> Iterator[Play]:
    by_strength: dict[int, list[Card]] = {}
    for c in reals:
        by_strength.setdefault(_STRENGTH[c], []).append(c)
    for g in sizes:
        for s in range(1, 14):
            same = by_strength.get(s, [])
            for k in range(0, min(jokers, g) + 1):
                r = g - k
                if r > len(same) or (r == 0 and g < 2):
                    continue
                for sub in combinations(same, r):
                    if g == 5:
                        if r == 4 and k == 1:
                            yield Play(p, sub + (JOKER,), (Stand("", s),))
                        continue
                    free = [x for x in SUITS if all(c.suit != x for c in sub)]
                    choices = combinations(free, k) if rules.suit_lock else [tuple(free[:k])]
                    for js in choices:
                        if len(js) == k:
                            yield Play(p, sub + (JOKER,) * k, tuple(Stand(x, s) for x in js))


def _sequence_candidates(rules: RuleSet, p: int, reals: list[Card], jokers: int, size: int | None) -> Iterator[Play]:
    lo_min, hi_max = (BELOW_3, ABOVE_2) if rules.joker_out_of_range else (1, 13)
    lengths = range(3, hi_max - lo_min + 2) if size is None else (size,)
    for suit in SUITS:
        held = {_STRENGTH[c]: c for c in reals if c.suit == suit}
        if not held:
            continue
        for n in lengths:
            for lo in range(lo_min, hi_max - n + 2):
                span = range(lo, lo + n)
                missing = [x for x in span if x not in held]
                if len(missing) > jokers:
                    continue
                present = [x for x in span if x in held]
                if not present:
                    continue
                for e in range(0, min(jokers - len(missing), len(present) - 1) + 1):
                    for swap in combinations(present, e):
                        jpos = sorted(missing + list(swap))
                        cards = tuple(held[x] for x in span if x not in jpos) + (JOKER,) * len(jpos)
                        yield Play(p, cards, tuple(Stand(suit, x) for x in jpos))


# --------------------------------------------------------------------------- results


def round_over(state: State) -> bool:
    return state.over


def finishing_order(state: State) -> tuple[int, ...] | None:
    """The round's finishing order (daifugo.round.end), None while it goes on: those who went
    out normally in order, then the player left holding cards, then forbidden finishers
    (the earlier lower), then a daifugo dropped by miyako-ochi. After a stall the places
    of those still in are random; they are listed in seat order."""
    if not state.over:
        return None
    remaining = tuple(p for p in state.seats if state.is_in(p))
    return state.finished + remaining + tuple(reversed(state.fouled)) + state.dropped


def title_names(n: int) -> tuple[str, ...]:
    """Titles by finishing place: 3 players daifugo, heimin, daihinmin; 4 daifugo, fugo,
    hinmin, daihinmin; 5 and more: heimin in between (daifugo.result.titles)."""
    if n == 3:
        return ("daifugo", "heimin", "daihinmin")
    if n < 3:  # not a legal player count; kept total for degenerate inputs
        return ("daifugo", "daihinmin")[:max(n, 0)]
    return ("daifugo", "fugo") + ("heimin",) * (n - 4) + ("hinmin", "daihinmin")


#: The contest log's ``mibun`` digits, 0..4.
UECDA_TITLES = ("daifugo", "fugo", "heimin", "hinmin", "daihinmin")


def titles(order: Sequence[int]) -> tuple[str, ...]:
    """Each player's title (by player id) from a finishing order."""
    names = title_names(len(order))
    out = [""] * len(order)
    for place, p in enumerate(order):
        out[p] = names[place]
    return tuple(out)


def check_finish(state: State, claimed: Sequence[int]) -> Violation | None:
    """Does a recorded finishing order (``[Finish]``, a contest log's ``result``) follow from
    the play (daifugo.result.finish)?"""
    order = finishing_order(state)
    claimed = tuple(claimed)
    said = ", ".join(state.name(p) for p in claimed)
    if order is None:
        return _v("daifugo.result.finish", f"the record gives the finishing order {said}, but the round "
                                           f"is not over")
    if state.stalled:
        top = state.finished
        remaining = [p for p in state.seats if state.is_in(p)]
        bottom = tuple(reversed(state.fouled)) + state.dropped
        mid = claimed[len(top):len(top) + len(remaining)]
        ok = (len(claimed) == len(order) and claimed[:len(top)] == top and sorted(mid) == sorted(remaining)
              and claimed[len(top) + len(remaining):] == bottom)
    else:
        ok = claimed == order
    if ok:
        return None
    return _v("daifugo.result.finish", f"the finishing order is {', '.join(state.name(p) for p in order)}, "
                                       f"not {said}")


def check_titles(order: Sequence[int], claimed: Sequence[str],
                 names: Sequence[str] | None = None) -> Violation | None:
    """Do recorded titles (``claimed[p]``: player p's title going into the next round, e.g. a
    contest log's ``mibun`` mapped through ``UECDA_TITLES``) follow from the finishing order
    ``order`` (daifugo.result.titles)?"""
    want = titles(order)
    claimed = tuple(claimed)
    if claimed == want:
        return None

    def who(p: int) -> str:
        return names[p] if names is not None and p < len(names) else f"player {p + 1}"

    wrong = [p for p in range(len(want)) if p >= len(claimed) or claimed[p] != want[p]]
    p = wrong[0]
    got = claimed[p] if p < len(claimed) else "nothing"
    return _v("daifugo.result.titles", f"{who(p)} finished {order.index(p) + 1} of {len(order)} and is "
                                       f"{want[p]}, not {got}")
