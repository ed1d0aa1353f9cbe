"""A contest table's settings: a contest server configuration (``tndhms.cfg``), with the
command line's options on top, as the contest server reads them (tndhms 0.29 daihu.c:
its configuration keys and RULE_ flags).

The rules a table plays are the rules ``pitboss validate`` derives from the header of the
log the table writes (``log_referee.log_rules``): the settings are kept as the log's
header flags, so the server and the referee cannot disagree.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

from referee.games.daifugo import engine as df
from referee.games.daifugo.notation.dfn import options_text, toggle
from referee.games.daifugo.uecda.engine import tndhms
from referee.games.daifugo.uecda.log_referee import header_flags, log_rules
from referee.games.daifugo.uecda.notation import log as ul

#: The rule flags in the order the log's header lists them, with the shipped defaults.
RULE_FLAGS = ("RULE_KAKUMEI", "RULE_SHIBARI", "RULE_KINSOKU", "RULE_KAIDAN", "RULE_CHANGE", "RULE_5TOBI",
              "RULE_6REVERS", "RULE_8GIRI", "RULE_11BACK", "RULE_SEKIGAE")
SHIPPED = {"RULE_KAKUMEI": True, "RULE_SHIBARI": True, "RULE_KINSOKU": False, "RULE_KAIDAN": True,
           "RULE_CHANGE": True, "RULE_5TOBI": False, "RULE_6REVERS": False, "RULE_8GIRI": True,
           "RULE_11BACK": False, "RULE_SEKIGAE": True}
REVISIONS = ul.REVISIONS


class ConfigError(ValueError):
    """A configuration or option the contest server (or its log) cannot express."""


@dataclass(frozen=True)
class ContestConfig:
    flags: dict[str, bool] = field(default_factory=lambda: dict(SHIPPED))
    sekigae_num: int = 3
    games: int = 1000
    flash: int = 100
    #: "MT" or anything else (the C library's rand), as the server reads RAND_TYPE.
    rand_type: str = "MT"
    port: int = 42485
    #: PLAYER1_NAME..PLAYER5_NAME: the names of clients that send no profile (20060).
    default_names: tuple[str, ...] = tuple(f"Player {i}" for i in range(1, 6))
    #: "2018" (tndhms 0.29) or "later" (the later revision: its log lines and trick rule).
    revision: str = "2018"

    def header(self, names: tuple[str, ...] = ("p0", "p1", "p2", "p3", "p4"), seed: int | None = 0) -> ul.LogHeader:
        """The log header these settings write (what validate reads back). ``seed`` None:
        the deals were given, not all drawn, and RANDOM_SEED has no value (the log
        leaves the line out)."""
        flags = {k: "YES" if v else "NO" for k, v in self.flags.items()}
        flags.update(RAND_TYPE="1" if self.rand_type == "MT" else "0", RULE_SEKIGAE_NUM=str(self.sekigae_num),
                     GAME_NUMBER=str(self.games), FLASH_MIBUN_NUMBER=str(self.flash), GAME_PORT=str(self.port),
                     RANDOM_SEED="" if seed is None else str(seed))
        return ul.LogHeader(names=names, flags=flags, revision=self.revision)

    def rules(self) -> df.RuleSet:
        return log_rules(self.header())

    def match_rules(self) -> tndhms.MatchRules:
        return tndhms.MatchRules(sekigae=self.flags["RULE_SEKIGAE"], sekigae_num=self.sekigae_num, flash=self.flash,
                                 change=self.flags["RULE_CHANGE"], rand_type=self.rand_type)


def read_config(text: str, base: ContestConfig | None = None) -> ContestConfig:
    """A ``tndhms.cfg``: ``KEY value`` lines, ``#`` comments; keys the server reads and
    others (window, graph, flags of no consequence here) ignored, as the server ignores
    keys it does not know. Raises ConfigError on a value it cannot read."""
    config = base or ContestConfig()
    flags = dict(config.flags)
    changes: dict[str, object] = {}
    names = list(config.default_names)
    for n, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        key, _, value = line.partition(" ") if len(line.split(None, 1)) < 2 else (line.split(None, 1)[0], "",
                                                                                     line.split(None, 1)[1])
        key, value = key.strip(), value.strip()
        if key in SHIPPED:
            if value.lower() not in ("yes", "no"):
                raise ConfigError(f"line {n}: {key} is yes or no, not {value!r}")
            flags[key] = value.lower() == "yes"
        elif key in ("RULE_SEKIGAE_NUM", "GAME_NUMBER", "FLASH_MIBUN_NUMBER", "PORT_NUMBER"):
            try:
                number = int(value)
            except ValueError:
                raise ConfigError(f"line {n}: {key} takes a number, not {value!r}") from None
            if number < (0 if key == "RULE_SEKIGAE_NUM" else 1):
                raise ConfigError(f"line {n}: {key} {number} is out of range")
            changes[{"RULE_SEKIGAE_NUM": "sekigae_num", "GAME_NUMBER": "games", "FLASH_MIBUN_NUMBER": "flash",
                     "PORT_NUMBER": "port"}[key]] = number
        elif key == "RAND_TYPE":
            changes["rand_type"] = value
        elif key.startswith("PLAYER") and key.endswith("_NAME") and key[6:-5] in ("1", "2", "3", "4", "5"):
            names[int(key[6:-5]) - 1] = value[:9]
    return replace(config, flags=flags, default_names=tuple(names), **changes)  # type: ignore[arg-type]  # each change has its field's type


def with_options(config: ContestConfig, options: str) -> ContestConfig:
    """Toggles as the Options tag writes them (``+eleven-back -sequences
    trick-end=all-but-one``), on top of the configuration's rules. What a contest log's
    header can state is accepted (the log is the table's record): the options ``pitboss
    convert`` writes for a log, and any that come to the same rules
    (``-revolution -stairs-revolution``)."""
    base = config.rules()
    try:
        toggles = dict(toggle(word) for word in options_text(base).split())
        toggles.update(toggle(word) for word in options.split())
        stated, revision = header_flags(df.ruleset(base.name, toggles))
    except ValueError as err:
        raise ConfigError(str(err)) from None
    flags = {**config.flags, **{flag: value == "YES" for flag, value in stated.items()}}
    return replace(config, flags=flags, revision=revision)


def load(config_file: Path | None = None, options: str = "", games: int | None = None,
         revision: str | None = None) -> ContestConfig:
    """The settings of ``pitboss serve --uecda``: the file, then the options, the revision
    and the number of games."""
    config = ContestConfig()
    if config_file is not None:
        try:
            text = config_file.read_text(encoding="utf-8", errors="replace")
        except OSError as err:
            raise ConfigError(f"cannot read {config_file}: {err.strerror or err}") from None
        config = read_config(text, config)
    if revision is not None:
        if revision not in REVISIONS:
            raise ConfigError(f"--uecda-revision is {' or '.join(REVISIONS)}, not {revision!r}")
        config = replace(config, revision=revision)
    config = with_options(config, options)
    if games is not None:
        if games < 1:
            raise ConfigError("--uecda-games takes 1 or more")
        config = replace(config, games=games)
    return config
