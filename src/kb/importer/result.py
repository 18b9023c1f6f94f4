"""What an import found that did not map: a line and why."""

from __future__ import annotations

from dataclasses import dataclass

from kb.importer.lines import Logical


@dataclass
class Miss:
    line: Logical
    why: str
