"""What a disagreement between settings is, precisely: the classes the atlas lists.

A *position* is judged under each setting compared (the same cards, the same turn: the
game's raw state, its rule set aside). A move's *outcome* under a setting is its verdict
(legal; illegal with the rule it breaks; or, where the rules count an illegal move,
rejected with that rule) and, when the game goes on, the *reading* of the position after
it: what the rules read there, component by component (the game names them: direction,
suit, trick, turn, revolution, titles, result, ...), each under that setting's own rules.

Two settings *disagree* on a move in a position they share (the same raw state) when

* their verdicts differ: a **legality** class, keyed by each side's verdict (``legal``, a
  rule id, or ``rejected`` with a rule id): ``legality:legal/caravan.queen.last``;
* both take the move but the positions after it differ in a component where the
  positions before did not: an **effect** class per such component: ``effect:direction``.

The start of a game (the opening, a deal) is judged the same way as a move: a set-up one
setting rejects is a legality class of the start (``start:legal/caravan.deck.max``); start
positions whose readings differ are effect classes of the start (``start:turn``).

For a pair of options (``classic +a +b`` against the preset) a class is an *interaction*:
the four settings (the preset, each option alone, both) judge a move in a position they
share, and the outcome under both options is not what each option alone predicts: for
the verdict, the one option's verdict where the other option changes nothing (either,
where both change it); likewise each component of the reading after the move.
Interactions are keyed as the others, by the predicted verdict and the one given
(``legality:legal/daifugo.turn.order``) or by the component (``effect:turn``). Two options
*rule* otherwise together only where some verdict shows it: an effect interaction
counts only with a witness, a record whose verdicts then are not the predicted ones.

Two verdicts that differ only in the rule an illegal move breaks (both stop the replay)
are no disagreement here: the record is invalid under both, at the same move.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

#: A verdict's kinds.
LEGAL, ILLEGAL, REJECTED = "legal", "illegal", "rejected"


@dataclass(frozen=True)
class Verdict:
    """How a setting rules a move (or a start): its kind and the rule it breaks."""

    kind: str
    rule: str | None = None

    @property
    def goes_on(self) -> bool:
        """Does the game go on after it (legal, or counted as a pass)?"""
        return self.kind != ILLEGAL

    @property
    def side(self) -> str:
        """The verdict as a class key writes it: ``legal``, the rule id, ``rejected <id>``."""
        if self.kind == LEGAL:
            return LEGAL
        return f"{REJECTED} {self.rule}" if self.kind == REJECTED else str(self.rule)

    def to_json(self) -> dict[str, Any]:
        return {"verdict": self.kind, "rule": self.rule}


@dataclass(frozen=True)
class Outcome:
    """A move's outcome under one setting: the verdict and, when the game goes on, the
    position after it (the game's state) and its reading."""

    verdict: Verdict
    after: Any = None
    reading: Mapping[str, Any] | None = None


def legality_key(sides: Sequence[str], start: bool = False) -> str:
    return f"{'start' if start else 'legality'}:{'/'.join(sides)}"


def effect_key(component: str, start: bool = False) -> str:
    return f"{'start' if start else 'effect'}:{component}"


def kind_of(key: str) -> str:
    """``legality`` or ``effect``, from a class key."""
    head, _, rest = key.partition(":")
    if head == "start":
        return "effect" if "/" not in rest else "legality"
    return head


def newly_differing(before: Sequence[Mapping[str, Any] | None], after: Sequence[Mapping[str, Any] | None]) -> set[str]:
    """The components in which the readings ``after`` differ and the readings ``before``
    (None: a start, where nothing differed) did not."""
    if any(r is None for r in after):
        return set()
    first = after[0]
    out = set()
    for name in first:  # type: ignore[union-attr]  # checked above
        if any(r[name] != first[name] for r in after[1:]):  # type: ignore[index]  # checked above
            if all(b is None for b in before) or all(b[name] == before[0][name] for b in before):  # type: ignore[index]  # readings of one game share their components
                out.add(name)
    return out


# ------------------------------------------------------------------ two settings


def classify_two(before: Sequence[Mapping[str, Any] | None], outcomes: Sequence[Outcome], start: bool = False) -> set[str]:
    """The classes a move (or a start) shows between two settings, in a position they
    share (``before``: its readings under each)."""
    a, b = outcomes
    if a.verdict != b.verdict:
        if a.verdict.goes_on or b.verdict.goes_on:
            return {legality_key((a.verdict.side, b.verdict.side), start)}
        return set()  # both stop: the record is invalid under both, at this move
    if not a.verdict.goes_on:
        return set()
    return {effect_key(c, start) for c in newly_differing(before, [a.reading, b.reading])}


def verdicts_differ_two(verdicts: Sequence[Verdict]) -> bool:
    a, b = verdicts
    return a != b and (a.goes_on or b.goes_on)


# ------------------------------------------------------------------ a pair of options


def predict(none: Any, one: Any, other: Any) -> tuple[Any, ...]:
    """What both options together are predicted to give, from the preset's value (``none``)
    and each option's alone: the value they leave unchanged is not their doing. Several
    values when both change it differently (either is then no interaction)."""
    if one == none:
        return (other,)
    if other == none:
        return (one,)
    return (one,) if one == other else (one, other)


def classify_pair(before: Sequence[Mapping[str, Any] | None], outcomes: Sequence[Outcome], start: bool = False) -> set[str]:
    """The interaction classes of a move: ``outcomes`` under the preset, the first option
    alone, the second alone, and both (in that order)."""
    none, one, other, both = outcomes
    verdicts = [o.verdict for o in outcomes]
    predicted = predict(*verdicts[:3])
    if both.verdict not in predicted:
        if both.verdict.goes_on or any(v.goes_on for v in predicted):
            return {legality_key((predicted[0].side, both.verdict.side), start)}
        return set()
    if not all(o.verdict.goes_on for o in outcomes):
        return set()
    readings = [o.reading for o in outcomes]
    if any(r is None for r in readings):
        return set()
    out = set()
    for name in readings[3]:  # type: ignore[union-attr]  # checked above
        values = [r[name] for r in readings]  # type: ignore[index]  # checked above
        if values[3] in predict(*values[:3]):
            continue
        if all(b is not None for b in before):
            olds = [b[name] for b in before]  # type: ignore[index]  # checked above
            if olds[3] not in predict(*olds[:3]):
                continue  # the positions before already interacted here
        out.add(effect_key(name, start))
    return out


def verdicts_differ_pair(verdicts: Sequence[Verdict]) -> bool:
    """Is the verdict under both options not what each alone predicts?"""
    predicted = predict(*verdicts[:3])
    both = verdicts[3]
    return both not in predicted and (both.goes_on or any(v.goes_on for v in predicted))
