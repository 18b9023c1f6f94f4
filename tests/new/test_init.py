"""`kb init DIR`: a second team's knowledge base from the installed package alone.

The package is built from this tree as the wheel is (setuptools' ``build_py``, which copies the
packages and the package data pyproject.toml declares, and ``egg_info``, the metadata with the
``kb`` command and the MkDocs plugin's entry point) into a directory of its own, away from the
checkout; Python then runs without its site directory (``-S``: no editable install of the
checkout), with that directory and the dependencies' site-packages as its whole path.  A
template, script or page the package does not declare is missing there and the build fails.
(No wheel is zipped: the venv's setuptools builds wheels only with the ``wheel`` package, and a
test reaches no package index.)"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import mkdocs
import pytest

from kb.cli import main
from kb.cli.init import project_files

ROOT = Path(__file__).resolve().parents[2]
SITE_PACKAGES = Path(mkdocs.__file__).resolve().parents[1]  # the dependencies (MkDocs, Material, Pagefind, …)


def installed(tmp: Path) -> Path:
    """The kb package as the wheel carries it, in ``tmp/lib``."""
    source = tmp / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copyfile(ROOT / name, source / name)
    shutil.copytree(ROOT / "src", source / "src", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    lib = tmp / "lib"
    run = subprocess.run(
        [sys.executable, "-c", "import setuptools; setuptools.setup()", "-q"]
        + ["build_py", "--build-lib", str(lib), "egg_info", "--egg-base", str(lib)],
        cwd=source,
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stderr
    return lib


def alone(lib: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``python -S args…`` with only ``lib`` and the dependencies on its path."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("KB_") and k != "PYTHONPATH"}
    env.update(PYTHONPATH=os.pathsep.join([str(lib), str(SITE_PACKAGES)]), NO_MKDOCS_2_WARNING="1", KB_CACHE="off")
    return subprocess.run([sys.executable, "-S", *args], cwd=cwd, capture_output=True, text=True, env=env)


@pytest.mark.slow
def test_a_new_knowledge_base_builds_strict_from_the_package_alone(tmp_path):
    lib = installed(tmp_path)
    where = alone(lib, tmp_path, "-c", "import kb.cli; print(kb.cli.__file__)")
    assert where.returncode == 0 and Path(where.stdout.strip()).is_relative_to(lib), where.stdout + where.stderr

    made = alone(lib, tmp_path, "-m", "kb", "init", "team", "--topic", "serving", "--title", "LLM 服务")
    assert made.returncode == 0, made.stderr
    project = tmp_path / "team"
    assert (project / "data" / "topics" / "serving.yaml").is_file()
    assert {".github/workflows/pr.yml", ".github/workflows/publish.yml", ".gitignore"} <= {
        p.relative_to(project).as_posix() for p in project.rglob("*") if p.is_file()
    }
    checked = alone(lib, project, "-m", "kb", "validate", "--strict")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "1 topic(s)" in checked.stdout

    built = alone(lib, project, "-m", "mkdocs", "build", "--strict")
    assert built.returncode == 0, built.stderr
    site = project / "site"
    home, topic = (site / "index.html").read_text("utf-8"), (site / "serving" / "index.html").read_text("utf-8")
    assert "LLM 服务知识库" in home and 'href="serving/"' in home
    assert 'id="sec-overview"' in topic  # the topic's one section, from data/
    for asset in ("kb.css", "kb-words.js", "kb-search.js"):  # the package's, linked and shipped
        assert f"assets/{asset}" in home and (site / "assets" / asset).is_file()
    assert (site / "pagefind" / "pagefind.js").is_file()  # the search index


def test_init_refuses_a_directory_that_holds_anything(tmp_path, capsys):
    (tmp_path / "notes.txt").write_text("mine\n", "utf-8")
    assert main(["init", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"error: {tmp_path}：目录不是空的") and "notes.txt" in err and "Traceback" not in err
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]  # nothing written


def test_init_refuses_a_topic_id_that_is_no_anchor_and_a_title_with_markup(tmp_path, capsys):
    assert main(["init", str(tmp_path / "a"), "--topic", "My Topic"]) == 1
    assert "--topic My Topic：" in capsys.readouterr().err
    assert main(["init", str(tmp_path / "b"), "--title", "{{ x }}"]) == 1
    assert "--title：" in capsys.readouterr().err
    assert not (tmp_path / "a").exists() and not (tmp_path / "b").exists()


def test_the_topic_defaults_to_the_directory_name_and_the_title_to_the_topic(tmp_path):
    assert main(["init", str(tmp_path / "llm-serving")]) == 0
    topic = (tmp_path / "llm-serving" / "data" / "topics" / "llm-serving.yaml").read_text("utf-8")
    assert "id: llm-serving\ntitle: llm-serving\n" in topic
    assert main(["init", str(tmp_path / "Notes 2026")]) == 0  # no topic id: the default one
    assert (tmp_path / "Notes 2026" / "docs" / "main.md").is_file()


def test_a_title_yaml_would_read_otherwise_stays_text():
    assert "site_name: LLM 知识库\n" in project_files("t", "LLM")["mkdocs.yml"]
    files = project_files("t", "NO: 1")
    assert "title: 'NO: 1'\n" in files["data/topics/t.yaml"]
    assert "site_name: 'NO: 1 知识库'\n" in files["mkdocs.yml"]
    assert "# NO: 1 知识库\n" in files["docs/index.md"]


def test_the_new_projects_workflows_pass_zizmor_and_the_workflow_schema(tmp_path):
    venv_bin = Path(sys.executable).parent
    if not (venv_bin / "zizmor").exists() or not (venv_bin / "check-jsonschema").exists():
        pytest.skip("zizmor and check-jsonschema are not installed (pip install -e '.[test]')")
    assert main(["init", str(tmp_path / "p")]) == 0
    workflows = tmp_path / "p" / ".github" / "workflows"
    audit = subprocess.run(
        [str(venv_bin / "zizmor"), "--offline", "--no-progress", str(workflows)], capture_output=True, text=True
    )
    assert audit.returncode == 0 and "No findings" in audit.stdout, audit.stdout + audit.stderr
    files = sorted(map(str, workflows.glob("*.yml")))
    assert len(files) == 2
    schema = subprocess.run(
        [str(venv_bin / "check-jsonschema"), "--builtin-schema", "vendor.github-workflows", *files],
        capture_output=True,
        text=True,
    )
    assert schema.returncode == 0, schema.stdout + schema.stderr
