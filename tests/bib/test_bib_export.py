"""BibTeX export: entry contents and types, stable keys, selections, the CLI."""

from __future__ import annotations

import datetime as dt
import re
import subprocess
import sys

import bibtexparser
import pytest

from kb import bib
from kb.data.models import ArxivMeta, Paper
from kb.knowledge.load import load_kb
from sitebuild import FIXTURE_DATA


def parse(text: str):
    lib = bibtexparser.parse_string(text)
    assert not lib.failed_blocks, [b.error for b in lib.failed_blocks]
    return lib


def fields_of(text: str) -> dict[str, str]:
    (entry,) = parse(text).entries
    return {f.key: f.value for f in entry.fields}


def test_arxiv_paper_entry(refreshed_data_dir):
    kb = load_kb(refreshed_data_dir)
    text = bib.entry_for(kb.papers["retroinfer"], kb)
    entry = parse(text).entries[0]
    assert entry.entry_type == "inproceedings"
    assert entry.key == "brown2025retroinfer"  # first author (from arxiv_meta), year, first title word
    fields = {f.key: f.value for f in entry.fields}
    assert fields["title"] == "{RetroInfer: A Vector Storage Engine for Scalable Long-Context LLM Inference}"
    assert fields["author"] == "Brown, Olivia and Xiaoming, Chen and Silva, Mateus"
    assert fields["eprint"] == "2505.02922" and fields["archivePrefix"] == "arXiv"
    assert fields["primaryClass"] == "cs.AR"
    assert fields["url"] == "https://arxiv.org/abs/2505.02922"
    assert fields["doi"] == "10.5555/retroinfer.2026"
    assert fields["booktitle"] == "VLDB 2026" and fields["note"] == "PVLDB Vol.19 Issue 5, Pages 1016-1031"
    assert "journal" not in fields  # a journal reference is no field of @inproceedings
    # the proceedings' year, as the venue names it (the preprint is from May 2025): an entry of
    # @inproceedings{booktitle = VLDB 2026, year = 2025} contradicted itself
    assert fields["year"] == "2026" and "month" not in fields


def paper(**kw) -> Paper:
    return Paper(**{"id": "p", "short": "P", "title": "A Title", "authors": ["Ada Lovelace"], **kw})


@pytest.mark.parametrize(
    "kw, entry_type, venue_field",
    [
        (dict(arxiv="2505.02922"), "misc", None),
        (dict(arxiv="2505.02922", venue={"name": "MLSys 2026"}), "inproceedings", ("booktitle", "MLSys 2026")),
        (
            dict(arxiv="2505.02922", arxiv_meta=ArxivMeta(title="T", journal_ref="J. Foo 3 (2026)")),
            "article",
            ("journal", "J. Foo 3 (2026)"),
        ),
        (
            dict(authors=["A B"], published="2026", venue={"name": "NSDI 2026", "detail": "pp. 1-2"}),
            "inproceedings",
            ("note", "pp. 1-2"),
        ),
    ],
)
def test_entry_types(kw, entry_type, venue_field):
    text = bib.entry_for(paper(**kw))
    assert parse(text).entries[0].entry_type == entry_type
    fields = fields_of(text)
    if venue_field:
        assert fields[venue_field[0]] == venue_field[1]
    assert ("eprint" in fields) == ("arxiv" in kw)


@pytest.mark.parametrize(
    "kw, year, month",
    [
        (dict(published="2026-03-04", arxiv="2505.02922"), "2026", "mar"),  # stated date first
        (dict(published="2026", arxiv="2505.02922"), "2026", None),
        (dict(arxiv="2505.02922v2", arxiv_meta=ArxivMeta(title="T", published=dt.date(2025, 4, 30))), "2025", "apr"),
        (dict(arxiv="2505.02922"), "2025", "may"),  # the month the id encodes
        (dict(arxiv="hep-th/9901001"), "1999", "jan"),
        (dict(authors=["A B"], submitted=dt.date(2024, 12, 1)), "2024", "dec"),
    ],
)
def test_year_always_from_the_best_source(kw, year, month):
    text = bib.entry_for(paper(**kw))
    fields = fields_of(text)
    assert fields["year"] == year and fields.get("month") == month
    if month:
        assert re.search(rf"^  month = {month},?$", text, re.MULTILINE)  # the month macro, unbraced


def test_a_venue_that_names_its_year_gives_the_year():
    fields = fields_of(bib.entry_for(paper(published="2025-05", venue={"name": "VLDB 2026"})))
    assert fields["year"] == "2026" and "month" not in fields


def test_author_from_the_paper_else_from_arxiv():
    meta = ArxivMeta(title="T", authors=["Jürgen Müller", "Ludwig van Beethoven"])
    assert (
        fields_of(bib.entry_for(paper(arxiv="2505.02922", arxiv_meta=meta, authors=[])))["author"]
        == 'M{\\"u}ller, J{\\"u}rgen and van Beethoven, Ludwig'
    )
    assert fields_of(bib.entry_for(paper(arxiv="2505.02922", arxiv_meta=meta, authors=["Plato"])))["author"] == "Plato"


@pytest.mark.parametrize(
    "kw, why",
    [
        (dict(authors=[], title=None), "no author (add `authors:`, or `kb paper refresh` when online); no full title"),
        (dict(arxiv="2505.02922", authors=[]), "no author"),  # an arXiv id alone made "Anonymous" entries
        (dict(title="P", published="2026"), "no full title, only the short name"),
        (dict(), "no year (add `published: YYYY`, or an arXiv id)"),
    ],
)
def test_papers_that_cannot_be_cited_get_no_entry(kw, why):
    p = paper(**kw)
    assert bib.uncitable(p).startswith(why)
    assert bib.entry_for(p) is None

    class KB:
        papers = {"p": p}

    assert bib.export_library(KB(), ["p"]) == ""


def test_references_of_the_frozen_knowledge_base_are_citable():
    """references.bib of the test knowledge base, read back: every entry has a year, an author and
    a title; every paper that can be cited is in it."""
    kb = load_kb(FIXTURE_DATA)
    library = bibtexparser.parse_string(bib.export_library(kb, kb.papers.values()))
    assert not library.failed_blocks
    for entry in library.entries:
        fields = entry.fields_dict
        assert "year" in fields and fields["year"].value.isdigit(), entry.key
        assert fields["author"].value and fields["title"].value, entry.key
    citable = [p for p in kb.papers.values() if not bib.uncitable(p)]
    assert len(library.entries) == len(citable) >= 1
    assert {e.key for e in library.entries} == {bib.citation_keys(kb)[p.id] for p in citable}


def test_keys_follow_author_or_short_year_and_first_word(sample_kb):
    keys = bib.citation_keys(sample_kb)
    assert keys["ssr"] == "valluri2026ssr"  # first author's last name
    assert keys["cascade"] == "cascade2026exploiting"  # short name, then the first new title word
    assert keys["albireo"] == "albireo"  # no stated year (keys do not change when entries gain one), no other word
    assert len(set(keys.values())) == len(keys)
    assert keys == bib.citation_keys(sample_kb)


def test_colliding_keys_get_suffixes_in_arxiv_order():
    class KB:
        papers = {
            pid: Paper(id=pid, short="Same", title="Same Title", arxiv=ax, published="2026", authors=["A Same"])
            for pid, ax in (("b-newer", "2608.00002"), ("a-older", "2605.00001"), ("c-none", None))
        }

    keys = bib.citation_keys(KB())
    assert keys == {"a-older": "same2026titlea", "b-newer": "same2026titleb", "c-none": "same2026titlec"}
    text = bib.export_library(KB(), ["c-none", "a-older", "b-newer"])
    assert [e.key for e in parse(text).entries] == ["same2026titlea", "same2026titleb", "same2026titlec"]


def test_non_arxiv_paper_uses_its_link():
    p = Paper(
        id="m",
        short="M",
        title="Meta 推理 & 100% {x}",
        links={"proceedings": "https://p.example/x.pdf"},
        venue={"name": "MLSys 2026"},
        authors=["A B"],
        published="2026",
    )
    fields = fields_of(bib.entry_for(p))
    assert "eprint" not in fields and fields["url"] == "https://p.example/x.pdf"
    assert fields["title"] == "{Meta 推理 \\& 100\\% {\\textbraceleft}x{\\textbraceright}}"


def test_cli_export_all_and_selections(refreshed_data_dir, run_kb, tmp_path):
    """After `kb paper refresh`: the papers arXiv gave authors are exported, the rest say why not."""
    data_dir = refreshed_data_dir
    out_file = tmp_path / "all.bib"
    kb = load_kb(data_dir)
    n = sum(1 for p in kb.papers.values() if not bib.uncitable(p))
    code, _, err = run_kb("bib", "export", "--data", data_dir, "-o", out_file)
    assert code == 0 and f"{n} entries written" in err
    assert "kb bib export: replayssm: left out, it cannot be cited: no author (add `authors:`" in err
    assert len(parse(out_file.read_text("utf-8")).entries) == n
    keys = lambda text: [e.key for e in parse(text).entries]  # noqa: E731
    _, brief, _ = run_kb("bib", "export", "--data", data_dir, "--brief", "inference/2026-09-03-e1")
    assert "valluri2026ssr" in keys(brief) and "brown2025retroinfer" in keys(brief)
    _, short_name, _ = run_kb("bib", "export", "--data", data_dir, "--brief", "2026-09-03-e1")
    assert short_name == brief
    _, section, _ = run_kb("bib", "export", "--data", data_dir, "--section", "s1-3-kv-cache")
    assert "brown2025retroinfer" in keys(section) and "valluri2026ssr" not in keys(section)
    _, head, err = run_kb("bib", "export", "--data", data_dir, "--section", "head")
    assert keys(head) == [] and "flashattention-4: left out" in err  # anchored there, but no authors or year
    _, topic, _ = run_kb("bib", "export", "--data", data_dir, "--topic", "inference")
    assert len(keys(topic)) == n  # every sample paper is filed under inference
    _, everything, _ = run_kb("bib", "export", "--data", data_dir)
    assert everything == out_file.read_text("utf-8")  # deterministic


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--topic", "nope"], "unknown topic 'nope'; expected one of: inference"),
        (["--section", "nope"], "unknown section 'nope'"),
        (["--brief", "nope"], "unknown brief 'nope'"),
    ],
)
def test_cli_export_unknown_selection(data_dir, run_kb, argv, message):
    code, _, err = run_kb("bib", "export", "--data", data_dir, *argv)
    assert code == 1 and err.startswith(f"error: {message}")


def test_site_module_stays_offline():
    probe = (
        "import sys, kb.bib; print(sorted(m for m in ('requests', 'kb.arxiv', 'arxiv', 'urllib3') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
