"""Start fast (issue 11): the commands that need no solver, renderer, pool or cluster never
import them, and the grammars come from the compiled-parser cache. (The times themselves
are measured by bench/startup.py, not asserted here.)"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

HEAVY = ("z3", "rich", "distributed", "dask", "chess", "concurrent.futures.process", "multiprocessing")

PROBE = """
import json, sys
import cli
try:
    cli.app(sys.argv[1:])
except SystemExit:
    pass
mods = set(sys.modules)
sys.__stdout__.write("\\n@@" + json.dumps(sorted(mods)) + "\\n")
"""


def _modules(tmp_path: Path, *args: str) -> set[str]:
    env = {"PITBOSS_CACHE_DIR": str(tmp_path / "cache"), "PATH": "/usr/bin:/bin"}
    for _ in range(2):  # the first run builds the parser cache, the second uses it
        done = subprocess.run([sys.executable, "-c", PROBE, *args], cwd=ROOT, capture_output=True, env=env,
                              timeout=120)
    return set(json.loads(done.stdout.decode().rsplit("@@", 1)[1]))


@pytest.mark.parametrize("args", [["--help"], ["validate", "examples/caravan.cvn"],
                                  ["validate", "--jobs", "2", "examples/daifugo.dfn"]],
                         ids=["help", "validate", "validate-jobs"])
def test_light_commands_import_nothing_heavy(tmp_path, args):
    loaded = _modules(tmp_path, *args)
    heavy = sorted(m for m in loaded if any(m == h or m.startswith(h + ".") for h in HEAVY))
    assert heavy == []
    assert not [m for m in loaded if ".render" in m]  # the renderers (z3 and the solvers: HEAVY, above)
    if args[0] == "validate":
        assert list((tmp_path / "cache" / "lark").glob("*.lark.pickle"))  # the parsers came from the cache
