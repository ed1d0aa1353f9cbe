"""The Daifugo engine: presets ``classic`` and ``uecda`` and every option of notation.md.

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

Modules (this package re-exports their public names: ``from referee.games.daifugo import
engine as df`` is the way in)
---------------------------------------------------------------------------------------
``cards`` strength and the exchange's strongest/weakest cards; ``rules`` rule sets,
presets and options; ``combos`` combinations and readings; ``state`` moves, the state and
turn order; ``deal`` deck, deal checks, seats, exchange duties and round construction;
``judging`` checking moves; ``play`` applying them, the illegal-move policy; ``legal``
legal moves; ``results`` finishing order and titles.

Public API (stable; the notation readers rely on it)
----------------------------------------------------
Moves: ``Play(player, cards, joker_as=())``, ``Pass(player)``, ``Give(giver, receiver, cards)``;
``Stand(suit, strength)`` (``Stand.of(card)``), ``BELOW_3``, ``ABOVE_2``.

Rules: ``ruleset(preset="classic", toggles=None) -> RuleSet``; ``PRESETS``; ``ALIASES``;
``preset_name(name)``; ``OPTIONS``.

Set-up: ``deck(rules, n)``, ``check_players(rules, n)``, ``check_seats(rules, order, previous,
names=None)``, ``check_deal(rules, hands, deal_order=None) -> list[Violation]``,
``default_seats(rules, n, previous)``, ``exchange_duties(rules, previous) -> tuple[Duty, ...]``,
``new_round(rules, hands, seats=None, previous=None, round_no=1, names=None) -> State``,
``snapshot(rules, hands, seats, to_move, *, table=None, passed=(), out=(), fouled=(),
revolution=False, lock=None, back=False, direction=1, previous=None, round_no=1, names=None)``
(raises ``RuleError`` carrying a ``Violation``).

Play: ``check(state, move, consulted=None) -> Violation | None`` (a list given as
``consulted`` receives the ids of the rules that decided a legal move),
``apply(state, move) -> State``, ``after_illegal(state, move, violation) -> State | None``
(the state after an illegal move the rules count, None when the replay stops),
``reject(state, move) -> State`` (uecda: what the server does with an illegal submission),
``legal_moves(state)``, ``random_move(state, rng, pass_rate=0.0)`` (one legal move drawn
without judging every candidate), ``players_in(state)``, ``TURN_RULES`` (violations that are record
errors even under uecda); ``effects(before, move, after)`` and ``set_off(state)``: the
rules a move, or a position reached without one, set off (``State.events``).

Combinations: ``readings(rules, cards, joker_as=()) -> list[Combo]`` (every way the cards
form a combination), ``combination(rules, cards, joker_as=()) -> Combo | None``.

Results: ``round_over(state)``, ``finishing_order(state)``, ``title_names(n)``,
``titles(order)``, ``UECDA_TITLES``, ``check_finish(state, claimed)``,
``check_titles(order, claimed, names=None)``, ``check_held_titles(held, n, new_block=,
previous=, names=)``, ``check_round_over(state, next_round)``, ``strongest_cards(hand, n)``,
``weakest_cards(hand, n)``.
"""

from __future__ import annotations

#: The modules ``python -m referee.compiled build`` compiles with mypyc, as one group
#: (tndhms, the contest server's card draws, and this package stay Python).
COMPILED = tuple(f"{__name__}.{m}" for m in (
    "cards", "rules", "combos", "state", "deal", "judging", "play", "legal", "results"))

from referee.engines.base import Card, Violation
from referee.games.daifugo.engine.cards import (
    ABOVE_2,
    BELOW_3,
    DIAMOND_3,
    EIGHT,
    JACK,
    LONE_JOKER_STRENGTH,
    SIX,
    SPADE_3,
    card_at,
    rank_of,
    strength,
    strongest_cards,
    weakest_cards,
)
from referee.games.daifugo.engine.combos import (
    GROUP,
    LONE_JOKER,
    SEQUENCE,
    SINGLE,
    Combo,
    Stand,
    combination,
    readings,
    revolution_rule,
)
from referee.games.daifugo.engine.deal import (
    check_deal,
    check_players,
    check_seats,
    deck,
    default_seats,
    exchange_duties,
    new_round,
    snapshot,
    unexplained_exchange,
)
from referee.games.daifugo.engine.judging import (
    check,
    resolved,
)
from referee.games.daifugo.engine.legal import (
    legal_moves,
    random_move,
)
from referee.games.daifugo.engine.play import (
    after_illegal,
    apply,
    reject,
)
from referee.games.daifugo.engine.results import (
    UECDA_TITLES,
    check_finish,
    check_held_titles,
    check_round_over,
    check_titles,
    finishing_order,
    forbidden_finish,
    round_over,
    title_names,
    titles,
)
from referee.games.daifugo.engine.rules import (
    ALIASES,
    DEFAULT_PRESET,
    EXCHANGE_MODES,
    OPTION_CHOICES,
    OPTIONS,
    PRESETS,
    TRICK_ENDS,
    RuleSet,
    preset_name,
    ruleset,
)
from referee.games.daifugo.engine.state import (
    TURN_RULES,
    Duty,
    Give,
    Move,
    Pass,
    Play,
    RuleError,
    State,
    Unreadable,
    effects,
    fresh_trick,
    players_in,
    set_off,
)

__all__ = [
    "Card",
    "Violation",
    "BELOW_3",
    "ABOVE_2",
    "EIGHT",
    "SIX",
    "JACK",
    "LONE_JOKER_STRENGTH",
    "strength",
    "rank_of",
    "card_at",
    "DIAMOND_3",
    "SPADE_3",
    "strongest_cards",
    "weakest_cards",
    "OPTIONS",
    "EXCHANGE_MODES",
    "TRICK_ENDS",
    "OPTION_CHOICES",
    "RuleSet",
    "PRESETS",
    "ALIASES",
    "preset_name",
    "DEFAULT_PRESET",
    "ruleset",
    "Stand",
    "SINGLE",
    "GROUP",
    "SEQUENCE",
    "Combo",
    "LONE_JOKER",
    "readings",
    "combination",
    "revolution_rule",
    "Play",
    "Pass",
    "Give",
    "Unreadable",
    "Move",
    "Duty",
    "State",
    "RuleError",
    "TURN_RULES",
    "players_in",
    "fresh_trick",
    "deck",
    "check_deal",
    "default_seats",
    "exchange_duties",
    "new_round",
    "snapshot",
    "check",
    "resolved",
    "apply",
    "reject",
    "after_illegal",
    "effects",
    "set_off",
    "legal_moves",
    "random_move",
    "forbidden_finish",
    "round_over",
    "finishing_order",
    "title_names",
    "UECDA_TITLES",
    "titles",
    "check_finish",
    "check_titles",
    "check_round_over",
    "check_held_titles",
    "check_players",
    "check_seats",
    "unexplained_exchange",
]
