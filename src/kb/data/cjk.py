"""Chinese text across line breaks: where a line break (folded by YAML's ``>-`` or left by the
author's editor) falls between two Chinese characters, or beside Chinese punctuation, the text
had no space there.  Latin words keep theirs, and so does Korean, which spaces its words."""

from __future__ import annotations

import re

__all__ = ["join_cjk"]

_CJK = "[\u2e80-\u2fdf\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef]"
_CJK_PUNCT = "[\u3001\u3002\uff0c\uff1b\uff1a\uff01\uff1f]"  # 、。，；：！？ (not brackets)
# A run of spaces, tabs and line breaks inside the text (a character on each side) goes when it
# lies between two CJK characters or touches CJK punctuation.  One pass of the regex engine: a
# run is taken whole at its start or not at all (inside a run, the character behind is a space).
_GAP = re.compile(
    rf"(?<={_CJK})[ \t\n]+(?={_CJK})|(?<={_CJK_PUNCT})[ \t\n]+(?=[^ \t\n])|(?<=[^ \t\n])[ \t\n]+(?={_CJK_PUNCT})"
)


def join_cjk(value: str) -> str:
    """Drop whitespace between two CJK characters and next to CJK punctuation."""
    return value if value.isascii() else _GAP.sub("", value)
