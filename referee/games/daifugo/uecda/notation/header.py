"""How a UEC contest-server log begins: enough to recognise one by its first line without
loading the log reader (``pitboss validate`` asks this of every input it opens)."""

from __future__ import annotations

#: The first line of every contest-server log starts with this.
HEADER_PREFIX = "%-----%"


def is_contest_log(first_line: str) -> bool:
    """Is this the first line of a contest-server log?"""
    return first_line.lstrip("\ufeff").startswith(HEADER_PREFIX)
