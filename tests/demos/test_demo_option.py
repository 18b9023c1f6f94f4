"""The build option: the kb plugin's `demos` in mkdocs.yml, overridden by KB_DEMOS."""

from __future__ import annotations

import pytest

from kb.data.models import Demo
from kb.demos import ENV, SITE_DIR, enabled, for_paper, for_section


def test_names():
    assert ENV == "KB_DEMOS"
    assert not SITE_DIR.startswith("/") and not SITE_DIR.endswith("/")


@pytest.mark.parametrize("value", [False, True])
def test_config_value(value):
    assert enabled(value, {}) is value


@pytest.mark.parametrize(
    "word, expected",
    [
        ("1", True),
        ("true", True),
        ("yes", True),
        ("on", True),
        ("TRUE", True),
        (" on ", True),
        ("0", False),
        ("false", False),
        ("no", False),
        ("off", False),
        ("Off", False),
    ],
)
@pytest.mark.parametrize("config", [True, False])
def test_environment_overrides_config(word, expected, config):
    assert enabled(config, {ENV: word}) is expected


@pytest.mark.parametrize("config", [True, False])
def test_empty_environment_value_is_unset(config):
    assert enabled(config, {ENV: ""}) is bool(config)
    assert enabled(config, {ENV: "  "}) is bool(config)


@pytest.mark.parametrize("word", ["2", "enabled", "ja", "tru"])
def test_bad_environment_value_is_an_error(word):
    with pytest.raises(ValueError, match="KB_DEMOS"):
        enabled(False, {ENV: word})


def test_default_environment_is_os_environ(monkeypatch):
    monkeypatch.setenv(ENV, "on")
    assert enabled(False) is True
    monkeypatch.delenv(ENV)
    assert enabled(False) is False


def test_selection():
    a = Demo(id="a", kernel="gemv", title="A", papers=["p1"], sections=["s1"])
    b = Demo(id="b", kernel="softmax", title="B", papers=["p1", "p2"], sections=[])
    assert [d.id for d in for_paper([a, b], "p1")] == ["a", "b"]
    assert [d.id for d in for_paper([a, b], "p2")] == ["b"]
    assert [d.id for d in for_section([a, b], "s1")] == ["a"]
    assert for_section([a, b], "zz") == []
