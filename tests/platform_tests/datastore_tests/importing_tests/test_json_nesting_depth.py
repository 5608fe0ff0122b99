"""The JSON depth scan agrees with the parsed document, however the text falls into chunks."""

from __future__ import annotations

import json
import random
from typing import Any
from unittest import mock

import pytest

from datastore.importing import jsonfile
from datastore.importing.jsonfile import nesting_depth

AWKWARD_TEXT = ["[", "]", "{", "}", '"', "\\", "\\\\", '\\"', "x", "缺陷", "\\u005b"]


def random_value(rng: random.Random, depth: int) -> Any:
    kind = rng.choice(["text", "number", "list", "object"] if depth < 12 else ["text"])
    if kind == "text":
        return "".join(rng.choice(AWKWARD_TEXT) for _ in range(rng.randrange(6)))
    if kind == "number":
        return rng.random()
    if kind == "list":
        return [random_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {random_value(rng, 12): random_value(rng, depth + 1) for _ in range(rng.randrange(4))}


def depth_of(value: Any) -> int:
    if isinstance(value, list):
        return 1 + max((depth_of(v) for v in value), default=0)
    if isinstance(value, dict):
        return 1 + max((depth_of(v) for v in value.values()), default=0)
    return 0


@pytest.mark.parametrize("chunk_bytes", [1, 2, 3, 7, 4096])
def test_it_measures_the_depth_of_the_parsed_document(chunk_bytes: int) -> None:
    rng = random.Random(chunk_bytes)
    with mock.patch.object(jsonfile, "CHUNK_BYTES", chunk_bytes):
        for _ in range(200):
            value = random_value(rng, 0)
            text = json.dumps(value, ensure_ascii=rng.random() < 0.5)
            assert nesting_depth(text.encode()) == depth_of(value), text


def test_it_does_not_count_brackets_inside_strings() -> None:
    assert nesting_depth(b'{"a": "[[[[\\"{{{{", "b": [["\\\\"]]}') == 3
