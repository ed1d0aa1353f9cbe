"""Caravan's rule sets (the holotape's, Fallout: New Vegas's): the points on which they
differ, as data selected by name."""

from __future__ import annotations

from dataclasses import dataclass, fields

from referee.engines.message import T
from referee.games.caravan.engine.table import Caravan, Slot
from referee.games.caravan.engine.values import direction_fnv, direction_holotape


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
