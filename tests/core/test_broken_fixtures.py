"""One broken data set per rule, each with its expected errors derived by hand and pinned in a golden file.

A case is an overlay: ``tests/fixtures/broken/<case>/data`` holds only the files
that differ from the valid base ``tests/fixtures/base/data`` (see ``tests/overlay.py``).  ``case.yaml`` says what is
broken and, derived by hand from the case's files, where each error must be
located and what its message must say (``has``); ``expected.json`` pins the whole
output, so a change in wording or location shows up as a diff.  Regenerate the
golden files after a deliberate change with
``KB_UPDATE_GOLDEN=1 pytest tests/core/test_broken_fixtures.py`` and review them.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from overlay import BASE, FIXTURES, cases
from overlay import materialize as _materialize

BROKEN = FIXTURES / "broken"
CASES = cases("broken")
FIELDS = ("path", "line", "col", "key", "severity", "message")


def materialize(case: str, dest: Path) -> Path:
    return _materialize("broken", case, dest)


def run_validate(cwd: Path, *extra: str, github: bool = False) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "kb", "validate", *extra],
        cwd=cwd,
        capture_output=True,
        text=True,
        env={**os.environ, "GITHUB_ACTIONS": "true" if github else "false"},
    )


def test_the_valid_base_passes(tmp_path):
    shutil.copytree(BASE, tmp_path / "data")
    run = run_validate(tmp_path, "--strict")
    assert run.returncode == 0, run.stdout + run.stderr


@pytest.mark.parametrize("case", CASES)
def test_broken_fixture_matches_golden(case, tmp_path):
    run = run_validate(materialize(case, tmp_path), "--format", "json")
    assert run.returncode == 1, f"{case}: expected failure\n{run.stdout}{run.stderr}"
    assert "Traceback" not in run.stderr
    got = [{k: d[k] for k in FIELDS} for d in json.loads(run.stdout) if d["severity"] == "error"]
    golden = BROKEN / case / "expected.json"
    if os.environ.get("KB_UPDATE_GOLDEN") == "1":
        golden.write_text(json.dumps(got, ensure_ascii=False, indent=1) + "\n", "utf-8")
    assert got == json.loads(golden.read_text("utf-8"))


@pytest.mark.parametrize("case", CASES)
def test_each_expected_error_is_reported_where_the_case_says(case):
    spec = yaml.safe_load((BROKEN / case / "case.yaml").read_text("utf-8"))
    assert spec["why"] and spec["expect"]
    got = json.loads((BROKEN / case / "expected.json").read_text("utf-8"))
    for want in spec["expect"]:
        matches = [
            d for d in got if all(d[k] == v for k, v in want.items() if k != "has") and want["has"] in d["message"]
        ]
        assert matches, f"{case}: no error matches {want}:\n" + "\n".join(
            f"{d['line']}:{d['col']} [{d['key']}] {d['message']}" for d in got
        )


@pytest.mark.parametrize("case", CASES)
def test_text_output_names_file_line_col(case, tmp_path):
    run = run_validate(materialize(case, tmp_path))
    assert run.returncode == 1
    lines = [ln for ln in run.stderr.splitlines() if ln.startswith("data/")]
    assert lines, run.stderr
    for ln in lines:
        path, line, col, _ = ln.split(":", 3)
        assert int(line) >= 1 and int(col) >= 1


def test_github_annotations(tmp_path):
    run = run_validate(materialize("unknown-paper", tmp_path), github=True)
    notes = [ln for ln in run.stdout.splitlines() if ln.startswith("::error ")]
    assert len(notes) == 1
    assert notes[0].startswith(
        "::error file=data/briefs/inference/2026-09-03-e1.yaml,line=15,col=19,title=unknown-paper::"
        "unknown paper 'not-a-paper': no data/papers/not-a-paper.yaml"
    )


def test_paths_limit_the_report_to_those_files(tmp_path):
    case = materialize("missing-and-unknown-keys", tmp_path)
    run = run_validate(case, "data/briefs/inference/2026-09-03-e1.yaml")
    assert run.returncode == 0, run.stderr
    run = run_validate(case, "data/papers/ssr.yaml")
    assert run.returncode == 1 and "'short' is required" in run.stderr


@pytest.mark.parametrize("path", ["data/papers/ssr.yaml", "data/papers/ssr-copy.yaml"])
def test_a_clash_between_two_files_fails_a_check_of_either(tmp_path, path):
    """A pre-commit hook checks the files changed: the file added clashes as much as the one there."""
    run = run_validate(materialize("duplicate-paper", tmp_path), path)
    assert run.returncode == 1 and "duplicate paper: arXiv 2608.20359" in run.stderr, run.stderr


def test_a_path_that_is_not_there_is_an_error(tmp_path):
    case = materialize("missing-and-unknown-keys", tmp_path)
    run = run_validate(case, "data/papers/no-such-paper.yaml")
    assert run.returncode == 1 and "no such file: data/papers/no-such-paper.yaml" in run.stderr, run.stderr
    assert "Traceback" not in run.stderr


def test_a_file_no_check_reads_is_refused_not_passed(tmp_path):
    """`kb validate README.md` said "ok" though nothing checked it."""
    case = materialize("missing-and-unknown-keys", tmp_path)
    (case / "README.md").write_text("# notes\n", "utf-8")
    (case / "data" / "papers" / "notes.txt").write_text("x\n", "utf-8")
    run = run_validate(case, "README.md", "data/papers/notes.txt")
    assert run.returncode == 1, run.stdout
    assert "not checked by kb validate: README.md, data/papers/notes.txt" in run.stderr, run.stderr
    assert "ok" not in run.stdout and "Traceback" not in run.stderr


def test_a_page_named_alone_is_checked_against_its_docs(tmp_path):
    case = materialize("missing-and-unknown-keys", tmp_path)
    (case / "docs").mkdir(exist_ok=True)
    (case / "docs" / "note.md").write_text("# 注\n\n{{ config }}\n", "utf-8")
    run = run_validate(case, "docs/note.md")
    assert run.returncode == 1 and "docs/note.md:3:" in run.stderr, run.stderr


def test_status_going_backwards_is_an_error_without_a_finding_to_acknowledge(tmp_path):
    """An acknowledgement cannot clear the error: the finding that would ask for one is not made."""
    run = run_validate(materialize("status-backwards", tmp_path), "--format", "json")
    there = [d for d in json.loads(run.stdout) if d["key"] == "increments[0].status"]
    assert [d["severity"] for d in there] == ["error"], there


@pytest.mark.parametrize(
    "increments",
    [
        "increments: oops\n",
        "increments: [oops, 3]\n",
        "increments:\n  - papers: ssrr\n    sections: s1-1-spec-decodng\n",
        "increments:\n  - papers: [[ssrr]]\n    relations: [{papers: ssrr}]\n",
    ],
)
def test_references_of_an_invalid_brief_are_read_only_where_they_are_written_as_names(tmp_path, increments):
    """Data of the wrong kind is the schema's error alone: no reference is made up from it (a
    text read letter by letter, a list inside a list) and nothing raises."""
    case = materialize("typo-and-unknown-refs", tmp_path)
    brief = case / "data" / "briefs" / "inference" / "2026-09-03-e1.yaml"
    text = brief.read_text("utf-8")
    brief.write_text(text[: text.index("increments:")] + increments, "utf-8")
    run = run_validate(case, "--format", "json")
    assert run.returncode == 1 and "Traceback" not in run.stderr, run.stderr
    codes = {d["code"] for d in json.loads(run.stdout)}
    assert not {"unknown-paper", "unknown-section"} & codes, run.stdout


def test_the_summary_counts_a_file_that_is_no_record_apart(tmp_path):
    """A brief that is no valid record is not among the briefs counted: the summary says it is there."""
    run = run_validate(materialize("typo-and-unknown-refs", tmp_path))
    assert run.returncode == 1
    assert run.stderr.rstrip().endswith(
        "in 1 brief(s), 2 paper(s), 1 topic(s), and 1 file(s) not counted until their errors are fixed "
        "(the checks of stated figures against computed ones, and of the claim ids briefs name, wait until then too)"
    ), run.stderr
    # validating another file: fine for that file, which is what the verdict says, and where the rest is
    run = run_validate(tmp_path, "data/papers/ssr.yaml")
    assert run.returncode == 0
    assert run.stdout.startswith("kb validate: ok for the file(s) named: 0 error(s)"), run.stdout
    assert run.stdout.rstrip().endswith("; `kb validate` without file names lists those errors)"), run.stdout


def test_a_duplicate_key_is_said_with_the_rest_of_what_is_wrong_in_its_file(tmp_path):
    """A key written twice no longer hides the file's other mistakes: they are all said at once,
    and the file is not counted; a claim id a later brief names is not called unknown while the
    brief that may raise it is not read."""
    shutil.copytree(FIXTURES / "kb" / "data", tmp_path / "data")
    brief = tmp_path / "data" / "briefs" / "inference" / "2026-09-03-e1.yaml"
    lines = brief.read_text("utf-8").splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("    label:"))
    lines[at + 1 : at + 1] = [lines[at], "    valeu: 3"]
    brief.write_text("\n".join(lines) + "\n", "utf-8")
    run = run_validate(tmp_path, "--format", "json")
    found = [(d["path"].rsplit("/", 1)[-1], d["line"], d["code"]) for d in json.loads(run.stdout)]
    assert found == [
        ("2026-09-03-e1.yaml", at + 2, "duplicate-key"),
        ("2026-09-03-e1.yaml", at + 3, "schema"),
    ], run.stdout


def test_a_paper_file_with_an_error_holds_back_the_checks_of_figures(tmp_path):
    """A paper that does not load is missing from every computed figure: a brief that counts its id
    among the net-new ones would be told, wrongly, that it states one too many and asked to
    acknowledge that.  Only the paper's error is reported until it is fixed; then the checks run."""
    shutil.copytree(BASE, tmp_path / "data")
    brief = tmp_path / "data" / "briefs" / "inference" / "2026-09-03-e1.yaml"
    brief.write_text(brief.read_text("utf-8") + "stated:\n  arxiv_net_new: 2\n", "utf-8")
    run = run_validate(tmp_path, "--strict", "--format", "json")  # SSR is the one net-new id
    assert run.returncode == 1
    assert [d["code"] for d in json.loads(run.stdout)] == ["stated/arxiv_net_new"], run.stdout
    brief.write_text(brief.read_text("utf-8").replace("arxiv_net_new: 2", "arxiv_net_new: 1"), "utf-8")
    assert run_validate(tmp_path, "--strict").returncode == 0
    paper = tmp_path / "data" / "papers" / "ssr.yaml"
    paper.write_text(paper.read_text("utf-8").replace("arxiv: 2608.20359", "arxiv: 2608.2035"), "utf-8")
    run = run_validate(tmp_path, "--format", "json")
    diags = json.loads(run.stdout)
    assert run.returncode == 1
    assert [(d["path"], d["severity"]) for d in diags] == [("data/papers/ssr.yaml", "error")], run.stdout
    assert "the checks of stated figures against computed ones wait until then too" in run.stderr


@pytest.mark.parametrize(
    "old, new, where, says",
    [
        ("topic: inference", "topic: inferense", "1:8 [topic]", "if the topic is mistyped, write topic: inference"),
        ("round: E1", "round: E2", "3:8 [round]", "if the round is mistyped, write round: E1; else rename the file"),
        ("date: 2026-09-03\n", "date: 2026-09-05\n", "2:7 [date]", "if the date is mistyped, write date: 2026-09-03"),
    ],
)
def test_a_brief_out_of_place_says_both_ways_to_fix_it(tmp_path, old, new, where, says):
    """A brief whose topic, date or round disagrees with where it lies: the error points at the value
    and offers both fixes (correct the value the folder or file name gives, or move/rename the file),
    and the file is counted as one that is not read yet."""
    shutil.copytree(BASE, tmp_path / "data")
    brief = tmp_path / "data" / "briefs" / "inference" / "2026-09-03-e1.yaml"
    brief.write_text(brief.read_text("utf-8").replace(old, new, 1), "utf-8")
    run = run_validate(tmp_path)
    (line,) = [ln for ln in run.stderr.splitlines() if ln.startswith("data/briefs/")]
    assert line.startswith("data/briefs/inference/2026-09-03-e1.yaml:" + where.split()[0] + ":")
    assert line.endswith(where.split()[1]) and says in line, line
    assert "1 file(s) not counted" in run.stderr


def test_a_brief_named_for_another_day_that_has_its_brief_says_to_fix_the_date(tmp_path):
    """Tomorrow's brief begun as a copy of today's, date left as it was: renaming the file to the
    date it states would land on today's brief, so the fix offered is the date alone."""
    shutil.copytree(BASE, tmp_path / "data")
    today = tmp_path / "data" / "briefs" / "inference" / "2026-09-03-e1.yaml"
    (today.parent / "2026-09-04-e1.yaml").write_text(today.read_text("utf-8"), "utf-8")
    run = run_validate(tmp_path)
    (line,) = [ln for ln in run.stderr.splitlines() if ln.startswith("data/briefs/")]
    assert line.startswith("data/briefs/inference/2026-09-04-e1.yaml:2:7: ") and line.endswith("[date]")
    assert "write date: 2026-09-04 (2026-09-03-e1.yaml is another brief already)" in line, line
    assert "rename" not in line


@pytest.mark.parametrize(
    "old, new, says",
    [
        (
            "round: E1",
            "round: e1",
            "got 'e1', which is not of the form this key takes; the case matters: write it as 'E1'",
        ),
        ("status: net-new", "status: NET-new", "got 'NET-new'; the case matters: write it as 'net-new'"),
        ("light: green", "light: Green", "got 'Green'; the case matters: write it as 'green'"),
        ("date: 2026-09-03\n", "date: 2026-09-31\n", "expected a date, got '2026-09-31': 2026-09 has 30 days"),
        ("date: 2026-09-03\n", "date: 2026-13-03\n", "expected a date, got '2026-13-03': there is no month 13"),
        ("date: 2026-09-03\n", "date: 2028-02-30\n", "2028-02 has 29 days"),
        (
            "start: 2026-09-02T22:20:00+08:00",
            "start: 2026-09-31T22:20:00+08:00",
            "expected a date and time, got '2026-09-31T22:20:00+08:00': 2026-09 has 30 days",
        ),
        ("start: 2026-09-02T22", "start: 2026-13-02T22", "there is no month 13"),
        (  # a Chinese comma between list items: one item to YAML
            "sections: [s1-1-spec-decoding]",
            "sections: [s1-1-spec-decoding，s1-2-scheduling]",
            "'，' does not part list items: write ', ' between them, e.g. [s1-1-spec-decoding, s1-2-scheduling]",
        ),
        ("papers: [ssr]", "papers: [ssr、tokenweave]", "'、' does not part list items"),
        (  # an arXiv id where a paper's id goes
            "papers: [ssr]",
            "papers: [2609.01234]",
            "'2609.01234' is an arXiv id: write the paper's id, the name of its file under data/papers/ "
            "(`kb status 2609.01234` says which; `kb new paper 2609.01234` makes one)",
        ),
        (  # the example is a paper's id, not a section's
            "papers: [ssr]",
            "papers: [SSR]",
            "got 'SSR', which is not of the form this key takes; the case matters: write it as 'ssr' (list of "
            "lower-case letters, digits and `-`, starting with a letter or digit, at most 80 characters, e.g. "
            "`papers: [tokenweave]`)",
        ),
        (  # an ASCII colon and a space in a text item: a key and its value to YAML
            "    value: 3\n",
            "    value: 3\n    points:\n      - items:\n          - 关键数字: 3.1×\n",
            "expected a valid string, got a mapping; YAML read the ': ' after '关键数字' as a key and its "
            'value: to keep it as text, quote it: "关键数字: 3.1×"',
        ),
    ],
)
def test_a_value_of_the_wrong_form_says_what_is_wrong_in_words(tmp_path, old, new, says):
    """No regular expression or parser wording: the case a value must be written in, the day a
    month does not have; the key's form and an example follow."""
    shutil.copytree(BASE, tmp_path / "data")
    brief = tmp_path / "data" / "briefs" / "inference" / "2026-09-03-e1.yaml"
    brief.write_text(brief.read_text("utf-8").replace(old, new, 1), "utf-8")
    run = run_validate(tmp_path)
    assert run.returncode == 1 and says in run.stderr, run.stderr
    assert "pattern" not in run.stderr and "^" not in run.stderr and "outside expected range" not in run.stderr


def test_a_malformed_arxiv_id_in_prose_is_a_warning_where_it_is_written(tmp_path):
    """`arXiv:2608.2035` in a title links nowhere and names no paper: a warning (it fails --strict)
    at its line and column, saying what is wrong; a comment and a paper's `arxiv:` key are no prose."""
    shutil.copytree(BASE, tmp_path / "data")
    brief = tmp_path / "data" / "briefs" / "inference" / "2026-09-03-e1.yaml"
    text = brief.read_text("utf-8").replace("title: SSR：自投机解码", "title: SSR：自投机解码（arXiv:2608.2035）")
    brief.write_text("# see arXiv:2608.2035 (a comment)\n" + text, "utf-8")
    run = run_validate(tmp_path)
    assert run.returncode == 0
    (line,) = [ln for ln in run.stdout.splitlines() if "is no arXiv id" in ln]
    assert line == (
        "data/briefs/inference/2026-09-03-e1.yaml:14:22: warning: 'arXiv:2608.2035' is no arXiv id: an id from "
        "2015 on has five digits after the dot, YYMM.NNNNN; correct it (the site shows it as text and links it "
        "nowhere), or leave out 'arXiv:' where a wrong id is quoted as it was written"
    )
    assert run_validate(tmp_path, "--strict").returncode == 1


@pytest.mark.parametrize(
    "written, found",
    [
        ("见 arXiv:2608.2035.", "arXiv:2608.2035"),  # at the end of a sentence
        ("见arXiv:2608.2035的", "arXiv:2608.2035"),  # Chinese right beside it
        ("arXiv: 2608.2035", "arXiv: 2608.2035"),
        ("ARXIV:2608.2035", "ARXIV:2608.2035"),
        ("arXiv:2608.20359v0", "arXiv:2608.20359v0"),  # a version that is none
        ("arXiv:2608.20359.", None),  # an id, then a full stop
        ("https://example.org/arxiv:2608.2035", None),  # part of a path
        ("arXiv:2608.2035x", None),  # glued to more
    ],
)
def test_malformed_ids_are_found_however_they_are_written(tmp_path, written, found):
    shutil.copytree(BASE, tmp_path / "data")
    brief = tmp_path / "data" / "briefs" / "inference" / "2026-09-03-e1.yaml"
    text = brief.read_text("utf-8").replace("title: SSR：自投机解码", f"title: 'SSR：自投机解码 {written}'")
    brief.write_text(text + "# arXiv:2608.2035 in a comment\nround_name: 日间  # arXiv:2608.2035 inline\n", "utf-8")
    run = run_validate(tmp_path, "--format", "json")
    got = [
        d["message"].split(" is no arXiv id")[0] for d in json.loads(run.stdout) if d["code"] == "malformed-arxiv-id"
    ]
    assert got == ([f"'{found}'"] if found else []), run.stdout


def test_a_carried_over_list_left_short_is_one_finding_naming_what_it_leaves_out(tmp_path):
    """The author's 沿用件 list without two of the items still pending: one warning (one
    acknowledgement if it stays so), naming both, not one per item."""
    shutil.copytree(FIXTURES / "kb" / "data", tmp_path / "data")
    brief = tmp_path / "data" / "briefs" / "inference" / "2026-09-03-e1.yaml"
    text = brief.read_text("utf-8")
    for paper in ("replayssm", "silent-hyperparameter"):
        text = text.replace(
            f"  - {{paper: {paper}, note: 9-1 候选 · 待锚入, status: pending, origin: 2026-09-01}}\n", ""
        )
    brief.write_text(text, "utf-8")
    run = run_validate(tmp_path, "--format", "json")
    found = [d for d in json.loads(run.stdout) if d["code"].startswith("carried/")]
    assert [(d["code"], d["severity"], d["key"]) for d in found] == [("carried/missing", "warning", "carried")]
    assert (
        "leaves out 2 item(s) still pending after the previous brief: replayssm, silent-hyperparameter"
        in (found[0]["message"])
    )


def test_a_misspelt_id_in_the_carried_over_list_is_an_error_and_nothing_to_acknowledge(tmp_path):
    """tokenwave for tokenweave: the unknown paper is the error, with the closest id; the checks of
    the list against the history say nothing of it (a typo is no item to acknowledge), and the item
    it hides is still found missing from the list."""
    shutil.copytree(FIXTURES / "kb" / "data", tmp_path / "data")
    brief = tmp_path / "data" / "briefs" / "inference" / "2026-09-03-e1.yaml"
    text = brief.read_text("utf-8")
    assert "{paper: tokenweave, " in text
    brief.write_text(text.replace("{paper: tokenweave, ", "{paper: tokenwave, "), "utf-8")
    run = run_validate(tmp_path, "--format", "json")
    said = [d for d in json.loads(run.stdout) if "tokenwave" in d["message"]]
    assert [(d["severity"], d["key"]) for d in said] == [("error", "carried[5].paper")], said
    assert "did you mean 'tokenweave'?" in said[0]["message"]
    missing = [d for d in json.loads(run.stdout) if d["code"] == "carried/missing"]
    assert len(missing) == 1 and "tokenweave" in missing[0]["message"]


def validated_with(tmp_path: Path, day: str, old: str, new: str) -> list[dict]:
    """``kb validate --format json`` of the kb fixture with ``old`` (written once in the brief of
    ``day``) replaced by ``new``: its diagnostics."""
    shutil.copytree(FIXTURES / "kb" / "data", tmp_path / "data")
    brief = tmp_path / "data" / "briefs" / "inference" / f"{day}-e1.yaml"
    text = brief.read_text("utf-8")
    assert text.count(old) == 1
    brief.write_text(text.replace(old, new), "utf-8")
    return json.loads(run_validate(tmp_path, "--format", "json").stdout)


def test_an_anchoring_section_of_the_wrong_form_is_said_once(tmp_path):
    """``anchored_in: "§1.(1) 推理引擎"`` is refused by its form (as the list's item [0]); the check
    of the sections a failed brief names must not say it again as an unknown section."""
    found = validated_with(tmp_path, "2026-09-04", "anchored_in: s1-1-engines,", 'anchored_in: "§1.(1) 推理引擎",')
    said = [(d["key"], d["message"].split(",")[0]) for d in found if d["severity"] == "error"]
    assert said == [("candidates[1].anchored_in[0]", "got '§1.(1) 推理引擎'")], said


def test_a_section_written_as_its_number_part_lists_the_ids_under_it(tmp_path):
    """``s1-3`` is near no id by difflib's measure: the ids it starts are what the writer meant."""
    found = validated_with(tmp_path, "2026-09-04", "  - sections: [s1-3-kv-cache]\n", "  - sections: [s1-3]\n")
    (said,) = [d for d in found if d["message"].startswith("unknown section")]
    assert "unknown section 's1-3' in topic 'inference' (the ids starting 's1-3-': s1-3-kv-cache, " in said["message"]
    assert "and 2 more); the section ids are listed in data/topics/inference.yaml" in said["message"]


def test_an_update_of_a_claim_near_no_id_lists_the_open_claims(tmp_path):
    """A claim named by a word of its own (hf-deal) is near no id: the ids an update may name are
    the topic's open claims, listed (a typo still gets its did-you-mean: the claim-unknown case)."""
    from kb.knowledge.load import load_kb

    found = validated_with(tmp_path, "2026-09-05", "  - claim: cascade-opscale-deployment\n", "  - claim: hf-deal\n")
    (said,) = [d for d in found if "hf-deal" in d["message"]]
    kb = load_kb(FIXTURES / "kb" / "data")
    open_ids = [s.claim.id for s in kb.claims.open_claims() if s.topic == "inference"]
    assert 0 < len(open_ids) <= 8
    assert (
        f"unknown claim 'hf-deal' (open claims of inference: {', '.join(open_ids)}; `kb status <id>`" in said["message"]
    )


def test_a_carried_over_entry_the_history_does_not_carry_says_why(tmp_path):
    """An adjacent item carried over is not pending in the computed sense (main increments and
    candidates): the finding says so, in English and on the page, rather than that nothing waits."""
    from kb.knowledge.load import load_kb
    from kb.render.findings import finding_text

    shutil.copytree(FIXTURES / "kb" / "data", tmp_path / "data")
    brief = tmp_path / "data" / "briefs" / "inference" / "2026-09-03-e1.yaml"
    text = brief.read_text("utf-8").replace(
        "carried:\n", "carried:\n  - {paper: lmcache-v2, note: 9-2 邻接预备}\n  - {paper: prefixpool, note: 不曾提出}\n"
    )
    brief.write_text(text, "utf-8")
    run = run_validate(tmp_path, "--format", "json")
    found = {d["code"]: d["message"] for d in json.loads(run.stdout) if d["code"].startswith("carried/extra")}
    assert (
        "the brief carries lmcache-v2 over, but it was put forward only as an adjacent item, and adjacent items "
        "are not carried over (the backlog lists them with the briefs that named them)"
    ) in found["carried/extra/lmcache-v2"]
    assert (
        "the brief carries prefixpool over, but it is no main increment or candidate still pending after the "
        "previous brief"
    ) in found["carried/extra/prefixpool"]
    kb = load_kb(tmp_path / "data")
    noted = kb.findings("brief", "inference/2026-09-03-e1")
    shown = {n.finding.code: finding_text(n.finding) for n in noted if n.finding.code.startswith("carried/extra")}
    assert "它此前只在邻接条目中出现，邻接条目不计入沿用件" in shown["carried/extra/lmcache-v2"]
    assert "不是仍待锚入的主增量或候选" in shown["carried/extra/prefixpool"]


@pytest.mark.parametrize(
    "line, says",
    [
        ("published: 2026-09-31", "expected a date, got '2026-09-31': 2026-09 has 30 days"),
        ("kind: System", "got 'System'; the case matters: write it as 'system'"),
        ("id: SSR", "(lower-case letters, digits and `-`, starting with a letter or digit, at most 80 characters"),
        ("short: #SSR", "expected a valid string, got nothing: the value is empty (if it starts with '#', quote it"),
        ("short:", "expected a valid string, got nothing: the value is empty"),
        ("authors: 'A: B'", "expected a valid list, got 'A: B'; a list is written in brackets, e.g. authors: […]"),
        ("short: {{ name }}", "a value that starts with '{' or '[' is read as a YAML mapping or list: quote it"),
        (
            "authors: Ravi",
            "expected a valid list, got 'Ravi'; a list is written in brackets, e.g. authors: [Ravi]",
        ),
    ],
)
def test_a_paper_value_of_the_wrong_form_says_what_is_wrong_in_words(tmp_path, line, says):
    """A partial date that is no day, a kind in the wrong case, an id that is no slug: in words."""
    shutil.copytree(BASE, tmp_path / "data")
    paper = tmp_path / "data" / "papers" / "ssr.yaml"
    key = line.split(":")[0]
    kept = [ln for ln in paper.read_text("utf-8").splitlines() if not ln.startswith(key + ":")]
    paper.write_text("\n".join([line, *kept]) + "\n", "utf-8")
    run = run_validate(tmp_path)
    assert run.returncode == 1 and says in run.stderr, run.stderr
    assert "^" not in run.stderr and "pattern" not in run.stderr


def test_run_where_there_is_no_data_directory_it_says_where_to_run(tmp_path):
    """In docs/ or data/ itself, the default data/ is not there: the message says what to do."""
    run = run_validate(tmp_path)
    assert run.returncode == 1 and "Traceback" not in run.stderr
    assert "data:1:1: no such data directory: run kb in the project (the folder of mkdocs.yml" in run.stderr
    assert "--data" in run.stderr


def test_run_below_the_project_finds_its_data(tmp_path):
    """In data/briefs/ (or docs/) of a project, as git finds its repository: the data/ beside the
    nearest mkdocs.yml above, shown relative to here; kb new finds it too."""
    shutil.copytree(BASE, tmp_path / "data")
    (tmp_path / "mkdocs.yml").write_text("site_name: x\n", "utf-8")
    below = tmp_path / "data" / "briefs"
    run = run_validate(below)
    assert run.returncode == 0 and "kb validate: ok:" in run.stdout and "in 2 brief(s)" in run.stdout, run.stderr
    made = subprocess.run(
        [sys.executable, "-m", "kb", "new", "brief", "--topic", "inference", "--date", "2026-09-04"],
        cwd=below,
        capture_output=True,
        text=True,
    )
    assert made.returncode == 0, made.stderr
    assert (below / "inference" / "2026-09-04-e1.yaml").is_file()
