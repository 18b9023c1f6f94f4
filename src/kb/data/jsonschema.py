"""JSON Schemas of the data files, generated from the models, for editors
(`# yaml-language-server: $schema=…` at the top of a file lets common editors
complete and check keys).  The loader stays the judge: it is stricter than any
schema (no aliases, duplicate keys, YAML 1.1 booleans; cross-record rules)."""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel

from kb.data import models as m

KINDS: dict[str, tuple[type[BaseModel], str]] = {
    "topic": (m.Topic, "data/topics/<id>.yaml"),
    "paper": (m.Paper, "data/papers/<id>.yaml"),
    "brief": (m.Brief, "data/briefs/<topic>/<YYYY-MM-DD>-<round>.yaml"),
    "demo": (m.Demo, "data/demos/<id>.yaml"),
}


# pydantic writes the bounds of a number read through a validator (kb's whole numbers are digits
# only) under its own names, which no editor knows: JSON Schema's are these
BOUNDS = {"ge": "minimum", "le": "maximum", "gt": "exclusiveMinimum", "lt": "exclusiveMaximum"}


def _standard(node: Any) -> Any:
    """The schema with JSON Schema's keywords for numeric bounds, so editors enforce them."""
    if isinstance(node, dict):
        numeric = node.get("type") in ("integer", "number")
        return {(BOUNDS.get(k, k) if numeric else k): _standard(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_standard(v) for v in node]
    return node


def schemas() -> dict[str, dict[str, Any]]:
    """File name (``brief.schema.json``) -> JSON Schema (draft 2020-12)."""
    out = {}
    for kind, (model, path) in KINDS.items():
        schema = _standard(model.model_json_schema())
        schema = {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": f"{kind}.schema.json",
            "title": f"{model.__name__}: {path}",
            **{k: v for k, v in schema.items() if k != "title"},
        }
        out[f"{kind}.schema.json"] = schema
    return out


def text(schema: dict[str, Any]) -> str:
    """A schema as written to ``data/schema`` and published on the site."""
    return json.dumps(schema, ensure_ascii=False, indent=1) + "\n"


def site_files() -> dict[str, str]:
    """The data files' schemas at their stable site addresses: ``schema/<kind>.schema.json``."""
    return {f"schema/{name}": text(schema) for name, schema in schemas().items()}
