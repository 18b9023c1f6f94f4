"""mkdocs-macros module: the vocabulary of template pages.  Each macro is a
one-line call into a tested renderer; contributed data is escaped there and
never evaluated here.  The knowledge base comes from the ``kb`` plugin."""

from __future__ import annotations

from kb.site.macros import register


def define_env(env):
    register(env)
