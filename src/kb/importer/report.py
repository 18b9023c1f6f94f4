"""``kb import brief FILE --check``: what the import extracted, part by part, for a person to
compare with the text at a glance (``--json`` for tools)."""

from __future__ import annotations

from typing import Any

from kb.data.models import Brief
from kb.data.models.items import Candidate, CarriedEntry
from kb.importer.record import Imported


def _ids(b: Brief, arxiv: dict[str, str | None]) -> list[dict[str, str]]:
    roles = [(p, f"增量 {n}") for n, inc in enumerate(b.increments, 1) for p in inc.papers]
    roles += [(p, f"邻接 {chr(65 + i)}") for i, a in enumerate(b.adjacent) for p in a.papers]
    roles += [(c.paper, "可引用") for c in b.citable] + [(c.paper, "沿用件") for c in b.carried]
    roles += [(c.paper, "其他条目") for c in b.candidates]
    return [{"arxiv": a, "paper": p, "role": r} for p, r in roles if (a := arxiv.get(p))]


def facts(imp: Imported, arxiv: dict[str, str | None]) -> dict[str, Any]:
    b = imp.brief
    anchor: list[CarriedEntry | Candidate] = [*b.carried, *b.candidates]
    return {
        "brief": f"{b.topic}/{b.date}-{b.round.lower()}",
        "counts": {
            "sources": len(b.sources),
            "increments": len(b.increments),
            "adjacent": len(b.adjacent),
            "claims": len(b.claims),
            "claim_updates": len(b.claim_updates),
            "citable": len(b.citable),
            "carried": len(b.carried),
            "candidates": len(b.candidates),
            "unmapped": sum(len(u.lines) for u in b.unmapped),
        },
        "increments": [
            {"label": i.label, "sections": i.sections, "status": i.status.value, "value": i.value, "papers": i.papers}
            for i in b.increments
        ],
        "adjacent": [
            {
                "title": a.title,
                "sections": a.sections,
                "status": a.status.value,
                "value": a.value,
                "priority": a.priority,
            }
            for a in b.adjacent
        ],
        "ids": _ids(b, arxiv),
        "anchorings": [
            {"paper": p, "status": i.status.value, "section": i.anchored_in or "-"}
            for i in b.increments
            if i.status.value == "anchored"
            for p in i.papers
        ]
        + [
            {"paper": c.paper, "status": c.status.value if c.status else None, "section": c.anchored_in}
            for c in anchor
            if c.status
        ],
        "claims": [{"id": c.id, "priority": c.priority, "state": "open"} for c in b.claims]
        + [{"id": u.claim, "priority": u.priority, "state": u.action.value} for u in b.claim_updates],
        "stated": b.stated.model_dump(mode="json", exclude_defaults=True),
        "unmapped": [{"line": m.line.first, "why": m.why, "text": m.line.text} for m in imp.misses],
    }


def text(f: dict[str, Any]) -> str:
    out = [f"# {f['brief']}", "counts: " + ", ".join(f"{k} {v}" for k, v in f["counts"].items())]
    out += [
        f"increment {i['label']}: {' + '.join(i['sections'])} · {i['status']} · value {i['value']}"
        for i in f["increments"]
    ]
    out += [
        f"adjacent {a['title']}: {' + '.join(a['sections']) or '-'} · {a['status']} · value {a['value']}"
        + (f" · {a['priority']}" if a["priority"] else "")
        for a in f["adjacent"]
    ]
    out += [f"arXiv:{i['arxiv']} {i['paper']} ({i['role']})" for i in f["ids"]]
    out += [
        f"anchoring {a['paper']}: {a['status']}" + (f" in {a['section']}" if a["section"] else "")
        for a in f["anchorings"]
    ]
    out += [f"claim {c['id']}: {c['state']}" + (f" · {c['priority']}" if c["priority"] else "") for c in f["claims"]]
    out += ["stated: " + ", ".join(f"{k} {v}" for k, v in f["stated"].items())]
    return "\n".join(out) + "\n"
