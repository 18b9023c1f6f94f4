"""``kb import brief`` on files and on a directory: records and paper files written, findings
reported per file as for hand-written records, the same history as the hand-encoded days,
``--check`` / ``--json`` facts, ``--strict`` on unmapped lines, and ``kb export brief --text``."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from kb.data.loader import load
from kb.knowledge.index import KnowledgeBase
from kb.knowledge.load import load_kb
from sitebuild import FIXTURE_DATA

DAYS = ("2026-09-03", "2026-09-04", "2026-09-05")


def kb(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "kb", *args], cwd=cwd, capture_output=True, text=True)


def _data(tmp: Path, keep: tuple[str, ...] = ()) -> Path:
    data = tmp / "data"
    shutil.copytree(FIXTURE_DATA, data)
    for day in DAYS:
        if day not in keep:
            (data / "briefs" / "inference" / f"{day}-e1.yaml").unlink()
    return data


def _history(k: KnowledgeBase) -> dict[str, object]:
    """What the knowledge base computes across days, with claims named by title (ids are the editors')."""
    title = {(b.topic, c.id): c.title for b in k.briefs.values() for c in b.claims}
    return {
        "first": {p: (s[0].brief, s[0].kind) for p, s in k.history.by_paper.items() if s},
        "anchors": {p: [(r.brief, r.sections, r.since) for r in rs] for p, rs in k.history.anchors.items()},
        "carried": {key: [(c.paper, c.status) for c in f.carried] for key, f in k.figures.items()},
        "net_new": {key: f.net_new_ids for key, f in k.figures.items()},
        "claims": sorted((title[t, c], s.open, s.priority, s.brief) for (t, c), s in k.claims.by_id.items()),
    }


def test_a_directory_imports_in_date_order_with_the_history_of_the_hand_encoded_days(tmp_path, seed_text):
    hand = _data(tmp_path / "hand", keep=DAYS[:2])
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    run = kb("export", "brief", "inference/2026-09-04-e1", "--text", "--data", str(hand), cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    # --text names the one format there is: the same text without it
    bare = kb("export", "brief", "inference/2026-09-04-e1", "--data", str(hand), cwd=tmp_path)
    assert bare.returncode == 0 and bare.stdout == run.stdout, bare.stderr
    (inbox / "a-2026-09-04.txt").write_text(run.stdout, "utf-8")  # named to sort before the seed
    (inbox / "b-2026-09-03.txt").write_text(seed_text, "utf-8")
    data = _data(tmp_path / "imported")
    run = kb("import", "brief", str(inbox), "--data", str(data), cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert "unmapped" not in run.stderr
    assert run.stdout.index("2026-09-03-e1.yaml") < run.stdout.index("2026-09-04-e1.yaml")
    # findings per file, as kb validate reports them for hand-written records
    assert "2026-09-03-e1.yaml" in run.stdout and "[stated.net_new]" in run.stdout
    assert _history(load_kb(data)) == _history(load_kb(hand))


def test_a_file_imports_with_its_new_papers_and_the_record_loads(tmp_path, seed_text):
    data = _data(tmp_path, keep=DAYS[:0])
    for paper in ("ssr", "crisp"):
        (data / "papers" / f"{paper}.yaml").unlink()
    (tmp_path / "seed.txt").write_text(seed_text, "utf-8")
    run = kb("import", "brief", "seed.txt", "--data", "data", "--strict", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    loaded = load(data)
    assert not [d for d in loaded.diagnostics if d.is_error]
    assert loaded.papers["ssr"][0].arxiv == "2608.20359" and loaded.papers["crisp"][0].short == "CRISP"
    brief = (data / "briefs" / "inference" / "2026-09-03-e1.yaml").read_text("utf-8")
    assert brief.startswith("# yaml-language-server: $schema=../../schema/brief.schema.json\n")
    paper = (data / "papers" / "crisp.yaml").read_text("utf-8")
    assert paper.startswith("# yaml-language-server: $schema=../schema/paper.schema.json\n")
    again = kb("import", "brief", "seed.txt", "--data", "data", cwd=tmp_path)
    assert again.returncode == 1 and "already exists" in again.stderr


def test_check_prints_the_facts_and_json_gives_them_to_tools(tmp_path, seed_text):
    (tmp_path / "seed.txt").write_text(seed_text, "utf-8")
    run = kb("import", "brief", "seed.txt", "--data", str(FIXTURE_DATA), "--check", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert "counts: sources 8, increments 5, adjacent 6, claims 5" in run.stdout
    assert "arXiv:2505.02922 retroinfer (增量 2)" in run.stdout
    assert "anchoring flashattention-4: anchored in head" in run.stdout
    assert "adjacent NVIDIA $12.9B 收购 HF（待核实）: - · verify · value 4 · P0" in run.stdout
    run = kb("import", "brief", "seed.txt", "--data", str(FIXTURE_DATA), "--check", "--json", cwd=tmp_path)
    (facts,) = json.loads(run.stdout)
    assert facts["stated"]["net_new"] == 3 and facts["counts"]["unmapped"] == 0
    assert [i["value"] for i in facts["increments"]] == [3, 5, 5, 4, 4]
    assert not list(tmp_path.glob("data"))  # --check writes nothing


def test_strict_fails_on_an_unmapped_line_and_names_it(tmp_path, seed_text):
    lines = seed_text.splitlines()
    at = next(i for i, x in enumerate(lines) if "arXiv:2505.02922 — RetroInfer" in x) + 1
    (tmp_path / "day.txt").write_text("\n".join([*lines[:at], "", "  另：今天停电两小时", *lines[at:]]), "utf-8")
    run = kb("import", "brief", "day.txt", "--data", str(FIXTURE_DATA), "--check", "--strict", cwd=tmp_path)
    assert run.returncode == 1
    assert f"day.txt:{at + 2}: unmapped:" in run.stderr and "另：今天停电两小时" in run.stderr
    ok = kb("import", "brief", "day.txt", "--data", str(FIXTURE_DATA), "--check", cwd=tmp_path)
    assert ok.returncode == 0


def test_a_text_that_is_no_valid_record_is_reported_by_line_and_nothing_is_written(tmp_path, seed_text):
    """An increment without its status (the 建议归入节 line left out) cannot be a record."""
    lines = seed_text.splitlines()
    bad = next(i for i, x in enumerate(lines) if x.startswith("建议归入节：§1.(3) KV Cache（NET-new"))
    head = next(i for i, x in enumerate(lines) if x.startswith("增量 2【")) + 1
    (tmp_path / "day.txt").write_text("\n".join(lines[:bad] + lines[bad + 1 :]), "utf-8")
    data = _data(tmp_path)
    run = kb("import", "brief", "day.txt", "--data", str(data), cwd=tmp_path)
    assert run.returncode == 1
    assert f"day.txt:{head}: increments.1.status: Field required" in run.stderr
    assert "Traceback" not in run.stderr
    assert not (data / "briefs" / "inference" / "2026-09-03-e1.yaml").exists()


def test_a_heading_naming_no_section_says_so_and_the_sections_there_are(tmp_path, seed_text):
    """`增量 2【§1.(9) KV 缓存 · …】`: a section number the topic has not is what is wrong, said with
    the closest section and where the sections are listed, not as a required field left out."""
    lines = seed_text.splitlines()
    head = next(i for i, x in enumerate(lines) if x.startswith("增量 2【§1.(3) KV Cache"))
    lines[head] = lines[head].replace("§1.(3) KV Cache", "§1.(9) KV 缓存")
    at = next(i for i, x in enumerate(lines) if x.startswith("建议归入节：§1.(3) KV Cache（NET-new"))
    lines[at] = lines[at].replace("§1.(3) KV Cache", "§1.(9) KV 缓存")  # else the section is taken from there
    (tmp_path / "day.txt").write_text("\n".join(lines), "utf-8")
    run = kb("import", "brief", "day.txt", "--data", str(_data(tmp_path)), "--check", cwd=tmp_path)
    assert run.returncode == 1 and "Traceback" not in run.stderr, run.stderr
    assert (
        f"day.txt:{head + 1}: increments.1.sections: '§1.(9) KV 缓存' names no section of topic 'inference' "
        "(did you mean '§1.(3) KV Cache'?); write a section as the topic's data/topics/inference.yaml numbers it"
    ) in run.stderr, run.stderr
    assert "increments.1.sections: Field required" not in run.stderr, run.stderr
