"""Shared pieces of the arena's tests: the command run as a program, the test bots."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
BOT = Path(__file__).with_name("linebot.py")
CLIENT = ROOT / "referee" / "games" / "daifugo" / "uecda" / "contest" / "client.py"


def stdio(name: str, *flags: str) -> str:
    return f"{name}=stdio:{sys.executable} {BOT} {' '.join(flags)}"


def contest_client(name: str, seed: int) -> str:
    return f"{name}=uecda:{sys.executable} {CLIENT} --host {{host}} --port {{port}} --seed {seed} --name {name}"


def field() -> list[str]:
    """Six line-protocol bots (one hangs on its fifth move, one exits on its fourth) and
    two built-in players."""
    return [stdio("l1", "--seed 1"), stdio("l2", "--seed 2"), stdio("l3", "--seed 3"),
            stdio("l4", "--seed 4", "--illegal-at 3"), stdio("hang", "--hang-at 5"), stdio("quit", "--exit-at 4"),
            "g=bot:greedy", "r=bot:random"]


def arena(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cli", "arena", *args], capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT)


def entrants_args(specs: list[str]) -> list[str]:
    return [a for s in specs for a in ("-e", s)]


def standings(folder: Path) -> dict[str, Any]:
    return json.loads((folder / "standings.json").read_text(encoding="utf-8"))


def without_times(doc: dict[str, Any]) -> dict[str, Any]:
    """The standings less what is measured (think times): what a rerun must reproduce."""
    doc = json.loads(json.dumps(doc))
    for e in doc["entrants"]:
        e.pop("think")
    return doc
