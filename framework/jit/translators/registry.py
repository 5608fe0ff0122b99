"""Which translator turns a given `Function` class into IR nodes.

A translator is `translate(fn, inputs, outputs, tracer)`: `fn` is the Function instance after
its forward ran (so attributes set in forward are available), `inputs`/`outputs` are its arrays,
and it calls `tracer.emit(op_type, inputs, attrs, outputs)` once or more. Translators live next
to each other by op family (`math.py`, `nn.py`, ...) and register with `@translates(Cls)`.
"""

from __future__ import annotations

from collections.abc import Callable

Translator = Callable[..., None]

_TRANSLATORS: dict[type, Translator] = {}


def translates(*function_classes: type) -> Callable[[Translator], Translator]:
    def register(translate: Translator) -> Translator:
        for cls in function_classes:
            _TRANSLATORS[cls] = translate
        return translate

    return register


def translator_for(cls: type) -> Translator | None:
    for klass in cls.__mro__:
        found = _TRANSLATORS.get(klass)
        if found is not None:
            return found
    return None


def supported_functions() -> list[str]:
    """Names of every Function class that traces, for error messages and docs."""
    return sorted(cls.__name__ for cls in _TRANSLATORS)
