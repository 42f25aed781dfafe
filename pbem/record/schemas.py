"""The JSON Schemas in schemas/, generated from the record models (tests/record/test_record.py keeps them in sync).

    python -m pbem.schemas [DIRECTORY]
"""

from __future__ import annotations

import sys
from pathlib import Path

from pydantic import BaseModel

from pbem.record.canonical import pretty
from pbem.record.models import Entry, GameFile, Genesis
from pbem.record.status import Status

SCHEMAS: dict[str, type[BaseModel]] = {
    "game-file.schema.json": GameFile, "genesis.schema.json": Genesis, "entry.schema.json": Entry,
    "status.schema.json": Status,
}


def render() -> dict[str, str]:
    return {name: pretty(model.model_json_schema()) for name, model in SCHEMAS.items()}


def write(directory: Path) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    for name, text in render().items():
        (directory / name).write_text(text)


if __name__ == "__main__":
    write(Path(sys.argv[1] if len(sys.argv) > 1 else "schemas"))
