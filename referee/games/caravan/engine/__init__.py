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

Modules (this package re-exports their public names: ``from referee.games.caravan import
engine as cv`` is the way in): ``table`` cards, caravans, hands; ``values`` a caravan's
value, suit and direction, lanes; ``rules`` the rule sets; ``state`` the position and the
moves; ``judging`` checking moves; ``legal`` legal moves; ``play`` applying them and the
game's end; ``setup`` decks, the start, start positions; ``results`` a declared result.
"""

from __future__ import annotations

from referee.games.caravan.engine.judging import (
    after_illegal,
    check,
    check_mover,
    placement_violation,
)
from referee.games.caravan.engine.legal import (
    legal_moves,
    random_move,
    standard_deck,
)
from referee.games.caravan.engine.play import (
    apply,
    effects,
    set_off,
)
from referee.games.caravan.engine.results import (
    check_result,
    describe_end,
)
from referee.games.caravan.engine.rules import (
    DEFAULT_RULES,
    RULESETS,
    RuleSet,
    ruleset,
)
from referee.games.caravan.engine.setup import (
    check_deck,
    check_position,
    new_game,
    position,
)
from referee.games.caravan.engine.state import (
    Attach,
    Disband,
    Discard,
    Move,
    PlayNumber,
    State,
    lane_winners,
)
from referee.games.caravan.engine.table import (
    JACK,
    KING,
    LANES,
    LETTERS,
    OPENING_HAND,
    OPENING_PLACEMENTS,
    QUEEN,
    TARGET_HIGH,
    TARGET_LOW,
    Caravan,
    Hand,
    Slot,
    is_number,
    own_caravans,
    owner,
    player_name,
)
from referee.games.caravan.engine.values import (
    caravan_value,
    card_value,
    current_suit,
    direction_fnv,
    direction_holotape,
    lane_winner,
)

#: The modules ``python -m referee.compiled build`` compiles with mypyc, as one group (this
#: package stays Python).
COMPILED = tuple(f"{__name__}.{m}" for m in (
    "table", "values", "rules", "state", "judging", "legal", "play", "setup", "results"))

__all__ = [
    "Caravan",
    "Hand",
    "is_number",
    "JACK",
    "KING",
    "LANES",
    "LETTERS",
    "OPENING_HAND",
    "OPENING_PLACEMENTS",
    "own_caravans",
    "owner",
    "player_name",
    "QUEEN",
    "Slot",
    "TARGET_HIGH",
    "TARGET_LOW",
    "caravan_value",
    "card_value",
    "current_suit",
    "direction_fnv",
    "direction_holotape",
    "lane_winner",
    "DEFAULT_RULES",
    "ruleset",
    "RuleSet",
    "RULESETS",
    "Attach",
    "Disband",
    "Discard",
    "lane_winners",
    "Move",
    "PlayNumber",
    "State",
    "after_illegal",
    "check",
    "check_mover",
    "placement_violation",
    "legal_moves",
    "random_move",
    "standard_deck",
    "apply",
    "effects",
    "set_off",
    "check_deck",
    "check_position",
    "new_game",
    "position",
    "check_result",
    "describe_end",
]
