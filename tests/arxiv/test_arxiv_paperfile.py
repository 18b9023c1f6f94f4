"""Paper files: arxiv_meta block surgery, safe quoting (property-based), atomic writes."""

from __future__ import annotations

import datetime as dt
import os
import stat

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ownedblock import without_block

from kb.data import atomic, paperfile, yamlstrict
from kb.data.loader import validate
from kb.data.models import ArxivMeta, Paper
from kb.data.text import clean

META = ArxivMeta(title="RetroInfer: A Vector Storage Engine", authors=["A B"], version=2, published=dt.date(2025, 5, 1))

# --------------------------------------------------------------------------- surgery


@pytest.mark.parametrize(
    "text",
    [
        "id: x\nshort: X\n",
        "id: x\nshort: X",  # no final newline
        "id: x\narxiv_meta:\n  title: old\nshort: X\n",
        "id: x\narxiv_meta: {title: old}  # flow\nshort: X\n",
        "id: x\narxiv_meta:\n  title: |\n    a literal\n    block\n\n# mine\nshort: X\n",
        "id: x\nshort: X\narxiv_meta:\n  title: old\n  authors:\n  - a\n  - b\n",
        "---\nid: x\nshort: X\n# last comment\n",
        "\ufeffid: x\r\nshort: X\r\n",
        "id: x\nnotes:\n  - >-\n    folded\n    text\nshort: X\n",
        "  id: x\n  short: X\n",  # indented document
    ],
)
def test_surgery_keeps_every_other_byte(text):
    new = paperfile.with_meta(text, META)
    kept = without_block(text)
    assert without_block(new) == (kept if kept.endswith("\n") else kept + "\n")
    assert paperfile.current_meta(new) == META
    assert paperfile.with_meta(new, META) == new  # idempotent
    located, diags = yamlstrict.load_text(new.removeprefix("\ufeff").replace("\r\n", "\n"), "t")
    assert not diags
    old, _ = yamlstrict.load_text(text.removeprefix("\ufeff").replace("\r\n", "\n"), "t")
    assert {k: v for k, v in located.data.items() if k != "arxiv_meta"} == {
        k: v for k, v in old.data.items() if k != "arxiv_meta"
    }


@pytest.mark.parametrize(
    "text, message",
    [
        ("{id: x, short: X}\n", "flow style"),
        ("- a\n", "expected a mapping"),
        ("id: x\n---\nid: y\n", "one YAML document"),
        ("id: [x\n", "not valid YAML"),
        ("", "empty"),
    ],
)
def test_surgery_refuses_what_it_cannot_do(text, message):
    with pytest.raises(paperfile.PaperFileError, match=message):
        paperfile.with_meta(text, META)


def test_check_refuses_invalid_results(tmp_path):
    path = tmp_path / "x.yaml"
    with pytest.raises(paperfile.PaperFileError, match="unknown key 'colour'"):
        paperfile.check("id: x\nshort: X\ncolour: red\n", path)
    with pytest.raises(paperfile.PaperFileError, match="must equal the file name"):
        paperfile.check("id: y\nshort: X\n", path)


def test_update_file_reports_unchanged_without_writing(tmp_path):
    path = tmp_path / "x.yaml"
    path.write_text("id: x\nshort: X\n", "utf-8")
    assert paperfile.update_file(path, META) == "updated"
    mtime = path.stat().st_mtime_ns
    assert paperfile.update_file(path, META) == "unchanged"
    assert path.stat().st_mtime_ns == mtime


def test_scan_finds_files_by_arxiv_id_even_when_broken(tmp_path):
    papers = tmp_path / "papers"
    papers.mkdir()
    (papers / "a.yaml").write_text("id: a\nshort: A\narxiv: 2505.02922v2\n", "utf-8")
    (papers / "b.yaml").write_text("id: b\narxiv: hep-th/9901001\nshort: [broken\n", "utf-8")
    (papers / ".c.yaml.abc.tmp").write_text("id: c\narxiv: 2601.00001\n", "utf-8")
    index = paperfile.scan(tmp_path)
    assert index.path_for("arXiv:2505.02922") == papers / "a.yaml"
    assert index.path_for("hep-th/9901001v3") == papers / "b.yaml"
    assert index.path_for("2601.00001") is None and index.ids == {"a", "b"}


@pytest.mark.parametrize(
    "title, short, paper_id",
    [
        ("RetroInfer: A Vector Storage Engine for Scalable Long-Context LLM Inference", "RetroInfer", "retroinfer"),
        ("RTP-LLM: High-Performance Alibaba LLM Inference Engine", "RTP-LLM", "rtp-llm"),
        ("The Silent Hyperparameter", "The Silent Hyperparameter", "the-silent-hyperparameter"),
        ("Attention Is All You Need", "Attention Is All You Need", "attention"),
        ("Towards Efficient Serving of Mixture-of-Experts Models under Tight Memory", "Efficient", "efficient"),
        ("推理系统的调度", "推理系统的调度", "arxiv-2601-00001"),
    ],
)
def test_names_for_new_files(title, short, paper_id):
    assert paperfile.derive_short(title) == short
    assert paperfile.derive_id(short, title, "2601.00001", set()) == paper_id


def test_ids_are_made_unique():
    assert paperfile.derive_id("X", "X", None, {"x", "x-2"}) == "x-3"


@pytest.mark.parametrize(
    "title", ["Index: Fast Retrieval for KV Caches", "Index", "INDEX", "The Index of Everything Big Here"]
)
def test_reserved_ids_are_never_derived(title):
    from kb.data.models import RESERVED_PAPER_IDS

    short = paperfile.derive_short(title)
    paper_id = paperfile.derive_id(short, title, "2601.00001", set())
    assert paper_id not in RESERVED_PAPER_IDS and paper_id == "index-2"
    assert paperfile.derive_id(short, title, None, {"index-2"}) == "index-3"


# --------------------------------------------------------------------------- quoting

_raw = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=60)
_tricky = st.sampled_from(
    [
        "NO",
        "yes",
        "~",
        "null",
        "2505.02922",
        "0x1F",
        "- a",
        "a: b",
        "#x",
        "'q'",
        '"q"',
        "@at",
        "`b`",
        "!tag",
        "&anchor",
        "*alias",
        "{a}",
        "[b]",
        "1e3",
        "2025-05-01",
        "%x",
        "a #b",
        "|",
        ">",
        "? k",
        "\\",
        "…",
        "Zoë O'Neil",
        "\u00a0x",
        "x\u0085y",
        "\x1bz",
        "a\u2028b",
        "\ufeffbom",
        "\ufffe",
        "\U0001f600 emoji",
        "tab\there",
    ]
)
# what the fetch path writes: any text after feed.clean (as arXiv answers and BibTeX imports are)
_value = st.one_of(_raw, _tricky).map(clean).filter(bool)


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(
    title=_value,
    authors=st.lists(_value, max_size=4),
    abstract=st.one_of(st.none(), _value),
    comment=st.one_of(st.none(), _value),
    doi=st.one_of(st.none(), _value),
)
def test_any_text_round_trips_through_the_strict_reader(title, authors, abstract, comment, doi):
    meta = ArxivMeta(title=title, authors=authors, abstract=abstract, comment=comment, doi=doi, version=1)
    text = paperfile.new_paper_text("x", "2505.02922", title, meta)
    located, diags = yamlstrict.load_text(text, "x.yaml")  # refuses tags, anchors and aliases
    assert not diags, diags
    paper, diags = validate(Paper, located)
    assert not diags, diags
    assert paper.arxiv_meta == meta and paper.short == title
    assert paperfile.with_meta(text, meta) == text


def test_clean_text():
    assert clean("  a\n  b\t c\x07 ") == "a b c"
    assert clean("   ") is None and clean(None) is None
    assert clean("x" * 10, limit=5) == "xxxx…"


@given(_raw)
def test_clean_text_is_always_writable(raw):
    value = clean(raw)
    if value:
        located, diags = yamlstrict.load_text(paperfile.dump({"k": value}), "x")
        assert not diags and located.data == {"k": value}


# --------------------------------------------------------------------------- atomic writes


def test_write_atomic_replaces_and_keeps_the_mode(tmp_path, monkeypatch):
    path = tmp_path / "f.yaml"
    path.write_text("old", "utf-8")
    os.chmod(path, 0o640)
    synced = []
    real_fsync = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(fd), real_fsync(fd)))
    atomic.write_atomic(path, "new")
    assert path.read_text("utf-8") == "new"
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert len(synced) == 2  # the file, then the directory
    assert [p.name for p in tmp_path.iterdir()] == ["f.yaml"]


def test_write_atomic_failure_keeps_the_old_file(tmp_path, monkeypatch):
    path = tmp_path / "f.yaml"
    path.write_text("old", "utf-8")

    def crash(src, dst):
        raise OSError("disk gone")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(OSError, match="disk gone"):
        atomic.write_atomic(path, "new")
    assert path.read_text("utf-8") == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["f.yaml"]  # temp file removed


def test_new_files_get_default_permissions(tmp_path):
    path = tmp_path / "sub" / "new.json"
    atomic.write_atomic(path, b"{}")
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~umask
    assert atomic.is_temp(".new.json.x1y2.tmp") and not atomic.is_temp("new.json")
