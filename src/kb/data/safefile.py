"""Reading contributed files without following links or reading without bound.

``docs/`` and ``data/`` arrive by pull request.  A symlink there could publish a host
file (``/etc/os-release``) or point at ``/dev/zero``; a FIFO would block the build.
:func:`walk` lists a tree without following any link and names what is not a plain
file or directory; :func:`read_limited` opens with ``O_NOFOLLOW``, checks that it holds a
regular file and its size before reading, and never reads more than the limit.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path


class Refused(Exception):
    """The file is not read; ``str(exc)`` says why (for a located diagnostic)."""


@dataclass(frozen=True)
class Entry:
    path: Path
    rel: str  # posix path relative to the root
    kind: str  # "file", "symlink" or "special" (FIFO, device, socket)


def walk(root: Path) -> list[Entry]:
    """Every file under ``root`` (sorted), symlinks and special files included as such; symlinked
    directories are reported, never entered (so no path listed has a linked parent below ``root``).
    The kinds come from the directory listing itself (``os.scandir``: no ``stat`` per file)."""
    out: list[Entry] = []
    todo = [root]
    while todo:
        folder = todo.pop()
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for e in entries:
            p = Path(e.path)
            try:
                if e.is_symlink():
                    out.append(_entry(root, p, "symlink"))
                elif e.is_dir(follow_symlinks=False):
                    todo.append(p)
                else:
                    out.append(_entry(root, p, "file" if e.is_file(follow_symlinks=False) else "special"))
            except OSError:  # gone meanwhile
                continue
    return sorted(out, key=lambda e: e.rel)


def _entry(root: Path, path: Path, kind: str) -> Entry:
    return Entry(path, path.relative_to(root).as_posix(), kind)


def inside_link(path: Path, root: Path) -> Path | None:
    """The first symlink among ``path`` and its parents up to (not including) ``root``, if any."""
    try:
        rel = path.relative_to(root)
    except ValueError:
        return None
    cur = root
    for part in rel.parts:
        cur = cur / part
        if cur.is_symlink():
            return cur
    return None


def read_limited(path: Path, limit: int, root: Path | None = None) -> bytes:
    """The bytes of the regular file ``path`` (at most ``limit``), refusing symlinks (also among its
    parents below ``root``), special files and files over the limit, before reading them."""
    if root is not None:
        link = inside_link(path, root)
        if link is not None:
            raise Refused(
                "is a symbolic link; links are refused (commit the file itself)"
                if link == path
                else f"is inside a symbolically linked directory ({link.name}); links are refused"
            )
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        if os.path.islink(path):
            raise Refused("is a symbolic link; links are refused (commit the file itself)") from None
        raise Refused(f"cannot read file: {exc.strerror}") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise Refused("is not a regular file (a device, FIFO or socket); refused")
        if st.st_size > limit:
            raise Refused(f"file is {st.st_size} bytes; the limit is {limit} bytes")
        chunks, total = [], 0
        while True:
            chunk = os.read(fd, min(1 << 20, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > limit:
                raise Refused(f"file is larger than the limit of {limit} bytes")
        return b"".join(chunks)
    finally:
        os.close(fd)
