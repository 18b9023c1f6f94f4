"""BibTeX import: paper files from entries with arXiv eprints, located errors,
and the export -> import round trip over the sample data."""

from __future__ import annotations

import pytest

from kb import bib
from kb.data.loader import load
from kb.knowledge.load import load_kb

GOOD = r"""% a comment line
@article{valluri2026ssr,
  title = {{SSR}: Self-Speculation for Faster Reasoning Models},
  author = {Valluri, Ravisri},
  journal = {arXiv preprint arXiv:2608.20359},
  year = {2026},
  month = aug,
}

@misc{mueller2025weave,
  title = {Token{W}eave \& 100\% more},
  author = {M{\"u}ller, J{\"u}rgen and Zo{\"e} O'Neil-Smith},
  eprint = {2505.11329v2},
  archivePrefix = {arXiv},
  primaryClass = {cs.DC},
  doi = {10.5555/weave},
}

@inproceedings{plain2026,
  title = {A Paper Without {arXiv}},
  booktitle = {MLSys 2026},
  year = 2026,
  url = {https://example.org/paper.pdf},
}
"""


def write(tmp_path, text: str, name: str = "in.bib"):
    path = tmp_path / name
    path.write_text(text, "utf-8")
    return path


def test_import_creates_papers_for_arxiv_entries(tmp_path, run_kb):
    data = tmp_path / "data"
    code, out, err = run_kb("bib", "import", write(tmp_path, GOOD), "--data", data)
    assert code == 0, err
    assert "3 entries: 2 created, 0 already had a paper file, 1 skipped, 0 failed" in out
    assert "'plain2026': skipped: no arXiv eprint" in err
    loaded = load(data)
    assert not loaded.diagnostics
    ssr = loaded.papers["ssr"][0]
    assert ssr.arxiv == "2608.20359" and ssr.short == "SSR" and ssr.published == "2026-08"
    assert ssr.arxiv_meta.title == "SSR: Self-Speculation for Faster Reasoning Models"
    assert ssr.arxiv_meta.authors == ["Ravisri Valluri"]
    assert ssr.arxiv_meta.journal_ref is None  # "arXiv preprint …" is not a journal
    weave = loaded.papers["tokenweave"][0]
    assert weave.arxiv == "2505.11329v2"
    assert weave.arxiv_meta.title == "TokenWeave & 100% more"
    assert weave.arxiv_meta.authors == ["Jürgen Müller", "Zoë O'Neil-Smith"]
    assert weave.arxiv_meta.doi == "10.5555/weave" and weave.arxiv_meta.primary_category == "cs.DC"


def test_import_all_and_existing_papers(data_dir, run_kb, tmp_path):
    before = {p.name: p.read_bytes() for p in (data_dir / "papers").glob("*.yaml")}
    code, out, _ = run_kb("bib", "import", write(tmp_path, GOOD), "--data", data_dir, "--all")
    assert code == 0
    assert "2 already had a paper file" in out and "1 created" in out
    after = {p.name: p.read_bytes() for p in (data_dir / "papers").glob("*.yaml")}
    assert {n: b for n, b in after.items() if n in before} == before  # existing files untouched
    new = load_kb(data_dir).papers["paper"]  # first significant title word
    assert new.title == "A Paper Without arXiv" and new.venue.name == "MLSys 2026"
    assert new.links.other == "https://example.org/paper.pdf" and new.published == "2026"


@pytest.mark.parametrize(
    "text, where, message",
    [
        (
            "@misc{a,\n  title = {X},\n}\n\n@misc{a,\n  title = {Y},\n}\n",
            "5:1",
            "duplicate citation key 'a' (first defined at line 1)",
        ),
        (
            "@misc{ok, title = {X}, eprint = {2505.02922}}\n\n"
            "  @article{b,\n  title = {never closed\n\n@misc{c, title={Z}}\n",
            "3:3",
            "cannot parse this block",
        ),
        (
            "@misc{a,\n  title = {X},\n  eprint = {not-an-id},\n}\n",
            "3:3",
            "entry 'a': eprint 'not-an-id' is not an arXiv id",
        ),
        ("@misc{a title = {X}}\n", "1:1", "cannot parse this block: Expected comma after entry key"),
        ("\n@misc{a title}\n", "2:1", "malformed entry: bad citation key 'a title'"),
        ("@misc{a,\n  title = {X},\n  title = {Y},\n}\n", "1:1", "duplicate field(s) title in one entry"),
        ("@misc{a,\n  author = {X Y},\n  eprint = {2505.02922},\n}\n", "1:1", "entry 'a' has no title"),
    ],
)
def test_import_errors_are_located_and_nothing_is_written(tmp_path, run_kb, text, where, message):
    data = tmp_path / "data"
    path = write(tmp_path, text, "bad.bib")
    code, out, err = run_kb("bib", "import", path, "--data", data)
    assert code == 1
    assert f"bad.bib:{where}: {message}" in err
    assert not (data / "papers").exists() or not list((data / "papers").iterdir())


def test_import_never_takes_a_reserved_id(tmp_path, run_kb):
    text = (
        "@misc{a, title = {Index: Fast Retrieval}, eprint = {2601.00007}, year = 2026}\n"
        "@misc{b, title = {Index}, author = {A B}, year = 2026}\n"
    )
    data = tmp_path / "data"
    code, _, err = run_kb("bib", "import", write(tmp_path, text), "--data", data, "--all")
    assert code == 0, err
    assert sorted(p.name for p in (data / "papers").iterdir()) == ["index-2.yaml", "index-3.yaml"]
    assert run_kb("validate", data)[0] == 0


def test_foreign_latex_and_names_are_read_as_text():
    from kb.bib.read import paper_fields_from_entry, parse

    lib = parse(r"""@string{conf = "Proc. of X"}
@InProceedings{k,
  Title = "M{\"u}ller and \'Etienne \c{C}a\u{g}lar \ss{} \emph{New} {GPU}s~x",
  AUTHOR = {von Neumann, Jr, John and {Team A and B} and Plato and M{\"u}ller, J{\"u}rgen},
  booktitle = conf,
  month = {August}, year = "2026",
  doi = {10.1000/a\_b}, url = {https://example.org/{x}},
}""")
    assert not lib.failed_blocks
    bp = paper_fields_from_entry(lib.entries[0])
    assert bp.title == "Müller and Étienne Çağlar ß New GPUs x"
    assert bp.authors == ("John von Neumann Jr", "Team A and B", "Plato", "Jürgen Müller")
    assert (bp.venue, bp.month, bp.year) == ("Proc. of X", 8, "2026")
    assert (bp.doi, bp.url) == ("10.1000/a_b", "https://example.org/x")


def test_a_name_bibtex_cannot_split_is_a_located_error(tmp_path, run_kb):
    code, _, err = run_kb(
        "bib", "import", write(tmp_path, "@misc{a,\n  title = {T},\n  author = {Doe, }\n}\n"), "--data", tmp_path / "d"
    )
    assert code == 1 and "in.bib:1:1: cannot read this block:" in err and "Doe" in err


def test_import_of_a_missing_file(tmp_path, run_kb):
    code, _, err = run_kb("bib", "import", tmp_path / "nope.bib", "--data", tmp_path / "d")
    assert code == 1 and err.startswith("error: cannot read")


def bib_view(paper) -> dict:
    """What BibTeX carries for a paper (key aside)."""
    return bib.fields_for(paper)


@pytest.mark.parametrize("fixture", ["data_dir", "refreshed_data_dir"])
def test_export_import_round_trip(fixture, request, run_kb, tmp_path):
    source = request.getfixturevalue(fixture)
    citable = [p for p in load_kb(source).papers.values() if not bib.uncitable(p)]
    out_file = tmp_path / "export.bib"
    assert run_kb("bib", "export", "--data", source, "-o", out_file)[0] == 0
    target = tmp_path / "imported"
    code, out, err = run_kb("bib", "import", out_file, "--data", target, "--all")
    assert code == 0, err
    assert f"{len(citable)} created" in out
    assert run_kb("validate", target)[0] == 0
    imported = load_kb(target)
    by_identity = {(p.arxiv_base, p.display_title): p for p in imported.papers.values()}
    assert len(by_identity) == len(citable)
    for paper in citable:
        twin = by_identity[(paper.arxiv_base, paper.display_title)]
        assert bib_view(twin) == bib_view(paper), paper.id
    # and a second export of the imported data gives the same entries (keys aside)
    again = tmp_path / "again.bib"
    assert run_kb("bib", "export", "--data", target, "-o", again)[0] == 0
    strip = lambda t: sorted(e.split(",", 1)[1] for e in t.split("\n@"))  # noqa: E731
    assert strip(again.read_text("utf-8")) == strip(out_file.read_text("utf-8"))


def test_round_trip_without_all_keeps_every_arxiv_paper(data_dir, run_kb, tmp_path):
    out_file = tmp_path / "export.bib"
    run_kb("bib", "export", "--data", data_dir, "-o", out_file)
    citable = [p for p in load_kb(data_dir).papers.values() if not bib.uncitable(p)]
    with_arxiv = sum(1 for p in citable if p.arxiv)
    code, out, _ = run_kb("bib", "import", out_file, "--data", tmp_path / "imported")
    assert code == 0 and f"{with_arxiv} created" in out and f"{len(citable) - with_arxiv} skipped" in out
