"""JSON Schemas of the data files, generated from the models, for editors
(`# yaml-language-server: $schema=…` at the top of a file lets common editors
complete and check keys).  The loader stays the judge: it is stricter than any
schema (no aliases, duplicate keys, YAML 1.1 booleans; cross-record rules)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from kb.data import models as m

KINDS: dict[str, tuple[type[BaseModel], str]] = {
    "topic": (m.Topic, "data/topics/<id>.yaml"),
    "paper": (m.Paper, "data/papers/<id>.yaml"),
    "brief": (m.Brief, "data/briefs/<topic>/<YYYY-MM-DD>-<round>.yaml"),
    "demo": (m.Demo, "data/demos/<id>.yaml"),
}


def schemas() -> dict[str, dict[str, Any]]:
    """File name (``brief.schema.json``) -> JSON Schema (draft 2020-12)."""
    out = {}
    for kind, (model, path) in KINDS.items():
        schema = model.model_json_schema()
        schema = {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": f"{kind}.schema.json",
            "title": f"{model.__name__}: {path}",
            **{k: v for k, v in schema.items() if k != "title"},
        }
        out[f"{kind}.schema.json"] = schema
    return out
