"""How to fix a YAML syntax error, in words: the parser says what it expected where; these hints
say what to change there (indentation, quotes, brackets), for :mod:`kb.data.yamlstrict`'s messages."""

from __future__ import annotations

import re
from typing import Protocol

import yaml

__all__ = ["Mark", "fix_hint", "full_width_key", "line_at", "runaway_quote"]


class Mark(Protocol):
    """Where an event is: PyYAML's marks, of the C or the pure-Python parser."""

    index: int
    line: int
    column: int


_INDENT = (
    "indent this line like the lines beside it: the keys of one mapping, and the '-' items of one list, "
    "start in the same column (spaces only)"
)


def line_at(text: str, mark: Mark | None) -> str:
    """The line of ``text`` that ``mark`` is on, as the parser counts lines ("" without a mark)."""
    if mark is None or not 0 <= mark.index - mark.column <= len(text):
        return ""
    start = mark.index - mark.column
    end = text.find("\n", start)
    return text[start : end if end >= 0 else len(text)]


def fix_hint(problem: str, line: str, col: int, unclosed: bool) -> str:
    """How to fix the parser's ``problem`` at column ``col`` of ``line`` (``unclosed``: the file
    ended inside a quoted text or a bracket that opens there): "; " and the fix, or ""."""
    if "\t" in line[: len(line) - len(line.lstrip())] or "tab" in problem:
        return "; this line is indented with a tab: YAML indents with spaces only"
    if unclosed:
        if line[col - 1 : col] in ("'", '"'):
            return "; the quote that opens here is not closed"
        return "; the bracket that opens here is not closed: close it, or quote an item holding ',', ':' or '#'"
    if said := _indicated(line):
        return "; " + said
    if "mapping values are not allowed" in problem:
        if col - 1 == line.find(":"):  # the line's own key: it stands deeper than the key before it
            return "; " + _INDENT
        return "; a value holding ': ' must be quoted, e.g. title: \"A: B\""
    if "expected '-' indicator" in problem or "expected key" in problem or "expected <block end>" in problem:
        return "; " + _INDENT
    if "could not find expected ':'" in problem:
        return "; a key needs ': ' after it, and a text running on over several lines needs quotes or '>'"
    return ""


# what YAML reads as syntax at the start of a plain value, beside brackets and quotes
_SYNTAX = "*&!@`%|>"
# a value that starts with what YAML reads as syntax, where writers mean text: Markdown's *emphasis*
# and `code`, a [tag], {note} or "quote" with text after it, an @name, a % or a | or > with text after it
_INDICATED = re.compile(
    r"^[ \t]*(?:- +)?(?:(?P<key>[^\s#'\"\[{][^:#]*?):[ \t]+)?(?P<value>[" + _SYNTAX + r"\[{\"'].*?)[ \t]*$"
)
# a list, a mapping, a quoted text, a block text's start: whole values, not a slip
_WHOLE = re.compile(r"(?:\[.*\]|\{.*\}|\"(?:[^\"\\]|\\.)*\"|'(?:[^']|'')*'|[|>][-+0-9]*)(?:[ \t]+#.*)?")
_SHOWN = 40  # characters of the value in the example


def _indicated(line: str) -> str:
    """How to write ``line``'s value as text when it starts with a character YAML reads as syntax
    ("" when it does not, or is a whole list, mapping or quoted text, or a block of text's start)."""
    m = _INDICATED.match(line)
    if m is None or _WHOLE.fullmatch(m["value"]):
        return ""
    value = m["value"] if len(m["value"]) <= _SHOWN else m["value"][: _SHOWN - 1] + "…"
    if value[0] == '"':  # quoted with the other kind of quote, which keeps its own
        quoted = "'" + value.replace("'", "''") + "'"
    else:
        quoted = '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    written = f"{m['key']}: {quoted}" if m["key"] else f"- {quoted}"
    return f"YAML reads {m['value'][0]!r} at the start of a value as syntax, not text: quote the value, e.g. {written}"


# a key is plain text: one starting with what YAML reads as syntax (**粗体**：…) is a value (_indicated)
_WIDE_KEY = re.compile(r"^[ \t]*(?:- )?(?!- )([^\s:#'\"{\[" + _SYNTAX + r"][^:：#]*?)[ \t]*：")


def full_width_key(text: str, mark: Mark) -> tuple[tuple[int, int], str] | None:
    """A key written with a full-width colon (``value：4``) on the line the parser failed on or the
    last one with text above it, where a writer of Chinese meant ``value: 4``: YAML read that line
    as text running on into the next, and failed there.  Its place (line, column of "：") and what
    to write instead; None when neither line starts with such a key."""
    rows = text.split("\n")  # only when a file fails to parse
    above = (i for i in range(min(mark.line, len(rows)) - 1, -1, -1) if rows[i].strip() and rows[i].lstrip()[0] != "#")
    lines = [(n, rows[n]) for n in (mark.line, next(above, None)) if n is not None and n < len(rows)]
    for number, row in lines:
        m = _WIDE_KEY.match(row)
        if m is not None and ": " not in row:
            key = m.group(1)
            return (number + 1, m.end()), (
                f"the key {key!r} is followed by a full-width colon '：': YAML needs an ASCII colon and a space "
                f"after a key ({key}: …)"
            )
    return None


def runaway_quote(
    text: str, loader: type[yaml.CSafeLoader] | type[yaml.SafeLoader], before: int
) -> tuple[Mark, int, str] | None:
    """The last quoted text opening before index ``before`` of ``text`` (where the parser found an
    error) that runs over several lines, when the line it opens on holds no other quote of its kind:
    where it opens, the line it ends on (counted from 1) and the key it is the value of ("" if
    none).  A quote left open on one line closes at the next quote of its kind, lines later, and
    the parser stumbles after that; this is where to look."""
    found: tuple[Mark, int, str] | None = None
    key, previous = "", None
    try:
        for token in yaml.scan(text, Loader=loader):
            if token.start_mark.index >= before:
                break
            if isinstance(token, yaml.ScalarToken):
                start, end = token.start_mark, token.end_mark
                quote = token.style if token.style in ("'", '"') else None
                if quote and end.line > start.line and line_at(text, start).count(quote) == 1:
                    found = start, end.line + 1, key if isinstance(previous, yaml.ValueToken) else ""
                if isinstance(previous, yaml.KeyToken):
                    key = token.value
            previous = token
    except yaml.YAMLError:
        pass
    return found
