"""Each data file's parsed and validated record, kept on disk between builds.

Parsing a year of YAML with key positions and validating it is most of a warm build's
loading (about 5 s of a 3,000-page build).  A record is a pure function of the file's
bytes, the name it is shown under, the model, the limits and this package's code, so
:class:`RecordStore` keeps what :func:`kb.data.loader._parse` returned under a digest
of exactly those, and a later build reads it back instead of parsing again: adding
a brief parses one file.  A build's diagnostics are the same either way (they are part
of what is kept).

Entries are pickles: the directory is the builder's own (``.cache/kb/records/``, see
:mod:`kb.site.cache`), as trusted as the installed packages; never restore it from
somewhere a pull request can write to.  An entry that cannot be read back is parsed
again and replaced.  Entries a load did not use are removed at its end
(:meth:`RecordStore.prune`), so the store stays the size of one data directory.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import sys
import tempfile
from dataclasses import dataclass, field
from importlib.metadata import version
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from pydantic import BaseModel

if TYPE_CHECKING:
    from kb.data.diagnostics import Diagnostic
    from kb.data.loader import Source
    from kb.data.yamlstrict import Limits

M = TypeVar("M", bound=BaseModel)
SUFFIX = ".pickle"


def code_salt() -> str:
    """What a kept record depends on besides its file: this package's code (the models, the
    parser, the messages), pydantic and the interpreter."""
    h = hashlib.blake2b(digest_size=16)
    here = Path(__file__).resolve().parent
    for path in sorted(here.rglob("*.py")):
        h.update(path.relative_to(here).as_posix().encode())
        h.update(path.read_bytes())
    h.update(f"{version('pydantic')} {version('pydantic-core')} {sys.version} {pickle.HIGHEST_PROTOCOL}".encode())
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
        """:func:`kb.data.loader._parse`, or what it returned for the same inputs before."""
        from kb.data.loader import _parse

        h = hashlib.blake2b(digest_size=20)
        for part in (self.salt.encode(), shown.encode("utf-8", "surrogatepass"), model.__name__.encode()):
            h.update(len(part).to_bytes(8, "little") + part)
        h.update(repr(limits).encode() + b"\0" + raw)
        key = h.hexdigest()
        self._used.add(key)
        self.digests[shown] = key
        path = self.root / key[:2] / f"{key}{SUFFIX}"
        try:
            kept = pickle.loads(path.read_bytes())
        except Exception:  # noqa: BLE001 - absent, half-written or from other code: parse again
            kept = None
        if isinstance(kept, tuple) and len(kept) == 3 and (kept[0] is None or isinstance(kept[0], model)):
            self.hits += 1
            return kept  # stored by this method for this model
        self.misses += 1
        parsed = _parse(raw, shown, model, limits)
        write_entry(path, pickle.dumps(parsed, protocol=pickle.HIGHEST_PROTOCOL))
        return parsed

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


def read_kept(path: Path, salt: str) -> object:
    """What :func:`write_kept` stored in ``path`` with this salt; None when there is nothing, it
    cannot be read back, or other code (another salt) wrote it."""
    try:
        kept_salt, value = pickle.loads(path.read_bytes())
    except Exception:  # noqa: BLE001 - absent, half-written or from other code: made again
        return None
    return value if kept_salt == salt else None


def write_kept(path: Path, salt: str, value: object) -> None:
    """Store ``value`` under ``salt`` in one file (:func:`write_entry`)."""
    write_entry(path, pickle.dumps((salt, value), protocol=pickle.HIGHEST_PROTOCOL))


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
    """Remove the entries under ``root`` (``<2 hex>/<key>.pickle``) whose key is not in ``used``; how many."""
    removed = 0
    for path in root.glob(f"*/*{SUFFIX}") if root.is_dir() else ():
        if path.stem not in used:
            path.unlink(missing_ok=True)
            removed += 1
    return removed
