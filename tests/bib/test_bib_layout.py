"""The BibTeX and arXiv tooling stays in small modules: no file over 400 lines, no function
over 60 lines."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src" / "kb"
FILES = sorted(
    [
        *(SRC / "bib").glob("*.py"),
        *(SRC / "arxiv").glob("*.py"),
        SRC / "cli" / "bib.py",
        SRC / "cli" / "paper.py",
        SRC / "data" / "paperfile.py",
        SRC / "data" / "arxiv_id.py",
    ]
)


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(SRC)))
def test_small_files_and_functions(path):
    text = path.read_text("utf-8")
    assert len(text.splitlines()) <= 400
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            assert node.end_lineno - node.lineno + 1 <= 60, f"{node.name} has {node.end_lineno - node.lineno + 1} lines"
