"""Rule sets: the presets ``classic`` and ``uecda`` and every option of notation.md, as data."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any, TypeVar

from referee.engines.message import T, suggested

#: Option names of notation.md, in the order the spec lists them.
OPTIONS = (
    "revolution", "stairs-revolution", "forbidden-finish", "miyako-ochi", "diamond3-start",
    "consecutive-revolution", "spade3", "eight-cut", "suit-lock", "eleven-back",
    "six-reverse", "exchange", "sequences", "trick-end",
)


EXCHANGE_MODES = ("weakest", "choice", "none")


#: When a trick ends (daifugo.trick.end, daifugo.trick.clear, daifugo.option.trick-end):
#: "others" (classic: everyone still in but the player on the table has passed), "all" (the
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
    #: How sequences compare: "top" (classic, daifugo.play.sequence-top) or "above"
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
    #: Exchange: "simultaneous" (classic, judged on the hands as dealt) or "server"
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

    def __reduce__(self) -> tuple[Any, ...]:
        # Rebuilt through its constructor (compiled, a frozen class cannot have its fields
        # set one by one), and as the one object ``ruleset`` gives for it (the engine's
        # memos are kept per rule set object).
        return _restored, tuple(getattr(self, f.name) for f in fields(self))

    def jokers(self, n_players: int) -> int:
        """Jokers in the deck for ``n_players`` (classic: 1 up to 4 players, 2 from 5)."""
        return 1 if n_players <= 4 else self.jokers_for_5_plus

    def option(self, name: str) -> object:
        """The value of the option ``name`` (notation.md spelling)."""
        return getattr(self, name.replace("-", "_"))


PRESETS: dict[str, RuleSet] = {
    # The rules of the 2005 PTT post on 大貧民: its general rules on, its local rules off.
    # Its 階段革命: a same-suit sequence of 4 or more revolts, a general rule (it is not
    # among the post's local rules, which are off unless turned on).
    "classic": RuleSet(name="classic", stairs_revolution=4),
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


DEFAULT_PRESET = "classic"

#: Other names a preset is read by: ``seed`` is what records written before ``classic``
#: had its name call it, so that every such record keeps its meaning. Read everywhere a
#: preset is named; never written.
ALIASES: dict[str, str] = {"seed": "classic"}


def preset_name(name: str) -> str | None:
    """The preset ``name`` names (case and surrounding spaces aside, an alias read as its
    preset), or None."""
    key = name.strip().lower()
    key = ALIASES.get(key, key)
    return key if key in PRESETS else None


def ruleset(preset: str = DEFAULT_PRESET, toggles: Mapping[str, object] | None = None) -> RuleSet:
    """The rule set of ``preset`` with ``toggles`` applied.

    ``toggles`` maps option names (notation.md spelling) to values: True/False for the
    on/off options; for ``stairs-revolution`` an int >= 3, or None/False/0 for off; for
    ``exchange`` one of "weakest", "choice", "none" (no exchange: the contest server's
    RULE_CHANGE NO); for ``trick-end`` one of ``TRICK_ENDS``. Unknown presets, options or values raise ValueError.
    """
    preset = ALIASES.get(preset, preset)
    base = PRESETS.get(preset)
    if base is None:
        raise ValueError(T("unknown Daifugo rules {preset}: use one of {join}", preset=repr(preset),
                           join=', '.join(PRESETS)))
    changes: dict[str, Any] = {}  # each value checked against its field above
    for name, value in (toggles or {}).items():
        if name not in OPTIONS:
            raise ValueError(suggested(T("unknown Daifugo option {name}: options are {join}", name=repr(name),
                                         join=', '.join(OPTIONS)), name, OPTIONS))
        field_name = name.replace("-", "_")
        if name == "stairs-revolution":
            if value is None or value is False or value == 0:
                changes[field_name] = None
            elif value is True:
                changes[field_name] = 4
            elif isinstance(value, int) and value >= 3:
                changes[field_name] = value
            else:
                raise ValueError(T("stairs-revolution takes a sequence length of 3 or more, not {value}",
                                   value=repr(value)))
        elif name in OPTION_CHOICES:
            if value not in OPTION_CHOICES[name]:
                raise ValueError(T("{name} takes {join}, not {value}", name=name, join='|'.join(OPTION_CHOICES[name]),
                                   value=repr(value)))
            changes[field_name] = value
        else:
            if not isinstance(value, bool):
                raise ValueError(T("option {name} is on or off (+{name} / -{name}), not {value}", name=name,
                                   value=repr(value)))
            changes[field_name] = value
    if changes.get("revolution") is False:
        # -revolution turns off every revolution, long sequences too (daifugo.option.revolution):
        # a sequence length beside it says nothing, and the rule set is the one -revolution names.
        changes["stairs_revolution"] = None
    changes = {name: value for name, value in changes.items() if getattr(base, name) != value}
    if not changes:
        return base
    key = (preset, tuple(sorted(changes.items())))
    made = _MADE.get(key)
    if made is None:
        if len(_MADE) >= 1024:
            _MADE.clear()
        made = _MADE[key] = replace(base, **changes)
    return made


#: The rule sets ``ruleset`` made, by preset and changes: equal rule sets are one object
#: (they are immutable), so what the engine remembers per rule set (a play's readings)
#: serves every game under them. Bound: 1024, forgotten all at once when full. Reason:
#: a contest log's every game asks for its header's rule set anew.
_MADE: dict[tuple[str, tuple[tuple[str, Any], ...]], RuleSet] = {}


def _restored(*values: Any) -> RuleSet:
    """A pickled rule set again: the object ``ruleset`` gives for it where it is one."""
    made = RuleSet(*values)
    base = PRESETS.get(made.name)
    if base is None:
        return made
    try:
        same = ruleset(made.name,
                       {name: made.option(name) for name in OPTIONS if made.option(name) != base.option(name)})
    except ValueError:
        return made
    return same if same == made else made


_K = TypeVar("_K")
_V = TypeVar("_V")


def memo_for(table: dict[int, tuple[RuleSet, dict[_K, _V]]], rules: RuleSet) -> dict[_K, _V]:
    """The memo ``table`` keeps for ``rules``, a new empty one the first time. Keyed by the
    rule set's identity (equal rule sets are one object); the entry holds the rule set, so
    its identity stays its own. At most 64 rule sets are kept, forgotten all at once."""
    entry = table.get(id(rules))
    if entry is None or entry[0] is not rules:
        if len(table) >= 64:
            table.clear()
        entry = table[id(rules)] = (rules, {})
    return entry[1]
