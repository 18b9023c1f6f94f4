"""Where the site is (``kb.site.plugin.config.address``): ``KB_SITE_URL`` replaces ``site_url``, and a build
served where it is made (``mkdocs serve``, ``kb preview``) leaves Material's edition selector out: the
editions and their ``versions.json`` exist on the published branch only, and asking for it there
was a 404 (and MkDocs' warning in the contributor's terminal) on every page opened."""

from __future__ import annotations

import pytest
from mkdocs.config import load_config

from kb.site.plugin.config import SITE_URL_ENV, address
from sitebuild import ROOT

SELECTOR = {"provider": "mike", "default": "latest", "alias": True}  # extra.version of mkdocs.yml


@pytest.fixture
def config(monkeypatch):
    monkeypatch.delenv(SITE_URL_ENV, raising=False)
    return load_config(str(ROOT / "mkdocs.yml"))


def test_mkdocs_yml_has_the_edition_selector(config):
    assert dict(config.extra["version"]) == SELECTOR


def test_a_build_keeps_the_selector(config):
    address(config, previewing=False)
    assert config.extra["version"] == SELECTOR and config.site_url in ("", None)


@pytest.mark.parametrize(("dev_addr", "site_url"), [("127.0.0.1:8000", "/"), ("0.0.0.0:8123", "/kb/")])
def test_mkdocs_serve_leaves_the_selector_out(config, dev_addr, site_url):
    """``mkdocs serve`` sets site_url to its own address (with the mount path of site_url) before
    the plugins' on_config; that is how the build knows it is served."""
    from mkdocs.config.config_options import IpAddress

    config.dev_addr = IpAddress().validate(dev_addr)
    config.site_url = f"http://{dev_addr}{site_url}"
    address(config, previewing=False)
    assert "version" not in config.extra


def test_a_published_address_on_another_port_keeps_it(config):
    config.site_url = "http://127.0.0.1:9000/"  # not where mkdocs serve would serve (dev_addr: 127.0.0.1:8000)
    address(config, previewing=False)
    assert config.extra["version"] == SELECTOR


def test_kb_preview_leaves_the_selector_out(config):
    address(config, previewing=True)
    assert "version" not in config.extra


def test_kb_site_url_replaces_site_url(config, monkeypatch):
    monkeypatch.setenv(SITE_URL_ENV, "https://kb.example.org/latest")
    address(config, previewing=False)
    assert config.site_url == "https://kb.example.org/latest/" and config.extra["version"] == SELECTOR
