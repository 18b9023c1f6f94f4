"""Every string of a record with its key path, in field order (kb.knowledge.mentions.iter_strings):
what mentions, contexts and places are found from."""

from __future__ import annotations

from pydantic import BaseModel

from kb.knowledge.load import load_kb
from kb.knowledge.mentions import iter_strings
from sitebuild import FIXTURE_DATA


def walked(value: object, path: tuple = ()) -> list:
    """The definition: depth first, each model's fields in declaration order, lists by index."""
    if isinstance(value, BaseModel):
        return [x for name in type(value).model_fields for x in walked(getattr(value, name), path + (name,))]
    if isinstance(value, str):
        return [(path, value)]
    if isinstance(value, (list, tuple)):
        return [x for i, item in enumerate(value) for x in walked(item, path + (i,))]
    if isinstance(value, dict):
        return [x for k, v in value.items() for x in walked(v, path + (k,))]
    return []


class Inner(BaseModel):
    a: str
    n: int = 0
    more: list[str] = []


class Outer(BaseModel):
    title: str
    items: list[Inner]
    extra: dict[str, object] = {}
    note: str | None = None


def test_strings_in_field_order_with_their_paths():
    rec = Outer(
        title="t",
        items=[Inner(a="x", more=["m1", "m2"]), Inner(a="y")],
        extra={"k": ["v", ("w", 3)], "j": "z"},
    )
    assert list(iter_strings(rec)) == [
        (("title",), "t"),
        (("items", 0, "a"), "x"),
        (("items", 0, "more", 0), "m1"),
        (("items", 0, "more", 1), "m2"),
        (("items", 1, "a"), "y"),
        (("extra", "k", 0), "v"),
        (("extra", "k", 1, 0), "w"),
        (("extra", "j"), "z"),
    ]
    assert list(iter_strings(["a"], ("p",))) == [(("p", 0), "a")]


def test_every_record_of_the_fixture_walked_as_defined():
    kb = load_kb(FIXTURE_DATA)
    for record in [*kb.briefs.values(), *kb.papers.values(), *kb.topics.values()]:
        assert list(iter_strings(record)) == walked(record)
