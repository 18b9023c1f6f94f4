"""Reading a text brief: physical lines to logical ones.

A logical line is what the author meant as one line: a bullet, a heading, a table row, a
labelled line.  A physical line that starts none of these continues the one before it (a line
wrapped in two).  Bullet glyphs go; the text is otherwise kept as written.  :func:`key` is the
form two lines are compared in: full- and half-width punctuation alike, whitespace ignored.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

# a Markdown bullet (- or *) is followed by a space: **bold** is text
BULLET = re.compile(r"^\s*(?:[•·●○▪▫◦‣∙]|[-－*＊](?=\s))\s*")
HEADING = re.compile(r"^\s*(?P<num>[一二三四五六七八九十]+)\s*[、.．,，]\s*(?P<title>\S.*)$")
GROUP = re.compile(r"^\s*(?P<num>\d+\s*[.．]\s*\d+)\s+(?P<title>\S.*)$")
# Markdown marks around a heading line (`## 二、…`, `**增量 1【…】…**`): formatting, dropped like bullets
_MARKS = re.compile(
    r"^\s*(?:#{1,6}\s+(?=[一二三四五六七八九十]+\s*[、.．]|\d+\s*[.．]\s*\d+\s|状态|增量|沿用件|其他条目|已检查)|\*\*(?=.*\*\*\s*$))"
)
# what starts a logical line without a bullet (anything else continues the line before it)
_STARTS = re.compile(
    r"^\s*(?:增量\s*\d|状态\s*$|状态\s*[：:]|要点|与活文档|建议归入节|核心缺陷|沿用件|已检查|与\s*\S+.*对照"
    r"|#\s|\||[A-Z]\s|\d+\s*[.．、)）]|\d+\s|\d+\s*[.．]\s*\d+\s|实例|基线活文档|窗口期|生成时间|时区\s*[：:]|重建\s*[：:]|cron)"
)


@dataclass
class Logical:
    text: str  # bullet glyph removed, wrapped parts joined
    first: int  # 1-based number of its first physical line
    count: int = 1  # physical lines it spans
    bullet: bool = False

    @property
    def numbers(self) -> range:
        return range(self.first, self.first + self.count)


_SAME = str.maketrans("“”‘’—–・★", "\"\"''--·⭐", "\ufe0f")


def key(text: str) -> str:
    """``text`` as compared: NFKC (full-width to half-width), quotes alike, no whitespace, no bullet."""
    text = BULLET.sub("", unicodedata.normalize("NFKC", text)).replace("**", "")  # Markdown bold: the same words
    text = text.translate(_SAME).replace("|", "")  # a table's cells: spaces or pipes
    text = re.sub(r"^\s*(\d+)\s*[.、)]", r"\1.", text)  # an item's number: 1. 1、 1）
    return re.sub(r"\s+", "", text)


def starts_line(raw: str) -> bool:
    return bool(BULLET.match(raw) or HEADING.match(raw) or GROUP.match(raw) or _STARTS.match(raw))


def _join(a: str, b: str) -> str:
    if re.search(r"[\u3000-\u9fff\uff00-\uffef]$", a) and re.match(r"[\u3000-\u9fff\uff00-\uffef]", b):
        return a + b
    return a + " " + b


def read(text: str) -> list[Logical]:
    """The logical lines of ``text`` (blank lines end a line and are dropped)."""
    out: list[Logical] = []
    open_line = False
    for number, raw in enumerate(text.removeprefix("\ufeff").splitlines(), start=1):
        raw = raw.replace("\u3000", " ").rstrip()
        if _MARKS.match(raw):
            raw = _MARKS.sub("", raw).removesuffix("**").rstrip()
        if not raw.strip():
            open_line = False
            continue
        if open_line and out and not starts_line(raw):
            last = out[-1]
            last.text = _join(last.text, raw.strip())
            last.count = number - last.first + 1
            continue
        m = BULLET.match(raw)
        out.append(Logical(raw[m.end() :] if m else raw.strip(), number, 1, bool(m)))
        open_line = True
    return out


def tail_paren(text: str) -> tuple[str, str | None]:
    """``text`` split before its closing bracketed note: ``§1.(1) 引擎（a（b））`` -> (``§1.(1) 引擎``, ``a（b）``);
    (text, None) when it does not end in one.  Full- and half-width brackets alike."""
    text = text.rstrip()
    if not text or text[-1] not in "）)":
        return text, None
    depth = 0
    for i in range(len(text) - 1, -1, -1):
        depth += text[i] in "）)"
        depth -= text[i] in "（("
        if depth == 0:
            return (text[:i].rstrip(), text[i + 1 : -1]) if i > 0 else (text, None)
    return text, None
