"""`kb new brief` and `kb new paper`: scaffolds that validate and build, in a copy of the sample data."""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

import pytest

from kb.data import yamlstrict
from kb.knowledge.backlog import pending_items
from kb.cli import main
from kb.knowledge.index import load_kb
from kb.data.loader import validate
from kb.data.models import ArxivMeta, Brief, Paper, Status
from kb.data.paperfile import check, with_meta

from sitebuild import FIXTURE_DATA, build

ROOT = Path(__file__).resolve().parents[2]
PREV = "inference/2026-09-03-e1"


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


def test_brief_scaffold_carries_window_baseline_and_backlog(data, capsys):
    assert new("brief", "--topic", "inference", "--date", "2026-09-04", "--data", str(data)) == 0
    path = data / "briefs" / "inference" / "2026-09-04-e1.yaml"
    assert f"wrote {path}" in capsys.readouterr().out
    brief = read(path, Brief)
    kb = load_kb(FIXTURE_DATA)
    prev = kb.briefs[PREV]
    cst = dt.timezone(dt.timedelta(hours=8))
    assert (brief.topic, brief.date, brief.round, brief.instance) == ("inference", dt.date(2026, 9, 4), "E1", "Tom")
    assert brief.window.start == dt.datetime(2026, 9, 3, 22, 20, tzinfo=cst)
    assert brief.window.end == dt.datetime(2026, 9, 4, 22, 20, tzinfo=cst)
    assert brief.window.end.utcoffset() == dt.timedelta(hours=8)
    assert brief.generated_at == brief.window.end
    assert (brief.timezone, brief.timezone_abbr) == ("Asia/Shanghai", "CST")
    assert brief.baseline == prev.baseline
    assert brief.round_name == prev.round_name and brief.cron == prev.cron
    assert brief.increments == [] and brief.adjacent == [] and brief.claims == [] and brief.sources == []
    pending = pending_items(kb, "inference")
    assert [(c.paper, c.status) for c in brief.candidates] == [(p.paper, p.status) for p in pending]
    assert len(brief.candidates) == 17
    for cand, item in zip(brief.candidates, pending):
        assert item.first_brief in cand.note and item.first_seen.isoformat() in cand.note
    text = path.read_text("utf-8")
    for example in ("# increments:", "# adjacent:", "# claims:", "#   - sections: [s1-1-engines]"):
        assert example in text


def test_brief_refuses_to_overwrite_without_force(data, capsys):
    args = ("brief", "--topic", "inference", "--date", "2026-09-04", "--data", str(data))
    assert new(*args) == 0
    path = data / "briefs" / "inference" / "2026-09-04-e1.yaml"
    path.write_text(path.read_text("utf-8") + "# my edits\n", "utf-8")
    capsys.readouterr()
    assert new(*args) == 1
    assert "already exists (use --force" in capsys.readouterr().err
    assert path.read_text("utf-8").endswith("# my edits\n")
    assert new(*args, "--force") == 0
    assert not path.read_text("utf-8").endswith("# my edits\n")
    # an existing brief of the sample data is protected the same way
    seed = data / "briefs" / "inference" / "2026-09-03-e1.yaml"
    before = seed.read_bytes()
    assert new("brief", "--topic", "inference", "--date", "2026-09-03", "--data", str(data)) == 1
    assert seed.read_bytes() == before


def test_brief_round_and_instance(data):
    assert new("brief", "--topic", "inference", "--date", "2026-09-03", "--round", "E2",
               "--instance", "Ann", "--data", str(data)) == 0
    brief = read(data / "briefs" / "inference" / "2026-09-03-e2.yaml", Brief)
    assert (brief.round, brief.instance) == ("E2", "Ann")
    assert brief.round_name is None and brief.cron is None  # only copied from a brief of the same round
    assert brief.window.start.date() == dt.date(2026, 9, 2) and brief.window.end.date() == dt.date(2026, 9, 3)


@pytest.mark.parametrize("args, message", [
    (("--topic", "nosuch", "--date", "2026-09-04"), "unknown topic 'nosuch'"),
    (("--topic", "inference", "--date", "2026-09-04", "--round", "e1"), "bad round"),
])
def test_brief_user_errors(data, capsys, args, message):
    assert new("brief", *args, "--data", str(data)) == 1
    assert message in capsys.readouterr().err


def test_brief_bad_date_is_a_usage_error(data, capsys):
    with pytest.raises(SystemExit) as exc:
        new("brief", "--topic", "inference", "--date", "2026-9-4", "--data", str(data))
    assert exc.value.code == 2
    assert "expected a date YYYY-MM-DD" in capsys.readouterr().err


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
    assert first.timezone == "UTC" and first.window.end == dt.datetime(2026, 3, 1, tzinfo=dt.timezone.utc)
    assert first.candidates == [] and first.baseline is None
    (data / "briefs" / "other" / "2026-03-07-e1.yaml").write_text(OTHER_BRIEF, "utf-8")
    assert new("brief", "--topic", "other", "--date", "2026-03-08", "--data", str(data)) == 0
    brief = read(data / "briefs" / "other" / "2026-03-08-e1.yaml", Brief)
    assert brief.window.start.isoformat() == "2026-03-07T22:00:00-05:00"
    assert brief.window.end.isoformat() == "2026-03-08T22:00:00-04:00"  # New York moved to daylight time
    assert brief.timezone == "America/New_York" and brief.timezone_abbr == "EDT"
    kb = load_kb(data)
    assert not kb.errors


def test_brief_candidate_anchored_before_the_new_date_is_marked_anchored(data):
    """An item anchored after the latest brief but before the new date must not go backwards."""
    path = data / "papers" / "ssr.yaml"
    text = path.read_text("utf-8").replace("anchors: []", "anchors:\n  - {topic: inference, section: s1-1-spec-decoding, since: 2026-09-05}")
    path.write_text(text, "utf-8")
    assert new("brief", "--topic", "inference", "--date", "2026-09-06", "--data", str(data)) == 0
    brief = read(data / "briefs" / "inference" / "2026-09-06-e1.yaml", Brief)
    ssr = next(c for c in brief.candidates if c.paper == "ssr")
    assert ssr.status is Status.anchored and "2026-09-05" in ssr.note
    assert not load_kb(data).errors


# --------------------------------------------------------------------------- paper


@pytest.mark.parametrize("ident, extra, stem, arxiv", [
    ("2609.09999", (), "arxiv-2609-09999", "2609.09999"),
    ("arXiv:2609.09999v2", (), "arxiv-2609-09999", "2609.09999v2"),
    ("hep-th/9901001", (), "arxiv-hep-th-9901001", "hep-th/9901001"),
    ("2609.09999", ("--id", "fastthing", "--short", "FastThing"), "fastthing", "2609.09999"),
    ("my-system", (), "my-system", None),
])
def test_paper_scaffold(data, ident, extra, stem, arxiv):
    assert new("paper", ident, *extra, "--data", str(data)) == 0
    path = data / "papers" / f"{stem}.yaml"
    paper = read(path, Paper)
    assert paper.id == stem and paper.arxiv == arxiv
    if "--short" in extra:
        assert paper.short == "FastThing"
    text = path.read_text("utf-8")
    assert "kb paper add" in text
    for key in ("# title:", "# authors:", "# venue:", "# credibility:", "# category:", "# anchors:", "# key_numbers:", "# notes:"):
        assert key in text
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
    for bad in ("Not A Slug", "arXiv:9999.99999", "x_y"):
        assert new("paper", bad, "--data", str(data)) == 1
        assert "expected an arXiv id" in capsys.readouterr().err
    assert new("paper", "2609.09999", "--id", "Bad_Id", "--data", str(data)) == 1
    assert "bad --id" in capsys.readouterr().err


# --------------------------------------------------------------------------- validate and build


@pytest.mark.slow
def test_scaffolds_validate_and_build(data, tmp_path, capsys):
    assert new("brief", "--topic", "inference", "--date", "2026-09-04", "--data", str(data)) == 0
    assert new("paper", "2609.09999", "--data", str(data)) == 0
    assert new("paper", "my-system", "--short", "My <System>", "--data", str(data)) == 0
    capsys.readouterr()
    assert main(["validate", "--data", str(data)]) == 0
    assert "0 error(s)" in capsys.readouterr().out
    site = tmp_path / "site"
    run = build(site, data=data)
    assert run.returncode == 0, run.stdout + run.stderr
    page = (site / "briefs" / "inference" / "2026-09-04-e1" / "index.html").read_text("utf-8")
    assert "2026-09-04" in page and "候选" in page
    assert (site / "papers" / "arxiv-2609-09999" / "index.html").is_file()
    assert "My &lt;System&gt;" in (site / "papers" / "my-system" / "index.html").read_text("utf-8")
