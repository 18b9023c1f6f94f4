"""YAML out: block style by default, flow style where the real data uses it.

Plain scalars only when they read back as the same string; everything else is
double-quoted (JSON strings are valid YAML).  Keys with ``None`` or empty
values are left out, as a person writing the file would.
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

# A YAML mapping being built: its values are of every YAML type (scalars, lists, mappings).
Doc = dict[str, Any]


class Flow(list[Any]):
    """A list written in flow style: ``[a, b]``."""


class FlowMap(dict[str, Any]):
    """A mapping written in flow style: ``{number: 1, arxiv: 2501.00001}``."""


_BAD_START = set("-?:,[]{}#&*!|>'\"%@` ")
_NULLS = {"~", "null", "Null", "NULL"}


def scalar(v: object, flow: bool = False) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, dt.date)):
        return v.isoformat() if isinstance(v, dt.date) else str(v)
    s = str(v)
    plain = (
        s
        and s == s.strip()
        and s[0] not in _BAD_START
        and s not in _NULLS
        and not s.endswith(":")
        and ": " not in s
        and " #" not in s
        and "\n" not in s
        and "\t" not in s
        and not (flow and any(c in s for c in ",[]{}:#"))
    )
    return s if plain else json.dumps(s, ensure_ascii=False)


def inline(v: object) -> str:
    if isinstance(v, FlowMap):
        return "{" + ", ".join(f"{k}: {scalar(x, True)}" for k, x in v.items() if x is not None) + "}"
    if isinstance(v, list):
        return "[" + ", ".join(scalar(x, True) for x in v) + "]"
    return scalar(v)


def _map(d: Doc, ind: int, out: list[str], first: str | None = None) -> None:
    pad = " " * ind
    n = 0
    for k, v in d.items():
        if v is None or (isinstance(v, dict) and not v) or (isinstance(v, list) and not v):
            continue
        lead = first if n == 0 and first is not None else pad
        n += 1
        if isinstance(v, (Flow, FlowMap)) or not isinstance(v, (dict, list)):
            out.append(f"{lead}{k}: {inline(v)}")
        elif isinstance(v, dict):
            out.append(f"{lead}{k}:")
            _map(v, ind + 2, out)
        else:
            out.append(f"{lead}{k}:")
            for item in v:
                if isinstance(item, dict) and not isinstance(item, FlowMap):
                    _map(item, ind + 4, out, " " * (ind + 2) + "- ")
                else:
                    out.append(f"{pad}  - {inline(item)}")


def dump(data: Doc, comment: str = "") -> str:
    out = [f"# {line}" for line in comment.splitlines()]
    _map(data, 0, out)
    return "\n".join(out) + "\n"
