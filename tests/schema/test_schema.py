"""`kb schema`: the reference covers every record and key, and CONTRIBUTING.md holds the fresh output."""

from __future__ import annotations

import re
import shutil
import typing
from pathlib import Path

import pytest
from pydantic import BaseModel

from kb.cli import main, schema_doc
from kb.data import models
from kb.knowledge.load import load_kb
from sitebuild import FIXTURE_DATA

ROOT = Path(__file__).resolve().parents[2]
CONTRIBUTING = ROOT / "CONTRIBUTING.md"


def records(model: type[BaseModel], seen: dict | None = None) -> dict[str, type[BaseModel]]:
    """Every record reachable from ``model`` through its field types (walked independently of kb.schema_doc)."""
    seen = {} if seen is None else seen
    seen[model.__name__] = model

    def walk(tp):
        for arg in typing.get_args(tp):
            walk(arg)
        if isinstance(tp, type) and issubclass(tp, BaseModel) and tp.__name__ not in seen:
            records(tp, seen)

    for info in model.model_fields.values():
        walk(info.annotation)
    return seen


def table_of(reference: str, name: str) -> str:
    m = re.search(rf"^#{{3,4}} {name}\n(.*?)(?=^#{{3,4}} |\Z)", reference, re.S | re.M)
    assert m, f"no section for {name}"
    return m.group(1)


def test_contributing_holds_the_fresh_reference_exactly_once():
    text = CONTRIBUTING.read_text("utf-8")
    assert text.count(schema_doc.START) == 1 and text.count(schema_doc.END) == 1
    assert schema_doc.section(text) == schema_doc.markdown().strip("\n"), "run `kb schema --write CONTRIBUTING.md`"
    assert schema_doc.insert(text, schema_doc.markdown()) == text
    assert main(["schema", "--check", str(CONTRIBUTING)]) == 0


@pytest.mark.parametrize("top", [models.Topic, models.Paper, models.Brief, models.Demo])
def test_every_record_and_key_is_described(top):
    reference = schema_doc.markdown()
    for name, model in records(top).items():
        table = table_of(reference, name)
        for key, info in model.model_fields.items():
            row = next((ln for ln in table.splitlines() if ln.startswith(f"| `{key}` |")), None)
            assert row is not None, f"{name}.{key}"
            cells = [c.strip() for c in re.split(r"(?<!\\)\|", row)[1:-1]]
            assert cells[2] == ("yes" if info.is_required() else "no"), (name, key, cells)
            if info.description:
                assert cells[4] == info.description.replace("|", "\\|"), (name, key)


def test_allowed_values_patterns_and_defaults():
    reference = schema_doc.markdown()
    for enum_type in (models.Credibility, models.Status, models.Light, models.AdjacentStatus):
        for member in enum_type:
            assert f"`{member.value}`" in reference
    for kernel in ("softmax", "rmsnorm", "gemv", "attention-decode"):
        assert f"`{kernel}`" in table_of(reference, "Demo")
    assert "| slug | lower-case letters, digits and `-`, starting with a letter or digit, at most 80 characters |" in (
        reference
    )
    round_ = next(ln for ln in table_of(reference, "Brief").splitlines() if ln.startswith("| `round` |"))
    assert "[round](#value-types)" in round_
    assert "| round | capital letters and digits, a letter first, at most 6: `E1`, `E2` |" in reference
    kind = next(ln for ln in table_of(reference, "Paper").splitlines() if ln.startswith("| `kind` |"))
    assert "`paper`, `system`, `benchmark`, `report`" in kind and kind.rstrip(" |").split("|")[4].strip() == "`paper`"
    status = next(ln for ln in table_of(reference, "AdjacentItem").splitlines() if ln.startswith("| `status` |"))
    assert "`prep` (邻接预备)" in status and "| no | `prep` |" in status
    value = next(ln for ln in table_of(reference, "Increment").splitlines() if ln.startswith("| `value` |"))
    assert "[value](#value-types)" in value
    assert "| value | an integer from 1 to 5" in reference
    assert "File: `data/briefs/<topic>/<YYYY-MM-DD>-<round>.yaml`." in reference
    # internal links all have a target heading
    anchors = {h.lower() for h in re.findall(r"^#{3,4} (.+)$", reference, re.M)}
    for target in set(re.findall(r"\]\(#([^)]+)\)", reference)):
        assert target.replace("-", " ") in anchors, target


def test_write_replaces_only_between_the_markers(tmp_path, capsys):
    doc = tmp_path / "DOC.md"
    doc.write_text(f"# Title\n\nbefore\n\n{schema_doc.START}\nstale text\n{schema_doc.END}\n\nafter\n", "utf-8")
    assert main(["schema", "--check", str(doc)]) == 1
    assert main(["schema", "--write", str(doc)]) == 0
    text = doc.read_text("utf-8")
    assert text.startswith("# Title\n\nbefore\n\n") and text.endswith(f"{schema_doc.END}\n\nafter\n")
    assert "stale text" not in text and schema_doc.section(text) == schema_doc.markdown().strip("\n")
    capsys.readouterr()
    assert main(["schema", "--write", str(doc)]) == 0
    assert "already up to date" in capsys.readouterr().out
    assert doc.read_text("utf-8") == text


def test_write_needs_the_markers(tmp_path, capsys):
    doc = tmp_path / "DOC.md"
    doc.write_text("# no markers\n", "utf-8")
    assert main(["schema", "--write", str(doc)]) == 1
    assert "expected one <!-- schema:start -->" in capsys.readouterr().err
    assert main(["schema", "--write", str(tmp_path / "missing.md")]) == 1


def test_stdout_is_the_markdown(capsys):
    assert main(["schema", "--format", "markdown"]) == 0
    assert capsys.readouterr().out == schema_doc.markdown()


def test_worked_example_in_contributing_validates(tmp_path):
    text = CONTRIBUTING.read_text("utf-8")
    m = re.search(r"<!-- example: data/(briefs/\S+\.yaml) -->\n```yaml\n(.*?)```", text, re.S)
    assert m, "the worked example block is missing"
    data = tmp_path / "data"
    shutil.copytree(FIXTURE_DATA, data)
    for later in ("2026-09-04-e1.yaml", "2026-09-05-e1.yaml"):  # the example is the day after the seed
        (data / "briefs" / "inference" / later).unlink()
    (data / m.group(1)).write_text(m.group(2), "utf-8")
    kb = load_kb(data)
    key = "inference/2026-09-04-e1"
    brief = kb.briefs[key]
    assert len(brief.increments) == 1
    assert all(p in kb.papers for inc in brief.increments for p in inc.papers)
    assert kb.figures[key].increments == 1
    assert not [d for d in kb.diagnostics if d.path.endswith("2026-09-04-e1.yaml")]
    rtp = kb.history.anchor("rtp-llm", "inference")  # paper, sections and date: each typed once
    assert rtp is not None and rtp.sections == ("s1-1-engines", "s1-2-scheduling") and rtp.since == brief.date
    assert "anchored_since" not in m.group(2) and m.group(2).count("rtp-llm") == 1


# --------------------------------------------------------------------------- JSON Schemas for editors


def _yaml12(text: str):
    """YAML as an editor reads it (YAML 1.2 core: dates stay strings)."""
    import yaml

    class Loader(yaml.SafeLoader):
        pass

    Loader.yaml_implicit_resolvers = {
        k: [r for r in v if r[0] != "tag:yaml.org,2002:timestamp"]
        for k, v in yaml.SafeLoader.yaml_implicit_resolvers.items()
    }
    return yaml.load(text, Loader=Loader)


def test_json_schemas_are_up_to_date(capsys):
    assert main(["schema", "--format", "json", "--check", str(ROOT / "data" / "schema")]) == 0, capsys.readouterr().err


def test_every_data_file_of_the_frozen_knowledge_base_matches_its_json_schema():
    import jsonschema

    from kb.data.jsonschema import schemas

    all_schemas = schemas()
    kinds = {"topics": "topic", "papers": "paper", "briefs": "brief", "demos": "demo"}
    checked = 0
    for path in sorted(FIXTURE_DATA.rglob("*.yaml")):
        kind = kinds[path.relative_to(FIXTURE_DATA).parts[0]]
        validator = jsonschema.Draft202012Validator(all_schemas[f"{kind}.schema.json"])
        errors = sorted(validator.iter_errors(_yaml12(path.read_text("utf-8"))), key=str)
        assert not errors, f"{path}: {errors[0].message} at {list(errors[0].absolute_path)}"
        checked += 1
    assert checked >= 25


def test_json_schema_catches_an_unknown_key():
    import jsonschema

    from kb.data.jsonschema import schemas

    validator = jsonschema.Draft202012Validator(schemas()["paper.schema.json"])
    assert list(validator.iter_errors({"id": "x", "short": "X", "anchors": []}))  # anchors moved to briefs
    assert not list(validator.iter_errors({"id": "x", "short": "X", "arxiv": 2505.02922}))  # YAML 1.2 reads a number
