"""The JSON Schema for snapshot sequences accepts every example and rejects
malformed files the Swift reader also rejects."""
import json
from pathlib import Path

import jsonschema
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "site" / "schema" / "snapshot-sequence.schema.json").read_text())
EXAMPLES = sorted(p for p in (ROOT / "examples").iterdir() if p.suffix in {".yml", ".yaml", ".json"})
MALFORMED = ROOT / "Tests" / "SnapshotFormatTests" / "Fixtures" / "malformed"

# Malformed files that are well-formed YAML or JSON, with the schema problem
# each one has (the rest break rules a schema cannot express, such as
# duplicate ids, or are not parseable at all).
SCHEMA_VIOLATIONS = [
    "unknown-top-key.yml", "unknown-step-key.yml", "unknown-section-key.yml", "unknown-animations-key.yml",
    "wrong-type-title.yml", "wrong-type-steps.yml", "empty-steps.yml", "missing-steps.yml",
    "step-without-rows.yml", "step-with-items-and-sections.yml", "row-with-list-field.yml", "row-is-boolean.yml",
    "unknown-animation.yml", "unknown-animation-in-animations.yml", "unknown-prefer.yml", "section-without-id.yml",
    "section-id-is-list.yml", "top-level-list.yml", "cell-unknown-style.yml", "cell-unknown-key.yml", "cell-not-a-mapping.yml",
]


def load(path):
    text = path.read_text(encoding="utf-8")
    return json.loads(text) if path.suffix == ".json" else yaml.safe_load(text)


def test_schema_is_valid_draft_2020_12():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


def test_there_are_examples():
    assert len(EXAMPLES) >= 11


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_example_validates(path):
    jsonschema.validate(load(path), SCHEMA, cls=jsonschema.Draft202012Validator)


@pytest.mark.parametrize("name", SCHEMA_VIOLATIONS)
def test_malformed_file_is_rejected(name):
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(load(MALFORMED / name), SCHEMA, cls=jsonschema.Draft202012Validator)


def test_the_schemas_cell_keys_are_the_readers():
    """The schema lacked `accessory`, which the reader takes: an editor
    flagged a valid file (found by issue 45's task table)."""
    import re
    source = (ROOT / "Sources" / "SnapshotFormat" / "CellLayout.swift").read_text()
    keys = re.search(r"static let keys = \[([^\]]*)\]", source).group(1)
    reader = set(re.findall(r'"(\w+)"', keys))
    assert set(SCHEMA["$defs"]["cell"]["properties"]) == reader
