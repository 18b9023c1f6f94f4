"""Field values between plain text and BibTeX, with bibtexparser's LaTeX middlewares.

Writing (:class:`EncodeFields`, a :class:`LatexEncodingMiddleware` with its own
pylatexenc encoder) makes every value safe for BibTeX, biber and LaTeX:

* LaTeX's special characters are escaped with pylatexenc's own table (``\\``
  becomes ``\\textbackslash``, ``%`` becomes ``\\%``, …), so no command written in
  the data reaches LaTeX: ``\\input{…}`` comes out as text;
* braces become ``\\textbraceleft``/``\\textbraceright``: BibTeX and biber count
  every brace, escaped or not, so a lone ``{`` in a title must not be one;
* accented Latin letters become accent macros (``{\\"u}``), which BibTeX sorts and
  abbreviates as one letter; every other character stays UTF-8 (biber and LaTeX
  read it), and ``"``, ``<``, ``>`` stay as they are (harmless to both);
* ligature pairs (``--``, two quotes, ``<<``, …) are split with ``{}`` so they stay
  the characters that were written;
* no math mode is kept and no ``\\url`` is added: ``$…$`` in a title is text;
* whitespace runs become one space (a blank line would end a LaTeX paragraph);
* verbatim fields (``doi``, ``url``, ``eprint``) are not LaTeX: characters that
  BibTeX or LaTeX would misread are percent-encoded (:func:`verbatim`).

Reading (:class:`DecodeFields`, a :class:`LatexDecodingMiddleware`) turns LaTeX
back into text with pylatexenc, taught the macros written above; names are
decoded part by part after bibtexparser split them, and verbatim fields only
lose their grouping braces and backslash escapes (:func:`unverbatim`).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from urllib.parse import quote

from bibtexparser.library import Library
from bibtexparser.middlewares import LatexDecodingMiddleware, LatexEncodingMiddleware, NameParts
from bibtexparser.model import Block, Entry, Field, MiddlewareErrorBlock
from pylatexenc import latex2text
from pylatexenc.latexencode import (
    RULE_DICT,
    RULE_REGEX,
    UnicodeToLatexConversionRule,
    UnicodeToLatexEncoder,
    get_builtin_conversion_rules,
)

VERBATIM = frozenset({"doi", "url", "eprint"})
PROTECTED = frozenset({"title"})  # braced whole: styles must not change its capitals
_LATIN = range(0xC0, 0x180)  # Latin-1 letters and Latin Extended-A
_LIGATURE = re.compile(r"(-(?=-)|`(?=`)|'(?=')|[!?](?=`)|<(?=<)|>(?=>)|,(?=,))")
_MACROS = {"textbraceleft": "{", "textbraceright": "}", "textasciicircum": "^", "textasciitilde": "~"}
_OWN = {ord("{"): r"\textbraceleft", ord("}"): r"\textbraceright", ord('"'): '"', ord("<"): "<", ord(">"): ">"}
# URL and DOI characters written as they are; the others are percent-encoded
_VERBATIM_SAFE = "-._~:/?#[]@!$&'()*+,;=%"
_LATEX_ESCAPE = re.compile(r"\\([_&%#$])")


@functools.cache
def decoder() -> latex2text.LatexNodes2Text:
    """pylatexenc's LaTeX -> text converter with the macros :func:`encoder` writes."""
    context = latex2text.get_default_latex_context_db()
    macros = [latex2text.MacroTextSpec(name, simplify_repl=text) for name, text in _MACROS.items()]
    context.add_context_category(
        "kb-bibtex", prepend=True, macros=macros + [latex2text.MacroTextSpec("url", simplify_repl="%s")]
    )
    return latex2text.LatexNodes2Text(latex_context=context, keep_braced_groups=False, math_mode="verbatim")


def _rule(table: dict[int, str], protection: str) -> UnicodeToLatexConversionRule:
    return UnicodeToLatexConversionRule(RULE_DICT, table, replacement_latex_protection=protection)


class _Encoder(UnicodeToLatexEncoder):  # type: ignore[misc]  # pylatexenc is untyped
    """pylatexenc's encoder, which walks a value character by character in Python, asked only about
    values that hold a character one of its rules rewrites: any other value is its own LaTeX (in
    Unicode's composed form, as pylatexenc returns it)."""

    def __init__(self, rewritten: re.Pattern[str], **options: object) -> None:
        super().__init__(**options)
        self._rewritten = rewritten

    def unicode_to_latex(self, s: str) -> str:
        s = unicodedata.normalize("NFC", s)
        if self._rewritten.search(s) is None:
            return s
        latex: str = super().unicode_to_latex(s)
        return latex


@functools.cache
def encoder() -> UnicodeToLatexEncoder:
    """pylatexenc's text -> LaTeX converter, configured as the module docstring says."""
    ascii_table: dict[int, str] = {}
    latin: dict[int, str] = {}
    for rule in get_builtin_conversion_rules("defaults"):
        if rule.rule_type == RULE_DICT:
            ascii_table.update({k: v for k, v in rule.rule.items() if k < 128})
            latin.update({k: v for k, v in rule.rule.items() if k in _LATIN})
    # keep a Latin letter's macro only when it reads back as that letter
    probe = UnicodeToLatexEncoder(conversion_rules=[_rule(latin, "braces-all")], unknown_char_warning=False)
    latin = {k: v for k, v in latin.items() if decoder().latex_to_text(probe.unicode_to_latex(chr(k))) == chr(k)}
    tables = (_OWN, ascii_table, latin)
    chars = "".join(sorted({chr(k) for table in tables for k in table}))
    return _Encoder(
        re.compile(f"[{re.escape(chars)}]|{_LIGATURE.pattern}"),
        conversion_rules=[
            UnicodeToLatexConversionRule(RULE_REGEX, [(_LIGATURE, r"\1{}")]),
            _rule(_OWN, "braces"),
            _rule(ascii_table, "braces"),
            _rule(latin, "braces-all"),
        ],
        unknown_char_policy="keep",
        unknown_char_warning=False,
    )


def one_line(text: str) -> str:
    return " ".join(text.split())


def verbatim(value: str) -> str:
    """A DOI or URL with every character BibTeX or LaTeX could misread percent-encoded."""
    return quote(one_line(value), safe=_VERBATIM_SAFE)


def unverbatim(value: str) -> str:
    """A DOI or URL as a BibTeX file may write it: grouping braces and ``\\_`` escapes removed."""
    return _LATEX_ESCAPE.sub(r"\1", value).replace("{", "").replace("}", "").strip()


def _view(entry: Entry) -> list[Field]:
    """The entry's text fields, each name of a list of names as a field of its own."""
    out: list[Field] = []
    for field in entry.fields:
        if field.key.lower() in VERBATIM:
            continue
        if isinstance(field.value, list):
            out.extend(Field(field.key, part) for part in field.value if isinstance(part, NameParts))
        elif isinstance(field.value, (str, NameParts)):
            out.append(field)
    return out


class EncodeFields(LatexEncodingMiddleware):
    """Plain values -> safe BibTeX values (see the module docstring); a list of names is
    encoded name by name, still a list."""

    def __init__(self) -> None:
        super().__init__(encoder=encoder())

    def transform_entry(self, entry: Entry, library: Library) -> Block:
        view: list[Field] = []
        names: dict[str, list[Field]] = {}
        for field in entry.fields:
            if field.key.lower() in VERBATIM and isinstance(field.value, str):
                field.value = verbatim(field.value)
            elif isinstance(field.value, list):
                names[field.key] = [Field(field.key, one_line(name)) for name in field.value]
                view.extend(names[field.key])
            elif isinstance(field.value, str):
                field.value = one_line(field.value)
                view.append(field)
        done = super().transform_entry(Entry(entry.entry_type, entry.key, view), library)
        if isinstance(done, MiddlewareErrorBlock):
            return MiddlewareErrorBlock(entry, done.error)
        for field in entry.fields:
            if field.key in names:
                field.value = [name.value for name in names[field.key]]
            elif field.key.lower() in PROTECTED and isinstance(field.value, str):
                field.value = "{" + field.value + "}"
        return entry


class DecodeFields(LatexDecodingMiddleware):
    """BibTeX values -> plain text, verbatim fields excepted; names part by part."""

    def __init__(self) -> None:
        super().__init__(decoder=decoder())

    def transform_entry(self, entry: Entry, library: Library) -> Block:
        done = super().transform_entry(Entry(entry.entry_type, entry.key, _view(entry)), library)
        if isinstance(done, MiddlewareErrorBlock):
            return MiddlewareErrorBlock(entry, done.error)
        for field in entry.fields:
            if field.key.lower() in VERBATIM and isinstance(field.value, str):
                field.value = unverbatim(field.value)
            elif isinstance(field.value, str):
                field.value = one_line(field.value)
        return entry
