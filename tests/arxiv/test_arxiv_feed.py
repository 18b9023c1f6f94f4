"""Atom answers -> ArxivMeta: recorded entries, API error entries, malformed XML."""

from __future__ import annotations

import datetime as dt

import pytest

from fakeapi import feed, recorded_entries, response
from kb.arxiv import feed as atom


def parse_entries(*bases: str):
    entries = recorded_entries()
    return atom.parse(feed([entries[b] for b in bases], "id_list=" + ",".join(bases), len(bases)))


def test_recorded_entries_cover_every_sample_paper_with_an_arxiv_id(root):
    from kb.knowledge.index import load_kb

    kb = load_kb(root / "data")
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
        "Cascade: Exploiting SLO-Aware Latency Budget for Fair and High Goodput LLM Inference Serving")


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
    bomb = (b'<?xml version="1.0"?><!DOCTYPE feed [<!ENTITY a "aaaaaaaaaa">]>'
            b'<feed xmlns="http://www.w3.org/2005/Atom"><title>&a;</title></feed>')
    assert atom.parse(bomb) == (0, {})


def test_clean_text():
    assert atom.clean("  a\n  b\t c\x07 ") == "a b c"
    assert atom.clean("   ") is None
    assert atom.clean("x" * 10, limit=5) == "xxxx…"
