"""``pitboss disputes`` and its atlas: every class of disagreement between settings within a
stated scope, each with its shortest witness, and the atlas shipped ahead of time.

- the classes, precisely (:mod:`referee.jobs.disputes.classes`): legality keyed by each
  side's verdict, effects by the component that parts, pairs of options by what each
  option alone predicts;
- completeness: a brute force (every record of the scope, no position searched once)
  finds the very classes, with the same shortest witnesses, as the search that ships;
- the atlas is current (a sample regenerated; all of it in the slow run) and every
  witness it holds is replayed by validate with exactly its verdicts under each setting;
- the command: text, JSON, HTML with replay pages, scope parts, a time limit, exit codes.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli import app
from referee.jobs import registry
from referee.jobs.disputes import atlas
from referee.jobs.disputes import classes as k
from referee.jobs.disputes.classes import Outcome, Verdict, classify_pair, classify_two, kind_of
from referee.jobs.disputes import compare
from referee.jobs.disputes.compare import Comparison, disputes, record_verdict, two
from referee.jobs.disputes.search import PAIR, TWO, search
from referee.jobs.validate import validate_text

CARAVAN = registry.game("caravan")
DAIFUGO = registry.game("daifugo")


def _run(*args: str) -> object:
    return CliRunner().invoke(app, list(args), catch_exceptions=False)


# ------------------------------------------------------------------ the classes


def test_a_legality_class_is_keyed_by_each_sides_verdict() -> None:
    legal, broken = Outcome(Verdict(k.LEGAL), 1, {"x": 0}), Outcome(Verdict(k.ILLEGAL, "r.one"))
    assert classify_two([None, None], [legal, broken]) == {"legality:legal/r.one"}
    assert classify_two([None, None], [broken, legal], start=True) == {"start:r.one/legal"}
    counted = Outcome(Verdict(k.REJECTED, "r.one"), 1, {"x": 0})
    assert classify_two([None, None], [broken, counted]) == {"legality:r.one/rejected r.one"}
    # Both stop, for different rules: invalid under both at the same move, no dispute.
    assert classify_two([None, None], [broken, Outcome(Verdict(k.ILLEGAL, "r.two"))]) == set()


def test_an_effect_class_is_a_component_that_parts_where_it_agreed() -> None:
    before = [{"turn": 0, "suit": "S"}, {"turn": 0, "suit": "S"}]
    after = [Outcome(Verdict(k.LEGAL), 1, {"turn": 1, "suit": "S"}), Outcome(Verdict(k.LEGAL), 1, {"turn": 0, "suit": "S"})]
    assert classify_two(before, after) == {"effect:turn"}
    apart = [{"turn": 1, "suit": "S"}, {"turn": 0, "suit": "S"}]
    assert classify_two(apart, after) == set()  # already apart there
    assert kind_of("effect:turn") == kind_of("start:turn") == "effect"
    assert kind_of("start:legal/x") == kind_of("legality:x/legal") == "legality"


def test_a_pair_of_options_interacts_where_both_rule_otherwise_than_each_alone() -> None:
    yes, no = Verdict(k.LEGAL), Verdict(k.ILLEGAL, "r")
    # The one option allows, the other changes nothing: both together are predicted to allow.
    o = lambda v: Outcome(v, 1, {"c": 0})  # noqa: E731
    assert classify_pair([None] * 4, [o(no), o(yes), o(no), o(yes)]) == set()
    assert classify_pair([None] * 4, [o(no), o(yes), o(no), Outcome(no)]) == {"legality:legal/r"}
    # Neither alone changes anything, together they do.
    assert classify_pair([None] * 4, [o(yes), o(yes), o(yes), Outcome(no)]) == {"legality:legal/r"}
    # An effect one option alone has, undone by the other.
    r = lambda c: Outcome(yes, 1, {"c": c})  # noqa: E731
    assert classify_pair([{"c": 0}] * 4, [r(0), r(1), r(0), r(0)]) == {"effect:c"}
    assert classify_pair([{"c": 0}] * 4, [r(0), r(1), r(0), r(1)]) == set()


# ------------------------------------------------------------------ completeness by brute force


def _classes(result) -> dict[str, int | None]:
    return {k: (f.witness.length if f.witness else None) for k, f in result.classes.items()}


def _shipped(game, labels) -> dict:
    found = atlas.comparison(game, labels)
    assert found is not None, f"the shipped atlas has no comparison {labels}"
    return found


def test_caravan_brute_force_finds_the_atlas_classes_of_its_length() -> None:
    """Every record of the lane part of Caravan's scope of at most 9 moves, none skipped as
    a position met before: the classes it shows, and their shortest witnesses, are the
    atlas's (those whose witness or first showing lies within 9 moves)."""
    part = compare.part_of(CARAVAN)
    settings = (CARAVAN.settings.get().parse("holotape"), CARAVAN.settings.get().parse("fnv"))
    brute = search(CARAVAN.engine, part.scope(settings), TWO, 9, follow=0, dedup=False)
    shipped = _shipped(CARAVAN, ["holotape", "fnv"])
    within = {c["id"]: c["length"] for c in shipped["classes"] if c["scope"] == "lane A/D"
              and c["length"] is not None and c["length"] <= 9}
    found = {k: n for k, n in _classes(brute).items() if n is not None}
    assert found == within
    assert sum(brute.searched) > 20_000  # every record, not positions once


@pytest.mark.slow
def test_caravan_brute_force_of_the_whole_lane_part() -> None:
    """As above, every record of the lane part to its full length (10 moves)."""
    part = compare.part_of(CARAVAN)
    settings = (CARAVAN.settings.get().parse("holotape"), CARAVAN.settings.get().parse("fnv"))
    brute = search(CARAVAN.engine, part.scope(settings), TWO, part.DEPTH, follow=0, dedup=False)
    shipped = _shipped(CARAVAN, ["holotape", "fnv"])
    within = {c["id"]: c["length"] for c in shipped["classes"] if c["scope"] == "lane A/D"
              and c["length"] is not None and c["length"] <= part.DEPTH}
    assert {k: n for k, n in _classes(brute).items() if n is not None} == within


def test_daifugo_brute_force_finds_the_atlas_classes_of_its_length() -> None:
    """Every record of the deals part of Daifugo's scope of at most 3 moves, for the preset
    against suit-lock and against spade3: the same classes and shortest witnesses."""
    part = compare.part_of(DAIFUGO)
    for other in ("classic +suit-lock", "classic +spade3"):
        c = two(DAIFUGO, "classic", other)
        brute = search(DAIFUGO.engine, part.DealScope(c.settings), TWO, 3, follow=0, dedup=False)
        shipped = _shipped(DAIFUGO, c.labels)
        within = {k["id"]: k["length"] for k in shipped["classes"] if k["scope"] == "deals"
                  and k["length"] is not None and k["length"] <= 3}
        assert {k: n for k, n in _classes(brute).items() if n is not None} == within, other


# ------------------------------------------------------------------ the atlas is current


def _same(fresh: dict, shipped: dict) -> None:
    keep = ("id", "kind", "rules", "move", "witness", "length", "verdicts", "verified", "points", "scope")
    assert fresh["settings"] == shipped["settings"]
    assert [{k: c[k] for k in keep} for c in fresh["classes"]] == [{k: c[k] for k in keep} for c in shipped["classes"]]
    assert fresh["complete"] and shipped["complete"]


@pytest.mark.parametrize("labels", [("classic", "classic +eight-cut"), ("classic", "classic exchange=choice")])
def test_a_sample_of_the_daifugo_atlas_regenerates_as_shipped(labels) -> None:
    entry = next(e for e in atlas.entries(DAIFUGO) if e.labels == labels)
    fresh = atlas.item(entry, disputes(entry.comparison))
    _same(json.loads(json.dumps(fresh)), _shipped(DAIFUGO, list(labels)))


@pytest.mark.slow
@pytest.mark.parametrize("game", ["caravan", "daifugo"])
def test_the_whole_atlas_regenerates_as_shipped(game: str) -> None:
    kind = registry.game(game)
    for entry, found in atlas.build(kind):
        _same(json.loads(json.dumps(atlas.item(entry, found))), _shipped(kind, list(entry.labels)))


def test_the_atlas_holds_every_comparison_it_lists() -> None:
    for game in (CARAVAN, DAIFUGO):
        shipped = atlas.shipped(game)
        assert shipped is not None
        assert [c["settings"] for c in shipped["comparisons"]] == [list(e.labels) for e in atlas.entries(game)]
    groups = [c["group"] for c in atlas.shipped(DAIFUGO)["comparisons"]]
    assert (groups.count("options"), groups.count("pairs of options"), groups.count("presets")) == (14, 91, 1)


# ------------------------------------------------------------------ every witness replays


def _witnesses() -> list[tuple[str, list[str], bool, str, dict]]:
    out = []
    for game in (CARAVAN, DAIFUGO):
        for doc in atlas.shipped(game)["comparisons"]:
            for c in doc["classes"]:
                if c["witness"]:
                    out.append((game.name, doc["settings"], doc["pair"], c["id"], c))
    return out


WITNESSES = _witnesses()


def test_every_witness_of_the_atlas_replays_with_its_verdicts_under_each_setting() -> None:
    """Each witness record is validated under every setting of its comparison (as
    ``pitboss validate --rules SETTING`` would), and gets exactly the verdicts the atlas
    gives: valid, or the rule and the move where it fails."""
    classes = sum(len(doc["classes"]) for game in (CARAVAN, DAIFUGO) for doc in atlas.shipped(game)["comparisons"])
    assert len(WITNESSES) == classes > 40  # every class of the atlas has its witness
    wrong = []
    for game_name, labels, pair, key, c in WITNESSES:
        game = registry.game(game_name)
        ply = None if c["length"] == 0 else c["length"]
        for label in labels:
            got = record_verdict(game, c["witness"], game.settings.get().parse(label), ply)
            want = c["verdicts"][label]
            if got != want:
                wrong.append((labels, key, label, got, want))
        assert c["verified"], (labels, key)
    assert wrong == []


def test_every_position_of_the_atlas_is_a_start_position_validate_reads() -> None:
    """Where each class shows first is written as a start position of the game's notation
    (the record that leads there, played out): validate reads it, valid under the first
    setting compared."""
    bad = []
    for game in (CARAVAN, DAIFUGO):
        for doc in atlas.shipped(game)["comparisons"]:
            setting = game.settings.get().parse(doc["settings"][0])
            for c in doc["classes"]:
                report = validate_text(c["position"], "<position>", {game.name: setting})[0]
                if report.errors:
                    bad.append((doc["settings"], c["id"], report.errors[0].rule, report.errors[0].message))
    assert bad == []


def test_the_caravan_atlas_shows_every_point_where_the_rule_sets_differ() -> None:
    """Each point of the rule sets' differences is a class with a witness, or decides no
    move within the scope (both players running out at once: after a move only the mover's
    cards change)."""
    shipped = _shipped(CARAVAN, ["holotape", "fnv"])
    points = {p for c in shipped["classes"] for p in c["points"] if c["witness"]}
    part = compare.part_of(CARAVAN)
    assert set(part.POINTS) - points == {"both players out of cards"}
    lengths = {c["id"]: c["length"] for c in shipped["classes"]}
    assert lengths["legality:legal/caravan.opening.order"] == 1
    assert lengths["legality:legal/caravan.number.max-cards"] == 19


# ------------------------------------------------------------------ the command


def test_the_command_compares_two_settings_as_json() -> None:
    done = _run("disputes", "caravan", "holotape", "fnv", "--json", "--scope", "lane A/D", "--depth", "8")
    assert done.exit_code == 1
    doc = json.loads(done.output)
    assert doc["game"] == "caravan" and doc["settings"] == ["holotape", "fnv"] and doc["complete"] is True
    ids = {c["id"] for c in doc["classes"]}
    assert "legality:legal/caravan.queen.last" in ids and "legality:legal/caravan.opening.order" in ids
    for c in doc["classes"]:
        assert set(c) >= {"id", "kind", "rules", "position", "move", "witness", "verdicts"}
        assert set(c["rules"]) == {"holotape", "fnv"}


def test_the_command_writes_text_and_html_with_replay_pages(tmp_path: Path) -> None:
    page = tmp_path / "d.html"
    done = _run("disputes", "daifugo", "classic", "classic +spade3", "--scope", "deals", "--depth", "2", "--html", str(page))
    assert done.exit_code == 1
    assert "legality:daifugo.play.lone-joker/legal" in done.output
    html = page.read_text()
    replays = list((tmp_path / "d-replays").glob("*.html"))
    assert replays and all(f"d-replays/{p.name}" in html for p in replays)


def test_the_command_says_what_is_wrong() -> None:
    assert _run("disputes", "chess", "a", "b").exit_code == 2
    assert _run("disputes", "caravan", "holotape").exit_code == 2
    assert _run("disputes", "caravan", "holotape", "holotape").exit_code == 2
    assert _run("disputes", "caravan", "holotape", "fnv", "--scope", "nowhere").exit_code == 2
    done = _run("disputes", "daifugo", "classic", "classic +eight-cut", "--timeout", "0")
    assert done.exit_code == 2 and "not complete" in done.output


def test_the_command_without_settings_prints_the_shipped_atlas() -> None:
    done = _run("disputes", "caravan", "--brief")
    assert done.exit_code == 1 and "legality:legal/caravan.queen.last" in done.output


def test_settings_that_agree_within_the_scope() -> None:
    c = Comparison(DAIFUGO, (DAIFUGO.settings.get().parse("classic"), DAIFUGO.settings.get().parse("classic")))
    assert PAIR is not TWO and disputes(c, depth=1).classes == []


def test_the_rulebook_prints_the_atlas_one_line_per_comparison() -> None:
    result = CliRunner().invoke(app, ["rules", "daifugo", "--disputes"])
    assert result.exit_code == 0, result.output
    tail = result.output[result.output.index("Daifugo: where the settings disagree"):]
    lines = [x.strip() for x in tail.splitlines() if " / " in x]
    assert len(lines) == len(atlas.shipped(DAIFUGO)["comparisons"]) == 106
    assert "classic / classic +spade3: legality:daifugo.play.lone-joker/legal (2 moves)" in lines
    assert "Daifugo: where the settings disagree" not in CliRunner().invoke(app, ["rules", "daifugo"]).output


def test_the_html_rulebook_links_each_witness_to_its_replay_page(tmp_path: Path) -> None:
    target = tmp_path / "rules.html"
    result = CliRunner().invoke(app, ["rules", "caravan", "--disputes", "--html", str(target)])
    assert result.exit_code == 0, result.output
    page = target.read_text(encoding="utf-8")
    assert 'id="caravan-disputes"' in page
    links = sorted(set(re.findall(r'href="(rules-replays/[0-9a-f]+\.html)"', page)))
    witnesses = [c for c in atlas.shipped(CARAVAN)["comparisons"][0]["classes"] if c["witness"]]
    assert len(links) == len(witnesses) == 12
    replays = " ".join((tmp_path / link).read_text(encoding="utf-8") for link in links)
    for c in witnesses:  # each replay page is titled with its comparison and class
        assert f"holotape / fnv: {c['id']}" in replays
