"""Every value written is safe for BibTeX, biber and LaTeX, and reads back as written.

Safe: braces balanced the way BibTeX counts them (every brace, escaped or not),
no LaTeX command but the escapes and accent macros the encoder writes, no blank
line; so nothing in the data (``\\input{…}`` in a DOI, a URL or a subject class)
reaches LaTeX as a command.
"""

from __future__ import annotations

import re
import unicodedata

import bibtexparser
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kb import bib
from kb.bib import latex
from kb.bib.read import paper_fields_from_entry
from kb.bib.read import parse as read
from kb.data.models import ArxivMeta, Paper

# the only commands an entry may hold: escapes of special characters and accented letters
ALLOWED = frozenset(
    {
        "textbackslash",
        "textbraceleft",
        "textbraceright",
        "textasciicircum",
        "textasciitilde",
        "texttimes",
        "textdiv",
        "&",
        "%",
        "$",
        "#",
        "_",
        '"',
        "'",
        "`",
        "^",
        "~",
        "=",
        ".",
        "H",
        "c",
        "k",
        "r",
        "u",
        "v",
        "i",
        "l",
        "L",
        "o",
        "O",
        "ss",
        "ae",
        "AE",
        "oe",
        "OE",
        "dh",
        "DH",
        "dj",
        "DJ",
        "th",
        "TH",
        "ng",
        "NG",
        "ij",
        "IJ",
    }
)
COMMAND = re.compile(r"\\([A-Za-z]+|.)")


def values(text: str) -> dict[str, str]:
    lib = bibtexparser.parse_string(text)
    assert not lib.failed_blocks, [b.error for b in lib.failed_blocks]
    (entry,) = lib.entries
    return {f.key: f.value for f in entry.fields}


def assert_safe(value: str) -> None:
    depth = 0
    for ch in value:  # BibTeX and biber count every brace, escaped or not
        depth += {"{": 1, "}": -1}.get(ch, 0)
        assert depth >= 0, value
    assert depth == 0, value
    assert not set(COMMAND.findall(value)) - ALLOWED, value
    assert "\n" not in value


def encode(text: str) -> str:
    """Plain text -> LaTeX, as the export's middleware writes a field."""
    return latex.encoder().unicode_to_latex(latex.one_line(text))


def decode(value: str) -> str:
    """LaTeX -> plain text on one line, as the import's middleware reads a field."""
    return latex.one_line(latex.decoder().latex_to_text(value))


def nfc(value):
    """Text as read back: canonically equivalent (the LaTeX decoder composes characters)."""
    if isinstance(value, (tuple, list)):
        return tuple(nfc(v) for v in value)
    return unicodedata.normalize("NFC", value) if isinstance(value, str) else value


def read_back(text: str):
    lib = read(text)
    assert not lib.failed_blocks, [b.error for b in lib.failed_blocks]
    return paper_fields_from_entry(lib.entries[0])


INJECTION = r"\input{/etc/passwd}\immediate\write18{rm -rf x}"


def test_commands_in_any_field_are_text():
    p = Paper(
        id="x",
        short="X",
        title=INJECTION,
        authors=[INJECTION, "A B"],
        arxiv="2505.02922",
        venue={"name": INJECTION, "detail": INJECTION},
        arxiv_meta=ArxivMeta(title="T", doi="10.1/" + INJECTION, primary_category=INJECTION, journal_ref=INJECTION),
    )
    text = bib.entry_for(p)
    assert "\\input" not in text and "\\write" not in text and "\\immediate" not in text
    for value in values(text).values():
        assert_safe(value)
    assert values(text)["doi"] == "10.1/%5Cinput%7B/etc/passwd%7D%5Cimmediate%5Cwrite18%7Brm%20-rf%20x%7D"
    back = read_back(text)
    assert back.title == back.venue == back.venue_detail == back.primary_class == INJECTION
    assert back.authors == (INJECTION, "A B")


def test_urls_are_percent_encoded_where_bibtex_would_misread_them():
    p = Paper(
        id="x",
        short="X",
        title="T",
        authors=["A B"],
        published="2026",
        links={"other": "https://example.org/a_b%20c/{x}\\y?q=1&r=2#frag~"},
    )
    url = values(bib.entry_for(p))["url"]
    assert url == "https://example.org/a_b%20c/%7Bx%7D%5Cy?q=1&r=2#frag~"
    assert_safe(url)


_text = st.text(st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp", "Co", "Cn")), min_size=1, max_size=40)
_line = _text.map(lambda s: " ".join(s.split())).filter(bool)
_url = st.text(
    st.characters(
        min_codepoint=33, max_codepoint=0x2FF, blacklist_characters="<>\"'`", blacklist_categories=("Zs", "Cc")
    ),
    max_size=30,
).map(lambda s: "https://example.org/" + s)


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(
    title=_line,
    authors=st.lists(_line, min_size=1, max_size=3),
    venue=_line,
    detail=_line,
    journal=_line,
    doi=_line,
    primary=_line,
    url=_url,
)
def test_any_text_is_safe_and_reads_back(title, authors, venue, detail, journal, doi, primary, url):
    with_venue = Paper(
        id="x",
        short="X",
        title=title,
        authors=authors,
        published="2026",
        venue={"name": venue, "detail": detail},
        links={"other": url},
        arxiv_meta=ArxivMeta(title="T", doi=doi),
    )
    with_arxiv = Paper(
        id="y",
        short="Y",
        title=title,
        authors=authors,
        arxiv="2505.02922",
        arxiv_meta=ArxivMeta(title="T", journal_ref=journal, primary_category=primary, doi=doi),
    )
    for p in (with_venue, with_arxiv):
        # what the paper holds is what is written and read back: the model has already dropped the
        # spaces between two CJK characters (kb.data.cjk: a folded line of Chinese), so "㐀 一" is 㐀一
        meta = p.arxiv_meta
        assert meta is not None
        text = bib.entry_for(p)
        for value in values(text).values():
            assert_safe(value)
        back = read_back(text)
        assert back.title == nfc(p.title) and back.authors == nfc(p.authors)
        assert back.doi == latex.verbatim(meta.doi or "")
        if p.venue:
            held = (nfc(p.venue.name), nfc(p.venue.detail), latex.verbatim(p.links.other or ""))
            assert (back.venue, back.venue_detail, back.url) == held
        else:
            assert back.primary_class == nfc(meta.primary_category)
            if not re.match(r"arxiv\b", journal, re.IGNORECASE):
                assert back.journal == nfc(meta.journal_ref)


def test_spaces_between_chinese_characters_are_dropped_before_bibtex_sees_them():
    p = Paper(id="x", short="X", title="一 二 three", authors=["A"], published="2026")
    assert p.title == "一二 three"
    assert read_back(bib.entry_for(p)).title == "一二 three"


@pytest.mark.parametrize(
    "text",
    [
        "a--b",
        "``quoted''",
        "!`",
        "<<x>>",
        ",,",
        "$O(n^2)$",
        "~^",
        "50% & #1 _x_",
        "{unbalanced",
        "}",
        "\\",
        "Zoë Ærø Łukasz Ű ħ",
        "推理 😀",
        "α Ω Привет",
    ],
)
def test_text_round_trips_exactly(text):
    assert decode(encode(text)) == nfc(text) == text
    assert_safe(encode(text))


def test_accents_are_bibtex_special_characters():
    assert encode("Jürgen Müller") == 'J{\\"u}rgen M{\\"u}ller'
    assert encode("José María") == "Jos{\\'e} Mar{\\'\\i}a"


def test_names_bibtex_would_misread_are_braced_whole():
    p = Paper(
        id="x",
        short="X",
        title="T",
        published="2026",
        authors=["Team A and B", "Smith, John", "José María López de la Fuente", "Plato", "ravisri valluri"],
    )
    author = values(bib.entry_for(p))["author"]
    assert author == (
        "{Team A and B} and {Smith, John} and de la Fuente, Jos{\\'e} Mar{\\'\\i}a L{\\'o}pez"
        " and Plato and valluri, ravisri"
    )
    assert read_back(bib.entry_for(p)).authors == tuple(p.authors)


def test_a_name_part_that_starts_with_a_command_is_braced():
    """Found by the property test: "0 &" was written "\\&, 0" and a second such name read back
    as "0" (bibtexparser's author splitter drops a part that starts with a command)."""
    p = Paper(id="x", short="X", title="T", published="2026", authors=["a", "0 &", "% b"])
    assert values(bib.entry_for(p))["author"] == "a and {\\&}, 0 and b, {\\%}"
    assert read_back(bib.entry_for(p)).authors == ("a", "0 &", "% b")


@settings(max_examples=400, deadline=None)
@given(
    st.text(alphabet=st.characters(max_codepoint=0x3FF) | st.sampled_from("中文——“”⭐🟢\u0301\u0308--``''<<>>,,!`?`"))
)
def test_a_value_no_rule_rewrites_is_not_walked_and_comes_out_the_same(text):
    """The encoder hands pylatexenc only the values one of its rules rewrites; for every text its
    answer is the one pylatexenc's character-by-character walk gives (composed form included)."""
    from pylatexenc.latexencode import UnicodeToLatexEncoder

    enc = latex.encoder()
    assert enc.unicode_to_latex(text) == UnicodeToLatexEncoder.unicode_to_latex(enc, text)


def test_plain_values_are_returned_without_the_walk(monkeypatch):
    from pylatexenc.latexencode import UnicodeToLatexEncoder

    walked: list[str] = []
    walk = UnicodeToLatexEncoder.unicode_to_latex
    monkeypatch.setattr(UnicodeToLatexEncoder, "unicode_to_latex", lambda self, s: walked.append(s) or walk(self, s))
    enc = latex.encoder()
    assert (
        enc.unicode_to_latex("RetroInfer: A Vector-Storage Approach 中文")
        == "RetroInfer: A Vector-Storage Approach 中文"
    )
    assert enc.unicode_to_latex("e\u0301") == "{\\'e}"  # composed first, then rewritten
    assert enc.unicode_to_latex("50% -- {x}") == "50\\% -{}- {\\textbraceleft}x{\\textbraceright}"
    assert walked == ["é", "50% -- {x}"]
