"""Parameters, FLOPs and size of every catalog entry, measured by the framework and committed.

They are facts of a fixed architecture at its own input size and head, so they are measured
once, by `manage.py measure_architectures` (framework.summary and framework.flops), and kept in
`modelzoo/architecture_profiles.json`; every page and API call reads them from there at once.
A test measures every entry again and compares, so the file cannot drift from the networks.

(They used to be measured by a background task on the first view of the zoo, which showed
"Being measured…" until a worker took the task: minutes behind a training job on the same
worker, and for ever once that one message was lost, since nothing sent it again.)
"""

from __future__ import annotations

import contextlib
import io
import json
from dataclasses import asdict, dataclass
from functools import cache
from pathlib import Path

from modelzoo.catalog import ARCHITECTURES, get_architecture

PROFILES_FILE = Path(__file__).resolve().parents[1] / "architecture_profiles.json"
MEASURE_COMMAND = "python manage.py measure_architectures"


@dataclass(frozen=True)
class Profile:
    """Trainable parameters (as torchvision counts them: not BatchNorm's running statistics),
    FLOPs of one forward pass, and the float32 state dict's bytes, for one image of
    `input_shape` and a `num_classes`-way head."""

    params: int
    flops: int
    state_bytes: int
    input_shape: tuple[int, int, int]
    num_classes: int

    @classmethod
    def from_json(cls, doc: dict) -> Profile:
        return cls(
            params=int(doc["params"]),
            flops=int(doc["flops"]),
            state_bytes=int(doc["state_bytes"]),
            input_shape=tuple(doc["input_shape"]),
            num_classes=int(doc["num_classes"]),
        )

    def to_json(self) -> dict:
        return {**asdict(self), "input_shape": list(self.input_shape)}


@cache
def committed_profiles() -> dict[str, Profile]:
    doc = json.loads(PROFILES_FILE.read_text(encoding="utf-8"))
    return {key: Profile.from_json(entry) for key, entry in doc.items()}


def profile_of(key: str) -> Profile | None:
    """`key`'s committed profile; None for an entry added without measuring it."""
    return committed_profiles().get(key)


def measure(key: str) -> Profile:
    """Measures `key` with the framework, at the entry's own input size and head."""
    import framework

    architecture = get_architecture(key)
    network = architecture.build(architecture.profile_classes)
    shape = (1, *architecture.input_shape())
    with contextlib.redirect_stdout(io.StringIO()):  # both print their tables
        params = framework.summary(network, shape)["trainable_params"]
        flops = framework.flops(network, list(shape))
    state_bytes = sum(value.numpy().nbytes for value in network.state_dict().values())
    return Profile(
        int(params), int(flops), int(state_bytes), architecture.input_shape(),
        architecture.profile_classes,
    )  # fmt: skip


def measure_all() -> dict[str, Profile]:
    return {architecture.key: measure(architecture.key) for architecture in ARCHITECTURES}


def write_profiles(profiles: dict[str, Profile]) -> None:
    doc = {key: profile.to_json() for key, profile in profiles.items()}
    PROFILES_FILE.write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
    committed_profiles.cache_clear()
