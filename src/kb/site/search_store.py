"""The search index's store: Pagefind's bundle kept between builds (the cache's ``search/``).

Pagefind names each file of its bundle by its content's hash and does not write a hashed file it
finds already written, so a build after one more brief that runs Pagefind into the store writes
only what changed.  :func:`update` runs it there and keeps the store one bundle: files the new
bundle does not name are removed, a file whose content does not match its name is removed and
written again, and a run that failed or was killed leaves no ``.complete`` (the next starts
afresh).  :func:`link_tree` gives the site hard links to the hashed files.  :func:`locked`: builds
take turns on the store.  Nothing here runs Pagefind itself: :mod:`kb.site.search_index` passes the run.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from kb.site.search_parts import content, full_hash

__all__ = ["Stopped", "complete", "count", "edit", "link_tree", "locked", "swap_in", "update"]

# The bundle's files named by their content's hash (Pagefind never rewrites one it finds): the
# language's meta file, one fragment per page, the word index's chunks and the filters.
_HASHED_DIRS = ("fragment", "index", "filter")
_COMPLETE = ".complete"  # written after a run that succeeded: without it the store is not trusted


@contextmanager
def locked(store: Path) -> Iterator[None]:
    """An exclusive lock on the store while a build writes it and links to it (where the system
    has ``flock``)."""
    store.mkdir(parents=True, exist_ok=True)
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not a POSIX system
        yield
        return
    with (store / ".lock").open("a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def update(store: Path, run: Callable[[Path], None]) -> int:
    """Pagefind's bundle, written by ``run(store)`` into ``store`` over the last build's: files it
    finds there are kept, what the new bundle does not name is removed (the store stays one
    bundle).  A run that failed or was killed leaves no ``.complete``: the next starts afresh.
    Returns how many files were kept from before."""
    import shutil

    if store.exists() and not (store / _COMPLETE).exists():
        shutil.rmtree(store)
    (store / _COMPLETE).unlink(missing_ok=True)
    _drop_clashes(store)
    before = _hashed_files(store)
    run(store)
    _prune(store)
    # A name is the first 7 hex digits of its content's hash: a file of the last build can bear
    # the name of a different new one (Pagefind settles such clashes within one run only); it
    # would not be written, and a result would show the old page.  Such files go, and Pagefind
    # writes them again.
    kept = [p for p in before if p.exists()]
    clashes = [p for p in kept if not _intact(p)]
    if clashes:
        for path in clashes:
            path.unlink()
        run(store)
        _prune(store)  # the filters may come out under other names
    (store / _COMPLETE).write_text("", "utf-8")
    return len(kept) - len(clashes)


def _drop_clashes(store: Path) -> None:
    """Files named alike up to their first 7 hex digits (a clash settled with a longer name,
    within a run or by an update, :mod:`kb.site.search_update`) go before Pagefind runs: it may
    settle the clash the other way, and would find a file under its name with another page's
    content, of the same short hash."""
    groups: dict[tuple[Path, str, str], list[Path]] = {}
    for path in _hashed_files(store):
        language, _, digits = _hash_of(path).rpartition("_")
        groups.setdefault((path.parent, language, digits[:7]), []).append(path)
    for paths in groups.values():
        if len(paths) > 1:
            for path in paths:
                path.unlink()


def count(store: Path) -> int:
    """How many hashed files the store holds."""
    return len(_hashed_files(store))


def complete(store: Path) -> bool:
    """Whether the store holds a bundle of a run that succeeded."""
    return (store / _COMPLETE).exists()


class Stopped(Exception):
    """Raised by a change of :func:`edit` that stopped before the bundle named a file it wrote,
    and before it replaced one: the bundle is whole, as it was."""


def edit(store: Path, change: Callable[[], bool]) -> int | None:
    """The store's complete bundle changed in place by ``change`` (True: it came out as it
    should), and the files it no longer names removed; how many files were kept from before.  None:
    the change failed.  Until it has succeeded the store is not complete: a change that failed,
    raised or was killed leaves the next build to start afresh; one that raised :class:`Stopped`
    leaves the bundle complete, as it was (the files it wrote removed), and the exception goes on."""
    (store / _COMPLETE).unlink()
    before = _hashed_files(store)
    try:
        if not change():
            return None
    except Stopped:
        _prune(store)
        (store / _COMPLETE).write_text("", "utf-8")
        raise
    _prune(store)
    (store / _COMPLETE).write_text("", "utf-8")
    return sum(p.exists() for p in before)


def _prune(store: Path) -> None:
    """Remove the hashed files the bundle's meta does not name."""
    named = _named_files(store)
    for path in _hashed_files(store):
        if _hash_of(path) not in named:
            path.unlink()


def _hashed_files(store: Path) -> list[Path]:
    """The bundle's files named by their content's hash."""
    return [*(p for d in _HASHED_DIRS for p in (store / d).glob("*")), *store.glob("pagefind.*.pf_meta")]


def _hash_of(path: Path) -> str:
    """The hash a bundle file is named by (``zh_3f2a91c``)."""
    return path.name.split(".")[1] if path.suffix == ".pf_meta" else path.stem


def _intact(path: Path) -> bool:
    """Whether the file holds what its name says: Pagefind names a file by the SHA-1 of what it
    compresses (:func:`kb.site.search_parts.full_hash`)."""
    try:
        data = content(path)
    except ValueError:
        return False
    language, _, short = _hash_of(path).rpartition("_")
    return bool(language) and full_hash(data).startswith(short)


def _named_files(store: Path) -> set[str]:
    """The hashes the bundle's entry file and meta files name (the names of the files in use),
    and every prefix of them a file name could be: a name missing here is safe to remove."""
    import gzip
    import json

    entry = json.loads((store / "pagefind-entry.json").read_text("utf-8"))
    named: set[str] = set()
    for language, info in entry["languages"].items():
        meta = gzip.decompress((store / f"pagefind.{info['hash']}.pf_meta").read_bytes())
        prefix = re.escape(language).encode()
        for m in re.finditer(rb"%s_[0-9a-f]{7,}" % prefix, meta):
            token = m.group(0).decode()
            named.update(token[:n] for n in range(len(language) + 8, len(token) + 1))
        named.add(info["hash"])
    return named


def link_tree(store: Path, out: Path, unused: Callable[[str], bool]) -> None:
    """``out`` gets the store's bundle: hard links to the hashed files (never changed in place),
    copies of the rest (Pagefind rewrites them on every run); none of the top-level files whose
    name is ``unused``, nor the store's own (``.complete``, the state of :mod:`kb.site.search_update`)."""
    import os
    import shutil

    hashed = set(_hashed_files(store))
    for path in store.rglob("*"):
        if path.is_dir() or (path.parent == store and (path.name.startswith(".") or unused(path.name))):
            continue
        dest = out / path.relative_to(store)
        dest.parent.mkdir(parents=True, exist_ok=True)
        if path in hashed:
            try:
                os.link(path, dest)
                continue
            except OSError:  # another file system
                pass
        shutil.copyfile(path, dest)


def swap_in(made: Path, out: Path) -> None:
    """The directory ``made`` becomes ``out``: the one there before is renamed aside, then removed
    (a reader meets no bundle only between two renames).  Where the second rename fails (on
    Windows a file of ``out`` held open), ``out`` is put back as it was and the error raised."""
    import shutil

    old = made.with_name(made.name + "-old")
    if out.exists():
        out.rename(old)
    try:
        made.rename(out)
    except OSError:
        if old.exists() and not out.exists():
            old.rename(out)
        raise
    shutil.rmtree(old, ignore_errors=True)
