"""Located diagnostics: every problem names a file, line, column and key path.

Diagnostics are plain values; loaders and validators collect them and never
raise for a data mistake.  The command line sorts and prints them all at once.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import Enum

KeyPath = tuple[str | int, ...]


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"  # fails `kb validate --strict`
    NOTE = "note"  # an acknowledged finding: shown on request, never fails


def line_col(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column of ``offset`` in ``text``."""
    return text.count("\n", 0, offset) + 1, offset - (text.rfind("\n", 0, offset) + 1) + 1


def format_keypath(path: KeyPath) -> str:
    """``('increments', 0, 'papers', 1)`` -> ``increments[0].papers[1]``."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out


@dataclass(frozen=True, order=True)
class Diagnostic:
    path: str
    line: int = 1
    col: int = 1
    message: str = field(default="", compare=True)
    key: str = ""
    severity: Severity = Severity.ERROR
    code: str = ""

    @property
    def is_error(self) -> bool:
        return self.severity is Severity.ERROR

    def text(self) -> str:
        """One line: control characters in the path and message are escaped, so a file name
        holding a line break cannot forge another diagnostic or a workflow command."""
        where = f"{escape_controls(self.path)}:{self.line}:{self.col}"
        key = f" [{self.key}]" if self.key else ""
        kind = "" if self.is_error else f"{self.severity.value}: "
        return f"{where}: {kind}{escape_controls(self.message)}{escape_controls(key)}"

    def github(self) -> str:
        """A GitHub Actions workflow command (annotation) for this diagnostic."""
        kind = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.NOTE: "notice"}[self.severity]
        msg = self.message + (f" [{self.key}]" if self.key else "")
        return (
            f"::{kind} file={_gh_prop(self.path)},line={self.line},col={self.col},"
            f"title={_gh_prop(self.code or 'kb')}::{_gh_data(msg)}"
        )

    @property
    def hint(self) -> str:
        """How to fix it, where the message says so: its ``(did you mean …?)`` and what follows its
        first ``; `` (the messages' form: the problem, then the fix); else empty."""
        start = self.message.find("(did you mean ")
        close = [self.message[start + 1 : self.message.find(")", start)]] if start >= 0 else []
        _, sep, after = self.message.partition("; ")
        return "; ".join(close + ([after] if sep else []))

    def as_dict(self) -> dict[str, object]:
        return {
            "path": self.path,
            "line": self.line,
            "col": self.col,
            "key": self.key,
            "severity": self.severity.value,
            "code": self.code,
            "message": self.message,
        }


def escape_controls(s: str) -> str:
    """``s`` with C0/C1 controls, DEL and line/paragraph separators as ``\\xNN``/``\\uNNNN`` escapes."""
    if s.isprintable() or not any(_is_control(ch) for ch in s):
        return s
    return "".join(
        (f"\\x{ord(ch):02x}" if ord(ch) < 0x100 else f"\\u{ord(ch):04x}") if _is_control(ch) else ch for ch in s
    )


def _is_control(ch: str) -> bool:
    o = ord(ch)
    return o < 0x20 or 0x7F <= o < 0xA0 or o in (0x2028, 0x2029, 0x85)


def _gh_data(s: str) -> str:
    return s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _gh_prop(s: str) -> str:
    return _gh_data(s).replace(":", "%3A").replace(",", "%2C")


def sort_diagnostics(diags: Iterable[Diagnostic]) -> list[Diagnostic]:
    return sorted(set(diags), key=lambda d: (d.path, d.line, d.col, d.key, d.message))


class UserError(Exception):
    """A mistake the user can fix; the command line prints it as ``error: ...`` without a traceback."""


class DataError(Exception):
    """Raised when the knowledge base cannot be built; carries every diagnostic."""

    def __init__(self, diagnostics: Iterable[Diagnostic]):
        self.diagnostics = sort_diagnostics(diagnostics)
        super().__init__("\n".join(d.text() for d in self.diagnostics if d.is_error))
