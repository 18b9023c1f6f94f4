"""kb.data.arxiv_id: parsing and normalising one id, and finding ids in running text.

New-style ids are ``YYMM.NNNN`` from 0704 to 1412 and ``YYMM.NNNNN`` from 1501 on;
old-style ids are ``archive[.SUBJ]/YYMMNNN``.  Both take a ``vN`` suffix and, in
text, an ``arXiv:`` prefix.  Numbers that only look like ids (page ranges, version
numbers, URL path segments, ids glued to ``/`` or ``-``) are not ids.
"""

from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from kb.data.arxiv_id import ArxivId, canonical, find_ids, normalize, parse, why_not


@pytest.mark.parametrize(
    "text, base, version",
    [
        ("2505.02922", "2505.02922", None),
        ("2505.02922v2", "2505.02922", 2),
        ("2505.02922V2", "2505.02922", 2),
        ("arXiv:2505.02922", "2505.02922", None),
        ("ARXIV:2505.02922v12", "2505.02922", 12),
        ("  2505.02922  ", "2505.02922", None),
        ("0704.0001", "0704.0001", None),  # the first new-style id
        ("1412.9999", "1412.9999", None),  # the last month of 4-digit numbers
        ("1501.00001", "1501.00001", None),  # the first month of 5-digit numbers
        ("9912.12345", "9912.12345", None),
        ("hep-th/9901001", "hep-th/9901001", None),
        ("hep-th/9901001v3", "hep-th/9901001", 3),
        ("arXiv:hep-th/9901001", "hep-th/9901001", None),
        ("cs/0112017", "cs/0112017", None),
        ("math.GT/0309136", "math.GT/0309136", None),
        ("MATH.gt/0309136", "math.GT/0309136", None),  # archive lower case, subject class upper case
        ("Cond-Mat/0102536v1", "cond-mat/0102536", 1),
    ],
)
def test_parse_valid_ids(text, base, version):
    parsed = parse(text)
    assert parsed == ArxivId(base, version)
    assert normalize(text) == base
    assert str(parsed) == base + (f"v{version}" if version else "")


@pytest.mark.parametrize(
    "text",
    [
        "",
        "arXiv:",
        "2505.0292",
        "2505.029221",
        "12505.02922",
        "2505-02922",
        "2505.02922v",
        "2505.02922v0",
        "2505.02922v1000",
        "2505.02922.1",
        "2505.02922a",
        "a2505.02922",
        "1501.1234",  # 4-digit number after 2014
        "2401.1234",
        "1412.12345",  # 5-digit number before 2015
        "0704.00001",
        "0612.1234",  # before new-style ids began (April 2007)
        "2513.12345",
        "2500.12345",  # no month 13 or 00
        "arXiv: 2505.02922",  # one id alone: no space after the prefix
        "arxiv.org/abs/2505.02922",
        "abs/2505.02922",
        "2505.02922/x",
        "10.48550/arXiv.2505.02922",
        "hep-th/990100",
        "hep-th/99010011",
        "hep-th/9913001",
        "nope/9901001",
        "hep-th.gt1/9901001",
        "1016-1031",
        "v2.57",
    ],
)
def test_parse_refuses_non_ids(text):
    assert parse(text) is None and normalize(text) is None


def test_urls_and_slugs():
    ident = parse("hep-th/9901001v2")
    assert ident.abs_url == "https://arxiv.org/abs/hep-th/9901001v2"
    assert ident.pdf_url == "https://arxiv.org/pdf/hep-th/9901001v2"
    assert ident.slug == "hep-th_9901001" and parse("2505.02922v3").slug == "2505.02922"


@pytest.mark.parametrize(
    "text, year_month",
    [
        ("2505.02922v2", (2025, 5)),
        ("0704.0001", (2007, 4)),
        ("hep-th/9901001", (1999, 1)),
        ("math.GT/0309136", (2003, 9)),
        ("cs/9108001", (1991, 8)),
    ],
)
def test_year_month_is_the_month_the_id_encodes(text, year_month):
    assert parse(text).year_month == year_month


def test_canonical_drops_the_subject_class_of_old_ids():
    assert canonical("math.GT/0309136") == "math/0309136"
    assert canonical("hep-th/9901001") == "hep-th/9901001"
    assert canonical("2505.02922") == "2505.02922"


def found(text: str) -> list[str]:
    return [m.text for m in find_ids(text)]


@pytest.mark.parametrize(
    "text, ids",
    [
        ("see arXiv:2505.02922 and 2608.20359v2.", ["arXiv:2505.02922", "2608.20359v2"]),
        ("(2505.02922), 2505.02922; 2505.02922:", ["2505.02922"] * 3),
        ("arXiv: 2505.02922", ["arXiv: 2505.02922"]),  # one space after the prefix, in text
        ("hep-th/9901001 and math.GT/0309136v2", ["hep-th/9901001", "math.GT/0309136v2"]),
        ("end of sentence 1412.1234.", ["1412.1234"]),
    ],
)
def test_find_ids_in_text(text, ids):
    assert found(text) == ids


@pytest.mark.parametrize(
    "text",
    [
        "pages 1016-1031",
        "version v2.57 of the tool",
        "https://arxiv.org/abs/2505.02922",  # a URL path segment
        "abs/2505.02922",
        "2505.02922/x",
        "x/2505.02922",
        "2505.02922-x",  # glued to a hyphen
        "x-2505.02922",
        "2505.02922v2-x",
        "v2505.02922",
        "2505.02922_a",
        "2505.02922.1",
        "1.2505.02922",
        "1501.1234",  # 4 digits after 2014
        "1412.12345",  # 5 digits before 2015
        "doi 10.48550/arXiv.2505.02922",
        "2505.029221",
    ],
)
def test_find_ids_skips_non_ids(text):
    assert found(text) == []


def test_mentions_carry_their_span_and_id():
    text = "x arXiv:2505.02922v2 y"
    (mention,) = find_ids(text)
    assert text[mention.start : mention.end] == "arXiv:2505.02922v2" == mention.text
    assert mention.id == ArxivId("2505.02922", 2)


@st.composite
def new_style_ids(draw) -> str:
    yy = draw(st.integers(7, 99))
    mm = draw(st.integers(1 if yy > 7 else 4, 12))
    digits = 4 if yy <= 14 else 5
    number = draw(st.integers(1, 10**digits - 1))
    version = draw(st.one_of(st.none(), st.integers(1, 999)))
    return f"{yy:02d}{mm:02d}.{number:0{digits}d}" + (f"v{version}" if version else "")


@given(new_style_ids(), st.sampled_from(["", "arXiv:"]), st.sampled_from([" ", "(", "，", "\n"]))
def test_any_valid_id_parses_and_is_found_in_text(ident, prefix, around):
    parsed = parse(prefix + ident)
    assert parsed is not None and str(parsed) == ident and parse(str(parsed)) == parsed
    (mention,) = find_ids(f"x{around}{prefix}{ident}{around}y")
    assert mention.id == parsed and mention.text == prefix + ident


ID_PIECES = st.sampled_from(
    ["arXiv:", "arxiv: ", "hep-th", "math.GT", "cs", "/", ".", "v", "2", "9", "0", "1", "5", " ", "，", "-", "x", "中"]
)


@given(st.lists(st.one_of(ID_PIECES, new_style_ids()), max_size=12).map("".join))
@example("x hep-th/9901001 y")
@example("math.GT/0309136v2，arXiv: 2505.02922")
def test_text_said_to_hold_no_id_holds_none(text):
    """The quick test that most text holds no id never hides one the full pattern finds."""
    from kb.data.arxiv_id import TEXT_RE, may_hold_ids

    scanned = [m.group(0) for m in TEXT_RE.finditer(text)]
    if not may_hold_ids(text):
        assert scanned == [] and find_ids(text) == []
    else:
        assert {m.text for m in find_ids(text)} <= set(scanned)


OLD_IDS = st.sampled_from(["hep-th/9901001", "cond-mat.SO/0101001v3", "solv-int.XY/9912012", "math/0309136"])


@given(st.lists(st.one_of(ID_PIECES, new_style_ids(), OLD_IDS), max_size=16).map("".join))
@example("arXiv: cond-mat.SO/0101001v2 /9901001 x")
@example("1.2505.02922 2505.0292233 hep-th/9901001.5 0101.12345 2505.02922")
@example("arxiv:arXiv:2505.02922，supr-con.XX/9901001")
def test_find_ids_finds_what_the_full_pattern_finds(text):
    """find_ids looks for ids only around the places every id holds: it finds exactly what a scan
    of every position with the full pattern finds (less the impossible numbers), spans included."""
    from kb.data.arxiv_id import TEXT_RE, _valid_new

    scanned = [
        (m.start(), m.end(), m.group(0)) for m in TEXT_RE.finditer(text) if not (m.group("new") and not _valid_new(m))
    ]
    assert [(m.start, m.end, m.text) for m in find_ids(text)] == scanned


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("2609.4123", "an id from 2015 on has five digits after the dot, YYMM.NNNNN"),
        ("1305.12345", "an id from April 2007 to 2014 has four digits after the dot, YYMM.NNNN"),
        ("2613.12345", "'2613' is no year and month, YYMM"),
        ("0612.1234", "new-style ids began in April 2007; older ones look like hep-th/9901001"),
        ("not-an-id", ""),
        ("2505.02922", ""),
        ("hep-th/9901001", ""),
    ],
)
def test_why_a_text_is_no_arxiv_id(text, why):
    assert why_not(text) == why
