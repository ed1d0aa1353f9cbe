"""Benchmark: which code shapes mypyc speeds up, and by how much (CPU time per operation).

The engines are written with immutable named tuples (State, Hand, Card), module-level
constants and dict memos. Compiled by mypyc (``python -m referee.compiled build``) they
gain 1.6-1.7x over the same source run by CPython. This measures the shapes themselves,
the same small functions run as pure Python and compiled by mypyc, side by side in one
run: building and reading a named tuple (by its constructor, by ``tuple.__new__`` as the
engines' hot paths do, by ``_replace``) against a native class and a frozen dataclass
(mypyc compiles both to C structs); a module-level constant read as a plain global
against one declared ``Final``; a dict keyed by a tuple of card named tuples (a hand)
against one keyed by an int bit mask; a loop over a hand's ranks.

The functions are made for this measurement (they are not Pitboss code); the module is
compiled into a temporary folder and thrown away.

Run: python bench/mypyc_shapes.py [--n 300000] [--rounds 3]
"""

from __future__ import annotations

import argparse
import importlib
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from harness import Series, machine

SHAPES = '''
from __future__ import annotations
from dataclasses import dataclass
from typing import Final, NamedTuple


class Card(NamedTuple):
    rank: int
    suit: str


class NT(NamedTuple):
    a: int
    b: int
    c: tuple[int, ...]
    d: int | None


class Native:
    def __init__(self, a: int, b: int, c: tuple[int, ...], d: int | None) -> None:
        self.a = a
        self.b = b
        self.c = c
        self.d = d


@dataclass(frozen=True)
class Frozen:
    a: int
    b: int
    c: tuple[int, ...]
    d: int | None


_new = tuple.__new__
LIMIT = 7
LIMIT_FINAL: Final = 7
HAND = tuple(Card(r, s) for s in "SH" for r in range(1, 6))
MASK = sum(1 << (4 * (c.rank - 1) + "SHDC".index(c.suit)) for c in HAND)


def namedtuple_call(n: int) -> int:
    total = 0
    for i in range(n):
        s = NT(i, i, (), None)
        total += s.a + s.b
    return total


def namedtuple_tuple_new(n: int) -> int:
    total = 0
    for i in range(n):
        s: NT = _new(NT, (i, i, (), None))
        total += s.a + s.b
    return total


def namedtuple_replace(n: int) -> int:
    s = NT(0, 0, (), None)
    for i in range(n):
        s = s._replace(a=i)
    return s.a


def native_class(n: int) -> int:
    total = 0
    for i in range(n):
        s = Native(i, i, (), None)
        total += s.a + s.b
    return total


def frozen_dataclass(n: int) -> int:
    total = 0
    for i in range(n):
        s = Frozen(i, i, (), None)
        total += s.a + s.b
    return total


def global_constant(n: int) -> int:
    total = 0
    for i in range(n):
        if i % 10 < LIMIT:
            total += 1
    return total


def final_constant(n: int) -> int:
    total = 0
    for i in range(n):
        if i % 10 < LIMIT_FINAL:
            total += 1
    return total


def dict_by_hand_tuple(n: int) -> int:
    memo = {HAND: 1}
    total = 0
    for i in range(n):
        total += memo.get(HAND[: 10 - i % 2], 0)
    return total


def dict_by_mask(n: int) -> int:
    memo = {MASK: 1}
    total = 0
    for i in range(n):
        total += memo.get(MASK & ~(i % 2), 0)
    return total


def ranks_of_namedtuple_cards(n: int) -> int:
    total = 0
    for _ in range(n // 10):
        for card in HAND:
            total += card.rank
    return total
'''

CASES = [
    ("namedtuple_call", "named tuple: NT(...) and read two fields"),
    ("namedtuple_tuple_new", "named tuple: tuple.__new__(NT, ...) and read two fields"),
    ("namedtuple_replace", "named tuple: s._replace(a=i)"),
    ("native_class", "native class: Native(...) and read two fields"),
    ("frozen_dataclass", "frozen dataclass: Frozen(...) and read two fields"),
    ("global_constant", "compare with a module-level constant (plain global)"),
    ("final_constant", "compare with a module-level constant declared Final"),
    ("dict_by_hand_tuple", "dict memo keyed by a hand (tuple of 10 card named tuples)"),
    ("dict_by_mask", "dict memo keyed by an int bit mask"),
    ("ranks_of_namedtuple_cards", "sum card.rank over a hand (per card)"),
]

#: Compile the module with mypyc into the folder (setuptools, in place there).
BUILD = r"""
import sys
from mypyc.build import mypycify
from setuptools import setup
setup(name="shapes", ext_modules=mypycify(["--config-file", "mypy.ini", "shapes_c.py"]),
      script_args=["--quiet", "build_ext", "--inplace"])
"""


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=300_000, help="operations per case and round")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    print("== code shapes: pure Python vs compiled by mypyc (CPU time per operation)")
    print(machine())
    with tempfile.TemporaryDirectory(prefix="pitboss-shapes-") as tmp:
        folder = Path(tmp)
        (folder / "shapes_py.py").write_text(SHAPES, encoding="utf-8")
        (folder / "shapes_c.py").write_text(SHAPES, encoding="utf-8")
        (folder / "mypy.ini").write_text("[mypy]\n", encoding="utf-8")
        done = subprocess.run([sys.executable, "-c", BUILD], cwd=folder, capture_output=True, text=True)
        if done.returncode != 0:
            print(f"  mypyc could not compile the shapes: {(done.stdout + done.stderr).strip()[-400:]}")
            return {}
        sys.path.insert(0, tmp)
        pure, compiled = importlib.import_module("shapes_py"), importlib.import_module("shapes_c")
        assert str(pure.__file__).endswith(".py") and str(compiled.__file__).endswith(".so")
        out = {}
        for name, label in CASES:
            py, c = Series("pure"), Series("compiled")
            for _ in range(args.rounds):
                for module, series in ((pure, py), (compiled, c)):
                    fn = getattr(module, name)
                    t0 = time.process_time()
                    fn(args.n)
                    series.add((time.process_time() - t0) / args.n * 1e9)
            out[name] = {"pure_ns": py.median, "compiled_ns": c.median}
            print(f"  {label:<62} pure {py.median:6.1f} ns, compiled {c.median:6.1f} ns: "
                  f"{py.median / c.median:5.1f}x")
        sys.path.remove(tmp)
    return out


if __name__ == "__main__":
    main()
