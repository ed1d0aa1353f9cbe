"""``pitboss serve --uecda-positions FILE``: a contest table's first games are dealt the
file's deals (hands by seat, the server still drawing the seats), its log names no
RANDOM_SEED and still validates, and the service's copy of the table (read back by
a new service on the same database) deals the same."""

from __future__ import annotations

from pathlib import Path

import pytest
from starlette.testclient import TestClient

from referee.games.daifugo.positions import read_starts
from referee.games.daifugo.uecda import server as listener
from referee.games.daifugo.uecda.contest.client import Client
from referee.games.daifugo.uecda.notation.log import read_log
from referee.jobs.validate import validate_text
from referee.service.app import create_app
from tests.games.daifugo.test_uecda_web import _start, _until


def _by_seat(text: str) -> list[list[tuple]]:
    """Each game's hands, by seat (sorted cards)."""
    return [[tuple(sorted(game.hands[p])) for p in game.seats] for game in read_log(text.splitlines(True))]


def test_a_table_is_dealt_the_given_deals(contest_logs: Path, tmp_path: Path) -> None:
    sample = contest_logs / "uecda-sample.log"
    said: list[str] = []
    db = str(tmp_path / "t.db")
    with TestClient(create_app(db)) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        task = client.portal.start_task_soon(  # type: ignore[union-attr]
            lambda: listener.serve(hub, "127.0.0.1", 0, announce=said.append, uecda_games=3, uecda_seed=5,
                                   uecda_timeout=30.0, uecda_logs=str(tmp_path / "logs"),
                                   uecda_positions=str(sample)))
        _until(lambda: said, 10)
        port = int(said[0].rsplit(":", 1)[1])
        for t in _start([Client("127.0.0.1", port, n, seed=i) for i, n in enumerate("abcde")]):
            t.join(60)
        (row,) = _until(lambda: [t for t in client.get("/v1/tables").json()["tables"] if t["status"] == "finished"])
        record = client.get(f"/v1/tables/{row['id']}/record").text
        task.cancel()
    given = _by_seat(sample.read_text(encoding="latin-1"))
    played = _by_seat(record)
    assert played == given[:3]
    assert not any(line.split("%")[-1].strip() for line in record.splitlines() if "RANDOM_SEED" in line)
    assert all(r.valid for r in validate_text(record))
    with TestClient(create_app(db)) as again:  # the service's copy replays the same deals
        assert again.get(f"/v1/tables/{row['id']}/record").text == record
        assert again.get(f"/v1/tables/{row['id']}").json()["status"] == "finished"


def test_positions_that_are_no_contest_deal_are_refused(tmp_path: Path) -> None:
    dfn = tmp_path / "two-jokers.dfn"
    hands = ["3S 4S 5S 6S 7S 8S 9S 10S JS QS KS", "AS 2S 3H 4H 5H 6H 7H 8H 9H 10H JH",
             "QH KH AH 2H 3D 4D 5D 6D 7D 8D 9D", "10D JD QD KD AD 2D 3C 4C 5C 6C",
             "7C 8C 9C 10C JC QC KC AC 2C JK JK"]
    tags = "".join(f'[Hand.p{i} "{h}"]\n' for i, h in enumerate(hands))
    dfn.write_text('[Game "Daifugo"]\n[Rules "seed"]\n[Players "p0 p1 p2 p3 p4"]\n[Round "1"]\n' + tags + "\n*\n",
                   encoding="utf-8")
    assert len(read_starts(str(dfn))) == 1
    with pytest.raises(ValueError, match="joker"):
        listener.settings_from({"uecda_positions": str(dfn)})
    with pytest.raises(ValueError, match="uecda-positions"):
        listener.settings_from({"uecda_positions": str(tmp_path / "missing.log")})
