"""Paper files on disk, as the tools write them: find, create, and update ``arxiv_meta``.

THE RULE: ``kb paper add/refresh`` own only the top-level ``arxiv_meta:`` block
of a paper file (model :class:`kb.data.models.ArxivMeta`).  Every other key is
hand-written and never touched.  An update is text surgery: the block's lines
are replaced (or the block is appended after the last key) and every other
byte of the file - comments, key order, quoting, blank lines, line endings -
stays as it was.  Before a file is written the new text is read back through
:mod:`kb.data.yamlstrict`, validated as a :class:`kb.data.models.Paper`, and its
hand-written keys are compared with the old ones; the write itself is atomic
(:mod:`kb.atomic`).  A file that would not validate is left alone.

New files (``kb paper add``, ``kb bib import``) get ``id``, ``arxiv``, ``short``
(and whatever the importer knows) plus ``arxiv_meta``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from kb.data import arxiv_id, yamlfix, yamlstrict, yamlwrite
from kb.data.atomic import is_temp, write_atomic
from kb.data.loader import display_path as display  # noqa: F401  (also used by kb bib)
from kb.data.loader import validate
from kb.data.models import RESERVED_PAPER_IDS, ArxivMeta, Paper
from kb.data.schemaheader import header
from kb.data.text import STOPWORDS
from kb.data.text import slugify as text_slugify

OWNED = "arxiv_meta"
BOM = "\ufeff"
ID_MAX = 60
_ARXIV_LINE = re.compile(r"^arxiv:[ \t]*['\"]?([^'\"\s#]+)", re.MULTILINE)
# a paper id also skips these (the key words of a citation key stay as they were)
ID_STOPWORDS = STOPWORDS | {"beyond", "rethinking"}


class PaperFileError(Exception):
    """A paper file the tools cannot (or must not) write; the message says why."""


# --------------------------------------------------------------------------- index


@dataclass
class PaperIndex:
    """The paper files of a data directory, by file id and by base arXiv id."""

    dir: Path
    by_base: dict[str, Path] = field(default_factory=dict)
    ids: set[str] = field(default_factory=set)

    def path_for(self, arxiv: str) -> Path | None:
        base = arxiv_id.normalize(arxiv)
        return self.by_base.get(base) if base else None


def scan(data_dir: str | os.PathLike[str]) -> PaperIndex:
    """Read ``<data>/papers/*.yaml`` just enough to know each file's id and arXiv id."""
    index = PaperIndex(Path(data_dir) / "papers")
    if not index.dir.is_dir():
        return index
    for path in sorted(index.dir.glob("*.yaml")):
        if path.name.startswith(".") or is_temp(path):
            continue
        index.ids.add(path.stem)
        try:
            base = _arxiv_of(path.read_bytes(), path)
        except OSError:
            continue
        if base and base not in index.by_base:
            index.by_base[base] = path
    return index


def _arxiv_of(raw: bytes, path: Path) -> str | None:
    located, _ = yamlstrict.load_bytes(raw, str(path))
    if located is not None and isinstance(located.data, dict):
        value = located.data.get("arxiv")
        return arxiv_id.normalize(value) if isinstance(value, str) else None
    # a file that does not parse still must not get a twin
    m = _ARXIV_LINE.search(raw.decode("utf-8", "replace"))
    return arxiv_id.normalize(m.group(1)) if m else None


# --------------------------------------------------------------------------- rendering


def dump(data: dict[str, Any]) -> str:
    """Safely quoted YAML for ``data`` (plain str/int/date/list/dict values), one value per line."""
    return yamlwrite.dump(data, flow_lists=False)


def meta_data(meta: ArxivMeta) -> dict[str, Any]:
    return {k: v for k, v in meta.model_dump(mode="python", exclude_none=True).items() if v != []}


def render_block(meta: ArxivMeta, indent: int = 0) -> str:
    """The ``arxiv_meta:`` block, newline-terminated; ``indent`` = column of the top-level keys."""
    text = dump({OWNED: meta_data(meta)})
    if indent:
        text = "".join(" " * indent + line for line in text.splitlines(keepends=True))
    return text


def new_paper_text(
    paper_id: str, arxiv: str | None, short: str, meta: ArxivMeta | None = None, extra: dict[str, Any] | None = None
) -> str:
    """Text of a new paper file: id, arxiv, short, ``extra`` keys in order, then arxiv_meta."""
    if not re.fullmatch(r"[a-z0-9][a-z0-9-]*", paper_id):
        raise PaperFileError(f"bad paper id {paper_id!r}")
    parsed = arxiv_id.parse(arxiv) if arxiv else None
    if arxiv and parsed is None:
        raise PaperFileError(f"not an arXiv id: {arxiv!r}")
    head = header("papers") + f"id: {paper_id}\n" + (f"arxiv: {parsed}\n" if parsed else "")
    return head + dump({"short": short, **(extra or {})}) + (render_block(meta) if meta else "")


# --------------------------------------------------------------------------- text surgery


@dataclass
class _Layout:
    indent: int  # column of the top-level keys
    content_end: int  # offset just after the last top-level value
    owned: tuple[int, int] | None  # offsets of the arxiv_meta key's line start and its value's end


def _start(event: yaml.Event) -> yamlfix.Mark:
    assert event.start_mark is not None  # the parser marks every event
    return event.start_mark


def _end(event: yaml.Event) -> int:
    assert event.end_mark is not None  # the parser marks every event
    return event.end_mark.index


def _node_end(event: yaml.Event, events: Iterator[yaml.Event]) -> int:
    """Offset just after the last written character of the node starting with ``event``."""
    if isinstance(event, (yaml.ScalarEvent, yaml.AliasEvent)):
        return _end(event)
    flow = bool(getattr(event, "flow_style", False))
    end = _end(event)
    for nxt in events:
        if isinstance(nxt, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
            # a block collection's end mark points at the next token, past comments: ignore it
            return max(end, _end(nxt)) if flow else end
        end = max(end, _node_end(nxt, events))
    raise PaperFileError("unexpected end of YAML")  # pragma: no cover - parser guarantees balance


def _layout(text: str) -> _Layout:
    try:
        events = iter(list(yaml.parse(text, Loader=yaml.SafeLoader)))
    except yaml.YAMLError as exc:
        raise PaperFileError(f"not valid YAML: {str(exc).splitlines()[0]}") from None
    next(events)  # stream start
    start = next(events)
    if not isinstance(start, yaml.DocumentStartEvent):
        raise PaperFileError("the file is empty")
    root = next(events)
    if not isinstance(root, yaml.MappingStartEvent):
        raise PaperFileError("expected a mapping of keys at the top of the file")
    if root.flow_style:
        raise PaperFileError("the top-level mapping is written in flow style ({...}); cannot update it by text")
    indent: int | None = None
    content_end = _start(root).index
    owned: list[tuple[int, int]] = []
    for key in events:
        if isinstance(key, yaml.MappingEndEvent):
            break
        if not isinstance(key, yaml.ScalarEvent):
            raise PaperFileError("expected text keys at the top of the file")
        end = max(_end(key), _node_end(next(events), events))
        mark = _start(key)
        if indent is None:
            indent = mark.column
        if key.value == OWNED:
            line_start = mark.index - mark.column
            if text[line_start : mark.index].strip():
                raise PaperFileError(f"the {OWNED} key does not start its line")
            owned.append((line_start, end))
        content_end = max(content_end, end)
    if not isinstance(next(events), yaml.DocumentEndEvent) or not isinstance(next(events), yaml.StreamEndEvent):
        raise PaperFileError("expected one YAML document per file")
    if len(owned) > 1:
        raise PaperFileError(f"the file has {len(owned)} {OWNED} keys")
    return _Layout(indent or 0, content_end, owned[0] if owned else None)


def _line_end(text: str, pos: int) -> int:
    """Offset of the start of the line after the one holding ``text[pos - 1]``."""
    if pos > 0 and text[pos - 1] == "\n":
        return pos
    nl = text.find("\n", pos)
    return len(text) if nl < 0 else nl + 1


def with_meta(text: str, meta: ArxivMeta) -> str:
    """``text`` with its arxiv_meta block replaced (or appended); all else byte for byte."""
    bom = BOM if text.startswith(BOM) else ""
    body = text[len(bom) :]
    newline = "\r\n" if "\r\n" in body else "\n"
    layout = _layout(body)
    block = render_block(meta, layout.indent).replace("\n", newline)
    if layout.owned is not None:
        start, end = layout.owned
        return bom + body[:start] + block + body[_line_end(body, end) :]
    pos = _line_end(body, layout.content_end)
    head = body[:pos]
    if head and not head.endswith("\n"):
        head += newline
    return bom + head + block + body[pos:]


# --------------------------------------------------------------------------- checks and writes


def _hand_written(data: object) -> object:
    return {k: v for k, v in data.items() if k != OWNED} if isinstance(data, dict) else data


def check(new_text: str, path: Path, old_text: str | None = None) -> Paper:
    """The paper ``new_text`` describes, or PaperFileError if it would not validate as ``path``."""
    shown = display(path)
    located, diags = yamlstrict.load_text(yamlstrict.normalize_text(new_text), shown)
    if located is None:
        raise PaperFileError(f"the new text would not read back: {diags[0].text()}")
    paper, diags = validate(Paper, located)
    if paper is None:
        raise PaperFileError("the file would not validate: " + "; ".join(d.text() for d in diags[:3]))
    if paper.id != path.stem:
        raise PaperFileError(f"{shown}: id '{paper.id}' must equal the file name '{path.stem}'")
    if old_text is not None:
        old, _ = yamlstrict.load_text(yamlstrict.normalize_text(old_text), shown)
        if old is not None and _hand_written(old.data) != _hand_written(located.data):
            raise PaperFileError(f"{shown}: refusing to write: a hand-written key would change")  # pragma: no cover
    return paper


def current_meta(text: str) -> ArxivMeta | None:
    located, _ = yamlstrict.load_text(yamlstrict.normalize_text(text), "<paper>")
    if located is None or not isinstance(located.data, dict) or not isinstance(located.data.get(OWNED), dict):
        return None
    try:
        return ArxivMeta.model_validate(located.data[OWNED])
    except ValueError:
        return None


def update_file(path: Path, meta: ArxivMeta) -> str:
    """Write ``meta`` into an existing paper file: ``"updated"`` or ``"unchanged"``."""
    try:
        text = path.read_bytes().decode("utf-8")
    except OSError as exc:
        raise PaperFileError(f"{display(path)}: cannot read: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise PaperFileError(f"{display(path)}: not UTF-8 text") from None
    old = current_meta(text)
    if old is not None and old.model_dump() == meta.model_dump():
        return "unchanged"
    try:
        new_text = with_meta(text, meta)  # only the block: `kb schema --headers` adds a missing schema line
    except PaperFileError as exc:
        raise PaperFileError(f"{display(path)}: {exc}") from None
    check(new_text, path, text)
    write_atomic(path, new_text)
    return "updated"


def create_file(
    index: PaperIndex,
    arxiv: str | None,
    short: str,
    meta: ArxivMeta | None = None,
    extra: dict[str, Any] | None = None,
    title: str | None = None,
) -> Path:
    """Write a new paper file with a fresh id; registers it in ``index``."""
    base = arxiv_id.normalize(arxiv) if arxiv else None
    if base and base in index.by_base:
        raise PaperFileError(f"arXiv {base} already has the paper file {display(index.by_base[base])}")
    paper_id = derive_id(short, title or (meta.title if meta else short), base, index.ids)
    path = index.dir / f"{paper_id}.yaml"
    text = new_paper_text(paper_id, arxiv, short, meta, extra)
    check(text, path)
    if path.exists():  # pragma: no cover - ids are taken from the directory listing
        raise PaperFileError(f"{display(path)} already exists")
    write_atomic(path, text)
    index.ids.add(paper_id)
    if base:
        index.by_base[base] = path
    return path


# --------------------------------------------------------------------------- names


def derive_short(title: str) -> str:
    """A display name: the part before a colon when short ("RetroInfer: A …"), else the
    title when short, else its first significant word."""
    title = " ".join(title.split())
    head, colon, _ = title.partition(":")
    head = head.strip()
    if colon and head and len(head) <= 40 and len(head.split()) <= 4:
        return head
    if len(title) <= 40:
        return title
    return _first_word(title) or title[:40].rstrip()


def _first_word(text: str) -> str:
    words = [w.strip(".,;:!?()[]{}\"'`“”‘’") for w in text.split()]
    words = [w for w in words if w]
    for word in words:
        if word.lower() not in ID_STOPWORDS:
            return word
    return words[0] if words else ""


def slugify(text: str) -> str:
    return text_slugify(text, ID_MAX)


def derive_id(short: str, title: str, base: str | None, taken: set[str]) -> str:
    """A new file id: the short name (up to three words) or the title's first significant
    word, lowercase ``[a-z0-9-]``, made unique with ``-2``, ``-3``, … (a reserved id such as
    ``index``, the name of a generated page, counts as taken)."""
    slug = slugify(short) if len(short.split()) <= 3 else ""
    if not slug:
        slug = slugify(_first_word(title))
    if not slug:
        slug = "arxiv-" + slugify(base) if base else "paper"
    candidate, n = slug, 2
    while candidate in taken or candidate in RESERVED_PAPER_IDS:
        candidate = f"{slug[: ID_MAX - len(str(n)) - 1]}-{n}"
        n += 1
    return candidate
