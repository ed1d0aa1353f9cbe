"""Fuzz the readers: mutated records and logs through every reader, bytes and text.

    .venv/bin/python tests/fuzz_readers.py [SECONDS_PER_READER] [SEED]

Seeds are the bundled examples, the golden records and (when present) the real contest
logs of ../shared/fixtures. Each input is a seed mutated (bytes flipped, inserted or cut;
pieces the readers react to spliced in; lines shuffled; records joined) and is read by
its reader through the file path (``open_text``: bytes, decompression and binary
refusal) and the text path (``validate_text``). For every input it checks what issue 11
asks of a reader: no exception but the documented ``NotText``; the file and the text
readings agree; every reported line and column exists in the input. It prints, per
reader, the inputs tried and how many broke a check, and exits 1 if any did.
"""

from __future__ import annotations

import random
import sys
import tempfile
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from referee.jobs.validate import validate_file, validate_text  # noqa: E402
from referee.notation.records import NotText, text_lines  # noqa: E402

PIECES = [b'[Game "Caravan"]\n', b'[Game "Daifugo"]\n', b'[Round "2"]\n', b"{", b"}", b";", b"\n", b"\r\n", b"\r",
          b"\xef\xbb\xbf", b"\x0b", b"\x0c", b"\xe2\x80\xa8", b"\xc2\x85", b"\x00", b"\x1b[2J", b"\t", b'"', b"[", b"]",
          b"*", b"1-0", b"\xe5\xa4\xa7\xe5\xaf\x8c\xe8\xb1\xaa", b"\xff\xfe", b"JK(5D)", b"pass", b"10H>A1",
          b"%-----%", b"\\", b"99999999999999999999", b"-1"]


def seeds() -> dict[str, list[bytes]]:
    out: dict[str, list[bytes]] = {"cvn": [], "dfn": [], "uecda-log": []}
    for path in sorted((ROOT / "examples").glob("*")) + sorted((ROOT / "tests" / "golden").rglob("*")):
        if path.suffix == ".cvn":
            out["cvn"].append(path.read_bytes())
        elif path.suffix == ".dfn":
            out["dfn"].append(path.read_bytes())
        elif path.suffix == ".log":
            out["uecda-log"].append(path.read_bytes())
    fixtures = ROOT.parent / "shared" / "fixtures"
    for path in sorted(fixtures.glob("*.log")) if fixtures.is_dir() else []:
        data = path.read_bytes()
        out["uecda-log"].append(data[:60_000])  # the head of each log: many inputs, not a few long ones
    return {k: v for k, v in out.items() if v}


def mutate(rng: random.Random, data: bytes, pool: list[bytes]) -> bytes:
    b = bytearray(data)
    for _ in range(rng.randint(1, 6)):
        op = rng.randrange(7)
        at = rng.randrange(len(b) + 1)
        if op == 0 and b:
            b[min(at, len(b) - 1)] = rng.randrange(256)
        elif op == 1:
            b[at:at] = rng.choice(PIECES)
        elif op == 2 and b:
            del b[at:at + rng.randint(1, 40)]
        elif op == 3:
            b[at:at] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 12)))
        elif op == 4:
            lines = bytes(b).split(b"\n")
            i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
            b = bytearray(b"\n".join(lines))
        elif op == 5:
            b[at:at] = rng.choice(pool)[: rng.randint(0, 400)]
        else:
            b = b[:at]
    return bytes(b)


def places_exist(data: bytes, reports) -> str | None:
    lines = text_lines(data.decode("utf-8", errors="replace"))
    for r in reports:
        for f in r.errors + r.warnings:
            if f.line is None:
                continue
            if not 1 <= f.line <= max(len(lines), 1):
                return f"line {f.line} of {len(lines)}: {f}"
            if f.column is not None and lines and f.rule != "notation.limit":
                length = len(lines[f.line - 1].rstrip("\n").lstrip("\ufeff"))
                if not 1 <= f.column <= length + 1:
                    return f"column {f.column} of a {length}-character line {f.line}: {f}"
    return None


def check(data: bytes, path: Path) -> str | None:
    path.write_bytes(data)
    try:
        by_file = [r.to_json() for r in validate_file(path)]
    except NotText:
        return None  # refused as binary, in one line: what it should do
    except Exception:  # noqa: BLE001 - any other exception is what the fuzzing looks for
        return traceback.format_exc()
    try:
        by_text = [r.to_json() for r in validate_text(data.decode("utf-8", errors="replace"), str(path))]
    except Exception:  # noqa: BLE001
        return traceback.format_exc()
    if by_file != by_text:
        return "the file and the text readings differ"
    return places_exist(data, list(validate_file(path)))


def main() -> int:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 20.0
    rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 11)
    total_failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for reader, pool in seeds().items():
            path = Path(tmp) / f"input.{reader}"
            tried = failed = 0
            end = time.process_time() + seconds
            first_failure = None
            while time.process_time() < end:
                data = mutate(rng, rng.choice(pool), pool)
                problem = check(data, path)
                tried += 1
                if problem is not None:
                    failed += 1
                    if first_failure is None:
                        first_failure = (data[:300], problem)
            total_failed += failed
            print(f"{reader:>10}: {tried:,} inputs tried, {failed:,} broke a check ({seconds:g} s of CPU)", flush=True)
            if first_failure is not None:
                print(f"            first: {first_failure[0]!r}\n{first_failure[1]}")
    return 1 if total_failed else 0


if __name__ == "__main__":
    sys.exit(main())
