"""``pitboss annotate`` and ``pitboss explain``: golden outputs, the round trip through
``validate``, idempotence, and the command line.

Golden annotation outputs live beside their inputs under tests/golden/annotate/:
``NAME.cvn`` (or ``.dfn``) is annotated into ``NAME.annotated.cvn``, and with
``--explain-all`` into ``NAME.explained.cvn`` where that file exists. The outputs are golden
records themselves (their ``; expect:`` lines are kept by annotate), so test_golden.py
checks their verdicts too. To regenerate after an intended change:

    PITBOSS_REGOLD=1 python -m pytest tests/test_annotate.py
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli import app
from referee import spec
from referee.jobs.annotate import OWN_COMMENT, annotate_text, joined
from referee.jobs.validate import validate_text
from referee.notation.screen import flow, width

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "golden" / "annotate"
runner = CliRunner()


def _inputs() -> list[Path]:
    return sorted(p for p in GOLDEN.iterdir()
                  if p.suffix in (".cvn", ".dfn") and not re.search(r"\.(annotated|explained)\.", p.name))


def _output(path: Path, kind: str) -> Path:
    return path.with_name(f"{path.stem}.{kind}{path.suffix}")


def _annotate(path: Path, explain_all: bool = False) -> str:
    """The input annotated as the command would: with ``--compare all`` where its own
    comment line ``; annotate: --compare all`` asks for it."""
    text = path.read_text(encoding="utf-8")
    return joined(annotate_text(text, path.name, explain_all=explain_all,
                                compare_all="; annotate: --compare all" in text))


@pytest.mark.parametrize("path", _inputs(), ids=lambda p: p.name)
def test_golden_annotation(path: Path) -> None:
    for kind, explain_all in (("annotated", False), ("explained", True)):
        expected = _output(path, kind)
        if kind == "explained" and not expected.exists():
            continue
        got = _annotate(path, explain_all)
        if os.environ.get("PITBOSS_REGOLD"):
            expected.write_text(got, encoding="utf-8")
            continue  # regenerating proves nothing: the run is reported as skipped below
        assert expected.exists(), f"{expected.name} is missing: generate it with PITBOSS_REGOLD=1"
        assert got == expected.read_text(encoding="utf-8"), \
            f"{expected.name} differs: rerun with PITBOSS_REGOLD=1 if intended"
    if os.environ.get("PITBOSS_REGOLD"):
        pytest.skip("golden outputs regenerated, not compared")


def _verdicts(text: str, name: str) -> list[tuple]:
    """What validate says of each record, minus what a canonical rewrite legitimately
    changes (positions, move-number warnings)."""
    out = []
    for r in validate_text(text, name):
        out.append((r.game, r.rules, r.valid, r.plies,
                    [(f.rule, f.ply, f.round, f.player, f.move) for f in r.errors],
                    [(f.rule, f.ply, f.round) for f in r.warnings if f.rule != "notation.move-number"]))
    return out


def _round_trip_sources() -> list[Path]:
    files = list((ROOT / "tests" / "golden").rglob("*.cvn")) + list((ROOT / "tests" / "golden").rglob("*.dfn"))
    files += list((ROOT / "examples").glob("*.cvn")) + list((ROOT / "examples").glob("*.dfn"))
    # limits.cvn: a record over the size limit is not kept whole, so it cannot be written back
    return sorted(p for p in files if not re.search(r"\.(annotated|explained)\.", p.name) and p.name != "limits.cvn")


@pytest.mark.parametrize("path", _round_trip_sources(), ids=lambda p: str(p.relative_to(ROOT)))
def test_round_trip_same_verdicts(path: Path) -> None:
    """Annotate, then validate the output: every record keeps its verdict; annotating the
    output again changes nothing."""
    text = path.read_text(encoding="utf-8")
    for explain_all in (False, True):
        annotated = joined(annotate_text(text, path.name, explain_all=explain_all))
        assert _verdicts(annotated, path.name) == _verdicts(text, path.name)
        again = joined(annotate_text(annotated, path.name, explain_all=explain_all))
        assert again == annotated, "annotating an annotated file must replace, not repeat, its comments"


def test_round_trip_on_self_play_games(tmp_path: Path) -> None:
    from referee.games.caravan.selfplay import caravan_games

    for rules in ("holotape", "fnv"):
        text = "\n".join(g.text() for g in caravan_games(6, 11, rules, "mixed", True))
        annotated = joined(annotate_text(text, "selfplay.cvn", explain_all=True))
        assert _verdicts(annotated, "x") == _verdicts(text, "x")
        assert annotated.count("allowed under") > 100


def test_rulings_example_is_disputed() -> None:
    """The rulings' example: 2C on 3H 5S 4S is illegal under holotape, legal under fnv."""
    path = ROOT / "tests" / "golden" / "caravan" / "disputed-direction.cvn"
    holotape, fnv = annotate_text(path.read_text(encoding="utf-8"), path.name)
    for record, own in ((holotape, "holotape"), (fnv, "fnv")):
        (note,) = [n for n in record.notes if n.disputed]
        assert note.step.entry.text == "2C>A" and note.step.ply == 3
        assert note.verdicts["holotape"].legal is False
        assert note.verdicts["holotape"].rule == "caravan.number.direction"
        assert note.verdicts["fnv"].legal is True
        assert "caravan.direction.last-two" in note.verdicts["fnv"].allowed
        assert [v.label for v in record.variants] == [own, "fnv" if own == "holotape" else "holotape"]
    assert "{ illegal under holotape: [caravan.number.direction]" in " ".join(holotape.text.split())
    assert "{ disputed | fnv: legal [caravan.number.direction]" in " ".join(fnv.text.split())
    # Each side of the dispute in a sentence, with the clause it rests on.
    source = spec.rule("caravan.number.direction").source
    assert source.startswith("Caravan holotape, RULES ¶4")
    assert f"fnv: legal [caravan.number.direction] Continue the direction or match the suit ({source})" \
        in " ".join(fnv.text.split())


def test_comments_never_break_the_record() -> None:
    """Braces in a person's comment text cannot close the annotation early."""
    text = (ROOT / "tests" / "golden" / "annotate" / "caravan-illegal.cvn").read_text(encoding="utf-8")
    text = text.replace("; the only sensible move", "; {the} only } sensible { move")
    (annotated,) = [a for a in annotate_text(text) if a.timeline.report.index == 5]
    assert "{ (the) only ) sensible ( move }" in annotated.text
    assert _verdicts(annotated.text, "x") == [_verdicts(text, "x")[4]]


def test_unreadable_records_pass_through_unchanged() -> None:
    text = '[Game "Caravan"]\n\n1. 7H>A ??? nonsense *\n\n[Game "Caravan"]\n\n1. 7H>A 9S>D *\n'
    first, second = annotate_text(text)
    assert first.unchanged and first.text == '[Game "Caravan"]\n\n1. 7H>A ??? nonsense *\n\n'
    assert second.unchanged is None
    assert _verdicts(joined([first, second]), "x") == _verdicts(text, "x")


def test_own_comments_are_recognised() -> None:
    for text in ("illegal under fnv: [x] y", "disputed | a: legal", "ruling: [x] y", "allowed under seed: []",
                 "rejected under uecda, counted as a pass: [x] y", "record invalid: [x] y"):
        assert OWN_COMMENT.match(text)
    assert not OWN_COMMENT.match("illegal? I think not")


# ------------------------------------------------------------------ the command line


def test_annotate_cli_text_json_and_exit_codes(tmp_path: Path) -> None:
    src = GOLDEN / "caravan-disputed.cvn"
    result = runner.invoke(app, ["annotate", str(src)])
    assert result.exit_code == 0, result.output
    assert result.output == (GOLDEN / "caravan-disputed.annotated.cvn").read_text(encoding="utf-8")
    out = tmp_path / "out.cvn"
    result = runner.invoke(app, ["annotate", "--explain-all", "-o", str(out), str(GOLDEN / "caravan-illegal.cvn")])
    assert result.exit_code == 1
    assert "5 records annotated (4 illegal, 2 disputed, 0 by a ruling); 5 invalid" in result.output
    assert "allowed under holotape" in out.read_text(encoding="utf-8")
    result = runner.invoke(app, ["annotate", "--json", str(src)])
    assert result.exit_code == 0
    doc = json.loads(result.output)
    assert doc["summary"] == {"records": 3, "valid": 3, "invalid": 0, "disputed": 3, "illegal": 0,
                              "ruling_dependent": 0}
    first = doc["records"][0]
    assert first["variants"] == ["holotape", "fnv"] and first["rules"] == "holotape"
    move = first["moves"][0]
    assert move["move"] == "QD>A1" and move["disputed"] is True and move["legal"] is True
    assert move["verdicts"]["fnv"] == {"legal": False, "rejected": False, "rule": "caravan.queen.last",
                                       "message": move["verdicts"]["fnv"]["message"], "allowed": []}
    assert [s["summary"] for s in first["settings"]] == ["holotape valid",
                                                         "fnv first fails at ply 1 [caravan.queen.last]"]
    assert move["comments"][0].startswith("disputed | holotape: legal")
    result = runner.invoke(app, ["annotate", "--rules", "fnv", "--json", str(src)])
    assert json.loads(result.output)["records"][0]["variants"] == ["holotape", "fnv"]
    result = runner.invoke(app, ["annotate", "--rules", "holotape", "--json", str(src)])
    assert json.loads(result.output)["records"][0]["variants"] == ["holotape"]
    assert runner.invoke(app, ["annotate", "--rules", "chess", str(src)]).exit_code == 2
    assert runner.invoke(app, ["annotate", str(tmp_path / "missing.cvn")]).exit_code == 2


def test_annotate_takes_contest_logs() -> None:
    """A contest log is annotated as its DFN conversion (pitboss convert)."""
    logs = sorted((ROOT / "tests" / "golden" / "daifugo").glob("*.log"))
    assert logs, "the golden contest logs are missing"
    result = runner.invoke(app, ["annotate", str(logs[0])])
    assert result.exit_code in (0, 1), result.output
    assert result.output.startswith('[Game "Daifugo"]\n[Rules "uecda"]') or result.output.startswith("; game ")


def test_explain_cli() -> None:
    path = ROOT / "tests" / "golden" / "caravan" / "disputed-direction.cvn"
    result = runner.invoke(app, ["explain", str(path), "--ply", "3"])
    assert result.exit_code == 1, result.output
    out = result.output
    assert all(width(line) <= 80 for line in out.splitlines())  # wrapped at 80 (not a terminal)
    assert "ply 3: player 1: 2C>A" in flow(out)
    assert "Position before the move:" in out and "A  3♥ 5♠ 4♠" in out
    assert "holotape (the record's rules): ILLEGAL" in out
    assert "✗ caravan.number.direction — Continue the direction or match the suit" in out
    assert "✓ caravan.direction.last-two — Direction from the last two cards  [fnv only]" in out
    assert "Disputed: legal under fnv; illegal under holotape." in flow(out)
    assert "\x1b[" not in out
    result = runner.invoke(app, ["explain", str(path), "--ply", "3", "--game", "2", "--json"])
    assert result.exit_code == 0
    doc = json.loads(result.output)
    assert doc["move"] == "2C>A" and doc["legal"] is True and doc["disputed"] is True and doc["rules"] == "fnv"
    assert [v["rules"] for v in doc["verdicts"]] == ["fnv", "holotape"]
    assert doc["verdicts"][1]["checked"] == [{"id": "caravan.number.direction", "role": "broken",
                                               **{k: doc["verdicts"][1]["checked"][0][k] for k in
                                                  ("title", "kind", "rulesets", "options", "text", "source",
                                                   "rulebook")}}]
    checked = {c["id"]: c for c in doc["verdicts"][0]["checked"]}
    assert checked["caravan.direction.last-two"]["rulesets"] == ["fnv"]
    result = runner.invoke(app, ["explain", str(path), "--ply", "4"])
    assert result.exit_code == 2 and "stops at the illegal move 3" in result.output
    assert runner.invoke(app, ["explain", str(path), "--ply", "1", "--game", "9"]).exit_code == 2


def test_explain_ruling() -> None:
    result = runner.invoke(app, ["explain", str(GOLDEN / "caravan-rulings.cvn"), "--ply", "1", "--game", "2"])
    assert result.exit_code == 0, result.output
    assert "Rests on a ruling: caravan.end.no-move — No legal move loses." in result.output
    assert "Not disputed: legal under every rule set compared." in result.output


# ------------------------------------------------------------------ Daifugo


def test_daifugo_variants() -> None:
    records = annotate_text((GOLDEN / "daifugo-disputed.dfn").read_text(encoding="utf-8"))
    assert [[v.label for v in a.variants] for a in records] == [
        ["classic", "uecda"],                          # 5 players: both presets; no Options tag
        ["uecda", "classic"],
        ["classic +spade3", "classic"],                # 3 players: uecda cannot seat them; spade3 toggled
        ["classic +consecutive-revolution", "classic"],
    ]
    # Every single option, each kept where it changes a verdict: -sequences bans the first
    # record's sequence; a 6 reversing play makes a later move out of turn.
    every = annotate_text((GOLDEN / "daifugo-disputed.dfn").read_text(encoding="utf-8"), compare_all=True)
    assert [v.label for v in every[0].variants] == ["classic", "uecda", "classic +six-reverse", "classic -sequences"]
    spade = records[2]
    (note,) = [n for n in spade.notes if n.disputed]
    assert note.step.entry.text == "Ben: 3S"
    assert note.verdicts["classic"].rule == "daifugo.play.lone-joker"
    assert "daifugo.option.spade3" in note.verdicts["classic +spade3"].allowed


def test_round_trip_on_daifugo_self_play() -> None:
    from referee.games.daifugo.selfplay import daifugo_matches

    for preset, players, options in (("classic", 4, "+eight-cut +suit-lock"), ("uecda", 5, "")):
        text = "\n".join(m.text() for m in daifugo_matches(2, 5, players, preset, options, 2))
        annotated = joined(annotate_text(text, "selfplay.dfn", explain_all=True))
        assert _verdicts(annotated, "x") == _verdicts(text, "x")
        assert annotated.count("allowed under") > 50


def test_explain_daifugo_json() -> None:
    result = runner.invoke(app, ["explain", str(GOLDEN / "daifugo-illegal.dfn"), "--game", "4", "--ply", "2",
                                 "--json"])
    assert result.exit_code == 1, result.output  # rejected: not legal under the record's rules
    doc = json.loads(result.output)
    assert doc["move"] == "B: 5H 6H 7H" and doc["rejected"] is True and doc["round"] == 1
    assert doc["verdicts"][0]["rules"] == "uecda" and doc["verdicts"][0]["rule"] == "daifugo.play.sequence-above"
    assert doc["verdicts"][1]["rules"] == "classic" and doc["verdicts"][1]["legal"] is True
    assert "Table: A: 4♠ 5♠ 6♠" in doc["position"]
    result = runner.invoke(app, ["explain", str(GOLDEN / "daifugo-illegal.dfn"), "--game", "4", "--ply", "2"])
    assert "uecda (the record's rules): rejected (counted as a pass)" in result.output
    result = runner.invoke(app, ["explain", str(GOLDEN / "daifugo-illegal.dfn"), "--round", "3", "--ply", "1"])
    assert result.exit_code == 2 and "no round 3" in result.output


# ------------------------------------------------------------------ settings judged by their own replays


@pytest.mark.parametrize("path", _inputs(), ids=lambda p: p.name)
def test_each_setting_verdict_is_what_validate_says_under_it(path: Path) -> None:
    """Every ruling annotate states of a setting (valid, or where it first fails) is what
    ``validate --rules`` says of the record under that setting, and the setting's label
    reads back as the setting."""
    checked = 0
    for annotated in annotate_text(path.read_text(encoding="utf-8"), path.name):
        if annotated.unchanged:
            continue
        game = annotated.timeline.kind
        assert game is not None
        for judged in annotated.judged:
            setting = judged.variant.rules
            assert game.settings.get().parse(judged.variant.label) == setting
            (report,) = validate_text(annotated.timeline.chunk.text, path.name, settings={game.name: setting})
            want = judged.first_failure()
            got = report.errors[0] if report.errors else None
            assert (got is None) == (want is None), (annotated.timeline.report.index, judged.summary())
            if got is not None:
                assert (got.rule, got.ply, got.round) == (want.rule, want.ply, want.round), judged.summary()
            checked += 1
    assert checked


def test_the_kinds_of_dispute_are_each_in_a_golden() -> None:
    """The annotate goldens hold every kind of dispute the comparisons can find: a move
    two rule sets rule differently, a setting failing first while another plays on (said
    once, in the settings line and at the move), a
    setting rejecting the record's set-up (a deck), settings parting on a move's effect
    (an option the record does not name), and a preset that cannot seat the record."""
    texts = " ".join(" ".join(p.read_text(encoding="utf-8").split()) for p in GOLDEN.glob("*.annotated.*"))
    for mark in ("{ disputed | holotape:", "first fails at ply", "rejects the record's set-up [caravan.deck.max]",
                 "{ parts here | classic: legal | classic +eight-cut: legal [daifugo.option.eight-cut]",
                 "not compared: uecda (it seats 5 players, the record has 3)",
                 "uecda: rejected, counted as a pass"):
        assert mark in texts, mark


def test_an_option_toggle_flips_a_set_value_to_its_default() -> None:
    from referee.games.daifugo import engine as df
    from referee.games.daifugo.settings import flipped

    assert flipped(df.ruleset("classic", {"stairs-revolution": 5}), "stairs-revolution") == 4
    assert flipped(df.ruleset("classic"), "stairs-revolution") is None  # the default, 4, turned off
    assert flipped(df.ruleset("uecda"), "stairs-revolution") is None
    assert flipped(df.ruleset("classic"), "exchange") == "choice"
    assert flipped(df.ruleset("uecda"), "exchange") == "weakest"
    assert flipped(df.ruleset("classic"), "eight-cut") is True


def test_a_setting_that_parts_before_the_first_move_is_flagged_once_naming_the_rule() -> None:
    """The example match: under +diamond3-start another player leads round 1, so that setting
    judges no move of the record; the first move's comments say so once, with the rule that
    set it apart, and no later comment names it again (the option is compared only when all
    are asked for: the record's Options tag does not set it)."""
    text = (ROOT / "examples" / "daifugo.dfn").read_text(encoding="utf-8")
    assert not any("diamond3" in label for label in annotate_text(text, "daifugo.dfn")[0].to_json()["variants"])
    record = annotate_text(text, "daifugo.dfn", compare_all=True)[0]
    label = "classic +diamond3-start +spade3 +eight-cut"
    flagged = [n for n in record.notes if label in n.parted]
    assert [n.step.index for n in flagged] == [0]
    assert "daifugo.option.diamond3-start" in flagged[0].parted[label]
    assert flagged[0].comments[0].startswith("parted at the start of round 1 | " + label + ": [daifugo.option.")
    later = " ".join(c for n in record.notes[1:] for c in n.comments)
    assert label not in later
    assert label in record.notes[-1].apart  # the JSON keeps, move by move, who is apart and why


@pytest.mark.parametrize("path", _inputs(), ids=lambda p: p.name)
def test_comments_name_only_the_settings_that_rule_otherwise(path: Path) -> None:
    """A comment never lists the settings that already failed or parted earlier, and a
    disputed move (or one after which positions part) names besides the first judge only the
    settings whose verdict or position after it differs from the first judge's."""
    for record in annotate_text(path.read_text(encoding="utf-8"), path.name):
        for note in record.notes:
            text = " ".join(note.comments)
            assert "already failed" not in text and "in another position than" not in text
            head = next((c for c in note.comments if c.startswith(("disputed |", "parts here |"))), None)
            if head is None:
                continue
            first = next(iter(note.verdicts))
            named = [label for label in note.verdicts if f"| {label}: " in head]
            mine = note.verdicts[first]
            for label in named[1:]:
                theirs = note.verdicts[label]
                assert (theirs.kind, theirs.rule) != (mine.kind, mine.rule) or note.afters[label] != note.afters[first]
            for label in set(note.verdicts) - set(named):
                theirs = note.verdicts[label]
                assert (theirs.kind, theirs.rule) == (mine.kind, mine.rule)
                assert note.afters.get(label) == note.afters.get(first)


def test_a_flagged_dispute_names_its_class_and_the_atlas_comparison_that_shows_it() -> None:
    """The example match's one real dispute (a 3 of spades on a lone joker, legal only with
    +spade3): annotate names its class as ``pitboss disputes`` does and finds it in the atlas
    by the comparison that differs in the same way (classic against classic +spade3), with the
    length of its shortest game."""
    record = annotate_text((ROOT / "examples" / "daifugo.dfn").read_text(encoding="utf-8"), "daifugo.dfn")[0]
    named = [c.to_json() for n in record.notes if n.disputed for c in n.classes]
    assert {"settings": ["classic +spade3 +eight-cut", "classic +eight-cut"],
            "class": "legality:legal/daifugo.play.lone-joker",
            "atlas": {"settings": ["classic", "classic +spade3"], "class": "legality:daifugo.play.lone-joker/legal",
                      "witness": 2}} in named
    text = " ".join(" ".join(record.text.split()).split())
    assert ("class legality:legal/daifugo.play.lone-joker (atlas: classic / classic +spade3, shortest game 2 moves)"
            in text)
