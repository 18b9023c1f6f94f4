"""Data directory -> validated records, or every located error at once.

Layout (anything else under ``data/`` is an error, so a typo in a file name is
not silently ignored):

    data/topics/<topic>.yaml
    data/papers/<paper-id>.yaml
    data/briefs/<topic>/<YYYY-MM-DD>-<round>.yaml
    data/demos/<demo-id>.yaml
"""

from __future__ import annotations

import hashlib
import os
import re
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, TypeVar

from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails

from kb.data import arxiv_id
from kb.data.diagnostics import Diagnostic, format_keypath
from kb.data.hints import did_you_mean, misspelt, schema_anchor
from kb.data.models import Brief, Demo, Paper, Topic
from kb.data.models.types import no_such_day
from kb.data.safefile import Refused, read_limited, walk
from kb.data.typedesc import Describer, example_of, field_at
from kb.data.yamlstrict import DEFAULT_LIMITS, Limits, Located, load_bytes

M = TypeVar("M", bound=BaseModel)
Parsed = tuple[Any, "Source | None", "list[Diagnostic]"]  # one file: its record, source and diagnostics


@dataclass
class Source:
    """Where a record came from: its file (as shown to users) and key positions."""

    path: str
    located: Located

    def where(self, *keypath: str | int) -> tuple[int, int]:
        return self.located.where(keypath)


@dataclass
class Loaded:
    topics: dict[str, tuple[Topic, Source]] = field(default_factory=dict)
    papers: dict[str, tuple[Paper, Source]] = field(default_factory=dict)
    briefs: dict[str, tuple[Brief, Source]] = field(default_factory=dict)
    demos: dict[str, tuple[Demo, Source]] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    # file stems per kind that exist but failed to load: references to them are
    # not reported again as "unknown" (one mistake, one message)
    failed: dict[str, set[str]] = field(default_factory=lambda: {k: set() for k in KINDS})
    # briefs ("topic/stem") whose data is not a valid record: its references are checked as written
    unchecked: dict[str, Source] = field(default_factory=dict)


class Memo(Protocol):
    """What :func:`load` asks of a memo of parsed files: :class:`FileMemo` (in memory) or
    :class:`kb.data.recordstore.RecordStore` (on disk between builds)."""

    def start(self) -> None: ...

    def parse(
        self, raw: bytes, shown: str, model: type[M], limits: Limits
    ) -> tuple[M | None, Source | None, list[Diagnostic]]: ...

    def prune(self) -> object: ...


@dataclass
class FileMemo:
    """The parsed and validated record of each data file, kept by a long-running process
    (``kb preview``) across loads and reused while the file's bytes are the same (a digest).

    Off unless a caller passes one to :func:`load`: ``kb validate``, ``mkdocs build`` and the
    tests never do.  Records are frozen, so sharing one between two loads is safe."""

    entries: dict[tuple[str, str], tuple[bytes, Limits, Parsed]] = field(default_factory=dict)
    hits: int = 0  # files reused by the last load
    misses: int = 0  # files parsed by the last load
    _seen: set[tuple[str, str]] = field(default_factory=set)

    def parse(
        self, raw: bytes, shown: str, model: type[M], limits: Limits
    ) -> tuple[M | None, Source | None, list[Diagnostic]]:
        """:func:`parse`, or what it returned for the same file and bytes before."""
        key, digest = (shown, model.__name__), hashlib.blake2b(raw, digest_size=16).digest()
        self._seen.add(key)
        kept = self.entries.get(key)
        if kept is not None and kept[0] == digest and kept[1] == limits:
            self.hits += 1
        else:
            self.misses += 1
            kept = self.entries[key] = (digest, limits, parse(raw, shown, model, limits))
        record, source, diags = kept[2]
        return record, source, list(diags)

    def start(self) -> None:
        self.hits = self.misses = 0
        self._seen = set()

    def prune(self) -> None:
        """End of a load: forget the files it did not see (deleted or renamed)."""
        for key in set(self.entries) - self._seen:
            del self.entries[key]


SCHEMA_DIR = "schema"  # data/schema/<kind>.schema.json: generated JSON Schemas for editors
KINDS: dict[str, type[BaseModel]] = {"topics": Topic, "papers": Paper, "briefs": Brief, "demos": Demo}


def display_path(path: Path) -> str:
    """Path as users see it: relative to the working directory when possible."""
    try:
        return os.path.relpath(path)
    except ValueError:  # pragma: no cover - other drive on Windows
        return str(path)


# keys that moved: say where the fact is recorded now
MOVED = {
    ("Paper", "anchors"): "anchoring is recorded by briefs, not paper files: in the brief of the day, give the item "
    "`status: anchored` and `anchored_in: <section id>`",
    (
        "Brief",
        "baseline",
    ): "a brief no longer types the baseline: the living document's update labels and citation count "
    "are recorded once in data/topics/<topic>.yaml under `updates:`",
}


def _example(model: type[BaseModel], name: str, hint: object) -> str:
    info = model.model_fields.get(name)
    if info is None:
        return ""
    value = info.examples[0] if info.examples else example_of(hint)
    if value is None:
        return ""
    shown = "[" + ", ".join(map(str, value)) + "]" if isinstance(value, list) else str(value)
    return f", e.g. `{name}: {shown}`"


def _field_help(model: type[BaseModel], name: str | None) -> str:
    """`` (type, e.g. `key: example`); see CONTRIBUTING.md#record``."""
    anchor = schema_anchor(model.__name__)
    if name is None or name not in model.model_fields:
        return f"; see {anchor}"
    hint = typing.get_type_hints(model, include_extras=True)[name]
    return f" ({Describer(spell_out=True).type(hint)}{_example(model, name, hint)}); see {anchor}"


def _pydantic_message(err: ErrorDetails, root: type[BaseModel], meant: str | None = None) -> str:
    """What is wrong, in words; ``meant``: the required key an unknown key is a misspelling of."""
    kind = err["type"]
    loc = err["loc"]
    got = err.get("input")
    real = [p for p in loc if isinstance(p, int) or not str(p).startswith(("function-", "literal[", "enum["))]
    record, name = field_at(root, real)
    if kind == "missing":
        return f"missing required key '{loc[-1]}'" + _field_help(record, str(loc[-1]))
    if kind == "extra_forbidden":
        key = str(real[-1])
        parent, _ = field_at(root, real[:-1])
        moved = MOVED.get((parent.__name__, key))
        if moved:
            return f"unknown key '{key}': {moved}"
        if meant:
            return f"unknown key '{key}' (did you mean '{meant}'?); '{meant}' is required" + _field_help(parent, meant)
        keys = list(parent.model_fields)
        return (
            f"unknown key '{key}'{did_you_mean(key, keys)}; the keys of {parent.__name__} are: "
            f"{', '.join(keys)}; see {schema_anchor(parent.__name__)}"
        )
    msg = str(err["msg"])
    if msg.startswith("Value error, "):
        return msg[len("Value error, ") :] + _field_help(record, name)
    shown = {dict: "a mapping", list: "a list", type(None): _EMPTY}.get(type(got)) or repr(got)
    if isinstance(got, str) and len(shown) > 80:
        shown = shown[:77] + "...'"
    if kind == "string_pattern_mismatch":  # the field's help says the form in words: no regex here
        pattern = str((err.get("ctx") or {}).get("pattern", ""))
        fits = (lambda v: re.fullmatch(pattern, v) is not None) if pattern else (lambda v: False)
        hint = _case_hint(got, fits) or _separator_hint(got, fits) or _arxiv_hint(got, name)
        return f"got {shown}, which is not of the form this key takes{hint}" + _field_help(record, name)
    text = f"expected {msg[0].lower() + msg[1:]}, got {shown}".replace("expected input should be ", "expected ")
    if kind in ("enum", "literal_error"):
        allowed = re.findall(r"'([^']*)'", str((err.get("ctx") or {}).get("expected", "")))
        text += _case_hint(got, lambda v: v in allowed, allowed)
    elif kind.startswith("date_") and isinstance(got, str):
        text = no_such_day(got) or text
    elif kind.startswith("datetime_") and isinstance(got, str) and (why := no_such_day(got[:10])):
        text = f"expected a date and time, got '{got}': {why.split(': ', 1)[1]}"  # the day, as for a date
    elif kind == "string_type" and isinstance(got, dict) and len(got) == 1:
        text += _colon_hint(got)
    elif kind == "list_type" and isinstance(got, str) and name:
        item = got if re.fullmatch(r"[^\s:#,\[\]{}'\"][^:#,\[\]{}'\"]{0,39}", got) else "…"
        text += f"; a list is written in brackets, e.g. {name}: [{item}]"
    return text + _field_help(record, name)


_EMPTY = "nothing: the value is empty (if it starts with '#', quote it: a '#' after a space starts a comment)"


def _case_hint(got: object, fits: typing.Callable[[str], bool], allowed: typing.Sequence[str] = ()) -> str:
    """``: write it as 'P2'`` when ``got`` only differs in case from a value that fits ("" otherwise)."""
    if not isinstance(got, str):
        return ""
    same = [v for v in allowed if v.casefold() == got.casefold()] or [
        v for v in (got.upper(), got.lower()) if v != got and fits(v)
    ]
    return f"; the case matters: write it as '{same[0]}'" if same else ""


def _separator_hint(got: object, fits: typing.Callable[[str], bool]) -> str:
    """``; '，' does not part list items …`` when ``got`` is items that fit, joined by a Chinese comma
    or enumeration mark ("" otherwise)."""
    if not isinstance(got, str) or not (mark := next((m for m in "，、；" if m in got), None)):
        return ""
    items = [item.strip() for item in re.split("[，、；,]", got)]
    if not all(fits(item) for item in items):
        return ""
    return f"; '{mark}' does not part list items: write ', ' between them, e.g. [{', '.join(items)}]"


def _arxiv_hint(got: object, name: str | None) -> str:
    """``; that is an arXiv id …`` where a paper's id is wanted and ``got`` is an arXiv id."""
    if name not in ("paper", "papers") or not isinstance(got, str) or arxiv_id.parse(got) is None:
        return ""
    return (
        f"; '{got}' is an arXiv id: write the paper's id, the name of its file under data/papers/ "
        f"(`kb status {got}` says which; `kb new paper {got}` makes one)"
    )


def _colon_hint(got: dict[object, object]) -> str:
    """``; YAML read ': ' after … as a key …`` for text that became a one-key mapping."""
    ((head, rest),) = got.items()
    if not isinstance(head, str) or not isinstance(rest, (str, int, float)) or isinstance(rest, bool):
        return ""
    written = f"{head}: {rest}".replace("\\", "\\\\").replace('"', '\\"')
    return f"; YAML read the ': ' after '{head}' as a key and its value: to keep it as text, quote it: \"{written}\""


def validate(model: type[M], located: Located) -> tuple[M | None, list[Diagnostic]]:
    """Validate parsed data against ``model``; map every error to its line and column, with how to fix it."""
    if not isinstance(located.data, dict):
        got = "nothing" if located.data is None else type(located.data).__name__
        return None, [
            Diagnostic(
                located.path, 1, 1, f"expected a mapping of keys at the top of the file, got {got}", code="schema"
            )
        ]
    try:
        return model.model_validate(located.data), []
    except ValidationError as exc:
        diags = []
        errors = exc.errors(include_url=False)
        meant = misspelt(errors)  # a misspelt key is said once, where it is: as unknown, not as missing too
        said = {(parent, key) for (parent, _), key in meant.items()}
        for err in errors:
            at = (tuple(err["loc"][:-1]), str(err["loc"][-1]))
            if err["type"] == "missing" and at in said:
                continue
            keypath = tuple(p for p in err["loc"] if isinstance(p, int) or p in _known_keys(located, err["loc"]))
            line, col = located.value_where(keypath) if err["type"] != "extra_forbidden" else located.where(keypath)
            message = _pydantic_message(err, model, meant.get(at))
            diags.append(Diagnostic(located.path, line, col, message, key=format_keypath(keypath), code="schema"))
        return None, diags


def _known_keys(located: Located, loc: tuple[int | str, ...]) -> set[str]:
    # pydantic adds pseudo-segments (e.g. 'function-after[...]'); keep only real keys
    return {p for p in loc if isinstance(p, str) and not p.startswith(("function-", "literal[", "enum["))}


def load_file(
    path: Path,
    root: Path | None,
    model: type[M],
    limits: Limits = DEFAULT_LIMITS,
    memo: Memo | None = None,
) -> tuple[M | None, Source | None, list[Diagnostic]]:
    """One record file; ``root``: refuse a symlinked parent below it (``None``: the caller listed
    ``path`` with :func:`~kb.data.safefile.walk`, which never enters a linked directory)."""
    shown = display_path(path)
    try:  # no symlink (nor among the parents below root), no device or FIFO, size checked before reading
        raw = read_limited(path, limits.max_bytes, root)
    except Refused as exc:
        code = "limit" if "limit" in str(exc) else "io"
        return None, None, [Diagnostic(shown, 1, 1, str(exc), code=code)]
    return parse(raw, shown, model, limits) if memo is None else memo.parse(raw, shown, model, limits)


def parse(raw: bytes, shown: str, model: type[M], limits: Limits) -> tuple[M | None, Source | None, list[Diagnostic]]:
    """One data file's bytes read (shown as ``shown``) and validated as a ``model``: the record (or
    None), where its keys are, and what is wrong, located."""
    located, read = load_bytes(raw, shown, limits, keep_going=True)
    if located is None:
        return None, None, read
    record, diags = validate(model, located)
    if read:  # duplicate keys: refused, and what else is wrong with the file said at once
        return None, Source(shown, located), sorted(read + diags, key=lambda d: (d.line, d.col))
    if record is not None:  # the record holds it now; what a source keeps is where things are (its text)
        located.data = None  # (a record that failed keeps its data: its references are still checked)
    return record, Source(shown, located), diags


_UNEXPECTED = (
    "unexpected file: expected data/topics/<id>.yaml, data/papers/<id>.yaml, "
    "data/briefs/<topic>/<date>-<round>.yaml, data/demos/<id>.yaml (or data/schema/<kind>.schema.json)"
)


# where kb finds the data without --data (kb.cli.project.data_dir)
WHERE = "run kb in the project (the folder of mkdocs.yml and data/, or one below it), or name the directory with --data"


def load(data_dir: Path | str, limits: Limits = DEFAULT_LIMITS, memo: Memo | None = None) -> Loaded:
    """Every record under ``data_dir``; with a ``memo`` (kept in memory, or on disk between builds:
    :class:`kb.data.recordstore.RecordStore`), unchanged files are not parsed again."""
    root = Path(data_dir)
    out = Loaded()
    if memo is not None:
        memo.start()
    if not root.is_dir():
        out.diagnostics.append(Diagnostic(str(root), 1, 1, f"no such data directory: {WHERE}", code="io"))
        return out
    # each kind's table; its records are of the model KINDS[kind]
    tables: dict[str, dict[str, tuple[Any, Source]]] = {
        "topics": out.topics,
        "papers": out.papers,
        "briefs": out.briefs,
        "demos": out.demos,
    }
    for entry in walk(root):  # symlinked directories are listed, never entered
        path = entry.path
        if path.name.startswith(".") or path.name.lower() in ("readme.md",):
            continue
        if entry.kind != "file":
            what = "a symbolic link" if entry.kind == "symlink" else "not a regular file"
            out.diagnostics.append(
                Diagnostic(
                    display_path(path), 1, 1, f"is {what}; refused under data/ (commit the file itself)", code="io"
                )
            )
            continue
        rel = path.relative_to(root).parts
        kind = rel[0]
        if kind == SCHEMA_DIR and len(rel) == 2 and path.suffix == ".json":
            continue  # the JSON Schemas editors read (`kb schema --format json`), not records
        target = tables.get(kind)
        expected_depth = 3 if kind == "briefs" else 2
        if target is None or len(rel) != expected_depth or path.suffix != ".yaml":
            out.diagnostics.append(Diagnostic(display_path(path), 1, 1, _UNEXPECTED, code="layout"))
            continue
        record, source, diags = load_file(path, None, KINDS[kind], limits, memo)  # walk() checked the parents
        out.diagnostics.extend(diags)
        if record is None or source is None:
            out.failed[kind].add(path.stem)
            if source is not None and kind == "briefs":
                out.unchecked[f"{rel[1]}/{path.stem}"] = source
            continue
        key = _record_key(kind, path, rel, record, source, out.diagnostics)
        if key is None:  # a record in the wrong place (or named wrongly) is not counted either
            out.failed[kind].add(path.stem)
        else:
            target[key] = (record, source)
    if memo is not None:
        memo.prune()
    return out


_BRIEF_NAME = re.compile(r"(\d{4}-\d{2}-\d{2})-([a-z][a-z0-9]{0,5})")  # <date>-<round>, as a stem


def _name_fix(stem: str, date: str, round_: str, taken: bool = False) -> tuple[str, str]:
    """The key to point at and what to do when a brief's file name is not its date and round: write
    the value the name gives (where only the date or only the round differs, and the name's is one
    the key takes), or rename the file, unless a file of that name is there already (``taken``:
    then this file is another brief, and the value is what to fix)."""
    expected = f"{date}-{round_.lower()}"
    said = f"the file name {stem}.yaml does not match date: {date} and round: {round_}"
    rename = f"rename the file to {expected}.yaml"
    other = f"{expected}.yaml is another brief already"
    m = _BRIEF_NAME.fullmatch(stem)
    fix = None
    if m is not None and m.group(2) == round_.lower() and not no_such_day(m.group(1)):
        key, fix = "date", f"write date: {m.group(1)}"
    elif m is not None and m.group(1) == date:
        key, fix = "round", f"write round: {m.group(2).upper()}"
    if fix is None:
        if taken:
            return "date", f"{said}: {other}: write the date and round of this file's brief"
        return "date", f"{said}: {rename} (<date>-<round>.yaml, the round in lower case)"
    return key, f"{said}: {fix} ({other})" if taken else f"{said}: if the {key} is mistyped, {fix}; else {rename}"


def _record_key(
    kind: str, path: Path, rel: tuple[str, ...], record: BaseModel, source: Source, diags: list[Diagnostic]
) -> str | None:
    stem = path.stem
    if isinstance(record, Brief):  # kind == "briefs"
        expected = f"{record.date.isoformat()}-{record.round.lower()}"
        ok = True
        if rel[1] != record.topic:
            line, col = source.located.value_where(("topic",))
            diags.append(
                Diagnostic(
                    source.path,
                    line,
                    col,
                    f"topic '{record.topic}' is not the folder the brief is in (data/briefs/{rel[1]}/): "
                    f"if the topic is mistyped, write topic: {rel[1]}; else move the file to "
                    f"data/briefs/{record.topic}/",
                    key="topic",
                    code="layout",
                )
            )
            ok = False
        if stem != expected:
            wrong, fix = _name_fix(
                stem, record.date.isoformat(), record.round, path.with_name(f"{expected}.yaml").exists()
            )
            line, col = source.located.value_where((wrong,))
            diags.append(
                Diagnostic(
                    source.path,
                    line,
                    col,
                    fix,
                    key=wrong,
                    code="layout",
                )
            )
            ok = False
        return f"{record.topic}/{stem}" if ok else None
    assert isinstance(record, (Topic, Paper, Demo))
    if stem != record.id:
        line, col = source.where("id")
        diags.append(
            Diagnostic(
                source.path, line, col, f"id '{record.id}' must equal the file name '{stem}'", key="id", code="layout"
            )
        )
        return None
    return record.id
