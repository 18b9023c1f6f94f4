"""The build option: extra.kb_demos in mkdocs.yml, overridden by KB_DEMOS."""

from __future__ import annotations

import pytest

from kb.demos import ENV, OPTION, SITE_DIR, enabled, for_paper, for_section
from kb.models import Demo


def test_names():
    assert (OPTION, ENV) == ("kb_demos", "KB_DEMOS")
    assert not SITE_DIR.startswith("/") and not SITE_DIR.endswith("/")


@pytest.mark.parametrize("value, expected", [
    (None, False),  # absent: off by default
    (False, False),
    (True, True),
    ("true", True),
    ("off", False),
    (" Yes ", True),
])
def test_config_value(value, expected):
    assert enabled(value, {}) is expected


@pytest.mark.parametrize("word, expected", [
    ("1", True), ("true", True), ("yes", True), ("on", True), ("TRUE", True), (" on ", True),
    ("0", False), ("false", False), ("no", False), ("off", False), ("Off", False),
])
@pytest.mark.parametrize("config", [None, True, False])
def test_environment_overrides_config(word, expected, config):
    assert enabled(config, {ENV: word}) is expected


@pytest.mark.parametrize("config", [None, True, False])
def test_empty_environment_value_is_unset(config):
    assert enabled(config, {ENV: ""}) is bool(config)
    assert enabled(config, {ENV: "  "}) is bool(config)


@pytest.mark.parametrize("word", ["2", "enabled", "ja", "tru"])
def test_bad_environment_value_is_an_error(word):
    with pytest.raises(ValueError, match="KB_DEMOS"):
        enabled(False, {ENV: word})


@pytest.mark.parametrize("value", [1, 0, "maybe", ["true"], {"kb_demos": True}])
def test_bad_config_value_is_an_error(value):
    with pytest.raises(ValueError, match="extra.kb_demos"):
        enabled(value, {})


def test_default_environment_is_os_environ(monkeypatch):
    monkeypatch.setenv(ENV, "on")
    assert enabled(False) is True
    monkeypatch.delenv(ENV)
    assert enabled(None) is False


def test_selection():
    a = Demo(id="a", kernel="gemv", title="A", papers=["p1"], sections=["s1"])
    b = Demo(id="b", kernel="softmax", title="B", papers=["p1", "p2"], sections=[])
    assert [d.id for d in for_paper([a, b], "p1")] == ["a", "b"]
    assert [d.id for d in for_paper([a, b], "p2")] == ["b"]
    assert [d.id for d in for_section([a, b], "s1")] == ["a"]
    assert for_section([a, b], "zz") == []
