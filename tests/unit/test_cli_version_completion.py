"""kb --version, and the bash completion kb prints completing real commands and options."""

from __future__ import annotations

import subprocess
import sys
from importlib.metadata import version

import pytest


def kb(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "kb", *args], capture_output=True, text=True, timeout=60)


def test_version_names_the_installed_package():
    run = kb("--version")
    assert run.returncode == 0 and run.stdout.strip() == f"kb {version('llm-inference-kb')}"


@pytest.mark.parametrize(
    ("words", "expected"),
    [(["kb", "val"], "validate"), (["kb", "validate", "--st"], "--strict"), (["kb", "paper", "ref"], "refresh")],
)
def test_bash_completion_completes_commands_and_options(tmp_path, words, expected):
    script = tmp_path / "kb.bash"
    script.write_text(kb("completion", "bash").stdout, "utf-8")
    words_sh = " ".join(words)
    probe = (
        f"source {script}; COMP_WORDS=({words_sh}); COMP_CWORD={len(words) - 1}; "
        f'_shtab_kb kb "{words[-1]}" "{words[-2]}"; printf "%s\\n" "${{COMPREPLY[@]}}"'
    )
    run = subprocess.run(["bash", "--norc", "-c", probe], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == [expected]


def test_an_unknown_shell_is_a_usage_error_without_a_traceback():
    run = kb("completion", "fish")
    assert run.returncode == 2 and "invalid choice: 'fish'" in run.stderr and "Traceback" not in run.stderr
