"""BibTeX export: entry contents, stable keys, escaping, selections, the CLI."""

from __future__ import annotations

import subprocess
import sys

import bibtexparser
import pytest
from hypothesis import given
from hypothesis import strategies as st

from kb import bib
from kb.knowledge.index import load_kb
from kb.data.models import Paper


def parse(text: str):
    lib = bibtexparser.parse_string(text)
    assert not lib.failed_blocks, [b.error for b in lib.failed_blocks]
    return lib


def test_arxiv_paper_entry(refreshed_data_dir):
    kb = load_kb(refreshed_data_dir)
    text = bib.entry_for(kb.papers["retroinfer"], kb)
    entry = parse(text).entries[0]
    assert entry.entry_type == "inproceedings"
    assert entry.key == "brown2025retroinfer"  # first author (from arxiv_meta), year, first title word
    fields = {f.key: f.value for f in entry.fields}
    assert fields["title"] == "{RetroInfer: A Vector Storage Engine for Scalable Long-Context LLM Inference}"
    assert fields["eprint"] == "2505.02922" and fields["archivePrefix"] == "arXiv"
    assert fields["primaryClass"] == "cs.AR"
    assert fields["url"] == "https://arxiv.org/abs/2505.02922"
    assert fields["doi"] == "10.5555/retroinfer.2026"
    assert fields["booktitle"] == "VLDB 2026" and fields["journal"] == "Proc. VLDB Endow. 19(5): 1016-1031 (2026)"
    assert fields["year"] == "2025" and fields["month"] == "may"
    assert "month = may," in text  # the month macro, unbraced


def test_keys_follow_author_or_short_year_and_first_word(sample_kb):
    keys = bib.citation_keys(sample_kb)
    assert keys["ssr"] == "valluri2026ssr"  # first author's last name
    assert keys["cascade"] == "cascade2026exploiting"  # short name, then the first new title word
    assert keys["albireo"] == "albireo"  # no year, no other word
    assert len(set(keys.values())) == len(keys)
    assert keys == bib.citation_keys(sample_kb)


def test_colliding_keys_get_suffixes_in_arxiv_order():
    class KB:
        papers = {
            pid: Paper(id=pid, short="Same", title="Same Title", arxiv=ax, published="2026")
            for pid, ax in (("b-newer", "2608.00002"), ("a-older", "2605.00001"), ("c-none", None))
        }

    keys = bib.citation_keys(KB())
    assert keys == {"a-older": "same2026titlea", "b-newer": "same2026titleb", "c-none": "same2026titlec"}
    text = bib.export_library(KB(), ["c-none", "a-older", "b-newer"])
    assert [e.key for e in parse(text).entries] == ["same2026titlea", "same2026titleb", "same2026titlec"]


def test_non_arxiv_paper_uses_its_link():
    paper = Paper(id="m", short="M", title="Meta 推理 & 100% {x}", links={"proceedings": "https://p.example/x.pdf"},
                  venue={"name": "MLSys 2026"})
    entry = parse(bib.entry_for(paper)).entries[0]
    fields = {f.key: f.value for f in entry.fields}
    assert "eprint" not in fields and fields["url"] == "https://p.example/x.pdf"
    assert bib.latex_unescape(fields["title"]) == "Meta 推理 & 100% {x}"


_plain = st.text(st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp")), min_size=1, max_size=40)


@given(_plain)
def test_escaping_round_trips(text):
    assert bib.latex_unescape(bib.latex_escape(text)) == " ".join(text.split())


@given(st.lists(_plain.map(lambda s: " ".join(s.split())).filter(bool), min_size=1, max_size=4))
def test_author_lists_round_trip(names):
    value = " and ".join(bib.bib_name(n) for n in names)
    lib = parse("@misc{k, author = {" + value + "}}")
    assert bib.parse_names(lib.entries[0]["author"]) == names


def test_decoding_foreign_latex():
    assert bib.latex_unescape(r"M{\"u}ller and \'Etienne \c{C}a\u{g}lar \ss{} \emph{New} {GPU}s~x") == \
        "Müller and Étienne Çağlar ß New GPUs x"
    assert bib.parse_names(r"von Neumann, Jr, John and {Team A and B} and Plato") == \
        ["John von Neumann Jr", "Team A and B", "Plato"]


def test_cli_export_all_and_selections(data_dir, run_kb, tmp_path):
    out_file = tmp_path / "all.bib"
    n = len(load_kb(data_dir).papers)
    code, _, err = run_kb("bib", "export", "--data", data_dir, "-o", out_file)
    assert code == 0 and f"{n} entries written" in err
    assert len(parse(out_file.read_text("utf-8")).entries) == n
    keys = lambda text: [e.key for e in parse(text).entries]  # noqa: E731
    _, brief, _ = run_kb("bib", "export", "--data", data_dir, "--brief", "inference/2026-09-03-e1")
    assert "valluri2026ssr" in keys(brief) and "retroinfer2025vector" in keys(brief)
    _, short_name, _ = run_kb("bib", "export", "--data", data_dir, "--brief", "2026-09-03-e1")
    assert short_name == brief
    _, section, _ = run_kb("bib", "export", "--data", data_dir, "--section", "s1-3-kv-cache")
    assert "retroinfer2025vector" in keys(section) and "valluri2026ssr" not in keys(section)
    _, head, _ = run_kb("bib", "export", "--data", data_dir, "--section", "head")
    assert keys(head) == ["flashattention4"]  # anchored there
    _, topic, _ = run_kb("bib", "export", "--data", data_dir, "--topic", "inference")
    assert len(keys(topic)) == n  # every sample paper is filed under inference
    _, everything, _ = run_kb("bib", "export", "--data", data_dir)
    assert everything == out_file.read_text("utf-8")  # deterministic


@pytest.mark.parametrize("argv, message", [
    (["--topic", "nope"], "unknown topic 'nope'; expected one of: inference"),
    (["--section", "nope"], "unknown section 'nope'"),
    (["--brief", "nope"], "unknown brief 'nope'"),
])
def test_cli_export_unknown_selection(data_dir, run_kb, argv, message):
    code, _, err = run_kb("bib", "export", "--data", data_dir, *argv)
    assert code == 1 and err.startswith(f"error: {message}")


def test_site_module_stays_offline():
    probe = "import sys, kb.bib; print(sorted(m for m in ('requests', 'kb.arxiv', 'arxiv', 'urllib3') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
