"""Chinese text across line breaks: where a line break (folded by YAML's ``>-`` or left by the
author's editor) falls between two Chinese characters, or beside Chinese punctuation, the text
had no space there.  Latin words keep theirs, and so does Korean, which spaces its words.

:func:`join_cjk` is for data text (any run of spaces there); :func:`join_cjk_breaks` is for the
HTML of hand-written pages, where Markdown keeps the author's line breaks and a browser shows
each between two Chinese characters as a space: only runs holding a line break go, and never
in code or preformatted text."""

from __future__ import annotations

import re

__all__ = ["join_cjk", "join_cjk_breaks"]

_CJK = "[\u2e80-\u2fdf\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef]"
_CJK_PUNCT = "[\u3001\u3002\uff0c\uff1b\uff1a\uff01\uff1f]"  # 、。，；：！？ (not brackets)


def _gaps(run: str) -> re.Pattern[str]:
    """A ``run`` of spaces, tabs and line breaks inside the text (a character on each side), where
    it lies between two CJK characters or touches CJK punctuation.  One pass of the regex engine:
    a run is taken whole at its start or not at all (inside a run, the character behind is a space)."""
    return re.compile(
        rf"(?<={_CJK}){run}(?={_CJK})|(?<={_CJK_PUNCT}){run}(?=[^ \t\n])|(?<=[^ \t\n]){run}(?={_CJK_PUNCT})"
    )


_S = r"[ \t\n]"
# _gaps(r"[ \t\n]+") (any run: data text) written to start with the run's first character, so the
# regex engine scans for a space before it tries anything; each look-behind then sees that space and
# the character before it, which only the first character of a run can satisfy.  Same matches
# (tests/core/test_yamlstrict.py compares the two), and several times faster: every Text and Line
# value of the data passes here.
_GAP = re.compile(
    rf"{_S}(?:(?<={_CJK}{_S}){_S}*(?={_CJK})|(?<={_CJK_PUNCT}{_S}){_S}*(?=[^ \t\n])"
    rf"|(?<=[^ \t\n]{_S}){_S}*(?={_CJK_PUNCT}))"
)
_BREAK = _gaps(r"[ \t]*\n[ \t\n]*")  # a run holding a line break: a page's Markdown


def join_cjk(value: str) -> str:
    """Drop whitespace between two CJK characters and next to CJK punctuation."""
    return value if value.isascii() else _GAP.sub("", value)


_TAG = re.compile(r"""<(?:[^>"']|"[^"]*"|'[^']*')*>""")
_RAW = re.compile(r"<(/?)(?:pre|code|kbd|samp|script|style|textarea)[\s>/]", re.IGNORECASE)


def join_cjk_breaks(html: str) -> str:
    """``html`` without the line breaks of its text that fall between two CJK characters or
    beside CJK punctuation (with the spaces around them).  Tags between the two characters do
    not count (``中文\n<b>粗体</b>``); text inside ``pre``, ``code``, ``kbd``, ``samp`` and
    elements that are not text is left as it is."""
    if html.isascii() or "\n" not in html:
        return html
    out: list[str] = []
    texts: list[tuple[int, bool]] = []  # where each text is in out; False: inside code, kept
    raw, pos = 0, 0
    for m in _TAG.finditer(html):
        texts.append((len(out), raw == 0))
        out += [html[pos : m.start()], m.group()]
        opening = _RAW.match(m.group())
        if opening is not None:
            raw = max(raw - 1, 0) if opening.group(1) else raw + (not m.group().endswith("/>"))
        pos = m.end()
    texts.append((len(out), raw == 0))
    out.append(html[pos:])
    texts = [(i, free) for i, free in texts if out[i]]
    before = ""  # the last character of the text so far (as joined)
    for n, (i, free) in enumerate(texts):
        if free and "\n" in out[i]:
            after = out[texts[n + 1][0]][0] if n + 1 < len(texts) else ""
            joined = _BREAK.sub("", before + out[i] + after)
            out[i] = joined[len(before) : len(joined) - len(after)]
        before = out[i][-1:] or before
    return "".join(out)
