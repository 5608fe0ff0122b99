"""`framework.base.dygraph.base`, as `paddle.base.dygraph.base`: `guard`, `enabled`
and `no_grad` for dynamic-graph mode, the only mode here."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from framework.core.autograd import grad, no_grad
from framework.core.backend import Place, current_place, set_device
from framework.framework import disable_static as enable_dygraph
from framework.framework import enable_static as disable_dygraph


def enabled() -> bool:
    """True: dynamic-graph mode is always on."""
    return True


@contextlib.contextmanager
def guard(place: str | Place | None = None) -> Iterator[None]:
    """Run the block in dynamic-graph mode (already the only mode), on `place` if given; the
    previous device is restored on exit."""
    before = current_place()
    if place is not None:
        set_device(place)
    try:
        yield
    finally:
        if place is not None:
            set_device(before)


__all__ = [
    "disable_dygraph",
    "enable_dygraph",
    "enabled",
    "grad",
    "guard",
    "no_grad",
]
