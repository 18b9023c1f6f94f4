"""A brief of another day drifts from the seed's shape: spacing, full- and half-width punctuation,
bullet glyphs, lines wrapped in two, an optional part missing, a part emptied to （本棒无）, an
increment more or less.  Each variant is made here from the seed (no sentence of it is committed)
and must import with every fact in place and no line unmapped."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from briefimport import export, facts, imported

from kb.importer import report

HAN = re.compile(r"[\u4e00-\u9fff]")


def spacing(text: str) -> str:
    text = re.sub(r"^  • ", "•   ", text, flags=re.M)
    text = text.replace("：", " ：  ").replace(" + ", "  +  ")
    return re.sub(r"$", "  ", text, flags=re.M)


def half_width(text: str) -> str:
    return text.translate(str.maketrans("：（）；", ":();"))


def bullets(text: str) -> str:
    n = iter(range(10_000))
    return re.sub(r"^  • ", lambda m: ("- ", "* ", "· ", "● ")[next(n) % 4], text, flags=re.M)


def wrapped(text: str) -> str:
    """Every long line broken in two between two Chinese characters, near its middle."""
    out = []
    for line in text.splitlines():
        cut = next(
            (
                i
                for i in range(len(line) // 2, len(line) - 1)
                if HAN.match(line[i - 1]) and HAN.match(line[i]) and line[i] not in "与要增状沿已实基窗生其"
            ),
            None,
        )
        out += [line[:cut], line[cut:]] if len(line) > 60 and cut else [line]
    return "\n".join(out) + "\n"


def _part(text: str, start: str, end: str) -> tuple[int, int]:
    a = text.index(start)
    return a, text.index(end, a)


def no_checked_part(text: str) -> str:
    a, b = _part(text, "七、", "\nTom · ")
    return text[:a] + text[b + 1 :]


def claims_emptied(text: str) -> str:
    a, b = _part(text, "四、", "五、")
    head = text[a:].split("\n", 1)[0]
    return text[:a] + head + "\n\n（本棒无）\n\n" + text[b:]


def adjacent_emptied(text: str) -> str:
    a, b = _part(text, "三、", "四、")
    head = text[a:].split("\n", 1)[0]
    text = text[:a] + head + "\n\n  （本棒无）\n\n" + text[b:]
    return re.sub(r"^[A-F] .*⭐.*\n", "", text, flags=re.M)


def increment_removed(text: str) -> str:
    a, b = _part(text, "增量 4【", "增量 5【")
    text = text[:a] + text[b:].replace("增量 5【", "增量 4【", 1)
    text = re.sub(r"^4 .*⭐.*\n", "", text, flags=re.M)
    return re.sub(r"^5 (.*⭐)", r"4 \1", text, flags=re.M)


RENAME = {"Cascade": "Zephyr", "OpScale": "Quill", "2608.06557": "2609.09999", "2608.13499": "2609.09998"}


def _renamed(text: str) -> str:
    for old, new in RENAME.items():
        text = text.replace(old, new)
    return text


def increment_added(text: str) -> str:
    a, b = _part(text, "增量 4【", "增量 5【")
    block = _renamed(text[a:b]).replace("增量 4【", "增量 6【")
    c = text.index("三、")
    text = text[:c] + block + text[c:]
    row = re.search(r"^4 .*⭐.*$", text, flags=re.M)
    assert row is not None
    text = text.replace(row.group(0), row.group(0) + "\n6" + _renamed(row.group(0))[1:])
    cites = re.findall(r"^  [45]\. arXiv:.*$", text, flags=re.M)
    last = re.findall(r"^  6\. arXiv:.*$", text, flags=re.M)[0]
    extra = "".join(f"\n  {7 + i}." + _renamed(x)[4:] for i, x in enumerate(cites))
    return text.replace(last, last + extra)


def stars_and_bom(text: str) -> str:
    """Stars written ★ (or ⭐ with an emoji selector), Windows line ends and a byte-order mark."""
    text = re.sub("⭐", lambda m: "★" if m.start() % 2 else "⭐\ufe0f", text)
    return "\ufeff" + text.replace("\n", "\r\n")


def markdown(text: str) -> str:
    """Headings marked with ## or bold, tables with pipes and a rule under the header row, claims numbered 1）."""
    text = re.sub(r"^([一二三四五六七]、.*)$", r"## \1", text, flags=re.M)
    text = re.sub(r"^(增量 \d+【.*)$", r"**\1**", text, flags=re.M)
    text = re.sub(r"^(# 条目 .*)$", r"| \1 |\n|---|---|---|", text, flags=re.M)
    text = re.sub(r"^([A-F1-5] .*(?:邻接|⭐).*)$", r"| \1 |", text, flags=re.M)
    return re.sub(r"^  (\d)\. (?!arXiv)", r"  \1） ", text, flags=re.M)


def header_split(text: str) -> str:
    """The header's fields each on a line of their own, and no 状态 heading above its bullets."""
    text = text.replace("\n状态\n", "\n", 1)
    for label in (" 生成时间：", " 窗口期：", " 基线活文档："):
        text = text.replace(label, "\n" + label.strip(), 1)
    return text


def bold_labels(text: str) -> str:
    """Labels of points and fields in Markdown bold: • **核心方法**：…, • **作者**：…"""
    return re.sub(r"^  • ([^：\n]{1,12})：", r"  • **\1**：", text, flags=re.M)


def status_own_line(text: str) -> str:
    """状态 on a line of its own under 建议归入节, not after it on the same line."""
    return re.sub(r"^(建议归入节：.*?) (状态：)", r"\1\n\2", text, flags=re.M)


def signature_dashed(text: str) -> str:
    """The signature set off by a dash, as a letter's: —— Tom · 2026-09-03 …"""
    return text.replace("\nTom · ", "\n—— Tom · ", 1)


def everything(text: str) -> str:
    return wrapped(bullets(half_width(spacing(text))))


def _same(f: dict) -> dict:
    return f


def _without(key: str, empty: object) -> Callable[[dict], dict]:
    return lambda f: f | {key: empty}


def _removed(f: dict) -> dict:
    return f | {k: f[k][:3] + f[k][4:] for k in ("increments", "relations")}


def _added(f: dict) -> dict:
    inc = list(f["increments"][3])
    inc[0], inc[4] = "Zephyr + Quill", ["zephyr", "quill"]
    return f | {
        "increments": [*f["increments"], tuple(inc)],
        "relations": [*f["relations"], f["relations"][3]],
        "citable": [*f["citable"], "zephyr", "quill"],
    }


VARIANTS = {
    "spacing": (spacing, _same),
    "half-width": (half_width, _same),
    "bullets": (bullets, _same),
    "wrapped": (wrapped, _same),
    "header-split": (header_split, _same),
    "markdown": (markdown, _same),
    "stars-and-bom": (stars_and_bom, _same),
    "signature-dashed": (signature_dashed, _same),
    "bold-labels": (bold_labels, _same),
    "status-own-line": (status_own_line, _same),
    "all-at-once": (everything, _same),
    "no-checked-part": (no_checked_part, _without("checked", None)),
    "claims-emptied": (claims_emptied, _without("claims", [])),
    "adjacent-emptied": (adjacent_emptied, _without("adjacent", [])),
    "increment-removed": (increment_removed, _removed),
    "increment-added": (increment_added, _added),
}


@pytest.mark.parametrize("name", VARIANTS)
def test_a_drifted_brief_imports_with_every_fact_and_nothing_lost(seed_text, name):
    change, expect = VARIANTS[name]
    text = change(seed_text)
    assert text != seed_text
    seed, _ = imported(seed_text)
    imp, ctx = imported(text)
    assert [(m.line.first, m.why) for m in imp.misses] == []
    assert facts(imp.brief) == expect(facts(seed.brief))
    if name == "bold-labels":  # a field's label in bold is still that field
        assert [(i.authors, i.venue, i.credibility_note) for i in imp.brief.increments] == [
            (i.authors, i.venue, i.credibility_note) for i in seed.brief.increments
        ]
    if name == "increment-added":
        assert {n.id: n.arxiv for n in ctx.new.values()} == {"zephyr": "2609.09999", "quill": "2609.09998"}


def test_a_part_it_does_not_know_is_kept_whole_and_reported(seed_text):
    text = seed_text.replace("\nTom · ", "\n八、附录：本棒另记\n\n  • 第一行\n  • 第二行\n\nTom · ", 1)
    imp, _ = imported(text)
    assert [m.line.text for m in imp.misses] == ["八、附录：本棒另记", "第一行", "第二行"]
    assert [x for u in imp.brief.unmapped for x in u.lines] == ["八、附录：本棒另记", "第一行", "第二行"]
    assert all("不认识的部分" in u.why for u in imp.brief.unmapped if u.why)
    seed, _ = imported(seed_text)
    assert facts(imp.brief) == facts(seed.brief)


def test_a_line_the_record_cannot_write_back_is_kept_verbatim(seed_text):
    """An increment dated another day than the brief: its fields are read, but the record has no place
    for that date, so the export would write the line differently; the line is kept as written."""
    head = re.search(r"^增量 2【.*$", seed_text, flags=re.M)
    assert head is not None
    line = head.group(0).replace("· 2026-09-03】", "· 2026-09-02】")
    imp, _ = imported(seed_text.replace(head.group(0), line))
    assert [(m.line.text, "写不回" in m.why) for m in imp.misses] == [(line, True)]
    assert [u.lines for u in imp.brief.unmapped] == [[line]]
    seed, _ = imported(seed_text)
    assert facts(imp.brief) == facts(seed.brief)


def test_another_labelled_line_under_an_increment_is_kept_in_its_details(seed_text):
    at = seed_text.index("  • 作者：Ravisri")
    text = seed_text[:at] + "  • 复现：作者承诺 10 月放出脚本\n" + seed_text[at:]
    imp, ctx = imported(text)
    assert imp.misses == []
    assert [(d.label, d.text) for d in imp.brief.increments[0].details] == [("复现", "作者承诺 10 月放出脚本")]
    assert "复现：作者承诺 10 月放出脚本" in export(imp, ctx)


def test_an_increment_stated_anchored_records_where_and_since_when(seed_text):
    """Its date is the brief's: not typed again (the brief dates the anchoring it makes), the
    author's words keep it and are written back."""
    old = "状态：NET-new（尚未锚入 inference.md；建议优先锚入，VLDB 2026 正式论文）"
    assert old in seed_text
    new = "状态：已锚入（§1.(3) KV Cache 向量存储引擎化 · 9-3 锚入）"
    imp, ctx = imported(seed_text.replace(old, new))
    assert imp.misses == []
    inc = imp.brief.increments[1]
    assert (inc.status.value, inc.anchored_in, inc.anchored_since) == ("anchored", ["s1-3-vector-storage"], None)
    assert imp.data["increments"][1]["anchored_in"] == "s1-3-vector-storage"  # one section: written as one id
    assert "anchored_since" not in imp.data["increments"][1]
    assert new in export(imp, ctx)


def test_an_anchoring_in_two_sections_is_a_list_and_an_earlier_date_is_typed(seed_text):
    old = "状态：NET-new（尚未锚入 inference.md；建议优先锚入，VLDB 2026 正式论文）"
    new = "状态：已锚入（§1.(1) 推理引擎 + §1.(2) 推理调度 · 9-2 锚入）"
    imp, ctx = imported(seed_text.replace(old, new))
    assert imp.misses == []
    inc = imp.brief.increments[1]
    assert (inc.anchored_in, str(inc.anchored_since)) == (["s1-1-engines", "s1-2-scheduling"], "2026-09-02")
    assert imp.data["increments"][1]["anchored_in"] == ["s1-1-engines", "s1-2-scheduling"]
    assert inc.status_note == "§1.(1) 推理引擎 + §1.(2) 推理调度"  # the date is in anchored_since only
    assert new in export(imp, ctx)
    again, _ = imported(export(imp, ctx))
    assert again.brief == imp.brief
    said = report.text(report.facts(imp, {}))
    assert "anchoring retroinfer: anchored in s1-1-engines + s1-2-scheduling since 2026-09-02" in said


def test_a_carried_entry_keeps_a_date_of_the_brief_s_own_day(seed_text):
    """A carried-over entry restates an older anchoring: its date is typed even when it is the brief's."""
    old = "  • MLCommons MLPerf RAG Benchmark 2026-08-26（已锚入）"
    assert old in seed_text
    imp, ctx = imported(seed_text.replace(old, old.replace("（已锚入）", "（已锚入 §1.(3) KV Cache · 9-3 锚入）")))
    assert imp.misses == []
    entry = imp.brief.carried[-1]
    assert (entry.anchored_in, str(entry.anchored_since), entry.note) == (
        ["s1-3-kv-cache"],
        "2026-09-03",
        "已锚入 §1.(3) KV Cache",
    )
