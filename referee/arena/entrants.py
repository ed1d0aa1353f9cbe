"""Who plays in an arena: ``NAME=SPEC`` on the command line.

- ``bot:STYLE``: a player built into the game (``random``, ``greedy``, ``search``: the
  game's ``players`` part lists its styles), moving in the table's own process;
- ``stdio:COMMAND``: a program speaking the arena's line protocol (``docs/arena.md``) on
  its standard input and output, started for each table it sits at (``protocol``);
- ``PROTOCOL:COMMAND``: a client of a protocol the game's listener speaks (``pitboss serve
  --PROTOCOL``; Daifugo's ``uecda``, the UEC contest's), started for each table with the
  address of the listener the arena opens for that table: ``{host}`` and ``{port}`` in the
  command are replaced, and a command without them gets the devkit's ``-h HOST -p PORT``.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass

#: The arena's own kinds of entrant; any other is a listener's protocol (checked against the game).
OWN = ("bot", "stdio")
#: What an entrant may be called: it is written into the records' tags and move lines.
NAME = re.compile(r"[A-Za-z0-9_.+\-]{1,24}")
#: A listener's name, as ``pitboss serve --NAME`` spells it.
PROTOCOL = re.compile(r"[a-z][a-z0-9]*(-[a-z0-9]+)*")


class EntrantError(ValueError):
    """An entrant the arena cannot seat (said in words, for exit status 2)."""


@dataclass(frozen=True)
class Entrant:
    name: str
    kind: str
    #: The style (``bot``) or the command line (``stdio``, a protocol's client).
    arg: str

    @property
    def client(self) -> bool:
        """Is it a client of a listener's protocol (it plays at that listener's tables)?"""
        return self.kind not in OWN

    @property
    def spec(self) -> str:
        return f"{self.kind}:{self.arg}"

    def command(self, host: str = "", port: int = 0) -> str:
        """The command line to start (a contest client: with the listener's address)."""
        if not self.client:
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
    if not colon or not PROTOCOL.fullmatch(kind):
        raise EntrantError(f"entrant {name}: SPEC is bot:STYLE, stdio:COMMAND or PROTOCOL:COMMAND (a client of "
                           f"the game's listener PROTOCOL), not {spec!r}")
    arg = arg.strip()
    if not arg:
        raise EntrantError(f"entrant {name}: {kind}: needs {'a style' if kind == 'bot' else 'a command'}")
    return Entrant(name, kind, arg)


def check(entrants: list[Entrant], styles: tuple[str, ...], protocols: tuple[str, ...]) -> str | None:
    """The field as a whole: distinct names, known styles, clients of a protocol the game
    speaks, and only with each other (a listener's table seats its own clients). The
    protocol the field plays at, or None (the game's own tables)."""
    names = [e.name for e in entrants]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise EntrantError(f"entrant names must differ: {', '.join(twice)} given twice")
    for e in entrants:
        if e.kind == "bot" and e.arg not in styles:
            raise EntrantError(f"entrant {e.name}: no built-in player {e.arg!r}; the styles are {', '.join(styles)}")
        if e.client and e.kind not in protocols:
            spoken = (f"its listeners speak {', '.join(protocols)}" if protocols
                      else "it has no listener whose tables the arena can hold")
            raise EntrantError(f"entrant {e.name}: {e.kind}: is no protocol of this game ({spoken}); SPEC is "
                               "bot:STYLE, stdio:COMMAND or PROTOCOL:COMMAND")
    kinds = {e.kind if e.client else None for e in entrants}
    if len(kinds) > 1:
        raise EntrantError("clients of a protocol play only at that protocol's tables, with each other: make every "
                           f"entrant {' or '.join(sorted(k for k in kinds if k))}:, or none")
    return kinds.pop()
