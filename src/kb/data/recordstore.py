"""Each data file's parsed and validated record, kept on disk between builds.

Parsing the data's YAML with key positions and validating it is most of a warm build's
loading (docs/performance.md#build).  A record is a pure function of the file's
bytes, the name it is shown under, the model, the limits and this package's code, so
:class:`RecordStore` keeps what :func:`kb.data.loader.parse` returned under a digest
of exactly those, and a later build reads it back instead of parsing again: adding
a brief parses one file.  Only a file that loads without a diagnostic is kept (one with a
mistake is parsed again each time), so a build's diagnostics are the same either way.

Entries are JSON, never code: the record as pydantic writes it (read back with
``model_validate_json``), the file's text (for the key positions a later message asks for) and
the entry's own key, compared before anything is used.  A record whose JSON does not read back
as the same record is not kept.  An entry that is absent, cannot be read, is not of that shape or
carries another key is a miss: parsed again and replaced.  The directory is the user's cache
(:mod:`kb.site.cache`), outside the checkout.  Entries a load did not use are removed at its end
(:meth:`RecordStore.prune`), so the store stays the size of one data directory.
"""

from __future__ import annotations

import hashlib
import os
import sys
import tempfile
from dataclasses import dataclass, field
from importlib.metadata import version
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from pydantic import BaseModel, ValidationError

if TYPE_CHECKING:
    from kb.data.diagnostics import Diagnostic
    from kb.data.loader import Source
    from kb.data.yamlstrict import Limits

M = TypeVar("M", bound=BaseModel)
SUFFIX = ".json"


class _Entry(BaseModel, Generic[M]):
    """A kept record: the key it was stored under, the file's text and the record."""

    key: str
    text: str
    record: M


def code_salt() -> str:
    """What a kept record depends on besides its file: this package's code (the models, the
    parser, the messages), pydantic and the interpreter."""
    h = hashlib.blake2b(digest_size=16)
    here = Path(__file__).resolve().parent
    for path in sorted(here.rglob("*.py")):
        h.update(path.relative_to(here).as_posix().encode())
        h.update(path.read_bytes())
    h.update(f"{version('pydantic')} {version('pydantic-core')} {sys.version}".encode())
    return h.hexdigest()


@dataclass
class RecordStore:
    """Parsed records by a digest of their inputs; :meth:`prune` keeps what the last load used."""

    root: Path
    salt: str = field(default_factory=code_salt)
    hits: int = 0  # files read back by the last load
    misses: int = 0  # files parsed by the last load
    digests: dict[str, str] = field(default_factory=dict)  # shown path -> its entry's key (the last load)
    _used: set[str] = field(default_factory=set)

    def parse(
        self, raw: bytes, shown: str, model: type[M], limits: Limits
    ) -> tuple[M | None, Source | None, list[Diagnostic]]:
        """:func:`kb.data.loader.parse`, or what it returned for the same inputs before."""
        from kb.data.loader import Source, parse
        from kb.data.yamlstrict import Located

        h = hashlib.blake2b(digest_size=20)
        for part in (self.salt.encode(), shown.encode("utf-8", "surrogatepass"), model.__name__.encode()):
            h.update(len(part).to_bytes(8, "little") + part)
        h.update(repr(limits).encode() + b"\0" + raw)
        key = h.hexdigest()
        self._used.add(key)
        self.digests[shown] = key
        path = self.root / key[:2] / f"{key}{SUFFIX}"
        entry = read_entry(path, _Entry[model])  # type: ignore[valid-type]
        if entry is not None and entry.key == key:
            self.hits += 1
            return entry.record, Source(shown, Located(None, shown, entry.text, limits)), []
        self.misses += 1
        record, source, diags = parse(raw, shown, model, limits)
        if record is not None and source is not None and not diags:
            kept = _Entry[model](key=key, text=source.located.text, record=record)  # type: ignore[valid-type]
            data = kept.model_dump_json().encode()
            if read_entry_bytes(data, _Entry[model]) == kept:  # type: ignore[valid-type]
                write_entry(path, data)  # (a record whose JSON reads back otherwise is parsed each time)
        return record, source, diags

    def start(self) -> None:
        self.hits = self.misses = 0
        self._used, self.digests = set(), {}

    def prune(self) -> int:
        """End of a load: remove the entries it did not use (files deleted, edited or renamed, or
        kept by other code); how many were removed."""
        return prune_entries(self.root, self._used)


def salt_with(package: str, extra: str = "") -> str:
    """:func:`code_salt` with the modules of one more package (the file of a module in it) and
    ``extra`` (the versions of the libraries it uses): the salt of what that package keeps."""
    h = hashlib.blake2b(code_salt().encode(), digest_size=16)
    for path in sorted(Path(package).resolve().parent.glob("*.py")):
        h.update(path.name.encode() + b"\0" + path.read_bytes())
    h.update(extra.encode())
    return h.hexdigest()


B = TypeVar("B", bound=BaseModel)
E = TypeVar("E")


def read_entry_bytes(data: bytes, shape: type[B]) -> B | None:
    """``data`` read as JSON of the model ``shape``; None when it is not that."""
    try:
        return shape.model_validate_json(data)
    except (ValidationError, ValueError, RecursionError):
        return None


def read_entry(path: Path, shape: type[B]) -> B | None:
    """The entry in ``path`` (:func:`read_entry_bytes`); None when there is none."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    return read_entry_bytes(data, shape)


class _Kept(BaseModel, Generic[E]):
    salt: str
    value: E


def read_kept(path: Path, salt: str, shape: Any) -> Any:
    """What :func:`write_kept` stored in ``path`` with this salt, as JSON of type ``shape``; None
    when there is nothing, it is not JSON of that shape, or other code (another salt) wrote it."""
    kept = read_entry(path, _Kept[shape])
    return kept.value if kept is not None and kept.salt == salt else None


def write_kept(path: Path, salt: str, value: object, shape: Any) -> None:
    """Store ``value`` (of type ``shape``) as JSON under ``salt`` in one file (:func:`write_entry`)."""
    write_entry(path, _Kept[shape](salt=salt, value=value).model_dump_json().encode())


def write_entry(path: Path, data: bytes) -> None:
    """Store a cache entry atomically (a build killed midway leaves no half-written entry, and no
    fsync: an entry lost in a crash is made again); a cache that cannot be written is no error."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
    except OSError:  # a read-only cache: the build goes on without keeping it
        return
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def prune_entries(root: Path, used: set[str]) -> int:
    """Remove the entries under ``root`` (``<2 hex>/<key>.json``, or of an older format) whose key
    is not in ``used``; how many."""
    removed = 0
    for path in root.glob("*/*") if root.is_dir() else ():
        if not path.name.startswith(".tmp-") and (path.suffix != SUFFIX or path.stem not in used):
            path.unlink(missing_ok=True)
            removed += 1
    return removed
