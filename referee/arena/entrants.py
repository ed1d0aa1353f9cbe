"""Who plays in an arena: ``NAME=SPEC`` on the command line.

- ``bot:STYLE``: a player built into the game (``random``, ``greedy``, ``search``: the
  game's ``players`` part lists its styles), moving in the table's own process;
- ``stdio:COMMAND``: a program speaking the arena's line protocol (``docs/arena.md``) on
  its standard input and output, started for each table it sits at (``protocol``);
- ``uecda:COMMAND``: a UEC contest client, started for each table with the address of the
  contest listener the arena opens for that table: ``{host}`` and ``{port}`` in the
  command are replaced, and a command without them gets the devkit's ``-h HOST -p PORT``.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass

from referee.service.uecda import NAME as CONTEST

KINDS = ("bot", "stdio", CONTEST)
#: What an entrant may be called: it is written into the records' tags and move lines.
NAME = re.compile(r"[A-Za-z0-9_.+\-]{1,24}")


class EntrantError(ValueError):
    """An entrant the arena cannot seat (said in words, for exit status 2)."""


@dataclass(frozen=True)
class Entrant:
    name: str
    kind: str
    #: The style (``bot``) or the command line (``stdio``, ``uecda``).
    arg: str

    @property
    def spec(self) -> str:
        return f"{self.kind}:{self.arg}"

    def command(self, host: str = "", port: int = 0) -> str:
        """The command line to start (a contest client: with the listener's address)."""
        if self.kind != CONTEST:
            return self.arg
        if "{host}" in self.arg or "{port}" in self.arg:
            return self.arg.replace("{host}", shlex.quote(host)).replace("{port}", str(port))
        return f"{self.arg} -h {shlex.quote(host)} -p {port}"


def parse(text: str) -> Entrant:
    """``NAME=SPEC``; EntrantError says what is wrong."""
    name, eq, spec = text.partition("=")
    name = name.strip()
    if not eq:
        raise EntrantError(f"an entrant is NAME=SPEC (e.g. greedy=bot:greedy or mine=stdio:'python3 bot.py'), "
                           f"not {text!r}")
    if not NAME.fullmatch(name):
        raise EntrantError(f"entrant name {name!r}: 1 to 24 letters, digits or _ . + - (it is written into "
                           "every record)")
    kind, colon, arg = spec.partition(":")
    kind = kind.strip().lower()
    if not colon or kind not in KINDS:
        raise EntrantError(f"entrant {name}: SPEC is bot:STYLE, stdio:COMMAND or {CONTEST}:COMMAND, not {spec!r}")
    arg = arg.strip()
    if not arg:
        raise EntrantError(f"entrant {name}: {kind}: needs {'a style' if kind == 'bot' else 'a command'}")
    return Entrant(name, kind, arg)


def check(entrants: list[Entrant], styles: tuple[str, ...], contest: bool) -> None:
    """The field as a whole: distinct names, known styles, contest clients only with each
    other (a contest table seats five clients of the protocol)."""
    names = [e.name for e in entrants]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise EntrantError(f"entrant names must differ: {', '.join(twice)} given twice")
    for e in entrants:
        if e.kind == "bot" and e.arg not in styles:
            raise EntrantError(f"entrant {e.name}: no built-in player {e.arg!r}; the styles are {', '.join(styles)}")
    kinds = {e.kind == CONTEST for e in entrants}
    if len(kinds) > 1:
        raise EntrantError(f"contest clients ({CONTEST}:) play only at contest tables, with each other: make "
                           f"every entrant {CONTEST}:, or none")
    if kinds == {True} and not contest:
        raise EntrantError(f"{CONTEST}: entrants need a game that speaks the contest protocol")
