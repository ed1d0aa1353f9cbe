"""``pitboss selfplay --jobs N``: every game's self-play, in every format, is byte for byte
the same on one process and on two; item ``i`` of a seed is made from the seed and ``i``
alone; a failing item or a worker that dies is a clear error (exit 2), not a hang."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli import app
from referee.jobs import parallel, registry
from referee.jobs.game import SelfPlay
from referee.jobs.parallel import RunError
from referee.jobs.selfplay import produce, produce_game

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()

GAMES = [game for game in registry.games() if game.selfplay is not None]


def _variants() -> list[tuple[str, list[str]]]:
    """Each game with its default options, and with each choice option's every value
    (every format), each rule set, and each boolean option switched on."""
    out = []
    for game in GAMES:
        out.append((game.name, []))
        out.extend((game.name, ["--rules", r]) for r in game.rule_sets[1:])
        for option in game.selfplay.options:
            if isinstance(option.default, bool):
                out.append((game.name, [f"--{option.name}"]))
            for value in option.choices[1:]:
                out.append((game.name, [f"--{option.name}", value]))
    return out


def _parse(game, args: list[str]) -> tuple[str, dict]:
    """The rule set and the generator's keywords that command-line ``args`` give."""
    options = {o.keyword: o.default for o in game.selfplay.options}
    rules = game.default_rules
    it = iter(args)
    for flag in it:
        key = flag[2:].replace("-", "_")
        if key == "rules":
            rules = next(it)
        else:
            options[key] = True if isinstance(options.get(key), bool) else next(it)
    return rules, options


def _runnable(game, args: list[str]) -> list[str]:
    """``args``, with the rule set they need where the default refuses them (a contest log
    is played under the contest's rules): found by asking, as a user would."""
    rules, options = _parse(game, args)
    for other in (rules, *game.rule_sets):
        try:
            game.selfplay.prepare(other, **options)
        except ValueError:
            continue
        return args if other == rules else [*args, "--rules", other]
    raise AssertionError(f"no rule set of {game.name} takes {args}")


@pytest.mark.parametrize(("name", "args"), _variants(),
                         ids=lambda v: v if isinstance(v, str) else " ".join(v) or "default")
def test_one_process_and_two_write_the_same_bytes(name: str, args: list[str], tmp_path: Path) -> None:
    game = registry.game(name)
    args = _runnable(game, args)
    rules, options = _parse(game, args)
    maker = game.selfplay.prepare(rules, **options)
    count = 4 if maker.whole_file else 12
    rounds = ["--rounds", "2"] if "rounds" in options else []
    outputs = []
    for jobs in ("1", "2"):
        command = ["selfplay", name, "-n", str(count), "--seed", "7", *rounds, *args, "--jobs", jobs]
        if maker.whole_file:
            folder = tmp_path / f"jobs{jobs}"
            folder.mkdir()
            done = runner.invoke(app, [*command, "-o", str(folder)])
            assert done.exit_code == 0, done.output
            outputs.append({p.name: p.read_bytes() for p in sorted(folder.iterdir())})
            assert len(outputs[-1]) == count
        else:
            done = runner.invoke(app, command)
            assert done.exit_code == 0, done.output
            outputs.append(done.stdout_bytes)
    assert outputs[0] == outputs[1]
    assert outputs[0]


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_item_i_is_made_from_the_seed_and_i_alone(game) -> None:
    maker = game.selfplay.prepare(game.default_rules)
    five = [made.text for made in produce(maker, 5, 3, jobs=1)]
    assert len(set(five)) == 5  # different numbers, different games
    assert [made.text for made in produce(maker, 3, 3, jobs=2)] == five[:3]
    assert [made.text for made in produce(maker, 5, 3, jobs=2)] == five  # same seed, same items
    assert maker(3, 4).text() == five[4]  # alone, nothing made before it
    assert [made.text for made in produce(maker, 2, 3, jobs=2, start=3)] == five[3:]
    assert [made.text for made in produce(maker, 5, 4, jobs=1)] != five  # another seed, other items
    assert [made.index for made in produce_game(game, 5, 3, jobs=2)] == list(range(5))
    counts = [made.counts for made in produce(maker, 5, 3, jobs=2)]
    assert all(c["moves"] > 0 for c in counts)


def test_many_items_in_batches_come_back_in_order() -> None:
    game = GAMES[0]
    maker = game.selfplay.prepare(game.default_rules)
    one = [(made.index, made.text) for made in produce(maker, 150, 11, jobs=1)]
    assert [(made.index, made.text) for made in produce(maker, 150, 11, jobs=2)] == one


# ------------------------------------------------------------------ failures


@dataclass(frozen=True)
class Failing:
    """A maker whose item ``bad`` raises."""

    bad: int
    whole_file = False

    def __call__(self, seed: int, index: int):
        if index == self.bad:
            raise ValueError(f"item {index} cannot be made")
        return _Item(f"{seed}:{index}\n")


@dataclass(frozen=True)
class _Item:
    body: str

    def text(self) -> str:
        return self.body

    def counts(self) -> dict[str, int]:
        return {"moves": 1}


@pytest.mark.parametrize("jobs", [1, 2])
def test_an_item_that_fails_is_a_clear_error_after_the_items_before_it(jobs: int) -> None:
    seen = []
    with pytest.raises(RunError,
                       match=r"making things number 8 \(--seed 5\) failed: ValueError: item 7 cannot be made"):
        for made in produce(Failing(7), 40, 5, jobs=jobs, noun="things"):
            seen.append(made.text)
    assert seen == [f"5:{i}\n" for i in range(7)]


def test_a_worker_that_dies_is_a_clear_error_not_a_hang(tmp_path: Path) -> None:
    """A worker that dies (os._exit) making item 61, once the parent has written the 61
    before it: the run writes those 61, names number 62 as the first not made, and stops
    within the subprocess's time limit (a hang fails the test). Batches of one item make
    the dead worker's batch start at its item."""
    seen = tmp_path / "seen"
    script = textwrap.dedent("""
        import os, sys, time
        from dataclasses import dataclass
        from referee.jobs import selfplay
        from referee.jobs.parallel import RunError

        PARENT = os.getpid()
        SEEN = sys.argv[1]
        DEAD = 61

        class Item:
            def __init__(self, index): self.index = index
            def text(self): return f"{self.index}\\n"
            def counts(self): return {"moves": 1}

        @dataclass(frozen=True)
        class Dying:
            whole_file = False
            def __call__(self, seed, index):
                if index == DEAD and os.getpid() != PARENT:
                    deadline = time.monotonic() + 60
                    while time.monotonic() < deadline:  # until the parent has every item before
                        try:
                            if int(open(SEEN).read() or 0) == DEAD:
                                break
                        except FileNotFoundError:
                            pass
                        time.sleep(0.01)
                    os._exit(1)
                return Item(index)

        selfplay.BATCH_MAX = 1
        made = []
        try:
            for item in selfplay.produce(Dying(), 200, 1, jobs=2, noun="things"):
                made.append(item.text)
                with open(SEEN, "w") as out:
                    out.write(str(len(made)))
        except RunError as err:
            print("".join(made), end="")
            print(err)
            sys.exit(2)
        sys.exit(f"no error after {len(made)} items")
    """)
    done = subprocess.run([sys.executable, "-c", script, str(seen)], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 2, (done.stdout, done.stderr)
    *made, message = done.stdout.splitlines()
    assert made == [str(i) for i in range(61)]
    assert message.startswith("a worker process died while making things (")
    assert message.endswith("): none was made from number 62 on; run again, or with --jobs 1")


class _DyingPool:
    """A pool whose worker dies making item ``dead`` (None: one dies idle once ``refused``
    items were handed out): the batches before are finished, the one holding ``dead``
    fails, and every later submit is refused, as a broken ProcessPoolExecutor does."""

    def __init__(self, dead: int | None, refused: int | None = None) -> None:
        self.dead, self.refused = dead, refused
        self.broken = False
        self.submitted = 0

    def submit(self, call, packed):
        import pickle
        from concurrent.futures import Future
        from concurrent.futures.process import BrokenProcessPool

        fn, (maker, seed, first, stop) = pickle.loads(packed)  # as parallel.submit_packed sends it

        if self.broken or (self.refused is not None and first >= self.refused):
            raise BrokenProcessPool("A child process terminated abruptly")
        self.submitted += 1
        future: Future = Future()
        if self.dead is not None and first <= self.dead < stop:
            self.broken = True
            future.set_exception(BrokenProcessPool("A child process terminated abruptly"))
        else:
            future.set_result(fn(maker, seed, first, stop))
        return future

    def shutdown(self, wait: bool, cancel_futures: bool) -> None:
        pass


@pytest.mark.parametrize(("dead", "refused", "first_lost"), [(9, None, 9), (0, None, 0), (None, 14, 14)])
def test_a_broken_pool_writes_every_finished_batch_before_the_first_lost(monkeypatch, dead, refused,
                                                                        first_lost) -> None:
    """The pool refusing a batch (a worker died) stops the submitting; the batches finished
    before are still written, in order, and the error names the first item not made (not the
    batch being submitted)."""
    from referee.jobs import selfplay

    pool = _DyingPool(dead, refused)
    monkeypatch.setattr(parallel, "start_pool", lambda jobs: pool)
    monkeypatch.setattr(selfplay, "BATCH_MAX", 1)
    seen = []
    with pytest.raises(RunError) as raised:
        for made in produce(Failing(-1), 40, 5, jobs=2, noun="things"):
            seen.append(made.text)
    assert seen == [f"5:{i}\n" for i in range(first_lost)]
    assert f"none was made from number {first_lost + 1} on" in str(raised.value)
    assert pool.submitted < 40  # it stopped submitting


def test_the_command_says_a_failed_item_and_exits_2(monkeypatch) -> None:
    game = GAMES[0]
    monkeypatch.setattr(SelfPlay, "prepare", lambda self, rules, **options: Failing(3))
    done = runner.invoke(app, ["selfplay", game.name, "-n", "10", "--jobs", "2"])
    assert done.exit_code == 2
    assert f"making {game.selfplay.noun} number 4 (--seed 1) failed: ValueError: item 3 cannot be made" in done.output


def test_bad_options_fail_before_any_worker_starts(monkeypatch, tmp_path: Path) -> None:
    def no_pool(jobs: int):
        raise AssertionError("a pool was started")

    monkeypatch.setattr(parallel, "start_pool", no_pool)
    refused, whole_files = [], []
    for game in GAMES:
        for option in game.selfplay.options:
            for value in option.choices[1:]:
                # a choice the default rule set refuses (a contest log under the written rules)
                try:
                    game.selfplay.prepare(game.default_rules, **{option.keyword: value})
                except ValueError as err:
                    done = runner.invoke(app, ["selfplay", game.name, "-n", "50", f"--{option.name}", value,
                                               "--jobs", "2"])
                    assert done.exit_code == 2, done.output
                    assert str(err) in done.output
                    refused.append((game.name, option.name, value))
    # items that each fill a file, asked for on standard output
    for game in GAMES:
        for option in game.selfplay.options:
            for value in option.choices:
                for rules in game.rule_sets:
                    try:
                        maker = game.selfplay.prepare(rules, **{option.keyword: value})
                    except ValueError:
                        continue
                    if maker.whole_file:
                        done = runner.invoke(app, ["selfplay", game.name, "-n", "3", "-r", rules,
                                                   f"--{option.name}", value, "--jobs", "2"])
                        assert done.exit_code == 2
                        assert "give --output an existing directory" in done.output
                        whole_files.append((game.name, rules, option.name, value))
    # the cases ran (a choice some game's default rule set refuses, a maker of whole files):
    # with none, the loops above would pass having checked nothing
    assert refused, "no game refuses a choice under its default rules: nothing was checked"
    assert whole_files, "no game's self-play fills files of their own: nothing was checked"


def test_help_says_the_output_does_not_depend_on_jobs() -> None:
    for game in GAMES:
        done = runner.invoke(app, ["selfplay", game.name, "--help"])
        assert done.exit_code == 0
        assert "--jobs" in done.output
        assert "does not depend on it" in " ".join(done.output.split())
