"""The built-in players against each other, and the tables on a Dask cluster."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.arena.entrants import parse
from referee.arena.main import run
from referee.arena.tournament import Settings


@pytest.mark.slow
@pytest.mark.parametrize("game, extra, games", [
    ("caravan", {}, 400),
    ("daifugo", {"size": 3}, 600),
])
def test_the_searching_player_is_strongest(tmp_path: Path, game: str, extra: dict, games: int) -> None:
    """random < greedy < search, with intervals that do not overlap."""
    field = [parse("r=bot:random"), parse("g=bot:greedy"), parse("s=bot:search")]
    settings = Settings(game, field, "holotape" if game == "caravan" else "classic", games=games, seed=11, **extra)
    doc = run(settings, tmp_path / "t", concurrency=2, replays=False)
    by = {e["name"]: e for e in doc["entrants"]}
    assert by["r"]["rating_interval"][1] < by["g"]["rating_interval"][0]
    assert by["g"]["rating_interval"][1] < by["s"]["rating_interval"][0]


@pytest.mark.slow
def test_sprt_greedy_against_random_is_decided(tmp_path: Path) -> None:
    for duplicate in (False, True):
        settings = Settings("caravan", [parse("g=bot:greedy"), parse("r=bot:random")], "holotape", games=400,
                            seed=1, duplicate=duplicate, sprt=(0.0, 50.0))
        doc = run(settings, tmp_path / f"s{duplicate}", replays=False)
        assert doc["sprt"]["decided"] and doc["sprt"]["accept"] == "H1"
        assert doc["tournament"]["tables_played"] < doc["tournament"]["tables"]


def test_tables_on_a_dask_cluster_give_the_standings_of_one_process(tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    field = [parse("a=bot:random"), parse("b=bot:greedy"), parse("c=bot:random")]
    here = run(Settings("caravan", field, "fnv", games=2, seed=5), tmp_path / "here", replays=False)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        there = run(Settings("caravan", field, "fnv", games=2, seed=5), tmp_path / "there", dask=client,
                    replays=False)
    for doc in (here, there):
        for e in doc["entrants"]:
            e.pop("think")
        doc.pop("tournament")
    assert here == there
    assert sorted(p.name for p in (tmp_path / "there" / "games").iterdir()) == \
        sorted(p.name for p in (tmp_path / "here" / "games").iterdir())


@pytest.mark.slow
@pytest.mark.parametrize("game, rules, extra", [("caravan", "holotape", []), ("daifugo", "classic", ["f=bot:random"])])
def test_duplicate_deals_decide_two_of_a_kind_sooner(tmp_path: Path, game: str, rules: str, extra: list) -> None:
    """Two random players (H0 true): the cards decide their games, and duplicate blocks,
    which cancel that luck, decide the SPRT in fewer games (greedy against random, which
    wins whatever the cards, is the other way round: docs/arena.md)."""
    field = [parse("a=bot:random"), parse("b=bot:random"), *map(parse, extra)]
    size = 3 if extra else None
    for seed in (1, 2, 3):
        games = {}
        for duplicate in (False, True):
            settings = Settings(game, field, rules, games=2000, seed=seed, size=size, duplicate=duplicate,
                                sprt=(0.0, 50.0))
            doc = run(settings, tmp_path / f"{seed}-{duplicate}", replays=False)
            assert doc["sprt"]["decided"]
            games[duplicate] = doc["sprt"]["games"]
            if duplicate:
                assert doc["sprt"]["accept"] == "H0"
        assert games[True] < games[False], games
