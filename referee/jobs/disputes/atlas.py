"""The atlas: every comparison a game's ``disputes`` part lists, computed ahead and shipped.

Each game that answers ``pitboss disputes`` lists its comparisons (``atlas()``: Caravan
its two rule sets; Daifugo its default preset against each option toggled, each pair of
options, and each other preset) and ships their classes as ``atlas.json`` beside its
``disputes`` part: ``pitboss rules --disputes``, ``annotate`` and ``explain`` read it
rather than search again. It is written by ``python -m referee.jobs.disputes.atlas``
(``--game``, ``--only`` to refresh some comparisons); a test regenerates a sample and
compares, and replays every witness it holds under each setting.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from referee.jobs import registry
from referee.jobs.disputes.compare import Comparison, Disputes, disputes, has_part, part_of
from referee.jobs.game import Game

FILE = "atlas.json"


@dataclass(frozen=True)
class Entry:
    """One comparison of the atlas: its group (``rule sets``, ``options``, ``pairs of
    options``, ``presets``) and the comparison."""

    group: str
    comparison: Comparison

    @property
    def labels(self) -> tuple[str, ...]:
        return self.comparison.labels


def entries(game: Game) -> list[Entry]:
    """The comparisons the game's atlas holds, in its order."""
    part = part_of(game)
    return [Entry(group, Comparison(game, tuple(settings), pair)) for group, settings, pair in part.atlas()]


def has_atlas(game: Game) -> bool:
    return has_part(game)


def path(game: Game) -> Path:
    """Where the game's shipped atlas lives."""
    return part_of(game).atlas_file()


@cache
def _load(game_name: str) -> dict[str, Any] | None:
    game = registry.game(game_name)
    if not has_atlas(game):
        return None
    try:
        return json.loads(path(game).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def shipped(game: Game) -> dict[str, Any] | None:
    """The game's shipped atlas (None: the game has none, or it is missing)."""
    return _load(game.name)


def comparison(game: Game, labels: Sequence[str]) -> dict[str, Any] | None:
    """The shipped comparison of exactly these settings (their labels, in either order for
    two settings), or None."""
    atlas = shipped(game)
    if atlas is None:
        return None
    wanted = list(labels)
    for item in atlas["comparisons"]:
        got = item["settings"]
        if got == wanted or (not item.get("pair") and len(wanted) == 2 and got == wanted[::-1]):
            return item
    return None


def find_class(game: Game, labels: Sequence[str], key: str) -> dict[str, Any] | None:
    """A class of the shipped comparison of these two settings, by its key (with the two
    settings' sides swapped when the atlas compares them the other way round)."""
    item = comparison(game, labels)
    if item is None:
        return None
    if item["settings"] != list(labels):
        key = swapped(key)
    return next((c for c in item["classes"] if c["id"] == key), None)


def swapped(key: str) -> str:
    """A class key with the two settings' sides exchanged."""
    head, _, rest = key.partition(":")
    if "/" not in rest:
        return key
    a, _, b = rest.partition("/")
    return f"{head}:{b}/{a}"


def build(game: Game, only: Callable[[Entry], bool] | None = None,
          progress: Callable[[Entry, Disputes], None] | None = None) -> Iterator[tuple[Entry, Disputes]]:
    """Each comparison of the game's atlas (``only`` those it keeps) searched afresh."""
    for entry in entries(game):
        if only is not None and not only(entry):
            continue
        found = disputes(entry.comparison)
        if progress is not None:
            progress(entry, found)
        yield entry, found


def item(entry: Entry, found: Disputes) -> dict[str, Any]:
    """A comparison as the atlas file holds it (no timings: the file is the same on every
    machine)."""
    doc = found.to_json()
    doc.pop("seconds", None)
    return {"group": entry.group, **doc}


def write(game: Game, items: Iterable[dict[str, Any]], target: Path | None = None) -> Path:
    target = target or path(game)
    doc = {"game": game.name, "written_by": "python -m referee.jobs.disputes.atlas", "comparisons": list(items)}
    target.write_text(json.dumps(doc, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    _load.cache_clear()
    return target


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m referee.jobs.disputes.atlas",
                                     description="Search every comparison of a game's dispute atlas and write it "
                                                 "beside the game's disputes part.")
    parser.add_argument("--game", action="append", help="Only this game (repeat); default every game with an atlas.")
    parser.add_argument("--only", help="Only comparisons whose settings' labels contain this text; the others are "
                                       "kept as the shipped atlas has them.")
    args = parser.parse_args(argv)
    games = [registry.game(g) for g in args.game] if args.game else [g for g in registry.games() if has_atlas(g)]
    for game in games:
        old = {tuple(c["settings"]): c for c in (shipped(game) or {"comparisons": []})["comparisons"]}
        wanted = (lambda e: any(args.only in label for label in e.labels)) if args.only else None

        def said(entry: Entry, found: Disputes) -> None:
            print(f"{game.name}: {' | '.join(entry.labels)}: {len(found.classes)} classes, "
                  f"{found.seconds:.1f} s", file=sys.stderr, flush=True)

        fresh = {tuple(e.labels): item(e, d) for e, d in build(game, wanted, said)}
        items = [fresh.get(tuple(e.labels)) or old.get(tuple(e.labels)) for e in entries(game)]
        print(write(game, [i for i in items if i is not None]), file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
