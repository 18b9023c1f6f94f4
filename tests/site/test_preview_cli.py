"""``kb preview``: its command line (help, mistakes) and, in a subprocess on 127.0.0.1, the served
site: the first build, an edit shown on the page, errors on the page and in the terminal while
the last good build stays served, and Ctrl-C."""

from __future__ import annotations

import json
import os
import queue
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from kb.cli import main
from sitebuild import copy_project

BRIEF = "data/briefs/inference/2026-09-03-e1.yaml"
PAGE = "briefs/inference/2026-09-03-e1/"


def test_help_names_the_options(capsys):
    with pytest.raises(SystemExit):
        main(["preview", "--help"])
    out = " ".join(capsys.readouterr().out.split())  # as wrapped for any terminal's width
    for option in ("--dev-addr IP:PORT", "--data DATA", "--config-file"):
        assert option in out
    assert "default: 127.0.0.1:8000" in out and "the search index follows the changed pages" in out
    assert "a change meanwhile stops it" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--dev-addr", "localhost"], "error: --dev-addr: expected IP:PORT, e.g. 127.0.0.1:8000, got 'localhost'"),
        (["--dev-addr", "127.0.0.1:99999"], "error: --dev-addr: expected IP:PORT"),
        (["--config-file", "nowhere.yml"], "error: nowhere.yml: no such file (run kb preview beside mkdocs.yml"),
        (["--data", "no-such-dir"], "error: --data: no-such-dir is not a directory"),
    ],
)
def test_mistakes_are_one_line_and_exit_1(tmp_path, monkeypatch, capsys, args, message):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mkdocs.yml").write_text("site_name: x\n", "utf-8")
    assert main(["preview", *args]) == 1
    assert capsys.readouterr().err.startswith(message)


def test_a_project_without_the_kb_plugin_is_refused(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mkdocs.yml").write_text("site_name: x\n", "utf-8")
    (tmp_path / "docs").mkdir()
    assert main(["preview"]) == 1
    assert capsys.readouterr().err == "error: mkdocs.yml: the kb plugin is not listed under plugins:\n"


def test_a_broken_mkdocs_yml_is_said(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mkdocs.yml").write_text("site_name: x\nnav: 3\n", "utf-8")
    (tmp_path / "docs").mkdir()
    assert main(["preview"]) == 1
    assert capsys.readouterr().err.endswith("error: mkdocs.yml: Aborted with a configuration error!\n")


class Preview:
    """``kb preview`` in a subprocess (this test's own), its output read line by line."""

    def __init__(self, project: Path, *args: str) -> None:
        env = {k: v for k, v in os.environ.items() if k != "KB_DATA"} | {"NO_MKDOCS_2_WARNING": "1"}
        cmd = [sys.executable, "-m", "kb", "preview", *args]
        self.proc = subprocess.Popen(
            cmd, cwd=project, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        )
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))

    def expect(self, pattern: str, timeout: float = 120) -> re.Match[str]:
        deadline = time.monotonic() + timeout
        seen = []
        while time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=0.5)
            except queue.Empty:
                continue
            seen.append(line)
            if m := re.search(pattern, line):
                return m
        raise AssertionError(f"no line matching {pattern!r} in:\n" + "\n".join(seen))

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
        return self.proc.wait(30)


def get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=60) as answer:
        return str(answer.read().decode("utf-8"))


def until(url: str, check, timeout: float = 60) -> str:
    deadline = time.monotonic() + timeout
    while True:
        text = get(url)
        if check(text) or time.monotonic() > deadline:
            return text
        time.sleep(0.1)


@pytest.mark.slow
def test_the_served_preview_follows_edits_and_shows_errors(tmp_path):
    project = copy_project(tmp_path / "project")
    preview = Preview(project, "--dev-addr", "127.0.0.1:0")
    try:
        preview.expect(r"^kb preview: built 38 pages in [\d.]+ s, with the search index$")
        url = preview.expect(
            r"^kb preview: serving \.cache/kb/preview at (http://127\.0\.0\.1:\d+/) \(Ctrl-C stops\)$"
        )[1]
        page = get(url + PAGE)
        assert "livereload" in page and "kb-preview-errors" not in page
        settings = re.search(r'<script id="__config" type="application/json">(.*?)</script>', page)
        # no edition selector: no versions.json asked for (kb.site.plugin.config.address)
        assert settings is not None and json.loads(settings.group(1))["version"] is None
        brief = project / BRIEF
        good = brief.read_text("utf-8")
        brief.write_text(good.replace("\ncharacter:\n  title: ", "\ncharacter:\n  title: 预览新词 ", 1), "utf-8")
        assert "预览新词" in until(url + PAGE, lambda text: "预览新词" in text)
        preview.expect(rf"^kb preview: {BRIEF} changed: rebuilt \d+ of 38 pages in [\d.]+ s \(the search index follows")
        preview.expect(r"^kb preview: search index brought up to date in [\d.]+ s \(\d+ pages read\)$")

        brief.write_text(good.replace("sections: [s1-1-engines]", "sections: [s1-1-engine]", 1), "utf-8")
        shown = until(url + PAGE, lambda text: "kb-preview-errors" in text)
        assert "the last build failed; still serving the last good build." in shown and "预览新词" in shown
        assert f"{BRIEF}:123:16: unknown section &#x27;s1-1-engine&#x27;" in shown
        preview.expect(rf"^kb preview: building after {BRIEF} failed \(still serving the last good build\):$")
        preview.expect(rf"^  {BRIEF}:123:16: unknown section 's1-1-engine' in topic 'inference'")
        with pytest.raises(urllib.error.HTTPError) as missing:
            get(url + "no-such-page/")
        assert "kb-preview-errors" in missing.value.read().decode("utf-8")

        brief.write_text(good, "utf-8")
        assert "预览新词" not in until(url + PAGE, lambda text: "kb-preview-errors" not in text)
    finally:
        code = preview.stop()
    assert code == 0
    preview.expect(r"^kb preview: stopped$")


def test_a_port_in_use_is_said_before_building(tmp_path):
    project = copy_project(tmp_path / "project")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        preview = Preview(project, "--dev-addr", f"127.0.0.1:{port}")
        assert preview.proc.wait(60) == 1
    preview.expect(rf"^error: cannot listen on 127\.0\.0\.1:{port}: ")
    assert not (project / ".cache").exists()
