"""`kb status ID… [--json]` and the build's machine-readable files, checked against
their documented JSON Schemas (generated from the same view models)."""

from __future__ import annotations

import json
import subprocess
import sys

import jsonschema
import pytest

from kb.knowledge.views import BacklogFile, BriefsFile, PapersFile, PaperView, api_files
from sitebuild import FIXTURE_DATA


def status(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "kb", "status", "--data", str(FIXTURE_DATA), *args],
                          capture_output=True, text=True)


def test_status_json_validates_against_the_paper_schema():
    run = status("2505.02922", "--json")
    assert run.returncode == 0, run.stderr
    (record,) = json.loads(run.stdout)
    jsonschema.validate(record, PaperView.model_json_schema())
    assert record["id"] == "retroinfer" and record["known"] and record["status"] == "anchored"
    assert record["first_seen"] == {"date": "2026-09-03", "brief": "inference/2026-09-03-e1", "kind": "increment"}
    assert [a["section"] for a in record["anchors"]] == ["s1-3-vector-storage"]
    assert [c["id"] for c in record["open_claims"]] == ["retroinfer-maturity"]


@pytest.mark.parametrize("ident, status_word", [
    ("arXiv:2505.02922v3", "anchored"), ("lmcache-v2", "pending"), ("2608.01526", "mentioned"), ("2612.99999", "unknown"),
])
def test_status_answers_any_id(ident, status_word):
    run = status(ident, "--json")
    assert run.returncode == 0
    (record,) = json.loads(run.stdout)
    jsonschema.validate(record, PaperView.model_json_schema())
    assert record["status"] == status_word


def test_status_text_names_first_sighting_anchor_and_claims():
    run = status("retroinfer", "2612.99999")
    assert run.returncode == 0
    assert "first seen: 2026-09-03 in inference/2026-09-03-e1 (increment)" in run.stdout
    assert "anchored: inference § s1-3-vector-storage since 2026-09-04, recorded by inference/2026-09-04-e1" in run.stdout
    assert "open claim: retroinfer-maturity" in run.stdout
    assert "2612.99999: not in the knowledge base" in run.stdout


def test_api_files_validate_against_their_schemas(sample_kb):
    files = api_files(sample_kb)
    for name, model in (("papers", PapersFile), ("briefs", BriefsFile), ("backlog", BacklogFile)):
        schema = json.loads(files[f"api/schema/{name}.schema.json"])
        assert schema == json.loads(json.dumps(model.model_json_schema()))
        jsonschema.validate(json.loads(files[f"api/{name}.json"]), schema)
    papers = json.loads(files["api/papers.json"])["papers"]
    assert len(papers) == len(sample_kb.papers)
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
    llms = (site / "llms.txt").read_text("utf-8")
    assert llms.startswith("# ")
    targets = re.findall(r"\]\(([^)]+)\)", llms)
    assert {"api/papers.json", "api/briefs.json", "api/backlog.json"} <= set(targets)
    assert "api/schema/papers.schema.json" in llms
    for target in targets:  # no site_url: every link is site-relative and resolves
        path = site / posixpath.normpath(target)
        assert path.is_file() or (path / "index.html").is_file(), target
    for key in sample_kb.briefs:
        assert f"briefs/{key}/" in targets
