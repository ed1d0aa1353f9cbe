"""What the tests share: the games kept in the test suite, where the real contest logs
are, and a solver deadline counted in positions."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from referee.jobs import registry
from referee.jobs.solve import Deadline


def _register_test_games() -> None:
    """Register each game kept in the test suite: a folder ``tests/games/<name>/`` holding a
    ``game`` module (its ``GAME``), named in ``PITBOSS_GAMES`` so that every process the
    tests start (workers, a Dask cluster, the command line run as a program) knows it too.
    Only the tests know them; the package never does."""
    found = [f"tests.games.{p.parent.name}.game" for p in sorted((Path(__file__).parent / "games").glob("*/game.py"))]
    os.environ[registry.ENVIRONMENT] = ",".join(found)


_register_test_games()

# The tests expect English (the goldens are English): a developer's locale must not choose
# another language for the command line run in-process or in a subprocess. The language
# tests set LANGUAGE / --lang themselves.
for _name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
    os.environ.pop(_name, None)
os.environ["LANGUAGE"] = "en"

#: ../shared/fixtures: real UEC contest-server logs. CI clones the repository with a copy
#: of shared/ beside it.
FIXTURES = Path(__file__).resolve().parents[1].parent / "shared" / "fixtures"


def fixtures_dir() -> Path:
    """The fixtures folder. Missing, it fails the test under CI (the logs are part of what
    CI must prove) and skips it elsewhere, with the reason."""
    if (FIXTURES / "uecda-sample.log").is_file():
        return FIXTURES
    reason = f"the real contest logs are not at {FIXTURES} (shared/fixtures beside the repository)"
    if os.environ.get("CI"):
        pytest.fail(reason)
    pytest.skip(reason)


@pytest.fixture
def contest_logs() -> Path:
    """The fixtures folder, for tests that read the real contest logs."""
    return fixtures_dir()


class PositionBudget(Deadline):
    """A solver's deadline of 0.05 s that runs out after a number of positions, not of
    seconds: which question runs out of time does not depend on how fast the machine (or a
    compiled engine) is."""

    def __init__(self, positions: int) -> None:
        super().__init__(0.05)
        self.positions = positions

    def expired(self) -> bool:
        return self._tick >= self.positions
