"""Atom answers -> ArxivMeta: recorded entries, API error entries, malformed XML,
duplicate ids; the reader's imports."""

from __future__ import annotations

import datetime as dt
import subprocess
import sys

import pytest
from fakeapi import feed, recorded_entries, response

from kb.arxiv import feed as atom


def parse_entries(*bases: str):
    entries = recorded_entries()
    return atom.parse(feed([entries[b] for b in bases], "id_list=" + ",".join(bases), len(bases)))


def test_recorded_entries_cover_every_sample_paper_with_an_arxiv_id(root):
    from kb.knowledge.load import load_kb
    from sitebuild import FIXTURE_DATA

    kb = load_kb(FIXTURE_DATA)
    assert set(recorded_entries()) == {p.arxiv_base for p in kb.papers.values() if p.arxiv_base}


def test_entry_fields_are_read_and_normalised():
    count, found = parse_entries("2505.02922", "2608.20359")
    assert count == 2
    retro = found["2505.02922"]
    assert retro.title == "RetroInfer: A Vector Storage Engine for Scalable Long-Context LLM Inference"
    assert retro.version == 3
    assert retro.doi == "10.5555/retroinfer.2026"
    assert retro.journal_ref == "Proc. VLDB Endow. 19(5): 1016-1031 (2026)"
    assert retro.comment == "Accepted to VLDB 2026"
    assert retro.primary_category == retro.categories[0]
    assert "\n" not in retro.abstract and "  " not in retro.abstract
    ssr = found["2608.20359"]
    assert ssr.authors == ["Ravisri Valluri"]
    assert ssr.published == dt.date(2026, 6, 17)
    assert ssr.primary_category == "cs.CL" and ssr.categories == ["cs.CL", "cs.LG"]


def test_wrapped_title_is_unwrapped():
    _, found = parse_entries("2608.06557")
    assert found["2608.06557"].title == (
        "Cascade: Exploiting SLO-Aware Latency Budget for Fair and High Goodput LLM Inference Serving"
    )


def test_malformed_xml_is_an_error():
    with pytest.raises(atom.MalformedFeed, match="malformed XML"):
        atom.parse(response("malformed.xml"))


def test_html_instead_of_atom_is_an_error():
    with pytest.raises(atom.MalformedFeed, match="expected an Atom feed"):
        atom.parse(b"<html><body>busy</body></html>")


def test_api_error_entry_is_an_error():
    with pytest.raises(atom.ApiError, match="incorrect id format for 2505.0292"):
        atom.parse(response("error-bad-id.xml"))


def test_empty_answer_has_no_entries():
    assert atom.parse(response("empty.xml")) == (0, {})


def test_entry_without_dates_is_reported_not_dropped():
    entry = recorded_entries()["2505.02922"]
    broken = "\n".join(line for line in entry.splitlines() if "<published>" not in line)
    count, found = atom.parse(feed([broken], "q", 1))
    assert count == 1
    assert "lacks required fields" in found["2505.02922"]


def test_entities_are_not_expanded():
    bomb = (
        b'<?xml version="1.0"?><!DOCTYPE feed [<!ENTITY a "aaaaaaaaaa">]>'
        b'<feed xmlns="http://www.w3.org/2005/Atom"><title>&a;</title></feed>'
    )
    assert atom.parse(bomb) == (0, {})


def test_an_id_listed_twice_is_refused():
    entries = recorded_entries()
    other_version = entries["2505.02922"].replace("2505.02922v3", "2505.02922v1")
    for body in ([entries["2505.02922"]] * 2, [entries["2505.02922"], other_version]):
        with pytest.raises(atom.BadAnswer, match="lists arXiv 2505.02922 more than once"):
            atom.parse(feed(body, "q", 2))


def test_every_field_is_read():
    entry = """<entry><id>http://arxiv.org/abs/hep-th/9901001v2</id>
      <title>A <b xmlns="x">bold</b>
        title</title><summary>Ab  stract</summary>
      <published>1999-01-04T10:00:00Z</published><updated>1999-02-01T10:00:00+01:00</updated>
      <author><name>A One</name></author><author><name>A One</name></author><author><name>B\tTwo</name></author>
      <category term="hep-th"/><category term="gr-qc"/><arxiv:primary_category term="hep-th"/>
      <arxiv:doi>10.1/x</arxiv:doi><arxiv:journal_ref>J. 1 (1999)</arxiv:journal_ref>
      <arxiv:comment>5 pages</arxiv:comment></entry>"""
    count, found = atom.parse(feed([entry], "q", 1))
    meta = found["hep-th/9901001"]
    assert count == 1 and meta.version == 2 and meta.title == "A bold title" and meta.abstract == "Ab stract"
    assert (meta.published, meta.updated) == (dt.date(1999, 1, 4), dt.date(1999, 2, 1))
    assert meta.authors == ["A One", "B Two"] and meta.categories == ["hep-th", "gr-qc"]
    assert (meta.primary_category, meta.doi, meta.journal_ref, meta.comment) == (
        "hep-th",
        "10.1/x",
        "J. 1 (1999)",
        "5 pages",
    )


def test_a_bad_date_is_reported():
    entry = recorded_entries()["2505.02922"].replace("2025-05-01T09:33:07Z", "May 1st")
    _, found = atom.parse(feed([entry], "q", 1))
    assert found["2505.02922"] == "the arXiv entry does not fit the schema: published: not a date and time: 'May 1st'"


def test_the_reader_imports_no_arxiv_package_and_no_file_writer():
    probe = (
        "import sys, kb.arxiv.feed; "
        "print(sorted(m for m in ('arxiv', 'feedparser', 'kb.data.paperfile') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
