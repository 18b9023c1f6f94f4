"""The strict YAML reader: plain data only, text kept as written, located errors."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kb.data.cjk import join_cjk
from kb.data.yamlfix import fix_hint
from kb.data.yamlstrict import Limits, load_bytes, load_text


def ok(text):
    located, diags = load_text(text, "f.yaml")
    assert not diags, diags
    return located


def ok_with(text, limits):
    located, diags = load_text(text, "f.yaml", limits)
    return located is not None and not diags


def err(text, limits=None):
    located, diags = load_text(text, "f.yaml", limits or Limits())
    assert located is None and len(diags) == 1
    return diags[0]


def test_scalars_keep_their_text():
    data = ok("a: 2510.09660\nb: NO\nc: yes\nd: 1e3\ne: 0x1F\nf: 2026-09-03\ng: '~'\nh: ~\ni:\n").data
    assert data == {
        "a": "2510.09660",
        "b": "NO",
        "c": "yes",
        "d": "1e3",
        "e": "0x1F",
        "f": "2026-09-03",
        "g": "~",
        "h": None,
        "i": None,
    }


def test_positions_are_one_based_and_per_key():
    loc = ok("a: 1\nb:\n  - x\n  - {c: 2}\n")
    assert loc.where(("a",)) == (1, 1)
    assert loc.value_where(("a",)) == (1, 4)
    assert loc.value_where(("b", 1, "c")) == (4, 9)


def test_a_reader_that_keeps_going_keeps_the_first_value_of_a_duplicate_key_and_says_where_each_is():
    text = "a: 1\nb:\n  c: [x]\n  c: {d: 2}\na: 3\nz: 4\n"
    located, diags = load_text(text, "f.yaml", keep_going=True)
    assert located is not None and located.data == {"a": "1", "b": {"c": ["x"]}, "z": "4"}
    assert [(d.line, d.col, d.key, d.code) for d in diags] == [
        (4, 3, "b.c", "duplicate-key"),
        (5, 1, "a", "duplicate-key"),
    ]
    assert diags[0].message == (
        "duplicate key 'c' (first defined at line 3, column 3): a key is given once; to add to a list, "
        "write the new items under the first"
    )
    # the positions are the first values' (the dropped ones leave none behind)
    assert located.value_where(("b", "c", 0)) == (3, 7) and located.where(("a",)) == (1, 1)
    assert ("b", "c", "d") not in located.positions
    # a refusal after a duplicate key ends the file as ever, the duplicate named first
    located, diags = load_text("a: 1\na: 2\nb: *x\n", "f.yaml", keep_going=True)
    assert located is None and [d.code for d in diags] == ["duplicate-key", "alias"]
    located, diags = load_text("a: 1\na: 2\nb: [x\n", "f.yaml", keep_going=True)  # a syntax error too
    assert located is None and [(d.line, d.code) for d in diags] == [(2, "duplicate-key"), (3, "yaml")]
    # and the reader that stops at the first refusal still does
    assert load_text(text, "f.yaml")[0] is None


@pytest.mark.parametrize(
    "text,line,col,needle",
    [
        ("a: &x 1\nb: *x\n", 1, 4, "anchor"),
        ("a: [1]\nb: *x\n", 2, 4, "alias"),
        ("a: 1\na: 2\n", 2, 1, "duplicate key 'a' (first defined at line 1, column 1): a key is given once"),
        ("a: !!python/object:os.system x\n", 1, 4, "tag"),
        ("a: !custom x\n", 1, 4, "tag"),
        ("a: !!str 1\n", 1, 4, "tag"),
        ("<<: {a: 1}\n", 1, 1, "merge key"),
        ("a: [1\n", 1, 4, "invalid YAML"),  # where the bracket that is not closed opens
        ("a: 1\n---\nb: 2\n", 2, 1, "one YAML document"),
        ('a: "\\x00"\n', 1, 4, "control character"),
        # a syntax mistake says how to fix it, at the place to look (an unclosed quote or bracket: where it opens)
        ("a: 1\nb:\n  c: 1\n   d: 2\n", 4, 5, "indent this line like the lines beside it"),
        ("a:\n  - x: 1\n    y: 2\n  z: 3\n", 4, 3, "indent this line like the lines beside it"),
        ("a:\n\tb: 1\n", 2, 1, "indented with a tab: YAML indents with spaces only"),
        ("a: 1\nb:\n  c: 1\n\td: 2\n", 4, 1, "indented with a tab"),
        ("title: RetroInfer: a thing\n", 1, 18, "a value holding ': ' must be quoted"),
        ('a: "abc\nb: 2\n', 1, 4, "the quote that opens here is not closed"),
        ("a: [1, 2\nb: 3\n", 1, 4, "the bracket that opens here is not closed"),
        ("a: 1\nb\nc: 2\n", 3, 1, "a key needs ': ' after it"),
        # a quote left open closes at the next quote, lines later; the parser stumbles after it
        ('- title: "abc\n  x: 1\n- title: "def"\n  y: 2\n', 1, 10, "the quoted text that opens here runs on to line 3"),
        ("a:\n  b: 'x\n  c: 1\n  d: 'y'\n", 2, 6, "runs on to line 4: close its quote on this line"),
    ],
)
def test_refused_with_location(text, line, col, needle):
    d = err(text)
    assert needle in d.message
    assert (d.line, d.col) == (line, col)


@pytest.mark.parametrize(
    "text,line,col",
    [
        ("a: x\u200by\n", 1, 4),  # written as it is: plain, quoted, a key, in a block
        ("a: 'x\u202ey'\n", 1, 4),
        ("b: 1\nx\u2066y: 2\n", 2, 1),
        ("a: |\n  x\n  y\u200f\n", 1, 4),
        ('a: "x\\u200by"\n', 1, 4),  # written as an escape, in a file that holds no such character
        ('b: 1\n"k\\x7f": 2\n', 2, 1),
        ("# \u200b in a comment\na: x\nb: 'y\u200by'\n", 3, 4),
    ],
)
def test_a_control_character_is_refused_in_any_scalar_however_it_is_written(text, line, col):
    d = err(text)
    assert "control character" in d.message and (d.line, d.col) == (line, col)
    assert (
        ok(
            text.replace("\u200b", "")
            .replace("\\u200b", "")
            .replace("\u202e", "")
            .replace("\u2066", "")
            .replace("\u200f", "")
            .replace("\\x7f", "")
        )
        is not None
    )


def test_a_control_character_in_a_comment_alone_is_no_scalar_s():
    assert ok("# \u200b\na: x\n").data == {"a": "x"}


def test_alias_bomb_is_refused_at_the_first_anchor():
    bomb = 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n' + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [" + ",".join(["*" + chr(97 + i)] * 9) + "]\n" for i in range(8)
    )
    d = err(bomb)
    assert (d.line, d.col, d.code) == (1, 4, "alias")


def test_limits():
    assert err("a: " + "x" * 50, Limits(max_string=10)).code == "limit"
    assert "nesting deeper" in err("a: " + "[" * 30 + "]" * 30, Limits(max_depth=10)).message
    assert err("a: 1\n" * 10, Limits(max_bytes=20)).code == "limit"
    assert err("a: " + "中" * 10, Limits(max_bytes=32)).code == "limit"  # 13 characters, 33 bytes
    assert ok_with("a: " + "中" * 10, Limits(max_bytes=33))
    assert err("[" + ",".join(["1"] * 100) + "]", Limits(max_nodes=50)).code == "limit"


def test_bytes_encoding_problems_are_located():
    _, diags = load_bytes(b"a: 1\nb: \xff\n", "f.yaml")
    assert (diags[0].line, diags[0].col) == (2, 4) and "UTF-8" in diags[0].message
    _, diags = load_bytes(b"a: 1\nb: x\x00y\n", "f.yaml")
    assert (diags[0].line, diags[0].col) == (2, 5) and "NUL" in diags[0].message


def test_bom_and_crlf_are_accepted():
    located, diags = load_bytes(b"\xef\xbb\xbfa: 1\r\nb: two\r\n", "f.yaml")
    assert not diags and located.data == {"a": "1", "b": "two"}


def test_folded_line_breaks_between_chinese_characters_are_no_spaces():
    text = (
        'a: >-\n  这一棒的料，\n  推理系统 RetroInfer\n  很多\nb: >-\n  English words\n  stay apart\nc: "中文 中文"\n'
        "d: 一个不加引号的值\n  写成两行\ne: plain English\n  over two lines\n"  # plain values fold too
    )
    located, diags = load_text(text, "x.yaml")
    assert diags == []
    assert located.data == {
        "a": "这一棒的料，推理系统 RetroInfer 很多",
        "b": "English words stay apart",
        "c": "中文 中文",
        "d": "一个不加引号的值写成两行",
        "e": "plain English over two lines",
    }


@pytest.mark.parametrize(
    "written, stored",
    [
        ("中文 中文", "中文中文"),
        ("中文\n\t 中文", "中文中文"),  # a whole run goes
        ("料， 推理", "料，推理"),  # next to CJK punctuation
        ("推理 。下一句", "推理。下一句"),
        ("GPU 显存 +37.3%， 与 vLLM 相比", "GPU 显存 +37.3%，与 vLLM 相比"),  # Latin beside CJK keeps its space
        ("English words  stay", "English words  stay"),
        ("한국어 단어", "한국어 단어"),  # Korean spaces its words
        ("中文 （注）", "中文（注）"),  # full-width brackets are CJK characters
        (" 中文 ", " 中文 "),  # at either end: nothing on the other side
        ("， 。", "，。"),
        ("，  ", "，  "),
        ("", ""),
    ],
)
def test_join_cjk(written, stored):
    assert join_cjk(written) == stored


@settings(max_examples=3000, deadline=None)
@given(st.text(alphabet=" \t\nab1:中文，。、Ｘ\u3000（", max_size=14))
def test_join_cjk_finds_what_its_plain_pattern_finds(text):
    """The pattern written for speed (it starts with the run's first character) drops exactly what
    the plain one drops: a run between two CJK characters or touching CJK punctuation."""
    from kb.data import cjk

    assert cjk._GAP.sub("", text) == cjk._gaps(r"[ \t\n]+").sub("", text)


def test_positions_are_found_again_from_the_kept_text():
    """Positions are made from the text when first asked for: a located file made again from its
    text alone (as the record store reads one back, kb.data.recordstore) finds the same."""
    from kb.data.yamlstrict import Located

    loc = ok("a: 1\nb:\n  - x\n  - {c: 2}\n")
    again = Located(None, loc.path, loc.text, loc.limits)
    assert again.value_where(("b", 1, "c")) == loc.value_where(("b", 1, "c")) == (4, 9)
    assert again.where(("b", 0)) == (3, 5)
    assert again.key_positions == loc.key_positions and ("b",) in loc.key_positions


def test_a_refusal_deep_in_the_file_names_its_key_path():
    d = err("a:\n  - x\n  - b: 1\n    c: [1, &y 2]\n")
    assert (d.line, d.col, d.key, d.code) == (4, 12, "a[1].c[1]", "alias")
    d = err("a:\n  b: 1\n  b: 2\n")
    assert "first defined at line 2, column 3" in d.message and d.key == "a.b"


def test_a_quote_left_open_names_the_key_whose_value_it_opens():
    d = err('papers:\n  - id: x\n    title: "FlexLLM\n    venue: NSDI\n  - id: y\n    title: "SSR"\n')
    assert (d.line, d.col, d.key) == (3, 12, "title"), d
    assert "runs on to line 6" in d.message and "at 6:" in d.message  # where the parser stumbled, too


def test_a_quoted_text_over_several_lines_written_on_purpose_is_no_runaway():
    d = err('a: "one\n  two"\nb: [1\n')  # the bracket is the mistake, not the two-line quote
    assert "the bracket that opens here is not closed" in d.message and (d.line, d.col) == (3, 4)


@pytest.mark.parametrize(
    ("text", "where", "key"),
    [
        ("a:\n  status_note: 待锚入 #1 压缩，吞吐 +30%\n", (2, 20), "a.status_note"),  # the seed's kind of note
        ("a:\n  b: 待锚入\t# 压缩\n", (2, 10), "a.b"),
        ("items:\n  - a #b\n", (2, 7), "items[0]"),
        ("x: [a, b #c\n  ]\n", (1, 10), "x[1]"),
        ("x: long\n  text #here\n", (2, 8), "x"),  # a plain value over two lines
    ],
)
def test_a_comment_after_a_plain_value_is_refused_where_it_starts(text, where, key):
    """YAML drops the text after " #": 待锚入 #1 压缩 would be shown as 待锚入, with no word said."""
    data, diags = load_text(text, "b.yaml")
    assert data is None and len(diags) == 1
    d = diags[0]
    assert (d.line, d.col, d.key, d.code) == (*where, key, "comment")
    assert "in quotes" in d.message and "two spaces after a value" in d.message
    dropped = text[text.index("#") :].split("\n")[0].rstrip()  # each text has one "#"
    assert f"to keep {dropped!r} in it" in d.message  # from its "#", as written (it said "##1 压缩")


@pytest.mark.parametrize(
    "text",
    [
        'x: "q #1" # a comment after a quoted value\n',
        "round_name: 日间  # two spaces before it: a comment (yamllint's default)\n",
        "# a comment\nx: 1\n  # an indented one\n",
        "x: [a, b] # after a list\n",
        "k:  # nothing: an empty value\n",
        "x: |\n  text #1 in a block\n",
        "x: C# and a#hash, no space before the hash\n",
    ],
)
def test_comments_that_drop_no_text_and_hashes_that_are_text_are_kept(text):
    data, diags = load_text(text, "b.yaml")
    assert not diags and data is not None


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("a:\n  value：4\n  b: x\n", (2, 8)),  # YAML reads 'value：4 b' as one text and fails at b's ':'
        ("value：4\nb: x\n", (1, 6)),
        ("a:\n  value：4\n\n  # a comment between\n  b: x\n", (2, 8)),
    ],
)
def test_a_key_written_with_a_full_width_colon_is_named_where_it_is(text, where):
    """A slip of Chinese typing: the parser fails a line later, and said to indent that line."""
    data, (d,) = load_text(text, "b.yaml")
    assert data is None and (d.line, d.col) == where
    assert "full-width colon '：'" in d.message and "(value: …)" in d.message and "indent" not in d.message


@pytest.mark.parametrize(
    ("value", "written"),
    [
        ("*重点* SSR", 'title: "*重点* SSR"'),  # Markdown's emphasis: an alias to YAML
        ("`vLLM` 配置", 'title: "`vLLM` 配置"'),
        ("[草稿] SSR", 'title: "[草稿] SSR"'),  # a list, then text
        ("{待定} 数据", 'title: "{待定} 数据"'),
        ("@tom 补充", 'title: "@tom 补充"'),
        ("&取舍 SSR", 'title: "&取舍 SSR"'),
        ("| 管道", 'title: "| 管道"'),
        ('"引号" 开头', """title: '"引号" 开头'"""),  # the other kind of quote keeps the author's
        ('`a\\b` 与 "c"', 'title: "`a\\\\b` 与 \\"c\\""'),
    ],
)
def test_a_value_starting_with_yaml_syntax_is_told_to_be_quoted(value, written):
    """What writers of Markdown and Chinese type first in a title: the parser's words alone say
    nothing of quotes (and a quoted start said to indent the line)."""
    data, (d,) = load_text(f"id: x\ntitle: {value}\n", "b.yaml")
    assert data is None and d.line == 2
    assert f"quote the value, e.g. {written}" in d.message and "indent" not in d.message
    fixed, diags = load_text(f"id: x\n{written}\n", "b.yaml")
    assert not diags and fixed.data["title"] == value


def test_a_list_item_starting_with_yaml_syntax_is_told_to_be_quoted():
    data, (d,) = load_text("labels:\n  - *new* 标注\n", "b.yaml")
    assert data is None and 'quote the value, e.g. - "*new* 标注"' in d.message


def test_bold_text_before_a_full_width_colon_is_a_value_to_quote_not_a_key():
    """``- **核心**：压缩率`` was taken for a key written with '：' and told to become
    ``**核心**: …``, which fails again (an alias): it is text, to be quoted."""
    data, (d,) = load_text("points:\n  - **核心**：压缩率 3-4×\n", "b.yaml")
    assert data is None and d.line == 2
    assert 'quote the value, e.g. - "**核心**：压缩率 3-4×"' in d.message and "full-width colon" not in d.message


@pytest.mark.parametrize("line", ["papers: [a, b]", "note: {a: 1}", 'title: "全文"', "text: |", "text: >-  # 折叠"])
def test_a_whole_list_mapping_quote_or_block_start_is_no_slip(line):
    assert "quote the value" not in fix_hint("did not find expected key", line, 3, False)


def test_a_full_width_colon_in_a_value_is_text():
    data, diags = load_text("a: 标题：很好\nb:\n  - 备注：无\n", "b.yaml")
    assert not diags and data.data == {"a": "标题：很好", "b": ["备注：无"]}


def test_a_file_saved_as_gb18030_is_told_to_be_saved_as_utf8():
    """The usual way a Chinese text is not UTF-8: an editor saved it as GB18030/GBK."""
    data, (d,) = load_bytes("title: 推理简报\n".encode("gb18030"), "b.yaml")
    assert data is None and (d.line, d.col, d.code) == (1, 8, "encoding")
    assert d.message.endswith("the file looks saved as GB18030 (GBK): save it as UTF-8 (the editor's encoding menu)")
    _, (other,) = load_bytes(b"title: \xff\xfe\n", "b.yaml")
    assert other.message == "expected UTF-8 text, got byte 0xff: save the file as UTF-8"
