"""A strict, located YAML reader for contributed data.

It walks PyYAML's event stream (never the constructor), so:

* aliases and anchors are refused at the first event (an alias bomb costs nothing);
* explicit tags (``!!python/object``, ``!!float``, ``!custom``) are refused;
* duplicate keys are refused, naming both places (a reader that keeps going, :func:`load_text`'s
  ``keep_going``, keeps the first value and reports the rest of the file too);
* every scalar stays the text that was written (``2510.09660`` never becomes a
  float, ``NO`` never becomes False); only an empty plain scalar or ``~``/``null``
  becomes ``None``;
* size, depth, node-count and string-length limits are checked while reading.

The result is plain ``dict``/``list``/``str``/``None`` data plus the (line, column) of
each key path, used to place later validation errors.  Positions are made on demand:
the first read parses the file without them (most files never need one; a year of
data kept a map of every key path about as large as all the records), and the first
question about a position parses the kept text again, recording them.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import yaml

from kb.data.cjk import join_cjk
from kb.data.diagnostics import Diagnostic, KeyPath, format_keypath, line_col
from kb.data.yamlfix import Mark, fix_hint, full_width_key, line_at, runaway_quote

_Loader: type[yaml.CSafeLoader] | type[yaml.SafeLoader]
try:  # the C parser is an order of magnitude faster; events and marks are the same
    _Loader = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - pure-Python PyYAML
    _Loader = yaml.SafeLoader


@dataclass(frozen=True)
class Limits:
    max_bytes: int = 512 * 1024
    max_depth: int = 24
    max_string: int = 20_000
    max_nodes: int = 50_000


DEFAULT_LIMITS = Limits()
_NULLS = {"", "~", "null", "Null", "NULL"}
# control characters, and invisible or direction-changing ones that can make text display
# differently from what a reviewer reads (bidi overrides/isolates, zero-width space, BOM)
_CONTROL = re.compile(
    r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\x85\u200b\u200e\u200f\u202a-\u202e\u2028\u2029\u2066-\u2069\ufeff]"
)


# A comment one space after a plain value is refused (:meth:`_Builder._commented`); one two spaces
# after it (yamllint's default) or on a line of its own is a comment.
_COMMENT_AFTER = re.compile(r"[ \t]#")


def _commented_lines(text: str) -> set[int]:
    """The lines (from 0) where a "#" follows one space or tab after something else: where a comment
    may stand one space after a plain value (found by plain search: this runs on every file)."""
    lines: set[int] = set()
    for pair in (" #", "\t#"):
        at = text.find(pair, 1)
        while at > 0:
            if not text[at - 1].isspace():
                lines.add(text.count("\n", 0, at))
            at = text.find(pair, at + 2)
    return lines


def strip_refused(text: str) -> str:
    """``text`` without the characters this reader refuses (for tools that write data)."""
    return _CONTROL.sub("", text)


Found = tuple[dict[KeyPath, tuple[int, int]], dict[KeyPath, tuple[int, int]]]  # value and key positions


@dataclass
class Located:
    """Parsed data with the position of every key path (1-based line and column), found in
    ``text`` (what was parsed) when first asked for."""

    data: object
    path: str
    text: str = ""
    limits: Limits = DEFAULT_LIMITS
    _found: Found | None = field(default=None, repr=False, compare=False)

    @property
    def positions(self) -> dict[KeyPath, tuple[int, int]]:
        """Where each key path's value starts."""
        return self._locate()[0]

    @property
    def key_positions(self) -> dict[KeyPath, tuple[int, int]]:
        """Where each mapping key starts (by the key path it names)."""
        return self._locate()[1]

    def _locate(self) -> Found:
        if self._found is None:
            found: Found = ({}, {})
            if self.text:  # parsed once without an error, so it parses again the same way
                _build(self.text, self.path, self.limits, found)
            self._found = found
        return self._found

    def where(self, keypath: KeyPath) -> tuple[int, int]:
        """The closest known position for ``keypath`` (walking up to the root)."""
        kp = tuple(keypath)
        while kp:
            if kp in self.key_positions:
                return self.key_positions[kp]
            if kp in self.positions:
                return self.positions[kp]
            kp = kp[:-1]
        return self.positions.get((), (1, 1))

    def value_where(self, keypath: KeyPath) -> tuple[int, int]:
        kp = tuple(keypath)
        if kp in self.positions:
            return self.positions[kp]
        return self.where(kp)


class _Again(Exception):
    """A parse without positions was refused: it is made again with them, for the message."""


class _Stop(Exception):
    def __init__(self, diag: Diagnostic):
        self.diag = diag


# A parser event.  The builder is the hot loop of every build: it dispatches on the exact
# event type and reads that type's attributes directly, so they are not checked here.
_Event = Any


def _pos(mark: Mark | None) -> tuple[int, int]:
    return (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)


def normalize_text(text: str) -> str:
    """Text as every reader sees it: no byte-order mark, ``\n`` line ends."""
    return text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")


_ONCE = "a key is given once; to add to a list, write the new items under the first"


def _resave(raw: bytes) -> str:
    """How to fix text that is not UTF-8: most often Chinese saved as GB18030 (GBK) by an editor."""
    try:
        raw.decode("gb18030")
    except UnicodeDecodeError:
        return "save the file as UTF-8"
    return "the file looks saved as GB18030 (GBK): save it as UTF-8 (the editor's encoding menu)"


def decode(raw: bytes, path: str, limits: Limits = DEFAULT_LIMITS) -> tuple[str | None, list[Diagnostic]]:
    """Bytes -> text, refusing oversize files, non-UTF-8 and NUL bytes with a location."""
    if len(raw) > limits.max_bytes:
        return None, [
            Diagnostic(path, 1, 1, f"file is {len(raw)} bytes; the limit is {limits.max_bytes} bytes", code="limit")
        ]
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        col = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        said = f"expected UTF-8 text, got byte 0x{raw[exc.start]:02x}: {_resave(raw)}"
        return None, [Diagnostic(path, line, col, said, code="encoding")]
    nul = text.find("\x00")
    if nul >= 0:
        line, col = line_col(text, nul)
        return None, [Diagnostic(path, line, col, "expected text, got a NUL byte", code="encoding")]
    return normalize_text(text), []


def load_text(
    text: str, path: str, limits: Limits = DEFAULT_LIMITS, keep_going: bool = False
) -> tuple[Located | None, list[Diagnostic]]:
    """Parse one YAML document strictly.  Returns (Located, []) or (None, [diagnostic]); with
    ``keep_going``, a file whose only refusals are duplicate keys gives (Located, [one for each]):
    the data with each key's first value, so what else is wrong with the file is found too."""
    # UTF-8 spends at most four bytes on a character: most texts are measured without encoding them
    if 4 * len(text) > limits.max_bytes and len(text.encode("utf-8", "surrogatepass")) > limits.max_bytes:
        return None, [
            Diagnostic(path, 1, 1, f"file is larger than the limit of {limits.max_bytes} bytes", code="limit")
        ]
    duplicates: list[Diagnostic] = []  # keep_going: found before what ends the file, said with it
    try:
        try:
            data = _build(text, path, limits)
        except _Again:  # refused: parsed again with positions, for the message
            found: Found = ({}, {})
            data = _build(text, path, limits, found, duplicates if keep_going else None)
            if not duplicates:
                raise AssertionError("the two parses disagreed") from None  # pragma: no cover
            return Located(data, path, text, limits, found), duplicates
    except _Stop as stop:
        return None, [*duplicates, stop.diag]
    except yaml.MarkedYAMLError as exc:
        problem = exc.problem or exc.context or "invalid YAML"
        # where the quote or bracket that is not closed opened
        unclosed = ("end of stream" in problem or "expected ','" in problem) and exc.context_mark is not None
        mark = exc.context_mark if unclosed else (exc.problem_mark or exc.context_mark)
        line, col = _pos(mark)
        runaway = None if unclosed or mark is None else runaway_quote(text, _Loader, mark.index)
        if runaway is not None:
            opened, ends, key = runaway
            at, end = _pos(opened), f"{line}:{col}"
            said = f"the quoted text that opens here runs on to line {ends}: close its quote on this line"
            said += f" ({problem} at {end})"
            return None, [*duplicates, Diagnostic(path, *at, f"invalid YAML: {said}", key=key, code="yaml")]
        wide = None if unclosed or mark is None else full_width_key(text, mark)
        if wide is not None:  # the line above has a key with "：": the parser read it as text running on
            at, said = wide
            said = f"invalid YAML: {problem} at {line}:{col}; {said}"
            return None, [*duplicates, Diagnostic(path, *at, said, code="yaml")]
        hint = fix_hint(problem, line_at(text, mark), col, unclosed)
        return None, [*duplicates, Diagnostic(path, line, col, f"invalid YAML: {problem}{hint}", code="yaml")]
    except yaml.YAMLError as exc:  # reader errors (e.g. control characters)
        mark = getattr(exc, "position", None)
        line, col = 1, 1
        if isinstance(mark, int):
            line, col = line_col(text, mark)
        return None, [*duplicates, Diagnostic(path, line, col, f"invalid YAML: {exc}".splitlines()[0], code="yaml")]
    except RecursionError:
        return None, [
            *duplicates,
            Diagnostic(path, 1, 1, f"nesting deeper than {limits.max_depth} levels", code="limit"),
        ]
    return Located(data, path, text, limits), []


def _build(
    text: str, path: str, limits: Limits, found: Found | None = None, duplicates: list[Diagnostic] | None = None
) -> object:
    """The data of ``text``; with ``found``, the positions of its values and keys are put there, and
    with ``duplicates`` too, a duplicate key is put there (its first value kept) instead of refused."""
    loader = _Loader(text)
    try:
        return _Builder(loader, text, path, limits, found, duplicates).document()
    finally:
        loader.dispose()


def load_bytes(
    raw: bytes, path: str, limits: Limits = DEFAULT_LIMITS, keep_going: bool = False
) -> tuple[Located | None, list[Diagnostic]]:
    text, diags = decode(raw, path, limits)
    if text is None:
        return None, diags
    return load_text(text, path, limits, keep_going)


_COLLECTION_KEY = (
    "expected a text key, got a collection as a key; a value that starts with '{' or '[' is read as a "
    'YAML mapping or list: quote it, e.g. label: "{{ name }}"'
)
_Scalar, _Alias = yaml.ScalarEvent, yaml.AliasEvent
_SeqStart, _SeqEnd = yaml.SequenceStartEvent, yaml.SequenceEndEvent
_MapStart, _MapEnd = yaml.MappingStartEvent, yaml.MappingEndEvent


class _Builder:
    """Builds plain data from parser events; the hot loop of every build, so it calls the
    C parser's ``get_event`` directly and dispatches on exact event types.  Without ``found`` it
    keeps no key paths (``None`` stands for each) and a refusal is :class:`_Again`."""

    def __init__(
        self,
        loader: yaml.CSafeLoader | yaml.SafeLoader,
        text: str,
        path: str,
        limits: Limits,
        found: Found | None,
        duplicates: list[Diagnostic] | None = None,
    ):
        self.get: Callable[[], _Event] = loader.get_event
        self.duplicates = duplicates
        self.path = path
        self.record = found is not None
        self.positions, self.key_positions = found if found is not None else ({}, {})
        self.limits = limits
        self.max_nodes, self.max_depth, self.max_string = limits.max_nodes, limits.max_depth, limits.max_string
        self.nodes = 0
        # a scalar's text only holds a character its file does not where a double-quoted escape
        # wrote it: in a clean file, only those are searched
        self.clean = _CONTROL.search(text) is None
        self.text = text
        # the lines (from 0) where a plain value may be followed by a comment (:meth:`_commented`)
        self.commented = _commented_lines(text)

    def _fail(self, event: _Event, message: str, keypath: KeyPath | None, code: str) -> None:
        if keypath is None:
            raise _Again
        line, col = _pos(event.start_mark)
        raise _Stop(Diagnostic(self.path, line, col, message, key=format_keypath(keypath), code=code))

    def _duplicate(self, kev: _Event, message: str, child: KeyPath, depth: int) -> None:
        """A duplicate key, noted; its value is read (refused as any value would be) and dropped,
        its positions too: the first value's stand."""
        assert self.duplicates is not None
        line, col = _pos(kev.start_mark)
        self.duplicates.append(
            Diagnostic(self.path, line, col, message, key=format_keypath(child), code="duplicate-key")
        )
        kept = self.positions, self.key_positions
        self.positions, self.key_positions = {}, {}
        try:
            self.node(self.get(), child, depth + 1)
        finally:
            self.positions, self.key_positions = kept

    def document(self) -> object:
        get = self.get
        get()  # StreamStart
        ev = get()
        if isinstance(ev, yaml.StreamEndEvent):
            return None
        root = () if self.record else None
        if ev.tags:
            self._fail(ev, "expected no %TAG directives", root, "tag")
        data = self.node(get(), root, 0)
        get()  # DocumentEnd
        ev = get()
        if not isinstance(ev, yaml.StreamEndEvent):
            self._fail(ev, "expected one YAML document per file, got a second document", root, "yaml")
        return data

    def _refuse(self, ev: _Event, keypath: KeyPath | None, depth: int) -> None:
        """Why a node is refused: past a limit, or an alias, anchor or tag.  The hot loop below
        tests for any of these inline (one node count each) and calls this only when one holds."""
        if self.nodes > self.max_nodes:
            self._fail(ev, f"more than {self.max_nodes} YAML nodes in one file", keypath, "limit")
        if depth > self.max_depth:
            self._fail(ev, f"nesting deeper than {self.max_depth} levels", keypath, "limit")
        if type(ev) is _Alias:
            self._fail(
                ev, f"expected plain data, got an alias (*{ev.anchor}); aliases are not allowed", keypath, "alias"
            )
        if ev.anchor:
            self._fail(
                ev, f"expected plain data, got an anchor (&{ev.anchor}); anchors are not allowed", keypath, "alias"
            )
        self._fail(ev, f"expected plain data, got the tag {ev.tag}; tags are not allowed", keypath, "tag")

    def _text(self, ev: _Event, keypath: KeyPath | None) -> str:
        """A scalar's text, refused when too long or holding a control character."""
        value: str = ev.value
        if len(value) > self.max_string:
            self._fail(ev, f"string of {len(value)} characters; the limit is {self.max_string}", keypath, "limit")
        if not self.clean or ev.style == '"':
            bad = _CONTROL.search(value)
            if bad:
                self._fail(
                    ev, f"expected text, got the control character U+{ord(bad.group()):04X}", keypath, "encoding"
                )
        return value

    def _commented(self, ev: _Event, keypath: KeyPath | None) -> None:
        """A plain value followed by a comment one space after it is refused: YAML drops the text
        after " #", which a writer of prose (待锚入 #1 压缩) means as part of the value."""
        end = ev.end_mark.index
        line_end = self.text.find("\n", end)
        rest = self.text[end : line_end if line_end >= 0 else len(self.text)]
        after = _COMMENT_AFTER.match(rest)
        if after is None:
            return
        if keypath is None:
            raise _Again
        dropped = rest[after.end() - 1 :].rstrip()  # from the "#"
        shown = ev.value if len(ev.value) <= 40 else ev.value[:39] + "…"
        message = (
            f"the text after ' #' on this line is a YAML comment, left out of the value {shown!r}: "
            f'to keep {dropped!r} in it, put the whole value in quotes ("…"); '
            "a comment goes two spaces after a value or on a line of its own"
        )
        line, col = ev.end_mark.line + 1, ev.end_mark.column + after.end()
        raise _Stop(Diagnostic(self.path, line, col, message, key=format_keypath(keypath), code="comment"))

    def node(self, ev: _Event, keypath: KeyPath | None, depth: int) -> object:
        kind = type(ev)
        self.nodes += 1
        if self.nodes > self.max_nodes or depth > self.max_depth or kind is _Alias or ev.anchor or ev.tag is not None:
            self._refuse(ev, keypath, depth)
        if keypath is not None:
            mark = ev.start_mark
            self.positions[keypath] = (mark.line + 1, mark.column + 1)
        if kind is _Scalar:
            value: str = ev.value
            if len(value) > self.max_string or (not self.clean or ev.style == '"') and _CONTROL.search(value):
                self._text(ev, keypath)  # refused
            if ev.implicit[0] and value in _NULLS:  # plain (unquoted) null
                return None
            if not ev.style and self.commented and ev.end_mark.line in self.commented:
                self._commented(ev, keypath)
            if ev.style in (">", "", None) and " " in value and ev.start_mark.line != ev.end_mark.line:
                return join_cjk(value)  # a folded line break between Chinese characters is no space (plain: "")
            return value
        get = self.get
        if kind is _SeqStart:
            out: list[object] = []
            while True:
                item = get()
                if type(item) is _SeqEnd:
                    return out
                out.append(self.node(item, None if keypath is None else keypath + (len(out),), depth + 1))
        return self._mapping(keypath, depth)

    def _mapping(self, keypath: KeyPath | None, depth: int) -> dict[str, object]:
        get = self.get
        mapping: dict[str, object] = {}
        while True:
            kev = get()
            kind = type(kev)
            if kind is _MapEnd:
                return mapping
            if kind is not _Scalar:
                if kind is _Alias:
                    self._fail(kev, "expected plain data, got an alias as a key", keypath, "alias")
                self._fail(kev, _COLLECTION_KEY, keypath, "yaml")
            self.nodes += 1
            if self.nodes > self.max_nodes or depth >= self.max_depth or kev.anchor or kev.tag is not None:
                self._refuse(kev, keypath, depth + 1)
            key: str = kev.value
            if len(key) > self.max_string or (not self.clean or kev.style == '"') and _CONTROL.search(key):
                self._text(kev, keypath)  # refused
            if kev.implicit[0] and key in _NULLS:
                self._fail(kev, "expected a key, got an empty key", keypath, "yaml")
            if key == "<<":
                self._fail(kev, "expected plain data, got a merge key (<<)", keypath, "alias")
            child = None if keypath is None else keypath + (key,)
            if key in mapping:
                first = (0, 0) if child is None else self.key_positions.get(child, (0, 0))
                message = f"duplicate key '{key}' (first defined at line {first[0]}, column {first[1]}): {_ONCE}"
                if self.duplicates is None or child is None:
                    self._fail(kev, message, child, "duplicate-key")
                else:
                    self._duplicate(kev, message, child, depth)
                    continue
            if child is not None:
                mark = kev.start_mark
                self.key_positions[child] = (mark.line + 1, mark.column + 1)
            mapping[key] = self.node(get(), child, depth + 1)
