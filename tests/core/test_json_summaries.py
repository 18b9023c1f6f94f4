"""The commands' --json summaries (kb.cli.summary): one object of one shape for tools, ok and
counts and every diagnostic located with its hint, on stdout alone."""

from __future__ import annotations

import json
import shutil

import pytest

from kb.cli import main
from kb.data.diagnostics import Diagnostic
from sitebuild import FIXTURE_DATA

KEYS = {"path", "line", "col", "key", "severity", "code", "message", "hint"}


@pytest.fixture
def broken(tmp_path, monkeypatch):
    """The frozen data with a misspelt key in one paper file (line 3), as ./data."""
    monkeypatch.chdir(tmp_path)
    data = tmp_path / "data"
    shutil.copytree(FIXTURE_DATA, data)
    paper = data / "papers" / "ssr.yaml"
    text = paper.read_text("utf-8")
    assert "\nshort: " in text
    paper.write_text(text.replace("\nshort: ", "\nshrt: ", 1), "utf-8")
    return data.relative_to(tmp_path)


def run(capsys, *argv: str) -> tuple[int, dict | list, str]:
    capsys.readouterr()
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, json.loads(out), err  # stdout is the JSON and nothing else


def test_validate_json_of_valid_data_counts_what_it_checked(capsys):
    code, got, _ = run(capsys, "validate", "--data", FIXTURE_DATA, "--strict", "--json")
    assert code == 0 and got["command"] == "validate" and got["ok"] is True and got["strict"] is True
    counts = got["counts"]
    assert counts["errors"] == counts["warnings"] == counts["not_counted"] == 0
    assert counts["topics"] == 1 and counts["briefs"] > 0 and counts["papers"] > 0
    assert counts["acknowledged"] == len(got["diagnostics"]) > 0  # the notes are listed too, each located
    assert all(set(d) == KEYS and d["severity"] == "note" for d in got["diagnostics"])


def test_validate_json_locates_an_error_with_its_hint(capsys, broken):
    code, got, _ = run(capsys, "validate", "--data", broken, "--json")
    assert code == 1 and got["ok"] is False
    assert got["counts"]["errors"] == 1 and got["counts"]["not_counted"] == 1
    (d,) = [d for d in got["diagnostics"] if d["severity"] == "error"]
    assert (d["path"], d["line"], d["col"], d["key"]) == ("data/papers/ssr.yaml", 3, 1, "shrt")
    assert d["hint"].startswith("did you mean 'short'?; 'short' is required")


def test_status_json_of_data_that_does_not_load_is_the_summary(capsys, broken):
    code, got, err = run(capsys, "status", "--data", broken, "--json", "ssr")
    assert code == 2 and got["command"] == "status" and got["ok"] is False
    assert got["counts"] == {"ids": 1, "errors": 1}
    assert [(d["key"], d["line"]) for d in got["diagnostics"]] == [("shrt", 3)]
    assert "ssr.yaml:3:1:" in err  # people still read the text


def test_status_json_of_loading_data_stays_the_records(capsys):
    code, got, _ = run(capsys, "status", "--data", FIXTURE_DATA, "--json", "ssr")
    assert code == 0 and isinstance(got, list) and got[0]["id"] == "ssr"


@pytest.mark.parametrize(
    "message, hint",
    [
        ("unknown key 'lable' (did you mean 'label'?)", "did you mean 'label'?"),
        ("file name not allowed; use letters and digits", "use letters and digits"),
        ("unknown section 'x'", ""),
    ],
)
def test_a_hint_is_what_the_message_says_to_do(message, hint):
    assert Diagnostic("f.yaml", message=message).hint == hint


def test_build_json_counts_the_index_and_locates_the_data_errors(capsys, tmp_path, monkeypatch):
    """A project kb init made: built, the summary on stdout and MkDocs' messages on stderr; then
    with a misspelt key in its topic file, the build's error located as kb validate locates it."""
    monkeypatch.setenv("KB_CACHE", "off")
    assert main(["init", str(tmp_path / "p"), "--topic", "t"]) == 0
    monkeypatch.chdir(tmp_path / "p")
    code, got, err = run(capsys, "build", "--strict", "--json")
    assert code == 0 and got["ok"] is True and got["diagnostics"] == [] and got["exit_status"] == 0, err
    assert got["counts"]["errors"] == got["counts"]["warnings"] == 0
    assert got["counts"]["pages_indexed"] > 0 and got["counts"]["search_kb"] > 0
    assert "Documentation built" in err

    topic = tmp_path / "p" / "data" / "topics" / "t.yaml"
    topic.write_text(topic.read_text("utf-8").replace("\ntitle: ", "\ntitel: ", 1), "utf-8")
    code, got, _ = run(capsys, "build", "--strict", "--json")
    assert code == 1 and got["ok"] is False and got["counts"]["errors"] >= 1
    (d,) = got["diagnostics"]
    assert (d["path"], d["key"], d["severity"]) == ("data/topics/t.yaml", "titel", "error")
    assert d["hint"].startswith("did you mean 'title'?")
