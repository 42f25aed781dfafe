"""The file boundary: strict JSON, the models, deterministic writing, schemas in sync."""

import json

import pytest

from pbem.errors import RecordError, UnknownFormat
from pbem.record import canonical
from pbem.record.models import from_json, to_json
from pbem.record.schemas import SCHEMAS, render

from paths_support import ROOT
from pbem_support import played_game


@pytest.fixture(scope="module")
def finished_text():
    return to_json(played_game("table").record)


@pytest.mark.parametrize("data,message", [
    (b"", "file is empty"),
    (b"   \n", "file is empty"),
    (b"\xff\xfe", "not UTF-8"),
    (b"{", r"not valid JSON \(line 1, column 2"),
    (b'{"a": 1.5}', "number 1.5 is not an integer"),
    (b'{"a": NaN}', "NaN is not allowed"),
    (b'{"a": 1, "a": 2}', "duplicate key 'a'"),
    (b'{"\xc3\xa9": 1}', "non-ASCII key"),
    (b"[" * 20 + b"]" * 20, "nested deeper than 12 levels"),
    (b"[]", "not a pbem game file"),
    (b'{"genesis": {"format": "pbem/9"}}', "unknown record format 'pbem/9'"),
])
def test_strict_reader_refuses_with_a_reason(data, message):
    with pytest.raises(RecordError, match=message):
        from_json(data)


def test_size_limit_is_checked_before_parsing(monkeypatch):
    monkeypatch.setattr(canonical, "MAX_BYTES", 100)
    with pytest.raises(RecordError, match="over the 100 byte limit"):
        canonical.parse_strict(b" " * 101)


def test_unknown_format_is_its_own_error():
    with pytest.raises(UnknownFormat):
        from_json(b'{"genesis": {"format": "pbem/1"}, "entries": []}')


def test_models_refuse_extra_fields_and_wrong_types(finished_text):
    data = json.loads(finished_text)
    data["entries"][0]["extra"] = 1
    with pytest.raises(RecordError, match=r"entries\.0\.extra: Extra inputs are not permitted"):
        from_json(json.dumps(data).encode())
    data = json.loads(finished_text)
    data["entries"][0]["seq"] = "1"
    with pytest.raises(RecordError, match=r"entries\.0\.seq: Input should be a valid integer"):
        from_json(json.dumps(data).encode())


def test_writing_is_deterministic_and_round_trips(finished_text):
    assert finished_text.endswith("}\n") and "\r" not in finished_text
    assert to_json(from_json(finished_text.encode())) == finished_text
    lines = finished_text.splitlines()
    assert lines[1].startswith('  "entries": [')


def test_committed_schemas_match_the_models():
    directory = ROOT / "schemas"
    for name, text in render().items():
        assert (directory / name).read_text() == text, f"schemas/{name} is stale: run python -m pbem.schemas"
    assert set(SCHEMAS) == {p.name for p in directory.glob("*.json")}


def test_depth_is_counted_outside_strings_only():
    from pbem.record.canonical import parse_strict

    tricky = "[" * 20 + ' \\" ' + "{" * 16  # brackets and an escaped quote inside a string
    assert parse_strict(json.dumps({"a": tricky}).encode()) == {"a": tricky}
    assert parse_strict(b"[" * 12 + b"]" * 12) == [[[[[[[[[[[[]]]]]]]]]]]]
    with pytest.raises(RecordError, match="nested deeper"):
        parse_strict(b"[" * 13 + b"]" * 13)
