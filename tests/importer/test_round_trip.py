"""The seed brief imports with no unmapped line, holds every fact of the hand-encoded record, and
the round trip text -> record -> text -> record holds (on the seed and on an exported fixture)."""

from __future__ import annotations

import re

from briefimport import context, export, facts, imported

from kb.data.loader import load
from kb.importer.export import export_text
from kb.importer.record import _lookup, import_text
from kb.importer.sections import labels
from sitebuild import FIXTURE_DATA


def _bare(text: str) -> str:
    return re.sub(r"\s+", "", text)


def test_the_seed_imports_with_no_unmapped_line(seed_text):
    imp, _ = imported(seed_text)
    assert imp.misses == [] and imp.brief.unmapped == []
    assert len(imp.brief.increments) == 5 and len(imp.brief.adjacent) == 6 and len(imp.brief.claims) == 5


def test_import_then_export_reproduces_the_seed_up_to_whitespace(seed_text):
    imp, ctx = imported(seed_text)
    assert _bare(export(imp, ctx)) == _bare(seed_text)


def test_the_exported_seed_imports_to_the_same_record(seed_text):
    imp, ctx = imported(seed_text)
    again, _ = imported(export(imp, ctx))
    assert again.misses == []
    assert again.brief == imp.brief


def test_the_seed_record_holds_every_fact_of_the_hand_encoded_one(seed_text):
    """Ids, counts, statuses, sections, priorities, stars, figures, anchorings and origins as the hand
    record has them (claims get ids of their own: the hand record's were chosen by an editor)."""
    hand = load(FIXTURE_DATA).briefs["inference/2026-09-03-e1"][0]
    imp, _ = imported(seed_text)
    assert facts(imp.brief) == facts(hand)


def test_an_exported_fixture_brief_round_trips():
    """A hand record written out as text imports with nothing unmapped, with its facts, and the import's
    own export is a fixed point; the later brief names earlier claims by title and gets their ids."""
    loaded = load(FIXTURE_DATA)
    hand = loaded.briefs["inference/2026-09-04-e1"][0]
    ctx = context("2026-09-04")

    def lookup(pid: str) -> tuple[str, str | None, str | None]:
        p = loaded.papers[pid][0]
        return p.short, p.arxiv_base, p.title

    text = export_text(hand, lookup, labels(ctx.topic), ctx.claims)
    first = import_text(ctx, text)
    assert first.misses == []
    assert facts(first.brief) == facts(hand)  # claim_updates name the earlier claims' ids
    second = import_text(context("2026-09-04"), export_text(first.brief, _lookup(ctx), labels(ctx.topic), ctx.claims))
    assert second.brief == first.brief


def test_an_update_naming_no_earlier_claim_closes_none():
    """9-4 names 9-3's claims by their titles; an update whose title is near none of them (a claim
    the brief never raised) must not close the nearest one: it is left unmapped, said where it is."""
    loaded = load(FIXTURE_DATA)
    hand = loaded.briefs["inference/2026-09-04-e1"][0]
    ctx = context("2026-09-04")
    assert hand.claim_updates and len(ctx.claims) >= 2

    def lookup(pid: str) -> tuple[str, str | None, str | None]:
        p = loaded.papers[pid][0]
        return p.short, p.arxiv_base, p.title

    text = export_text(hand, lookup, labels(ctx.topic), ctx.claims)
    stray = "已核实（量子计算加速传闻）：作者补充"
    part = text.index("四、")
    at = text.index("\n已核实", part) if "\n已核实" in text[part:] else text.index("\n", text.index("\n", part) + 1)
    imp = import_text(ctx, text[: at + 1] + stray + "\n" + text[at + 1 :])
    assert [u.claim for u in imp.brief.claim_updates] == [u.claim for u in hand.claim_updates]
    assert [(m.line.text, m.why) for m in imp.misses] == [
        (stray, "“量子计算加速传闻”对不上先前任何一条待核实说法：写它的 id 或它的标题")
    ]


def test_a_reconstructed_brief_round_trips_without_time_or_window():
    """A reconstructed record has no generation time or window: its text says 时区 and 重建 instead,
    takes its date from the title, and imports to a record with neither (a fixed point)."""
    loaded = load(FIXTURE_DATA)
    hand = loaded.briefs["inference/2026-09-01-e1"][0]
    assert hand.reconstructed
    hand = hand.model_copy(update={"generated_at": None, "window": None})  # as a rebuilt day may be
    ctx = context("2026-09-01")

    def lookup(pid: str) -> tuple[str, str | None, str | None]:
        p = loaded.papers[pid][0]
        return p.short, p.arxiv_base, p.title

    text = export_text(hand, lookup, labels(ctx.topic), ctx.claims)
    assert "时区：CST（Asia/Shanghai）" in text and f"重建：{hand.reconstructed}" in text
    first = import_text(ctx, text)
    assert first.misses == []
    b = first.brief
    assert (b.date, b.timezone, b.generated_at, b.window, b.reconstructed) == (
        hand.date,
        hand.timezone,
        None,
        None,
        hand.reconstructed,
    )
    again = import_text(context("2026-09-01"), export_text(b, _lookup(ctx), labels(ctx.topic), ctx.claims))
    assert again.brief == b


def test_an_increment_without_where_exports_its_sections_in_the_heading():
    """`where:` is typed only when the author's words differ from `sections:` (CONTRIBUTING): the
    text names the sections as the summary table does, not an empty `【 · date】`, and imports back
    to the same sections."""
    loaded = load(FIXTURE_DATA)
    hand = loaded.briefs["inference/2026-09-04-e1"][0]
    hand = hand.model_copy(update={"increments": [i.model_copy(update={"where": None}) for i in hand.increments]})
    ctx = context("2026-09-04")
    text = export_text(hand, _lookup(ctx), labels(ctx.topic), ctx.claims)
    assert "【 · " not in text
    assert "增量 1【§1.(2) 推理调度 · 2026-09-04】" in text, text
    first = import_text(ctx, text)
    assert first.misses == []
    assert [i.sections for i in first.brief.increments] == [i.sections for i in hand.increments]


def test_anchorings_typed_without_a_note_keep_their_status_and_sections_in_the_text():
    """The worked example of CONTRIBUTING types an anchoring as keys alone (`{paper: retroinfer,
    status: anchored, anchored_in: …}`, an increment's `status: anchored` with `anchored_in:`): the
    text says 已锚入 and the sections, so it imports back to the same anchorings."""
    loaded = load(FIXTURE_DATA)
    hand = loaded.briefs["inference/2026-09-04-e1"][0]
    inc = hand.increments[0].model_copy(
        update={"status": "anchored", "anchored_in": ["s1-2-scheduling"], "status_note": None}
    )
    cands = [c.model_copy(update={"note": None, "anchored_since": None}) for c in hand.candidates]
    hand = hand.model_copy(update={"increments": [inc, *hand.increments[1:]], "candidates": cands})
    ctx = context("2026-09-04")
    text = export_text(hand, _lookup(ctx), labels(ctx.topic), ctx.claims)
    b = import_text(ctx, text).brief
    assert (b.increments[0].status.value, b.increments[0].anchored_in) == ("anchored", ["s1-2-scheduling"]), text
    assert [(c.paper, c.status and c.status.value, c.anchored_in) for c in b.candidates] == [
        ("retroinfer", "anchored", ["s1-3-vector-storage"]),
        ("meta-llama-inference", "anchored", ["s1-1-engines"]),
    ], text
