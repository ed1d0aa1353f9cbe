"""Daifugo's tables at ``pitboss serve`` (the game's ``live`` part,
:mod:`referee.jobs.live`): a table created over HTTP is the game's own match
(:mod:`referee.games.daifugo.live`); one the contest's listener seated plays the
contest's match (:mod:`referee.games.daifugo.uecda.contest.live`). The two are told
apart by their set-up when the service opens a stored table again."""

from __future__ import annotations

from typing import Any

from referee.games.daifugo.live import DaifugoMatch, create, form
from referee.games.daifugo.uecda.contest import live as contest

__all__ = ["create", "form", "open"]


def open(setup: dict[str, Any]) -> DaifugoMatch:  # noqa: A001 - the protocol's name
    if contest.is_contest(setup):
        return contest.open(setup)
    return DaifugoMatch(setup)
