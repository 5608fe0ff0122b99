"""Forward hooks and error notes for `Layer.__call__`.

Hooks are kept in plain dicts keyed by a handle id, so `Layer.__call__` only has to test two
dicts for emptiness on its hot path. When a forward raises, every Layer the error passes through
records itself, and one note on the exception (Python 3.11 `add_note`) names the innermost
layer by its path from the outermost, e.g. `encoder.layers.0.linear1`.
"""

from __future__ import annotations

import itertools
import weakref
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from framework.nn.layer.layers import Layer

_hook_ids = itertools.count()


class HookRemoveHelper:
    """Returned by `register_forward_pre_hook`/`register_forward_post_hook`; `.remove()`
    unregisters the hook (a second `.remove()` does nothing)."""

    def __init__(self, hooks: dict) -> None:
        self._hook_id = next(_hook_ids)
        self._hooks_ref = weakref.ref(hooks)

    def remove(self) -> None:
        hooks = self._hooks_ref()
        if hooks is not None:
            hooks.pop(self._hook_id, None)


def add_hook(hooks: dict, hook: object, prepend: bool) -> HookRemoveHelper:
    handle = HookRemoveHelper(hooks)
    hooks[handle._hook_id] = hook
    if prepend:
        items = list(hooks.items())
        hooks.clear()
        hooks.update([items[-1], *items[:-1]])
    return handle


def call_with_hooks(layer: Layer, inputs: tuple, kwargs: dict):
    """`Layer.__call__` when at least one hook is registered (Paddle's semantics)."""
    for hook_id, hook in list(layer._forward_pre_hooks.items()):
        if hook_id in layer._forward_pre_hooks_with_kwargs:
            result = hook(layer, inputs, kwargs)
            if result is not None:
                if not (isinstance(result, tuple) and len(result) == 2):
                    raise RuntimeError(
                        "forward pre-hook must return None or a tuple "
                        f"of (new_args, new_kwargs), but got {result}."
                    )
                inputs, kwargs = result
        else:
            result = hook(layer, inputs)
            if result is not None:
                inputs = result if isinstance(result, tuple) else (result,)
    called: set[int] = set()
    outputs = None
    try:
        outputs = layer.forward(*inputs, **kwargs)
        for hook_id, hook in list(layer._forward_post_hooks.items()):
            called.add(hook_id)
            if hook_id in layer._forward_post_hooks_with_kwargs:
                result = hook(layer, inputs, kwargs, outputs)
            else:
                result = hook(layer, inputs, outputs)
            if result is not None:
                outputs = result
    except Exception as error:
        for hook_id, hook in list(layer._forward_post_hooks.items()):
            if hook_id in layer._forward_post_hooks_always_called and hook_id not in called:
                try:
                    hook(layer, inputs, outputs)
                except Exception:  # the original error is the one the user needs to see
                    pass
        note_layer_error(error, layer)
        raise
    return outputs


def note_layer_error(error: BaseException, layer: Layer) -> None:
    """Record that `error` passed through `layer`'s forward, and (re)write its note."""
    try:
        path = error.__dict__.setdefault("_framework_layer_path", [])
    except AttributeError:  # an exception type without a __dict__: leave it untouched
        return
    if path and path[-1] is layer:
        return
    path.append(layer)
    note = "Raised in forward of " + describe_layer_path(path)
    index = error.__dict__.get("_framework_note_index")
    notes = getattr(error, "__notes__", None)
    if index is not None and notes is not None and index < len(notes):
        notes[index] = note
    else:
        error.add_note(note)
        error._framework_note_index = len(error.__notes__) - 1


def describe_layer_path(path: list[Layer]) -> str:
    """`path` lists layers innermost first. Gives e.g.
    "layer 'features.0' (Conv2D(3, 8, kernel_size=[3, 3], ...)) of LeNet"."""
    innermost, outermost = path[0], path[-1]
    summary = _one_line(innermost)
    if innermost is outermost:
        return summary
    names = []
    for parent, child in zip(path[:0:-1], path[-2::-1], strict=True):
        names.append(_name_in(parent, child))
    return f"layer '{'.'.join(names)}' ({summary}) of {type(outermost).__name__}"


def _name_in(parent: Layer, child: Layer) -> str:
    for name, layer in parent.named_sublayers():
        if layer is child:
            return name
    return f"<{type(child).__name__} not registered in {type(parent).__name__}>"


def _one_line(layer: Layer) -> str:
    extra = layer.extra_repr().replace("\n", ", ")
    return f"{type(layer).__name__}({extra})"
