"""`kb new brief` and `kb new paper`: scaffolds that validate and build, in a copy of the sample data."""

from __future__ import annotations

import datetime as dt
import re
import shutil
from pathlib import Path

import pytest

from kb.cli import main
from kb.data import yamlstrict
from kb.data.loader import validate
from kb.data.models import ArxivMeta, Brief, Paper
from kb.data.models.items import Status
from kb.data.paperfile import check, with_meta
from kb.knowledge.backlog import pending_items
from kb.knowledge.load import load_kb
from sitebuild import FIXTURE_DATA, build

ROOT = Path(__file__).resolve().parents[2]
PREV = "inference/2026-09-05-e1"  # the newest brief of the frozen knowledge base
NEXT = "2026-09-06"


@pytest.fixture
def data(tmp_path) -> Path:
    dest = tmp_path / "data"
    shutil.copytree(FIXTURE_DATA, dest)
    return dest


def read(path: Path, model):
    located, diags = yamlstrict.load_text(path.read_text("utf-8"), str(path))
    assert located is not None, diags
    record, diags = validate(model, located)
    assert record is not None, [d.text() for d in diags]
    return record


def new(*args: str) -> int:
    return main(["new", *args])


# --------------------------------------------------------------------------- brief


def test_brief_scaffold_writes_only_what_the_author_decides(data, capsys):
    assert new("brief", "--topic", "inference", "--date", NEXT, "--data", str(data)) == 0
    path = data / "briefs" / "inference" / f"{NEXT}-e1.yaml"
    assert f"wrote {path}" in capsys.readouterr().out
    text = path.read_text("utf-8")
    assert text.startswith("# yaml-language-server: $schema=../../schema/brief.schema.json\n")
    brief = read(path, Brief)
    before = load_kb(FIXTURE_DATA)
    prev = before.briefs[PREV]
    cst = dt.timezone(dt.timedelta(hours=8))
    assert (brief.topic, brief.date, brief.round, brief.instance) == ("inference", dt.date(2026, 9, 6), "E1", "Tom")
    assert brief.window.start == dt.datetime(2026, 9, 5, 22, 20, tzinfo=cst)
    assert brief.window.end == dt.datetime(2026, 9, 6, 22, 20, tzinfo=cst)
    assert brief.generated_at == brief.window.end
    assert (brief.timezone, brief.timezone_abbr) == ("Asia/Shanghai", "CST")
    assert brief.round_name == prev.round_name
    # nothing but the header: no items, no statuses, no figures, no lists the knowledge base computes
    empty = Brief.model_fields
    assert all(
        getattr(brief, k) == (empty[k].default if empty[k].default_factory is None else empty[k].default_factory())
        for k in (
            "sources",
            "increments",
            "adjacent",
            "claims",
            "claim_updates",
            "candidates",
            "carried",
            "citable",
            "stated",
            "signature",
            "character",
        )
    )
    # the pending items and open claims are there as comments, for the author to act on
    pending = pending_items(before, "inference")
    for item in pending:
        assert f"#   {item.paper} " in text
    for state in before.claims.open_claims():  # with the priority they have now, and their history
        line = next(x for x in text.splitlines() if x.startswith(f"#   {state.claim.id} "))
        assert f" {state.priority or '--'}  {state.claim.title}" in line
    assert "raised 2026-09-03 · updated 2026-09-04 (P1)" in text  # ssr-scope, re-prioritised on 9-4
    # each fact is asked for once: no example repeats the section (where/suggested) or the status
    example = text.split("# increments:", 1)[1].split("increments: []", 1)[0]
    assert example.count("[s1-1-engines]") == 1 and example.count("status") == 1
    assert not re.search(r"\d+\s*(天|days?\b)|经手", text)  # no computed text (ages, counts)
    for example in ("# increments:", "# adjacent:", "# claims:", "# claim_updates:", "#   - sections: [s1-1-engines]"):
        assert example in text


def test_scaffolding_changes_no_computed_figure(data):
    """The scaffold's file leaves every figure of every earlier brief as it was, and its own
    carried-over items are exactly what was pending after the previous brief."""
    before = load_kb(data)
    assert new("brief", "--topic", "inference", "--date", NEXT, "--data", str(data)) == 0
    assert new("brief", "--topic", "inference", "--date", "2026-09-07", "--data", str(data)) == 0
    after = load_kb(data, strict=False)
    assert after.errors == [] and after.warnings == before.warnings
    for key in before.briefs:
        b, a = before.figures[key], after.figures[key]
        assert (a.net_new_ids, [c.paper for c in a.carried], a.statuses) == (
            b.net_new_ids,
            [c.paper for c in b.carried],
            b.statuses,
        )
    new_key = f"inference/{NEXT}-e1"
    pending_before = {it.paper for it in pending_items(before, "inference")}
    assert {c.paper for c in after.figures[new_key].carried} == pending_before
    assert after.figures[new_key].net_new_ids == []
    assert [it.paper for it in pending_items(after, "inference")] and all(
        it.first_seen == before.history.first_seen(it.paper).date for it in pending_items(after, "inference")
    )


def test_brief_scaffold_names_every_status_an_increment_takes(data):
    """An increment the living document anchored the same day is `status: anchored` with
    `anchored_in:`; the scaffold's example said "net-new or pending" only."""
    assert new("brief", "--topic", "inference", "--date", NEXT, "--data", str(data)) == 0
    text = (data / "briefs" / "inference" / f"{NEXT}-e1.yaml").read_text("utf-8")
    (line,) = [x for x in text.splitlines() if x.startswith("#     status: ")]
    assert all(s.value in line for s in Status), line
    assert "anchored_in:" in line, line


def test_brief_refuses_to_overwrite_without_force(data, capsys):
    args = ("brief", "--topic", "inference", "--date", NEXT, "--data", str(data))
    assert new(*args) == 0
    path = data / "briefs" / "inference" / f"{NEXT}-e1.yaml"
    path.write_text(path.read_text("utf-8") + "# my edits\n", "utf-8")
    capsys.readouterr()
    assert new(*args) == 1
    assert "already exists (use --force" in capsys.readouterr().err
    assert path.read_text("utf-8").endswith("# my edits\n")
    assert new(*args, "--force") == 0
    assert not path.read_text("utf-8").endswith("# my edits\n")
    # an existing brief of the sample data is protected the same way
    seed = data / "briefs" / "inference" / "2026-09-05-e1.yaml"
    before = seed.read_bytes()
    assert new("brief", "--topic", "inference", "--date", "2026-09-05", "--data", str(data)) == 1
    assert seed.read_bytes() == before


def test_brief_round_and_instance(data):
    assert (
        new(
            "brief",
            "--topic",
            "inference",
            "--date",
            "2026-09-03",
            "--round",
            "E2",
            "--instance",
            "Ann",
            "--data",
            str(data),
        )
        == 0
    )
    brief = read(data / "briefs" / "inference" / "2026-09-03-e2.yaml", Brief)
    assert (brief.round, brief.instance) == ("E2", "Ann")
    assert brief.round_name is None and brief.cron is None  # only copied from a brief of the same round
    assert brief.window.start.date() == dt.date(2026, 9, 2) and brief.window.end.date() == dt.date(2026, 9, 3)


def test_brief_round_as_the_file_name_writes_it(data):
    """e2 (the file name's spelling) is the round E2."""
    assert new("brief", "--topic", "inference", "--date", "2026-09-04", "--round", "e2", "--data", str(data)) == 0
    assert read(data / "briefs" / "inference" / "2026-09-04-e2.yaml", Brief).round == "E2"


@pytest.mark.parametrize(
    "args, message",
    [
        (("--topic", "nosuch", "--date", "2026-09-04"), "unknown topic 'nosuch'; expected one of: inference"),
        (("--topic", "inferense", "--date", "2026-09-04"), "unknown topic 'inferense' (did you mean 'inference'?)"),
        (
            ("--topic", "inference", "--date", "2026-09-04", "--round", "1e"),
            "bad round '1E': expected capital letters and digits, a letter first",
        ),
    ],
)
def test_brief_user_errors(data, capsys, args, message):
    assert new("brief", *args, "--data", str(data)) == 1
    assert message in capsys.readouterr().err


def test_brief_bad_date_is_a_usage_error(data, capsys):
    with pytest.raises(SystemExit) as exc:
        new("brief", "--topic", "inference", "--date", "2026-9-4", "--data", str(data))
    assert exc.value.code == 2
    assert "expected a date YYYY-MM-DD" in capsys.readouterr().err


def test_brief_date_of_the_right_form_but_no_day_says_why(data, capsys):
    """`--date 2026-09-31` is written YYYY-MM-DD: what is wrong is the day, as kb validate says."""
    with pytest.raises(SystemExit) as exc:
        new("brief", "--topic", "inference", "--date", "2026-09-31", "--data", str(data))
    assert exc.value.code == 2
    assert "argument --date: expected a date, got '2026-09-31': 2026-09 has 30 days" in capsys.readouterr().err


OTHER_TOPIC = """\
id: other
title: Other
document: organized/knowledge/other.md
page: inference.md
sections:
  - id: o1
    number: "1"
    title: One
"""

OTHER_BRIEF = """\
topic: other
date: 2026-03-07
round: E1
instance: Ann
generated_at: 2026-03-07T22:00:00-05:00
timezone: America/New_York
timezone_abbr: EST
window:
  start: 2026-03-06T22:00:00-05:00
  end: 2026-03-07T22:00:00-05:00
"""


def test_brief_window_keeps_wall_time_across_dst_and_first_brief_needs_instance(data, capsys):
    (data / "topics" / "other.yaml").write_text(OTHER_TOPIC, "utf-8")
    assert new("brief", "--topic", "other", "--date", "2026-03-01", "--data", str(data)) == 1
    assert "give --instance" in capsys.readouterr().err
    assert new("brief", "--topic", "other", "--date", "2026-03-01", "--instance", "Ann", "--data", str(data)) == 0
    first = read(data / "briefs" / "other" / "2026-03-01-e1.yaml", Brief)
    assert first.timezone == "UTC" and first.window.end == dt.datetime(2026, 3, 1, tzinfo=dt.UTC)
    assert first.candidates == [] and first.increments == []
    (data / "briefs" / "other" / "2026-03-07-e1.yaml").write_text(OTHER_BRIEF, "utf-8")
    assert new("brief", "--topic", "other", "--date", "2026-03-08", "--data", str(data)) == 0
    brief = read(data / "briefs" / "other" / "2026-03-08-e1.yaml", Brief)
    assert brief.window.start.isoformat() == "2026-03-07T22:00:00-05:00"
    assert brief.window.end.isoformat() == "2026-03-08T22:00:00-04:00"  # New York moved to daylight time
    assert brief.timezone == "America/New_York" and brief.timezone_abbr == "EDT"
    kb = load_kb(data)
    assert not kb.errors


# --------------------------------------------------------------------------- paper


@pytest.mark.parametrize(
    "ident, extra, stem, arxiv",
    [
        ("2609.09999", (), "arxiv-2609-09999", "2609.09999"),
        ("arXiv:2609.09999v2", (), "arxiv-2609-09999", "2609.09999v2"),
        ("hep-th/9901001", (), "arxiv-hep-th-9901001", "hep-th/9901001"),
        ("2609.09999", ("--id", "fastthing", "--short", "FastThing"), "fastthing", "2609.09999"),
        ("my-system", (), "my-system", None),
    ],
)
def test_paper_scaffold(data, ident, extra, stem, arxiv):
    assert new("paper", ident, *extra, "--data", str(data)) == 0
    path = data / "papers" / f"{stem}.yaml"
    paper = read(path, Paper)
    assert paper.id == stem and paper.arxiv == arxiv
    if "--short" in extra:
        assert paper.short == "FastThing"
    text = path.read_text("utf-8")
    assert "kb paper add" in text
    assert text.startswith("# yaml-language-server: $schema=../schema/paper.schema.json\n")
    for key in ("# title:", "# authors:", "# venue:", "# credibility:", "# category:", "# key_numbers:", "# notes:"):
        assert key in text
    assert "# anchors:" not in text and "`status: anchored`" in text  # anchoring is recorded by briefs
    assert not any(line.startswith("arxiv_meta:") for line in text.splitlines())  # owned by `kb paper add`


def test_paper_scaffold_takes_kb_paper_add_metadata(data):
    """`kb paper add` later appends the arxiv_meta block by text surgery: the result still validates."""
    assert new("paper", "2609.09999", "--data", str(data)) == 0
    path = data / "papers" / "arxiv-2609-09999.yaml"
    text = with_meta(path.read_text("utf-8"), ArxivMeta(title="A Fast Thing", authors=["A. Author"]))
    paper = check(text, path)
    assert paper.arxiv_meta.title == "A Fast Thing" and paper.display_title == "A Fast Thing"


def test_paper_refusals(data, capsys):
    assert new("paper", "2609.01925", "--data", str(data)) == 1  # CRISP's id
    assert "already has the paper file" in capsys.readouterr().err
    assert new("paper", "arXiv:2609.01925v3", "--id", "crisp-2", "--force", "--data", str(data)) == 1
    assert "already has the paper file" in capsys.readouterr().err
    before = (data / "papers" / "ssr.yaml").read_bytes()
    assert new("paper", "ssr", "--data", str(data)) == 1
    assert "already exists (use --force" in capsys.readouterr().err
    assert (data / "papers" / "ssr.yaml").read_bytes() == before
    # a new paper given an id another paper's file holds: said so, and --force does not replace it
    for force in ((), ("--force",)):
        assert new("paper", "2609.09999", "--id", "ssr", *force, "--data", str(data)) == 1
        err = capsys.readouterr().err
        taken = f"the id 'ssr' is taken: {data / 'papers' / 'ssr.yaml'} is the paper file of arXiv 2608.20359"
        assert taken in err, err
        assert "choose another --id" in err and "--force" not in err, err
        assert (data / "papers" / "ssr.yaml").read_bytes() == before
    for bad in ("Not A Slug", "x_y"):
        assert new("paper", bad, "--data", str(data)) == 1
        assert "expected an arXiv id" in capsys.readouterr().err
    for bad, why in (("arXiv:9999.99999", "'9999' is no year and month"), ("2505.2922", "five digits after the dot")):
        assert new("paper", bad, "--data", str(data)) == 1
        assert f"{bad!r} is no arXiv id: " in (err := capsys.readouterr().err) and why in err, err
    assert new("paper", "2609.09999", "--id", "Bad_Id", "--data", str(data)) == 1
    assert "bad --id 'Bad_Id': expected lower-case letters, digits and `-`" in capsys.readouterr().err


# --------------------------------------------------------------------------- validate and build


@pytest.mark.slow
def test_scaffolds_validate_and_build(data, tmp_path, capsys):
    assert new("brief", "--topic", "inference", "--date", NEXT, "--data", str(data)) == 0
    assert new("paper", "2609.09999", "--data", str(data)) == 0
    assert new("paper", "my-system", "--short", "My <System>", "--data", str(data)) == 0
    capsys.readouterr()
    assert main(["validate", "--data", str(data)]) == 0
    assert "0 error(s)" in capsys.readouterr().out
    site = tmp_path / "site"
    run = build(site, data=data)
    assert run.returncode == 0, run.stdout + run.stderr
    page = (site / "briefs" / "inference" / f"{NEXT}-e1" / "index.html").read_text("utf-8")
    assert NEXT in page
    assert (site / "papers" / "arxiv-2609-09999" / "index.html").is_file()
    assert "My &lt;System&gt;" in (site / "papers" / "my-system" / "index.html").read_text("utf-8")
