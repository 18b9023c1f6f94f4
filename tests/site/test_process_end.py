"""When a command that loaded the knowledge base for one build (``mkdocs build``, ``serve``,
``gh-deploy``) exits, what is left is frozen out of garbage collection: the interpreter's last
collection on the way out would otherwise walk every object of the build (two seconds of CPU at
3,000 pages)."""

from __future__ import annotations

import subprocess
import sys

from kb.site.plugin import KnowledgeBasePlugin
from sitebuild import copy_project


def test_the_plugin_is_made_anew_for_each_build():
    """Not from a shutdown hook: a plugin with ``on_startup`` or ``on_shutdown`` is kept across the
    builds of ``mkdocs serve`` (MkDocs' newer lifecycle), and the plugin's state is per build."""
    assert "on_shutdown" not in vars(KnowledgeBasePlugin) and "on_startup" not in vars(KnowledgeBasePlugin)


def test_a_build_command_ends_with_its_objects_frozen(tmp_path):
    """A real ``mkdocs build``: when its exit handlers run, the build's objects are frozen."""
    code = (
        "import atexit, gc, sys\n"
        "from mkdocs.__main__ import cli\n"
        "atexit.register(lambda: print('frozen', gc.get_freeze_count(), file=sys.stderr))\n"
        f"cli(['build', '--strict', '-q', '-d', {str(tmp_path / 'site')!r}])\n"
    )
    project = copy_project(tmp_path / "project")
    run = subprocess.run(
        [sys.executable, "-c", code],
        cwd=project,
        capture_output=True,
        text=True,
        env={"NO_MKDOCS_2_WARNING": "1", "PATH": "/usr/bin:/bin", "KB_CACHE": "off"},
    )
    assert run.returncode == 0, run.stderr
    frozen = int(run.stderr.rsplit("frozen ", 1)[1].split()[0])
    assert frozen > 10_000, run.stderr
