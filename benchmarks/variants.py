"""Runner variants: one runner under other environment settings, as a peer in the same run.

`train_step.py --frameworks ours,ours+SAMPAN_MKL=0` and `predictor.py --runners
predictor,predictor+GOMP_SPINCOUNT=20000` time a runner against itself with a switch flipped,
taking turns with it in one run (an A/B that load on a shared machine affects alike). A variant
is the runner's name followed by `+NAME=VALUE` settings, put into the worker's environment
before it starts (so before any native library loads). The pseudo-setting `threads=N` gives
that worker its own thread count instead of `--threads`.

    >>> parse("predictor+OMP_WAIT_POLICY=PASSIVE+threads=1")
    Variant(name='predictor+OMP_WAIT_POLICY=PASSIVE+threads=1', base='predictor', env={'OMP_WAIT_POLICY': 'PASSIVE'}, threads=1)
"""  # noqa: E501

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Variant:
    name: str  # as given: the key of its results
    base: str  # the runner it runs (ours, torch, predictor, onnxruntime, ...)
    env: dict[str, str] = field(default_factory=dict)
    threads: int | None = None  # None: the run's --threads


def parse(name: str) -> Variant:
    """The variant `name` spells; ValueError on a setting that is not NAME=VALUE."""
    base, *settings = name.split("+")
    env: dict[str, str] = {}
    threads = None
    for setting in settings:
        key, sep, value = setting.partition("=")
        if not sep or not key:
            raise ValueError(f"{name!r}: {setting!r} is not NAME=VALUE")
        if key == "threads":
            threads = int(value)
        else:
            env[key] = value
    return Variant(name, base, env, threads)
