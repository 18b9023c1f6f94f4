"""Property-based: arbitrary YAML text and arbitrary field values never crash the
loader with a traceback, only with located errors."""

from __future__ import annotations

import string

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kb.data.loader import validate
from kb.data.models import Brief, Paper
from kb.data.yamlstrict import load_bytes, load_text

YAMLISH = st.text(alphabet=string.printable + "：，。—《》&*!|>%@`{}[]#~\u00e9\u4e2d\x00\x85\ufeff", max_size=300)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(YAMLISH)
def test_any_text_gives_data_or_located_errors(text):
    located, diags = load_text(text, "f.yaml")
    if located is None:
        assert diags and all(d.line >= 1 and d.col >= 1 and d.message for d in diags)
    else:
        assert not diags


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=200))
def test_any_bytes_give_data_or_located_errors(raw):
    located, diags = load_bytes(raw, "f.yaml")
    assert (located is None) == bool(diags)


SCALARS = st.one_of(
    st.none(),
    st.text(max_size=40),
    st.integers().map(str),
    st.sampled_from(["NO", "yes", "2510.09660", "net-new", "2026-13-40"]),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=8), inner, max_size=3)),
    max_leaves=8,
)
BRIEF_KEYS = list(Brief.model_fields)
PAPER_KEYS = list(Paper.model_fields)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from(BRIEF_KEYS + ["extra"]), VALUES, max_size=8))
def test_any_brief_values_give_a_record_or_located_errors(data):
    _check(Brief, data)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from(PAPER_KEYS + ["extra"]), VALUES, max_size=8))
def test_any_paper_values_give_a_record_or_located_errors(data):
    _check(Paper, data)


def _check(model, data):
    import yaml

    text = yaml.safe_dump(data, allow_unicode=True)
    located, diags = load_text(text, "f.yaml")
    if located is None:
        assert diags
        return
    record, diags = validate(model, located)
    if record is None:
        assert diags and all(d.line >= 1 and d.col >= 1 and d.path == "f.yaml" for d in diags)
