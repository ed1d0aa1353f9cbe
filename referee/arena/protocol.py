"""The arena's line protocol: a bot in any language, on standard input and output.

One JSON object per line from the arena, one line back where an answer is due:

1. ``{"type": "hello", "protocol": 1, "game", "rules", "options", "seat", "seats",
   "seed", "time_limit", "restart"}`` -> the bot answers ``{"type": "ready", "name":
   "...", "protocol": 1}`` (within ``HELLO_SECONDS``);
2. at each of its turns ``{"type": "view", ...}``: the seat's view, as ``pitboss serve``
   gives it to that seat (its ``legal`` lists every move it may make) -> the bot answers
   one move in notation, exactly as a string of ``legal`` is written (or as the service's
   move endpoint takes it);
3. at the end ``{"type": "end", "result": ...}``, then its input is closed.

``docs/arena.md`` is the user's description.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee.arena.process import Program

PROTOCOL = 1
#: How long a bot may take to start and answer the hello (its time limit, if longer).
HELLO_SECONDS = 10.0


@dataclass
class Problem:
    """What went wrong with a bot: ``kind`` timeout, crash, garbage or handshake."""

    kind: str
    message: str


class LineBot:
    """One line-protocol bot at one table; started again after an incident."""

    def __init__(self, command: str, hello: dict[str, Any], time_limit: float, stderr: Path | None = None):
        self.command = command
        self.hello = dict(hello)
        self.time_limit = time_limit
        self.stderr = stderr
        self.program: Program | None = None
        self.starts = 0
        #: The name the bot gave itself in its ``ready``.
        self.called: str | None = None

    def start(self) -> Problem | None:
        """Start the bot and shake hands (what went wrong, or None)."""
        self.program = Program(self.command, self.stderr)
        self.starts += 1
        hello = {"type": "hello", "protocol": PROTOCOL, **self.hello, "time_limit": self.time_limit,
                 "restart": self.starts - 1}
        if not self.program.send(json.dumps(hello, ensure_ascii=False)):
            return self._fail("crash", "exited before its hello")
        line, why = self.program.read_line(max(HELLO_SECONDS, self.time_limit))
        if line is None:
            return self._fail("crash" if why == "exit" else "handshake" if why == "hang" else "garbage",
                              {"exit": "exited before answering hello",
                               "hang": f"did not answer hello within {max(HELLO_SECONDS, self.time_limit):g} s",
                               "garbage": "answered hello with an unreadable line"}[why or "garbage"])
        try:
            ready = json.loads(line)
        except ValueError:
            ready = None
        if not isinstance(ready, dict) or ready.get("type") != "ready" or ready.get("protocol") != PROTOCOL:
            return self._fail("handshake", f'answered hello with {line[:60]!r}, not {{"type": "ready", '
                              f'"protocol": {PROTOCOL}, "name": ...}}')
        self.called = str(ready.get("name", ""))[:64]
        return None

    def _fail(self, kind: str, message: str) -> Problem:
        self.kill()
        return Problem(kind, message)

    def ask(self, view: dict[str, Any]) -> tuple[str | None, Problem | None]:
        """The bot's move for this view (started first if it is not running), or what went
        wrong (the bot is then killed: the next ask starts it again)."""
        if self.program is None:
            problem = self.start()
            if problem is not None:
                return None, problem
        assert self.program is not None
        if not self.program.send(json.dumps({"type": "view", **view}, ensure_ascii=False)):
            return None, self._fail("crash", "exited (its input is closed)")
        line, why = self.program.read_line(self.time_limit)
        if line is None:
            if why == "hang":
                return None, self._fail("timeout", f"no move within {self.time_limit:g} s")
            if why == "exit":
                code = self.program.exit_status(1.0)
                return None, self._fail("crash", "closed its output" if code is None else f"exited with status {code}")
            return None, self._fail("garbage", "sent an unreadable line")
        return line.strip(), None

    def end(self, result: Any) -> None:
        if self.program is not None:
            self.program.send(json.dumps({"type": "end", "result": result}, ensure_ascii=False))
            self.program.close()
            self.program = None

    def kill(self) -> None:
        if self.program is not None:
            self.program.kill()
            self.program = None
