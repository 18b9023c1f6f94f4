"""Every module of ``kb`` stays small enough to read in one sitting: no file over 400 lines and
no function (or method) over 60 lines, measured with ``ast`` from ``def`` to its last line."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "kb"
FILES = sorted(SRC.rglob("*.py"))
MAX_FILE_LINES = 400
MAX_FUNCTION_LINES = 60


def test_the_package_is_found():
    assert len(FILES) > 50 and SRC / "cli" / "__init__.py" in FILES


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(SRC)))
def test_small_files_and_functions(path: Path) -> None:
    text = path.read_text("utf-8")
    lines = len(text.splitlines())
    assert lines <= MAX_FILE_LINES, f"{path.name} has {lines} lines (at most {MAX_FILE_LINES}): split it"
    long = [
        f"{node.name} (line {node.lineno}) has {node.end_lineno - node.lineno + 1} lines"
        for node in ast.walk(ast.parse(text))
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        and node.end_lineno is not None
        and node.end_lineno - node.lineno + 1 > MAX_FUNCTION_LINES
    ]
    assert not long, f"at most {MAX_FUNCTION_LINES} lines per function: " + "; ".join(long)
