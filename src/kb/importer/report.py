"""``kb import brief FILE --check``: what the import extracted, part by part, for a person to
compare with the text at a glance (``--json`` for tools)."""

from __future__ import annotations

from typing import Any

from kb.data.models import Brief
from kb.data.models.items import Candidate, CarriedEntry, Increment, Status
from kb.importer.record import Imported


def _ids(b: Brief, arxiv: dict[str, str | None]) -> list[dict[str, str]]:
    roles = [(p, f"增量 {n}") for n, inc in enumerate(b.increments, 1) for p in inc.papers]
    roles += [(p, f"邻接 {chr(65 + i)}") for i, a in enumerate(b.adjacent) for p in a.papers]
    roles += [(c.paper, "可引用") for c in b.citable] + [(c.paper, "沿用件") for c in b.carried]
    roles += [(c.paper, "其他条目") for c in b.candidates]
    return [{"arxiv": a, "paper": p, "role": r} for p, r in roles if (a := arxiv.get(p))]


def _since(b: Brief, x: Increment | Candidate | CarriedEntry, dated: bool) -> str | None:
    """The date of an anchoring: stated, else the brief's own for an entry the brief anchors."""
    if x.status is not Status.anchored:
        return None
    since = x.anchored_since or (b.date if dated else None)
    return since.isoformat() if since else None


def facts(imp: Imported, arxiv: dict[str, str | None]) -> dict[str, Any]:
    b = imp.brief
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
            {"paper": p, "status": "anchored", "sections": i.anchored_in or [], "since": _since(b, i, True)}
            for i in b.increments
            if i.status is Status.anchored
            for p in i.papers
        ]
        + [
            {"paper": c.paper, "status": c.status.value, "sections": c.anchored_in or [], "since": _since(b, c, dated)}
            for entries, dated in ((b.carried, False), (b.candidates, True))
            for c in entries
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
        f"adjacent {a['title']}: {' + '.join(a['sections']) or '-'} · {a['status']} · value {a['value'] or '-'}"
        + (f" · {a['priority']}" if a["priority"] else "")
        for a in f["adjacent"]
    ]
    out += [f"arXiv:{i['arxiv']} {i['paper']} ({i['role']})" for i in f["ids"]]
    out += [
        f"anchoring {a['paper']}: {a['status']}"
        + (f" in {' + '.join(a['sections'])}" if a["sections"] else "")
        + (f" since {a['since']}" if a["since"] else "")
        for a in f["anchorings"]
    ]
    out += [f"claim {c['id']}: {c['state']}" + (f" · {c['priority']}" if c["priority"] else "") for c in f["claims"]]
    out += ["stated: " + ", ".join(f"{k} {v}" for k, v in f["stated"].items())]
    return "\n".join(out) + "\n"
