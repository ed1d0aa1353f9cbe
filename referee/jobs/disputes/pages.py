"""HTML pages of disputes: the classes, and each witness's replay page beside them.

A witness's replay page is the one ``pitboss show --html`` writes of its record, annotated
under the comparison's first setting against the others (so that its notes say where they
disagree). The pages go to ``<page name>-replays/`` beside the page that links to them.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from referee.engines.message import N
from referee.i18n import tr
from referee.jobs.annotate import annotate_timeline
from referee.jobs.disputes import report
from referee.jobs.game import Game
from referee.jobs.render.frames import frames_of
from referee.jobs.render.html import replay_page
from referee.jobs.timeline import timelines
from referee.notation.records import text_lines


def replay(game: Game, doc: dict[str, Any], c: dict[str, Any]) -> str | None:
    """The replay page of a class's witness (None: it has none)."""
    text = c.get("witness")
    if not text:
        return None
    timeline = next(timelines(text_lines(text), "witness"))
    annotated = annotate_timeline(timeline, doc["settings"][1:])
    frames = frames_of(annotated)
    title = f"{' / '.join(doc['settings'])}: {c['id']}"
    verdicts = "; ".join(f"{label}: {'valid' if v['valid'] else 'invalid'}" + (f" [{v['rule']}]" if v["rule"] else "")
                         for label, v in c.get("verdicts", {}).items())
    return replay_page(frames, title, tr(N("{n} position · {verdict}", "{n} positions · {verdict}", len(frames),
                                           verdict=verdicts)))


def page_name(doc: dict[str, Any], c: dict[str, Any]) -> str:
    """A witness's replay page's file name: short, and the same for the same class."""
    digest = hashlib.sha1(report.anchor(doc["settings"], c["id"]).encode()).hexdigest()[:12]
    return f"{digest}.html"


def replays(game: Game, docs: Sequence[dict[str, Any]], target: Path) -> Callable[[dict[str, Any], dict[str, Any]],
                                                                                 str | None]:
    """The classes' witnesses' replay pages, written to ``<target's stem>-replays/`` beside
    the page ``target``; returns what links a class to its page (None: it has none)."""
    folder = target.with_name(target.stem + "-replays")
    links: dict[tuple[str, str], str] = {}
    pages: dict[str, str] = {}
    for doc in docs:
        for c in doc["classes"]:
            page = replay(game, doc, c)
            if page is not None:
                name = page_name(doc, c)
                pages[name] = page
                links[(report.anchor(doc["settings"], ""), c["id"])] = f"{folder.name}/{name}"
    if pages:
        folder.mkdir(parents=True, exist_ok=True)
        for name, page in pages.items():
            (folder / name).write_text(page, encoding="utf-8")

    def link(doc: dict[str, Any], c: dict[str, Any]) -> str | None:
        return links.get((report.anchor(doc["settings"], ""), c["id"]))

    return link


def write(game: Game, docs: Sequence[dict[str, Any]], target: Path, title: str) -> int:
    """The classes' page at ``target`` and their witnesses' replay pages beside it; how many
    replay pages were written."""
    link = replays(game, docs, target)
    target.write_text(report.html(docs, title, link), encoding="utf-8")
    return sum(1 for doc in docs for c in doc["classes"] if link(doc, c) is not None)


__all__ = ["page_name", "replay", "replays", "write"]
