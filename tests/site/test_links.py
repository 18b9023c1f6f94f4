"""Every internal link and anchor of the built site resolves."""

from __future__ import annotations

from sitecheck import broken_links, foreign_resources, script_links


def test_internal_links_and_anchors_resolve(site):
    checked, broken = broken_links(site)
    assert checked > 500
    assert not broken, "\n".join(broken[:30])


def test_no_external_links_are_javascript(site):
    assert script_links(site) == []


def test_every_resource_is_served_by_the_site(site):
    """No CDN, no web fonts: stylesheets, scripts and images load from the site itself."""
    assert foreign_resources(site) == []
