"""What the tests share: where the real contest logs are."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

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
