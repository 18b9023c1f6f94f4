"""The one YAML writer: block style, lists of plain values in flow style, every
string quoted when YAML would read it as anything but that text.  Scaffolds and
the arXiv metadata block are written with it, then read back with the strict
reader (:mod:`kb.data.yamlstrict`) before anything reaches a file."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import yaml


class _BlockDumper(yaml.SafeDumper):
    """Block style with lists indented under their key, as the hand-written files are."""

    def ignore_aliases(self, data: Any) -> bool:
        return True

    def increase_indent(self, flow: bool = False, indentless: bool = False) -> None:
        return super().increase_indent(flow, False)


class _Dumper(_BlockDumper):
    """…and lists of plain values in flow style (``[a, b]``), as scaffolds write them."""

    def represent_list(self, data: Iterable[Any]) -> yaml.SequenceNode:
        data = list(data)
        flow = all(isinstance(x, (str, int)) for x in data)  # [a, b] for lists of plain values
        return self.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=flow)


_Dumper.add_representer(list, _Dumper.represent_list)


def dump(data: dict[str, Any], indent: int = 0, flow_lists: bool = True) -> str:
    """A mapping as block YAML, every line indented by ``indent`` spaces; ``flow_lists``: lists of
    plain values on one line (scaffolds), else one item a line (the arXiv metadata block)."""
    text = yaml.dump(
        data,
        Dumper=_Dumper if flow_lists else _BlockDumper,
        allow_unicode=True,
        sort_keys=False,
        default_flow_style=False,
        width=1_000_000,
        indent=2,
    )
    return "".join(" " * indent + line for line in text.splitlines(keepends=True))


def scalar(value: str) -> str:
    """One scalar, quoted when YAML would read it as anything but this text."""
    return dump({"v": value})[3:].rstrip("\n")
