"""``kb paper add/refresh`` end to end against the fake API: files created and
updated by text surgery, hand-written bytes untouched, caching, summary, errors."""

from __future__ import annotations

import json

from ownedblock import without_block

from kb.data import paperfile
from kb.data.loader import load
from kb.knowledge.load import load_kb

SAMPLE_IDS = ["2505.02922", "2608.20359", "2505.11329"]


def paper_texts(data_dir) -> dict[str, str]:
    return {p.name: p.read_text("utf-8") for p in sorted((data_dir / "papers").glob("*.yaml"))}


def arxiv_count(data_dir) -> int:
    return sum(1 for p in load_kb(data_dir).papers.values() if p.arxiv)


def test_refresh_all_touches_only_the_arxiv_meta_block(api, data_dir, run_kb):
    before = paper_texts(data_dir)
    n = arxiv_count(data_dir)  # 14 in the sample data
    code, out, err = run_kb("paper", "refresh", "--all", "--data", data_dir)
    assert code == 0, err
    assert f"{n} id(s), 1 request(s): {n} fetched, 0 from cache; 0 created, {n} updated, 0 unchanged, 0 failed" in out
    after = paper_texts(data_dir)
    assert set(after) == set(before)
    for name, text in after.items():
        assert without_block(text) == before[name], name  # every other byte kept
        assert text.startswith(before[name]) or "arxiv_meta:" not in before[name]
    kb = load_kb(data_dir)
    assert kb.papers["retroinfer"].arxiv_meta.doi == "10.5555/retroinfer.2026"
    assert (
        kb.papers["retroinfer"].title == "RetroInfer: A Vector Storage Engine for Scalable Long-Context LLM Inference"
    )
    assert kb.papers["ssr"].authors == ["Ravisri Valluri"]  # hand-written key kept as it was
    assert kb.papers["flashattention-4"].arxiv_meta is None  # no arXiv id, not touched
    assert run_kb("validate", data_dir)[0] == 0

    code, out, _ = run_kb("paper", "refresh", "--all", "--data", data_dir)
    assert code == 0
    assert f"0 request(s): 0 fetched, {n} from cache; 0 created, 0 updated, {n} unchanged" in out
    assert len(api.requests) == 1
    assert paper_texts(data_dir) == after


def test_add_250_ids_in_3_requests_then_none(api, data_dir, run_kb):
    api.synthesize = True
    sample = sorted({p.arxiv_base for p in load_kb(data_dir).papers.values() if p.arxiv_base})
    ids = sample + [f"2601.{i:05d}" for i in range(1, 251 - len(sample))]
    code, out, err = run_kb("paper", "add", *ids, "--data", data_dir, "--quiet")
    assert code == 0, err
    assert (
        "250 id(s), 3 request(s): 250 fetched" in out and f"{250 - len(sample)} created, {len(sample)} updated" in out
    )
    assert [len(r.ids) for r in api.requests] == [100, 100, 50]
    kb = load_kb(data_dir)
    assert len(kb.papers) == len(list((data_dir / "papers").glob("*.yaml")))
    assert sum(1 for p in kb.papers.values() if p.arxiv) == 250  # existing ids refreshed, not duplicated
    assert run_kb("validate", data_dir)[0] == 0

    code, out, _ = run_kb("paper", "add", *ids, "--data", data_dir, "--quiet")
    assert code == 0 and "0 request(s): 0 fetched, 250 from cache" in out and "250 unchanged" in out
    assert len(api.requests) == 3


def test_add_creates_a_file_with_id_arxiv_short_and_meta(api, tmp_path, run_kb):
    data = tmp_path / "empty"
    code, out, err = run_kb("paper", "add", "arXiv:2505.02922v2", "--data", data)
    assert code == 0, err
    text = (data / "papers" / "retroinfer.yaml").read_text("utf-8")
    assert text.startswith(
        "# yaml-language-server: $schema=../schema/paper.schema.json\n"  # editors check the file as it is edited
        "id: retroinfer\narxiv: 2505.02922v2\nshort: RetroInfer\narxiv_meta:\n  title: "
    )
    assert "created" in out and "retroinfer.yaml (2505.02922v2)" in out
    loaded = load(data)
    assert not loaded.diagnostics
    # another version of the same paper is the same paper: refreshed, not duplicated
    code, out, _ = run_kb("paper", "add", "2505.02922v1", "--data", data)
    assert code == 0 and "0 created" in out and "1 unchanged" in out
    assert len(list((data / "papers").glob("*.yaml"))) == 1


def test_add_makes_ids_unique(api, tmp_path, run_kb):
    data = tmp_path / "d"
    (data / "papers").mkdir(parents=True)
    (data / "papers" / "retroinfer.yaml").write_text("id: retroinfer\nshort: RetroInfer (hand-made)\n", "utf-8")
    code, _, err = run_kb("paper", "add", "2505.02922", "--data", data)
    assert code == 0, err
    assert (data / "papers" / "retroinfer-2.yaml").read_text("utf-8").split("\n")[1] == "id: retroinfer-2"


def test_add_never_takes_a_reserved_id(api, tmp_path, run_kb):
    from fakeapi import synthetic_entry

    api.entries["2601.00007"] = synthetic_entry("2601.00007").replace(
        "Synthetic Serving Study 2601.00007: Scheduling Tokens\n  Under Load", "Index: Fast Retrieval for KV Caches"
    )
    data = tmp_path / "d"
    code, out, err = run_kb("paper", "add", "2601.00007", "--data", data)
    assert code == 0, err
    assert [p.name for p in (data / "papers").iterdir()] == ["index-2.yaml"]
    assert load_kb(data).papers["index-2"].arxiv_meta.title == "Index: Fast Retrieval for KV Caches"


def test_tricky_text_is_quoted_safely(api, tmp_path, run_kb):
    data = tmp_path / "d"
    assert run_kb("paper", "add", "2505.11329", "2609.01925", "--data", data)[0] == 0
    kb = load_kb(data)
    weave = kb.papers["tokenweave"].arxiv_meta
    assert '"overlap" is #1 - compute: $O(n^2)$' in weave.abstract
    assert weave.comment == "10 pages; 100% reproducible: see appendix #A & {B}"
    assert "Zoë O'Neil-Smith" in kb.papers["crisp"].arxiv_meta.authors


def test_hand_written_layout_is_kept_byte_for_byte(api, tmp_path, run_kb):
    data = tmp_path / "d"
    (data / "papers").mkdir(parents=True)
    original = (
        "# RetroInfer, written by hand\r\n"
        "id: retroinfer   # the file name\r\n"
        "arxiv: '2505.02922'\r\n"
        "arxiv_meta:\r\n"
        "  title: stale title   # will go\r\n"
        "  version: 1\r\n"
        "\r\n"
        "# notes below are mine\r\n"
        'short: "RetroInfer"\r\n'
        "notes:\r\n"
        "  - 'quoted: note'   \r\n"
    )
    path = data / "papers" / "retroinfer.yaml"
    path.write_bytes(original.encode("utf-8"))
    code, _, err = run_kb("paper", "refresh", "2505.02922", "--data", data)
    assert code == 0, err
    new = path.read_bytes().decode("utf-8")
    head, rest = original.split("arxiv_meta:\r\n", 1)
    tail = rest[rest.index("\r\n\r\n") + 2 :]
    assert new.startswith(head + "arxiv_meta:\r\n  title: 'RetroInfer: A Vector")
    assert new.endswith(tail)
    assert "stale title" not in new and "\n" not in new.replace("\r\n", "")


def test_a_file_that_would_not_validate_is_left_alone(api, tmp_path, run_kb):
    data = tmp_path / "d"
    (data / "papers").mkdir(parents=True)
    path = data / "papers" / "retroinfer.yaml"
    broken = "id: retroinfer\narxiv: 2505.02922\nshort: RetroInfer\ncolour: blue\n"
    path.write_text(broken, "utf-8")
    code, out, err = run_kb("paper", "refresh", "--all", "--data", data)
    assert code == 1
    assert "1 failed" in out and "unknown key 'colour'" in err
    assert path.read_text("utf-8") == broken


def test_unknown_and_malformed_ids(api, data_dir, run_kb):
    code, out, err = run_kb("paper", "add", "2501.99999", "2505.02922", "--data", data_dir)
    assert code == 1 and "1 updated" in out and "1 failed" in out
    assert "error: 2501.99999: not found on arXiv" in err and len(api.requests) == 1
    assert "hint: arXiv has no 2501.99999: check the id" in err and "kb new paper" not in err
    # alone, it gets an empty answer: an error to retry, then reported
    code, out, err = run_kb("paper", "add", "2501.99999", "--data", data_dir)
    assert code == 1 and "error: 2501.99999: empty answer to an explicit id list (gave up after 4 tries)" in err
    assert len(api.requests) == 5
    code, _, err = run_kb("paper", "add", "2505.0292", "--data", data_dir)
    assert code == 1 and len(api.requests) == 5
    assert "error: not an arXiv id: 2505.0292 (an id from 2015 on has five digits after the dot" in err
    code, out, err = run_kb("paper", "refresh", "2606.99999", "--data", data_dir)
    assert code == 1 and "no paper file has this arXiv id (use kb paper add)" in err
    assert run_kb("paper", "refresh", "--data", data_dir)[2].startswith("error: give the arXiv ids")
    assert "not both" in run_kb("paper", "refresh", "--all", "2505.02922", "--data", data_dir)[2]


def test_failures_are_summarised_with_reasons(api, data_dir, run_kb):
    api.plan = ["503"] * 10
    code, out, err = run_kb("paper", "refresh", "--all", "--data", data_dir, "--retries", "1")
    assert code == 1
    assert f"0 updated, 0 unchanged, {arxiv_count(data_dir)} failed" in out
    assert "error: 2505.02922: HTTP 503" in err and "gave up after 2 tries" in err
    assert "hint: the files of " in err and "are unchanged (and still valid); run `kb paper refresh --all` again" in err


def test_an_id_arxiv_does_not_answer_for_says_what_to_do(api, tmp_path, data_dir, run_kb):
    """Offline or refused: no file is made, and the hint names the way on without arXiv."""
    api.plan = ["503"] * 10
    code, _, err = run_kb("paper", "add", "2609.04417", "--data", tmp_path / "d", "--retries", "0")
    assert code == 1 and not (tmp_path / "d" / "papers").exists()
    assert "hint: no file was made for 2609.04417; without arXiv, `kb new paper ID` writes one" in err
    # an id whose file is there already: kept as it is, and refreshed later
    code, _, err = run_kb("paper", "add", "2505.02922", "--data", data_dir, "--retries", "0")
    assert (
        code == 1
        and "hint: the files of 2505.02922 are unchanged (and still valid); run `kb paper add 2505.02922` again" in err
    )
    assert "kb new paper" not in err


def test_a_file_that_does_not_validate_gets_no_hint_about_arxiv(api, tmp_path, run_kb):
    data = tmp_path / "d"
    (data / "papers").mkdir(parents=True)
    (data / "papers" / "retroinfer.yaml").write_text(
        "id: retroinfer\narxiv: 2505.02922\nshort: RetroInfer\ncolour: blue\n", "utf-8"
    )
    code, _, err = run_kb("paper", "refresh", "--all", "--data", data)
    assert code == 1 and "unknown key 'colour'" in err and "hint:" not in err


def test_options_override_environment(api, data_dir, run_kb, monkeypatch):
    monkeypatch.setenv("KB_ARXIV_API_URL", "http://127.0.0.1:9/nowhere")
    code, out, _ = run_kb("paper", "refresh", "--all", "--data", data_dir, "--api-url", api.url, "--batch-size", "5")
    assert code == 0 and "3 request(s)" in out
    assert (
        run_kb("paper", "refresh", "--all", "--data", data_dir, "--batch-size", "500")[2]
        == "error: batch size must be between 1 and 100, got 500\n"
    )


def test_refetch_and_cache_files(api, data_dir, run_kb, tmp_path):
    run_kb("paper", "refresh", "2505.02922", "--data", data_dir)
    cached = tmp_path / "cache" / "arxiv" / "2505.02922.json"
    record = json.loads(cached.read_text("utf-8"))
    assert record["id"] == "2505.02922" and record["meta"]["version"] == 3
    run_kb("paper", "refresh", "2505.02922", "--data", data_dir, "--refetch")
    assert len(api.requests) == 2
    cached.write_text("garbage", "utf-8")
    code, out, _ = run_kb("paper", "refresh", "2505.02922", "--data", data_dir)
    assert code == 0 and "1 fetched" in out and len(api.requests) == 3


def test_no_progress_bar_without_a_tty(api, data_dir, run_kb):
    _, _, err = run_kb("paper", "refresh", "--all", "--data", data_dir)
    assert "\r" not in err and "it/s" not in err and "id/s" not in err


def test_help_states_the_rule(run_kb, capsys):
    import pytest

    for argv in (["paper", "--help"], ["paper", "refresh", "--help"]):
        with pytest.raises(SystemExit):
            run_kb(*argv)
        text = " ".join(capsys.readouterr().out.split())
        assert "own ONLY the top-level `arxiv_meta:` block" in text
        assert "never touch any other (hand-written) key" in text


def test_progress_bar_on_a_terminal_unless_quiet(api, data_dir, run_kb, monkeypatch):
    import sys

    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    _, _, err = run_kb("paper", "refresh", "--all", "--data", data_dir, "--refetch")
    assert "kb paper refresh" in err and "id/s" in err  # tqdm drew on stderr
    _, _, err = run_kb("paper", "refresh", "--all", "--data", data_dir, "--refetch", "--quiet")
    assert "id/s" not in err


def test_ctrl_c_reports_what_was_done(api, data_dir, run_kb, monkeypatch):
    calls = []
    real = paperfile.update_file

    def interrupting(path, meta):
        calls.append(path)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(path, meta)

    monkeypatch.setattr(paperfile, "update_file", interrupting)
    code, out, err = run_kb("paper", "refresh", "--all", "--data", data_dir)
    assert code == 130 and "interrupted" in err
    assert "(interrupted; every file written so far is complete)" in out and "2 updated" in out
    assert not load(data_dir).diagnostics or all(not d.is_error for d in load(data_dir).diagnostics)


def test_add_says_each_request_and_each_wait_on_stderr(api, tmp_path, run_kb):
    """A rate limit, then a server error, then the answer: every try and wait is said, in order."""
    api.plan = ["429:1", "503"]
    code, out, err = run_kb("paper", "add", "2505.02922", "--data", tmp_path / "d")
    assert code == 0, err
    lines = [ln for ln in err.splitlines() if ln.startswith("获取 arXiv 元数据")]
    assert lines[0] == "获取 arXiv 元数据 2505.02922 …"
    assert lines[1] == "获取 arXiv 元数据 2505.02922 …（第 2 次，等待 1 秒：速率限制）"  # Retry-After: 1
    assert lines[2].startswith("获取 arXiv 元数据 2505.02922 …（第 3 次，等待 ")
    assert lines[2].endswith("秒：服务暂时不可用（HTTP 503））") and len(lines) == 3
    assert "获取" not in out  # the report on stdout stays as it was
    _, _, err = run_kb("paper", "add", "2505.02923", "--data", tmp_path / "d", "--quiet")
    assert "获取" not in err
