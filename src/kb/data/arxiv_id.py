"""arXiv identifiers: parsing, normalising and finding them in free text.

New style: ``YYMM.NNNN`` (2007-2014) or ``YYMM.NNNNN`` (2015 on), optional ``vN``.
Old style: ``archive[.SUBJ]/YYMMNNN`` such as ``hep-th/9901001`` or ``math.GT/0309136``.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

OLD_ARCHIVES = (
    "acc-phys|adap-org|alg-geom|ao-sci|astro-ph|atom-ph|bayes-an|chao-dyn|chem-ph|cmp-lg|"
    "comp-gas|cond-mat|cs|dg-ga|funct-an|gr-qc|hep-ex|hep-lat|hep-ph|hep-th|math-ph|math|"
    "mtrl-th|nlin|nucl-ex|nucl-th|patt-sol|physics|plasm-ph|q-alg|q-bio|quant-ph|solv-int|supr-con"
)
_NEW = r"(?P<new>(?P<yy>\d{2})(?P<mm>0[1-9]|1[0-2])\.(?P<num>\d{4,5}))"
_OLD = rf"(?P<old>(?:{OLD_ARCHIVES})(?:\.[A-Z]{{2}})?/(?P<oyy>\d{{2}})(?P<omm>0[1-9]|1[0-2])\d{{3}})"
_VERSION = r"(?:v(?P<version>[1-9]\d{0,2}))?"

ID_RE = re.compile(rf"^(?:arXiv:)?(?:{_NEW}|{_OLD}){_VERSION}$", re.IGNORECASE)
# In running text: not glued to other word characters, dots, slashes or hyphens,
# so ``1016-1031``, ``v2.57`` and URL path segments are not taken for ids.
TEXT_RE = re.compile(
    rf"(?<![\w./\-:])(?P<prefix>arXiv:\s?)?(?:{_NEW}|{_OLD}){_VERSION}(?![\w/\-]|\.\d)",
    re.IGNORECASE,
)


@dataclass(frozen=True, order=True)
class ArxivId:
    base: str  # without version, e.g. "2505.02922" or "hep-th/9901001"
    version: int | None = None

    def __str__(self) -> str:
        return self.base + (f"v{self.version}" if self.version else "")

    @property
    def abs_url(self) -> str:
        return f"https://arxiv.org/abs/{self}"

    @property
    def pdf_url(self) -> str:
        return f"https://arxiv.org/pdf/{self}"

    @property
    def year_month(self) -> tuple[int, int]:
        """(year, month) the id encodes, the month of its v1 (old-style ids run from 1991)."""
        digits = self.base.rsplit("/", 1)[-1][:4]
        yy, mm = int(digits[:2]), int(digits[2:])
        return (1900 + yy if yy >= 91 else 2000 + yy), mm

    @property
    def slug(self) -> str:
        """A file-name-safe form: ``hep-th/9901001`` -> ``hep-th_9901001``."""
        return self.base.replace("/", "_")


def _valid_new(m: re.Match[str]) -> bool:
    yy, num = int(m.group("yy")), m.group("num")
    # 4-digit numbers were used from 0704 to 1412, 5-digit ones from 1501 on.
    if len(num) == 4:
        return 7 <= yy <= 14
    return yy >= 15


@functools.lru_cache(maxsize=8192)  # the same ids come again and again (ids are immutable)
def parse(text: str) -> ArxivId | None:
    """Parse one id (``arXiv:`` prefix and ``vN`` suffix allowed); None if malformed."""
    m = ID_RE.match(text.strip())
    if not m:
        return None
    if m.group("new") and not _valid_new(m):
        return None
    base = m.group("new") or _old_base(m.group("old"))
    version = int(m.group("version")) if m.group("version") else None
    return ArxivId(base, version)


_PREFIX = re.compile(r"^arxiv:\s?", re.IGNORECASE)


def without_prefix(text: str) -> str:
    """``text`` without the ``arXiv:`` in front (any case, one space after it allowed)."""
    return _PREFIX.sub("", text.strip())


def why_not(text: str) -> str:
    """What is wrong with ``text`` as an id :func:`parse` takes, where there is more to say than
    that it is none: a new-style id's month, number of digits or version ("" otherwise, and for an
    id).  An ``arXiv:`` in front is no fault (``parse`` takes it)."""
    shown = without_prefix(text)
    if parse(shown) is not None:
        return ""
    m = re.fullmatch(r"(\d{2})(\d{2})\.(\d+)(?:[vV](\d+))?", shown)
    if m is None:
        return ""
    yy, mm, num, version = int(m.group(1)), int(m.group(2)), m.group(3), m.group(4)
    if not 1 <= mm <= 12:
        return f"'{m.group(1)}{m.group(2)}' is no year and month, YYMM"
    if yy >= 15 and len(num) != 5:
        return "an id from 2015 on has five digits after the dot, YYMM.NNNNN"
    if 7 <= yy <= 14 and len(num) != 4:
        return "an id from April 2007 to 2014 has four digits after the dot, YYMM.NNNN"
    if 7 <= yy and version is not None:
        return f"'v{version}' is no version: versions are v1, v2, v3, …"
    return "new-style ids began in April 2007; older ones look like hep-th/9901001"


def _old_base(old: str) -> str:
    archive, _, number = old.partition("/")
    name, dot, subj = archive.partition(".")
    return f"{name.lower()}{dot}{subj.upper()}/{number}"


def canonical(base: str) -> str:
    """A base id as arXiv's answers write it: an old-style id loses its subject class
    (``math.GT/0309136`` -> ``math/0309136``); others are unchanged."""
    archive, slash, number = base.partition("/")
    return f"{archive.partition('.')[0]}/{number}" if slash else base


def normalize(text: str) -> str | None:
    """Base id without version, or None if ``text`` is not an arXiv id."""
    parsed = parse(text)
    return parsed.base if parsed else None


@dataclass(frozen=True)
class Mention:
    start: int
    end: int
    id: ArxivId
    text: str


# Every id holds a dot before four digits (new style) or a slash before seven (old style), and an
# id's only such place is at most _REACH characters after its start ("arXiv: " and the longest
# archive with a subject class, "cond-mat.XX/").  Most text holds no such place (a date in a URL,
# "/2026-05-12", is not one), and finding them is a few dozen times faster than TEXT_RE, which
# tries every position; ids are then only looked for around them.
_MAYBE = re.compile(r"\.\d{4}|/\d{7}")
_START = re.compile(r"(?<![\w./\-:])\w")  # where TEXT_RE's lookbehind lets an id start
_REACH = len("arXiv: ") + max(len(a) for a in OLD_ARCHIVES.split("|")) + len(".XX")


def may_hold_ids(text: str) -> bool:
    """False when ``text`` certainly holds no arXiv id (:func:`find_ids` would find none)."""
    return _MAYBE.search(text) is not None


def find_ids(text: str) -> list[Mention]:
    """Every arXiv id written in ``text`` with its span (prefix included): what
    ``TEXT_RE.finditer`` finds (left to right, not overlapping), less the impossible numbers."""
    out = []
    pos = 0
    for place in _MAYBE.finditer(text):
        at = place.start()  # an id holds one such place: none lies inside the id found last
        m = _match_around(text, max(pos, at - _REACH), at)
        if m is None:
            continue
        pos = m.end()
        if m.group("new") and not _valid_new(m):
            continue
        base = m.group("new") or _old_base(m.group("old"))
        version = int(m.group("version")) if m.group("version") else None
        out.append(Mention(m.start(), m.end(), ArxivId(base, version), m.group(0)))
    return out


def _match_around(text: str, lo: int, at: int) -> re.Match[str] | None:
    """The leftmost id starting in ``lo..at`` (the lookbehind sees the text before ``lo``, as it
    would in a search of the whole text).  One that ends before ``at`` would hold an earlier place,
    whose own look would have found it."""
    for start in _START.finditer(text, lo, at + 1):
        m = TEXT_RE.match(text, start.start())
        if m is not None:
            return m
    return None
