"""Atomic file replacement: a reader sees the old file or the new one, never half of one.

The new content goes to a temporary file in the same directory (so the rename
never crosses a file system), is flushed and fsynced, then moved over the target
with ``os.replace``; the directory is fsynced too so the rename itself survives
a crash.  The temporary name starts with a dot, so a file left behind by a
process killed before the rename is skipped by the data loader and the caches.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

TEMP_SUFFIX = ".tmp"


def _read_umask() -> int:
    umask = os.umask(0)  # the only way to read it sets it: once, as the module loads (threads start later)
    os.umask(umask)
    return umask


_UMASK = _read_umask()


def _mode_for(path: Path) -> int:
    try:
        return path.stat().st_mode & 0o7777
    except FileNotFoundError:
        return 0o666 & ~_UMASK


def new_dir(parent: Path, prefix: str) -> Path:
    """A new empty directory in ``parent``, its name ``prefix`` and a unique tail, with the mode
    ``mkdir`` gives it: ``tempfile.mkdtemp``'s is the owner's alone, and a directory made to be
    renamed into a site must stay readable by a web server running as another user."""
    made = Path(tempfile.mkdtemp(prefix=prefix, dir=parent))
    os.chmod(made, 0o777 & ~_UMASK)
    return made


def write_atomic(path: str | os.PathLike[str], data: bytes | str, *, encoding: str = "utf-8") -> None:
    """Replace ``path`` with ``data`` atomically (keeping the file's permission bits)."""
    target = Path(path)
    raw = data.encode(encoding) if isinstance(data, str) else data
    mode = _mode_for(target)
    directory = target.parent
    directory.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=TEMP_SUFFIX, dir=directory)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(raw)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    _fsync_dir(directory)


def _fsync_dir(directory: Path) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:  # pragma: no cover - e.g. Windows cannot open directories
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover - some file systems refuse
        pass
    finally:
        os.close(fd)


def is_temp(path: str | os.PathLike[str]) -> bool:
    """True for a temporary file left by an interrupted :func:`write_atomic`."""
    name = Path(path).name
    return name.startswith(".") and name.endswith(TEMP_SUFFIX)
