"""The class of a dispute a replay meets, and where the atlas shows it.

``annotate`` and ``explain`` flag a move two settings rule differently in the same
position (a legality class) or a move after which their positions part (effect classes,
by the components of the game's reading that part). :func:`move_classes` names them as
``pitboss disputes`` does; :func:`look_up` finds the class in the game's shipped atlas:
the comparison of exactly these two settings, or else the one whose settings differ in
exactly the same way (the record's ``classic +spade3 +eight-cut`` against ``classic +eight-cut``
is the atlas's ``classic`` against ``classic +spade3``), with its witness.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from referee.jobs.disputes import atlas
from referee.jobs.disputes.classes import ILLEGAL, LEGAL, REJECTED, Outcome, Verdict, classify_two
from referee.jobs.disputes.compare import has_part, part_of
from referee.jobs.game import Game


def verdict(legal: bool, rule: str | None, rejected: bool = False) -> Verdict:
    """A replay's verdict on a move, as the classes key it."""
    if legal:
        return Verdict(LEGAL)
    return Verdict(REJECTED if rejected else ILLEGAL, rule)


def move_classes(game: Game, before: Sequence[Any], afters: Sequence[Any | None],
                 verdicts: Sequence[Verdict]) -> set[str]:
    """The classes a move shows between two settings standing in the same position
    (``before``: each setting's state; ``afters``: the states after it, None where the
    replay stopped)."""
    if not has_part(game):
        return set()
    reading = part_of(game).reading
    olds = [reading(s) for s in before]
    outcomes = [Outcome(v, a, reading(a) if a is not None else None) for v, a in zip(verdicts, afters)]
    return classify_two(olds, outcomes)


@dataclass(frozen=True)
class Shown:
    """A class as the atlas has it: the comparison that holds it (its settings' labels),
    the class (as the atlas file holds it), and whether the comparison holds the two
    settings the other way round."""

    labels: tuple[str, ...]
    entry: dict[str, Any]
    swapped: bool = False

    @property
    def witness(self) -> int | None:
        length: int | None = self.entry.get("length")
        return length




def look_up(game: Game, a: Any, b: Any, key: str) -> Shown | None:
    """The class ``key`` (between settings ``a`` and ``b``, in that order) in the game's
    shipped atlas, or None where the atlas does not show it."""
    shipped = atlas.shipped(game)
    if shipped is None:
        return None
    label = game.settings.get().label
    wanted = (label(a), label(b))
    found = atlas.comparison(game, wanted)
    if found is not None:
        swapped = found["settings"] != list(wanted)
        return _in(found, atlas.swapped(key) if swapped else key, swapped)
    if type(a) is not type(b):
        return None
    changes = part_of(game).differences(a, b)
    for item in shipped["comparisons"]:
        if item.get("pair") or len(item["settings"]) != 2:
            continue
        try:
            x, y = (game.settings.get().parse(t) for t in item["settings"])
        except ValueError:
            continue
        if part_of(game).differences(x, y) == changes:
            return _in(item, key, False)
        if part_of(game).differences(y, x) == changes:
            return _in(item, atlas.swapped(key), True)
    return None


def _in(item: dict[str, Any], key: str, swapped: bool) -> Shown | None:
    entry = next((c for c in item["classes"] if c["id"] == key), None)
    return None if entry is None else Shown(tuple(item["settings"]), entry, swapped)


@dataclass(frozen=True)
class Named:
    """A class a move shows between two settings, and where the atlas shows it."""

    settings: tuple[str, str]
    key: str
    shown: Shown | None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"settings": list(self.settings), "class": self.key, "atlas": None}
        if self.shown is not None:
            out["atlas"] = {"settings": list(self.shown.labels), "class": self.shown.entry["id"],
                            "witness": self.shown.witness}
        return out


def name_move(game: Game, settings: Sequence[tuple[str, Any, Any, Any, Verdict]]) -> list[Named]:
    """The classes a move shows between the first of ``settings`` and each other: each given
    as (label, setting, state before, state after or None, verdict), all standing in the
    same position; and each class looked up in the atlas."""
    out: list[Named] = []
    if not has_part(game) or len(settings) < 2:
        return out
    label, setting, before, after, mine = settings[0]
    for other, theirs, other_before, other_after, verdict_ in settings[1:]:
        for key in sorted(move_classes(game, (before, other_before), (after, other_after), (mine, verdict_))):
            out.append(Named((label, other), key, look_up(game, setting, theirs, key)))
    return out
