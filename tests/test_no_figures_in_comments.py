"""No benchmark figure in the package's comments and docstrings: a measurement ("3,000 synthetic
pages: some 12 s of CPU", "756 MB resident") is true of one machine on one day and rots where
nobody re-measures it.  Measurements live in docs/performance.md; a comment says what and why,
and points there when a number is the reason.

A figure is a number with a unit of time, memory, share or speed (``12 s``, ``756 MB``, ``17%``,
``3x``).  It counts as a measurement when its sentence says what was measured: a scale of data
("at 3,000 pages", "a 3,000-page build", "a year of data") or a word of measuring ("CPU",
"resident", "took", "faster", "->", ...).  A constant's comment ("seconds between requests",
"a file of at most 512 KB", "polls every 0.1 s") has neither and passes."""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "kb"

_NUMBER = r"(?<![\w.])\d[\d,]*(?:\.\d+)?"
_UNIT = r"(?:[mµun]s|s|secs?|seconds?|minutes?|min|[KMG]i?B|kB|bytes|%|x|×)(?!\w)"
FIGURE = re.compile(rf"{_NUMBER}\s?{_UNIT}")
SCALE = re.compile(r"\d[\d,]*(?:-page\b|\s+(?:synthetic\s+)?pages\b)|\ba\s+year(?:\s+and\s+a\s+half)?\s+of\s+\w+", re.I)
MEASURING = re.compile(
    r"\b(?:CPU|resident|RSS|peak|measured|median|took|takes?|taking|faster|slower|py-?spy|profiled?|"
    r"spent|saves?|saved|costs?|against|of\s+(?:a|the|every)\s+(?:[\w.]+\s+){0,2}(?:build|run))\b|->|→"
)
# scale and a word of time or memory, the figure in words ("a third of a second at 3,000 pages")
SIZED = re.compile(r"\b(?:seconds?|minutes?|memory|CPU)\b|\d\s?[KMG]i?B\b")
SENTENCE = re.compile(r"(?<=[.;!?])\s+(?=[A-Z(`])|\n\s*\n")


def figures(text: str) -> list[str]:
    """The sentences of ``text`` that state a measurement, each with its whitespace folded."""
    found = []
    for sentence in SENTENCE.split(text):
        scale = SCALE.search(sentence)
        if (FIGURE.search(sentence) and (scale or MEASURING.search(sentence))) or (scale and SIZED.search(sentence)):
            found.append(" ".join(sentence.split()))
    return found


def _comments(source: str) -> list[tuple[int, str]]:
    """Each comment, a block of whole-line comments on consecutive lines as one text (its sentences
    wrap); a comment after code stands alone."""
    runs: list[tuple[int, int, list[str]]] = []
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type != tokenize.COMMENT:
            continue
        line, text, whole = tok.start[0], tok.string.lstrip("#").strip(), tok.line.lstrip().startswith("#")
        if whole and runs and runs[-1][1] == line - 1:
            runs[-1] = (runs[-1][0], line, [*runs[-1][2], text])
        else:
            runs.append((line, line if whole else 0, [text]))
    return [(first, "\n".join(lines)) for first, _, lines in runs]


def _docstrings(source: str) -> list[tuple[int, str]]:
    """Every string that stands as a statement: docstrings of modules, classes and functions, and
    the ones written under an attribute."""
    return [
        (node.lineno, node.value.value)
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)
    ]


def figures_in(path: Path) -> list[str]:
    source = path.read_text("utf-8")
    return [
        f"{path.relative_to(SRC).as_posix()}:{line}: {sentence}"
        for line, text in _comments(source) + _docstrings(source)
        for sentence in figures(text)
    ]


@pytest.mark.parametrize(
    "text",
    [
        "Pagefind reads the whole site on every run (3,000 synthetic pages: some 12 s of CPU), while",
        "33 million characters of marked bodies, 756 MB resident",
        "Writing them is about\n1 s of a 3,000-page build, made again on every build.",
        "would rescan over and over (about 1 s in 3 at a year of data): pause it meanwhile.",
        "3x faster on a year of data (every value passes here: 79,000 values, 0.24 -> 0.08 s).",
        "Loading is 23% of the build, the theme 9%.",
        "a third of a second at 3,000 pages",
        "waiting does not bring the name back (5 tries took 35 s)",
    ],
)
def test_a_measurement_is_found(text):
    assert figures(text)


@pytest.mark.parametrize(
    "text",
    [
        "seconds between requests (arXiv asks for 3)",
        "largest answer accepted (100 entries are some 500 KB)",
        "A file of more than 512 KB is refused before it is parsed.",
        "it answers one request per 0.1 s poll and can stop the binary early",
        "The URLs of a ``srcset`` value (``a.png 1x, b.png 2x``).",
        "Sampled from /proc every 20 ms.  The build waits 1.5 s after the last change.",
        "1,000 pages: 150 briefs + 830 papers, in the proportion of a year.",
        "Pages without a marked body (the 404 page) are not indexed: how much it reads (for its memory).",
        "several times faster, and every value of the data passes here (docs/performance.md#build).",
    ],
)
def test_a_constant_or_a_pointer_is_not_a_measurement(text):
    assert figures(text) == []


def test_comments_and_docstrings_hold_no_benchmark_figure():
    found = [hit for path in sorted(SRC.rglob("*.py")) for hit in figures_in(path)]
    assert found == [], "measurements belong in docs/performance.md:\n" + "\n".join(found)


def _key(path: Path) -> str:
    return path.relative_to(SRC).as_posix()
