"""The ``--json`` output of the commands, in one shape and one style (what ``kb import --check
--json`` began: UTF-8 text as it is, one space of indent, on stdout, a newline after it).

A summary (``kb validate --json``, ``kb status --json`` when the data does not load, ``kb build
--json``) is one object: ``command``, ``ok`` (the exit status is 0), ``counts`` (what the command
counted, by name) and ``diagnostics`` (each located: ``path``, ``line``, ``col``, ``key``,
``severity``, ``code``, ``message`` and ``hint``, how to fix it, when the message says one), with
what else the command reports beside them.  Tools read the object; people read the text output."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Mapping

from kb.data.diagnostics import Diagnostic


def located(d: Diagnostic) -> dict[str, object]:
    return {**d.as_dict(), "hint": d.hint}


def summary(
    command: str, ok: bool, counts: Mapping[str, int], diagnostics: Iterable[Diagnostic] = (), **more: object
) -> dict[str, object]:
    return {
        "command": command,
        "ok": ok,
        "counts": dict(counts),
        "diagnostics": [located(d) for d in diagnostics],
        **more,
    }


def emit(value: object) -> None:
    """``value`` as JSON on stdout, the commands' one style."""
    json.dump(value, sys.stdout, ensure_ascii=False, indent=1)
    print()
