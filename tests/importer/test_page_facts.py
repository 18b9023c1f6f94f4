"""The page built from the imported seed shows every fact the page built from the hand-encoded record
shows: arXiv ids, section links, statuses, priorities, stars, credibility and stated figures, each as
often (the wording differs: the sample data is reworded).  The part after the signature (核对, where
the hand record's acknowledgements are) is left out."""

from __future__ import annotations

import re
import shutil
from collections import Counter
from pathlib import Path

from bs4 import BeautifulSoup

from kb.importer.batch import import_files
from kb.knowledge.load import load_kb
from kb.render.brief import page
from sitebuild import FIXTURE_DATA

KEY = "inference/2026-09-03-e1"


def page_facts(data: Path) -> dict[str, Counter[str]]:
    html = page(load_kb(data), KEY)
    html = html[: html.find('id="checks"')] if 'id="checks"' in html else html
    soup = BeautifulSoup(html, "html.parser")
    text = soup.get_text(" ")
    bare = re.sub(r"\s+", "", text)
    return {
        "ids": Counter(re.findall(r"\d{4}\.\d{4,5}", text)),
        "sections": Counter(a["href"].split("#")[1] for a in soup.find_all("a", href=True) if "#sec-" in a["href"]),
        "statuses": Counter(c for el in soup.select("[class*=kb-status-]") for c in el["class"]),
        "status words": Counter(re.findall(r"NET-new|待锚入|已锚入|邻接预备|待核实", text)),
        "priorities": Counter(re.findall(r"P[0-3]", text)),
        "stars": Counter(re.findall(r"⭐+", text)),
        "credibility": Counter(re.findall(r"可信度 (极高|高|中-低|中|低)", text)),
        "figures": Counter(re.findall(r"\d+(?:条|件|篇|个|组)", bare)),
    }


def test_the_imported_seeds_page_shows_every_fact_of_the_hand_encoded_page(tmp_path, seed_text):
    data = tmp_path / "data"
    shutil.copytree(FIXTURE_DATA, data)
    (tmp_path / "seed.txt").write_text(seed_text, "utf-8")
    (result,) = import_files(data, [tmp_path / "seed.txt"], write=True, force=True)
    assert result.imported.misses == []
    hand, imported = page_facts(FIXTURE_DATA), page_facts(data)
    assert hand["ids"] and hand["sections"] and hand["stars"] and hand["credibility"]
    assert imported == hand
