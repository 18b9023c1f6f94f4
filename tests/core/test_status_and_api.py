"""`kb status ID… [--json]` and the build's machine-readable files, checked against
their documented JSON Schemas (generated from the same view models)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import jsonschema
import pytest
from bs4 import BeautifulSoup

from kb.knowledge.load import load_kb
from kb.knowledge.views import BacklogFile, BriefsFile, PapersFile, PaperView, api_files, overall_status, paper_view
from overlay import BASE
from sitebuild import FIXTURE_DATA, ROOT


def status(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "kb", "status", "--data", str(FIXTURE_DATA), *args], capture_output=True, text=True
    )


def test_status_json_validates_against_the_paper_schema():
    run = status("2505.02922", "--json")
    assert run.returncode == 0, run.stderr
    (record,) = json.loads(run.stdout)
    jsonschema.validate(record, PaperView.model_json_schema())
    assert record["id"] == "retroinfer" and record["known"] and record["status"] == "anchored"
    assert record["first_seen"] == {"date": "2026-09-03", "brief": "inference/2026-09-03-e1", "kind": "increment"}
    assert [a["section"] for a in record["anchors"]] == ["s1-3-vector-storage"]
    assert [c["id"] for c in record["open_claims"]] == ["retroinfer-maturity"]


@pytest.mark.parametrize(
    "ident, status_word",
    [
        ("arXiv:2505.02922v3", "anchored"),
        ("lmcache-v2", "pending"),
        ("2608.01526", "mentioned"),
        ("2612.99999", "unknown"),
    ],
)
def test_status_answers_any_id(ident, status_word):
    run = status(ident, "--json")
    assert run.returncode == (1 if status_word in ("unknown", "mentioned") else 0)  # as grep: no paper file is 1
    (record,) = json.loads(run.stdout)
    jsonschema.validate(record, PaperView.model_json_schema())
    assert record["status"] == status_word


def test_status_text_names_first_sighting_anchor_and_claims():
    run = status("retroinfer", "2612.99999")
    assert run.returncode == 1  # one of the ids is unknown
    assert "first seen: 2026-09-03 in inference/2026-09-03-e1 (increment)" in run.stdout
    assert (
        "anchored: inference § s1-3-vector-storage since 2026-09-04, recorded by inference/2026-09-04-e1" in run.stdout
    )
    assert "open claim: retroinfer-maturity" in run.stdout
    assert "2612.99999: not in the knowledge base" in run.stdout


@pytest.mark.parametrize(
    "ident, hint",
    [
        ("2505.2922", "2505.2922: not in the knowledge base; as an arXiv id: an id from 2015 on has five digits"),
        ("arXiv:2513.02922", "as an arXiv id: '2513' is no year and month, YYMM"),
        ("RetroInfer", "RetroInfer: not in the knowledge base (did you mean 'retroinfer'?)"),  # its name
        ("retroinfr", "retroinfr: not in the knowledge base (did you mean 'retroinfer'?)"),
    ],
)
def test_status_says_why_an_unknown_id_may_be_mistyped(ident, hint):
    run = status("lmcache-v2", ident)
    assert run.returncode == 1
    assert hint in run.stdout
    assert "lmcache-v2: " in run.stdout  # the known one is still answered


def test_status_of_known_ids_exits_0_and_gives_no_hint():
    run = status("retroinfer", "lmcache-v2")
    assert run.returncode == 0, run.stdout
    assert "did you mean" not in run.stdout and "as an arXiv id" not in run.stdout and "kb paper add" not in run.stdout


def test_status_of_an_id_without_a_paper_file_says_how_to_make_one():
    """Only mentioned in text, or not at all: exit 1 (`kb status ID || kb paper add ID` adds it)."""
    run = status("2608.01526", "2612.99999")
    assert run.returncode == 1
    for ident in ("2608.01526", "2612.99999"):
        assert f"; `kb paper add {ident}` makes its file (or `kb new paper {ident}` without arXiv)" in run.stdout


def test_status_on_data_that_does_not_load_exits_2(tmp_path):
    """As grep's error status: `kb status ID || kb paper add ID` adds nothing to broken data."""
    import shutil

    shutil.copytree(FIXTURE_DATA, tmp_path / "data")
    paper = tmp_path / "data" / "papers" / "ssr.yaml"
    paper.write_text(paper.read_text("utf-8") + "colour: blue\n", "utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "kb", "status", "--data", str(tmp_path / "data"), "ssr"], capture_output=True, text=True
    )
    assert run.returncode == 2 and "unknown key 'colour'" in run.stderr and "Traceback" not in run.stderr


def test_api_files_validate_against_their_schemas(sample_kb):
    files = api_files(sample_kb)
    for name, model in (("papers", PapersFile), ("briefs", BriefsFile), ("backlog", BacklogFile)):
        schema = json.loads(files[f"api/schema/{name}.schema.json"])
        assert schema == json.loads(json.dumps(model.model_json_schema()))
        jsonschema.validate(json.loads(files[f"api/{name}.json"]), schema)
    papers = json.loads(files["api/papers.json"])["papers"]
    assert len(papers) == len(sample_kb.papers)
    by_id = {p["id"]: p for p in papers}  # each paper's open claims, as `kb status` reports them
    assert [c["id"] for c in by_id["retroinfer"]["open_claims"]] == ["retroinfer-maturity"]
    for pid in sample_kb.papers:
        alone = json.loads(paper_view(sample_kb, pid).model_dump_json())["open_claims"]
        assert by_id[pid]["open_claims"] == alone, pid
    briefs = {b["key"]: b for b in json.loads(files["api/briefs.json"])["briefs"]}
    seed = briefs["inference/2026-09-03-e1"]
    assert seed["stated"]["net_new"] == 3 and seed["computed"]["net_new"] == 5  # stated and computed side by side
    assert {f["code"] for f in seed["findings"]} >= {"stated/net_new"}
    backlog = json.loads(files["api/backlog.json"])["backlog"]
    assert "rtp-llm-open-source" not in {c["id"] for c in backlog["open_claims"]}  # resolved on 9-4


def test_the_build_writes_the_api_files_and_llms_txt(site, sample_kb):
    """The built site serves the same files, their schemas beside them, and an llms.txt index whose
    links lead to them and to built pages."""
    import posixpath
    import re

    for name in ("papers", "briefs", "backlog"):
        schema = json.loads((site / "api" / "schema" / f"{name}.schema.json").read_text("utf-8"))
        jsonschema.validate(json.loads((site / "api" / f"{name}.json").read_text("utf-8")), schema)
    built = {b["key"] for b in json.loads((site / "api" / "briefs.json").read_text("utf-8"))["briefs"]}
    assert built == set(sample_kb.briefs)
    for kind in ("topic", "paper", "brief", "demo"):  # the data files' schemas, at a stable address
        published = (site / "schema" / f"{kind}.schema.json").read_text("utf-8")
        assert published == (ROOT / "data" / "schema" / f"{kind}.schema.json").read_text("utf-8")
    llms = (site / "llms.txt").read_text("utf-8")
    assert llms.startswith("# ")
    targets = re.findall(r"\]\(([^)]+)\)", llms)
    assert {"api/papers.json", "api/briefs.json", "api/backlog.json"} <= set(targets)
    assert "api/schema/papers.schema.json" in llms
    for target in targets:  # no site_url: every link is site-relative and resolves
        path = site / posixpath.normpath(target)
        assert path.is_file() or (path / "index.html").is_file(), target
    titles = dict((target, title) for title, target in re.findall(r"\[([^]]+)\]\(([^)]+)\)", llms))
    for key in sample_kb.briefs:  # each brief by its page's title
        h1 = BeautifulSoup((site / "briefs" / key / "index.html").read_text("utf-8"), "lxml").select_one("article h1")
        assert h1 is not None and titles[f"briefs/{key}/"] == h1.get_text().rstrip("¶").strip(), key


# --------------------------------------------------------------------------- knowledge-layer pins


def test_explicit_backlink_context_is_the_nearest_text_that_names_the_paper(sample_kb):
    """A paper named in an increment's relation gets the relation's text, not the increment's title
    (TokenWeave in CRISP's relations); a claim's title or points, not its id; every context names the paper."""

    ctx = {(m.place.brief, m.place.anchor): m.context for m in sample_kb.mentions_of("tokenweave")}
    inc5 = ctx[("inference/2026-09-03-e1", "inc-5")]
    assert "TokenWeave" in inc5 and not inc5.startswith("CRISP：")
    claim = {
        m.place.anchor: m.context
        for m in sample_kb.mentions_of("opscale")
        if m.place.brief == "inference/2026-09-03-e1"
    }
    assert claim["claim-4"] == "Cascade / OpScale 的生产部署可行性"
    for pid, paper in sample_kb.papers.items():
        names = [n.lower() for n in (paper.short, paper.arxiv_base, paper.id, paper.display_title) if n]
        for m in sample_kb.mentions_of(pid):
            if m.explicit and m.place.kind == "brief":
                assert any(n in m.context.lower() for n in names), (pid, m.place, m.context)


def test_paper_view_counts_places_like_the_backlinks(sample_kb):
    from kb.knowledge.views import mention_places, paper_view
    from kb.render.paper import backlink_places

    raw_more = False
    for pid, paper in sample_kb.papers.items():
        view = paper_view(sample_kb, pid)
        assert view.mentions == mention_places(sample_kb, pid) == len(backlink_places(sample_kb, paper)), pid
        raw_more |= len(sample_kb.mentions_of(pid)) > view.mentions
    assert raw_more  # the fixture has places naming a paper twice (OpScale in increment 4)


def test_pending_sections_are_each_listed_once(sample_kb):
    from kb.knowledge.backlog import pending_items
    from kb.knowledge.views import backlog_view

    items = {it.paper: it for it in pending_items(sample_kb, "inference")}
    assert items["opscale"].sections == ("s1-2-scheduling",)  # suggested twice in 9-3's increment 4
    for it in items.values():
        assert len(it.sections) == len(set(it.sections)), it
    for pv in backlog_view(sample_kb).pending:
        assert len(pv.sections) == len(set(pv.sections)), pv


def test_overall_status_is_public_and_documented(sample_kb):
    from kb.knowledge import views

    assert views.overall_status.__doc__ and not hasattr(views, "_status")
    assert views.overall_status(sample_kb, "retroinfer") == "anchored"
    assert views.overall_status(sample_kb, "lmcache-v2") == "pending"


def test_a_paper_named_only_by_an_adjacent_item_waits_on_the_backlog(tmp_path):
    """A paper named only by an adjacent prep item is seen (pending, not NET-new, by the one meaning
    of first seen) and put forward for a section: the backlog lists it, with the adjacent item's
    value and sections, as the papers index calls it 待锚入."""
    from kb.knowledge.backlog import pending_items

    data = tmp_path / "data"
    shutil.copytree(BASE, data)
    (data / "papers" / "lmcache-v2.yaml").write_text(
        "id: lmcache-v2\narxiv: 2510.09665\nshort: LMCache v2\ntitle: LMCache v2\n", "utf-8"
    )
    brief = data / "briefs" / "inference" / "2026-09-02-e1.yaml"
    brief.write_text(
        brief.read_text("utf-8")
        + "adjacent:\n  - title: LMCache v2\n    text: 邻接预备。\n    papers: [lmcache-v2]\n"
        + "    origin: 9-2 e1prep\n    sections: [s1-3-kv-cache]\n    value: 3\n",
        "utf-8",
    )
    run = subprocess.run(
        [sys.executable, "-m", "kb", "status", "--data", str(data), "lmcache-v2"], capture_output=True, text=True
    )
    assert run.returncode == 0, run.stderr
    assert "status:  pending anchoring" in run.stdout and "(adjacent)" in run.stdout
    kb = load_kb(data)
    item = next(i for i in pending_items(kb, "inference") if i.paper == "lmcache-v2")
    assert (item.first_kind, item.value, item.sections) == ("adjacent", 3, ("s1-3-kv-cache",))
    assert item.briefs == ("inference/2026-09-02-e1",)
    listed = {i.paper for i in pending_items(kb, "inference")}
    assert listed == {pid for pid in kb.papers if overall_status(kb, pid) in ("net-new", "pending")}


def test_a_topics_backlog_holds_what_its_briefs_put_forward_not_what_they_only_cite(tmp_path):
    """A second topic's brief names RetroInfer (anchored in inference) as an adjacent prep item for
    one of its sections, and SSR only in a claim and in its list of citable ids: its backlog holds
    RetroInfer (not anchored in that topic's living document), never SSR (cited, not put forward);
    the inference topic's backlog is as before."""
    from kb.knowledge.backlog import pending_items

    data = tmp_path / "data"
    shutil.copytree(BASE, data)
    before = pending_items(load_kb(data), "inference")
    (data / "topics" / "serving.yaml").write_text(
        "id: serving\ntitle: 推理服务\ndocument: organized/knowledge/serving.md\npage: serving.md\n"
        "sections:\n  - id: s2-1-slo\n    number: 2.(1)\n    title: SLO 调度\n",
        "utf-8",
    )
    (data / "briefs" / "serving").mkdir()
    (data / "briefs" / "serving" / "2026-09-04-e1.yaml").write_text(
        "topic: serving\ndate: 2026-09-04\nround: E1\ninstance: Tom\n"
        "generated_at: 2026-09-04T22:20:00+08:00\ntimezone: Asia/Shanghai\n"
        "window:\n  start: 2026-09-03T22:20:00+08:00\n  end: 2026-09-04T22:20:00+08:00\n"
        "adjacent:\n  - title: RetroInfer\n    text: 向量检索与服务调度相邻。\n    papers: [retroinfer]\n"
        "    origin: 9-4 e1prep\n    sections: [s2-1-slo]\n    value: 2\n"
        "claims:\n  - id: ssr-serving\n    title: SSR 在服务侧的收益\n    papers: [ssr]\n"
        "citable:\n  - paper: ssr\n",
        "utf-8",
    )
    kb = load_kb(data)
    assert not kb.diagnostics or not [d for d in kb.diagnostics if d.is_error], kb.diagnostics
    serving = pending_items(kb, "serving")
    assert [(i.paper, i.value, i.sections) for i in serving] == [("retroinfer", 2, ("s2-1-slo",))]
    assert pending_items(kb, "inference") == before


def test_a_reader_that_stops_reading_ends_the_command_quietly():
    """`kb status … --json | head -1`: the command stops as cat does (status 141, as a shell reports
    SIGPIPE), with no traceback, once whoever reads its output has gone."""
    ids = ["retroinfer", "lmcache-v2"] * 200  # far more than a pipe holds
    proc = subprocess.Popen(
        [sys.executable, "-m", "kb", "status", "--data", str(FIXTURE_DATA), "--json", *ids],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    assert proc.stdout.read(1) == b"["
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 141
    assert "Traceback" not in err and "BrokenPipeError" not in err, err


def test_status_of_a_claim_id_shows_its_priority_state_and_history():
    run = status("ssr-scope", "rtp-llm-open-source")
    assert run.returncode == 0, run.stderr
    ssr, rtp = run.stdout.split("\n\n")
    assert ssr.startswith("ssr-scope: claim of inference — SSR") and "priority: P1 · open" in ssr
    assert "updated: 2026-09-04 in inference/2026-09-04-e1 (P1)" in ssr
    assert "closed: resolved 2026-09-04" in rtp and "raised:  2026-09-03 in inference/2026-09-03-e1" in rtp
    records = json.loads(status("ssr-scope", "--json").stdout)
    assert [(r["claim"], r["priority"], r["open"], len(r["events"])) for r in records] == [("ssr-scope", "P1", True, 1)]
    assert status("no-such-claim").returncode == 1
