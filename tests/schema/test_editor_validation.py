"""Every data file validates against its JSON Schema in an editor-grade validator
(check-jsonschema, which reads YAML as editors do and checks regexes as ECMA-262), and the
schema's bounds are enforced there: `value: 6` fails in the editor, not only in `kb validate`."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from kb.data.jsonschema import site_files
from kb.data.schemaheader import FOLDERS, backfill, header
from sitebuild import FIXTURE_DATA


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    """The frozen knowledge base with the schemas beside it, as `kb schema --format json` writes them."""
    out = tmp_path_factory.mktemp("editor") / "data"
    shutil.copytree(FIXTURE_DATA, out)
    for name, text in site_files().items():
        (out / name).parent.mkdir(exist_ok=True)
        (out / name).write_text(text, "utf-8")
    return out


def check(schema, files) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "check_jsonschema", "--schemafile", str(schema), *map(str, files)],
        capture_output=True,
        text=True,
    )


@pytest.mark.parametrize("folder", sorted(FOLDERS))
def test_every_data_file_validates_in_check_jsonschema(data, folder):
    kind = FOLDERS[folder][0]
    files = sorted((data / folder).rglob("*.yaml"))
    assert files
    run = check(data / "schema" / f"{kind}.schema.json", files)
    assert run.returncode == 0, run.stdout + run.stderr


def test_numeric_bounds_and_patterns_are_enforced_in_the_editor(data, tmp_path):
    brief = (data / "briefs" / "inference" / "2026-09-04-e1.yaml").read_text("utf-8")
    for bad, word in (("value: 6", "6 is greater than the maximum of 5"), ("priority: P7", "does not match")):
        wrong = tmp_path / "briefs" / "x.yaml"
        wrong.parent.mkdir(parents=True, exist_ok=True)
        wrong.write_text(brief.replace("value: 3", bad, 1).replace("priority: P2", bad, 1), "utf-8")
        run = check(data / "schema" / "brief.schema.json", [wrong])
        assert run.returncode == 1 and word in run.stdout + run.stderr, run.stdout


def test_backfill_gives_every_data_file_its_schema_line_once(data):
    changed = backfill(data)
    assert len(changed) == len(list(data.rglob("*.yaml"))) - 1  # the frozen files have none but the 9-3 brief
    assert backfill(data) == []
    for path in data.rglob("*.yaml"):
        folder = path.relative_to(data).parts[0]
        first = path.read_text("utf-8").splitlines()[0]
        assert first + "\n" == header(folder)
        target = (path.parent / first.split("$schema=", 1)[1]).resolve()
        assert target.is_file() and target.name == f"{FOLDERS[folder][0]}.schema.json"


def test_the_editor_settings_map_every_kind_of_data_file_to_its_schema(root):
    import json

    settings = json.loads((root / ".vscode" / "settings.json").read_text("utf-8"))["yaml.schemas"]
    for folder, (kind, _) in FOLDERS.items():
        schema = f"./data/schema/{kind}.schema.json"
        assert schema in settings and settings[schema].startswith(f"data/{folder}/"), folder
        assert (root / schema).is_file()


def test_the_commands_that_write_paper_files_write_the_schema_line(tmp_path):
    from kb.data.models import ArxivMeta
    from kb.data.paperfile import create_file, scan

    (tmp_path / "papers").mkdir()
    index = scan(tmp_path)
    meta = ArxivMeta.model_validate({"title": "RetroInfer", "authors": ["A"]})
    made = create_file(index, "2505.02922", "RetroInfer", meta)  # kb paper add, kb bib import
    assert made.read_text("utf-8").startswith(header("papers"))
