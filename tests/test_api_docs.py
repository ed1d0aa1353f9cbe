"""docs/api.md's examples run as written (from the repository's root)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = re.findall(r"```python\n(.*?)```", (ROOT / "docs" / "api.md").read_text(encoding="utf-8"), re.S)


def test_the_api_doc_has_examples() -> None:
    assert len(EXAMPLES) >= 5


@pytest.mark.parametrize("code", EXAMPLES, ids=[f"example{i + 1}" for i in range(len(EXAMPLES))])
def test_api_doc_example(code: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    exec(compile(code, "docs/api.md", "exec"), {})
