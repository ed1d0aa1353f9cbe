"""The default Daifugo preset is ``classic``; ``seed``, the name records written before
had for it, is read as ``classic`` wherever a rule set is read (the engine, the Rules tag,
``--rules``, ``pitboss rules -r``), so every such record keeps its meaning; every output
writes ``classic``. (The API and stored live tables: tests/service/test_preset_alias.py.)"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from cli import app
from referee.games.daifugo import engine as df
from referee.games.daifugo import rulebook
from referee.jobs.validate import validate_text

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "daifugo.dfn"
runner = CliRunner()


def _as_seed(text: str) -> str:
    assert '[Rules "classic"]' in text
    return text.replace('[Rules "classic"]', '[Rules "seed"]')


def test_the_engine_reads_seed_as_classic() -> None:
    assert df.DEFAULT_PRESET == "classic" and set(df.PRESETS) == {"classic", "uecda"}
    assert df.ruleset("seed") is df.ruleset("classic") and df.ruleset("seed").name == "classic"
    assert df.ruleset("seed", {"spade3": True, "exchange": "choice"}) is df.ruleset("classic", {"spade3": True,
                                                                                              "exchange": "choice"})
    assert df.preset_name(" Seed ") == "classic" and df.preset_name("UECDA") == "uecda"
    assert df.preset_name("seeds") is None and df.preset_name("") is None


def test_a_record_that_says_seed_keeps_its_meaning_and_is_reported_as_classic() -> None:
    text = EXAMPLE.read_text(encoding="utf-8")
    (new,), (old,) = validate_text(text), validate_text(_as_seed(text))
    assert new.valid and old.valid and new.rules == old.rules == "classic"
    assert [f.rule for f in old.errors + old.warnings] == [f.rule for f in new.errors + new.warnings]
    # a record that breaks a rule breaks it the same under either name
    broken = text.replace("Aki: JD JC ", "Aki: JD JC JH ", 1)
    assert broken != text
    (new,), (old,) = validate_text(broken), validate_text(_as_seed(broken))
    assert not new.valid and [(f.rule, f.line) for f in old.errors] == [(f.rule, f.line) for f in new.errors]


def test_an_unknown_preset_still_names_the_presets() -> None:
    (report,) = validate_text(EXAMPLE.read_text(encoding="utf-8").replace('[Rules "classic"]', '[Rules "sead"]'))
    (finding,) = report.errors
    assert finding.rule == "notation.tag.rules" and "classic, uecda" in finding.message


def test_rules_option_takes_seed_and_outputs_write_classic(tmp_path: Path) -> None:
    done = runner.invoke(app, ["validate", "--json", "--rules", "seed +spade3 +eight-cut", str(EXAMPLE)])
    assert done.exit_code == 0, done.output
    (game,) = json.loads(done.stdout)["games"]
    assert game["rules"] == "classic"
    annotated = runner.invoke(app, ["annotate", "--rules", "seed", str(EXAMPLE)])
    assert annotated.exit_code in (0, 1), annotated.output
    assert "classic" in annotated.output and " seed " not in annotated.output
    made = runner.invoke(app, ["selfplay", "daifugo", "-n", "1", "--players", "3", "-r", "seed", "--rounds", "1"])
    assert made.exit_code == 0 and '[Rules "classic"]' in made.output and "seed" not in made.output.split("\n\n")[0]


def test_the_rulebook_takes_seed_and_describes_each_preset_by_its_source() -> None:
    done = runner.invoke(app, ["rules", "daifugo", "-r", "seed"])
    assert done.exit_code == 0, done.output
    assert "classic: the rules of a 2005 post on 大貧民" in done.output and "uecda:" not in done.output
    assert "PTT" in rulebook.describe("classic") and "tndhms 0.29" in rulebook.describe("uecda")
    assert rulebook.describe("seed") == rulebook.describe("classic")
    everything = runner.invoke(app, ["rules"]).output
    assert "asked for" not in everything and "this project" not in everything
