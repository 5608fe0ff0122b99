"""Turning a function (or a Layer's bound `forward`) into its transcribed twin, once per
function: its source is parsed, rewritten (`transformer.Transcriber`) and compiled under the
original file name and line numbers, inside a factory whose parameters are the function's
closure variables, so the twin sees the same globals and closure values."""

from __future__ import annotations

import ast
import inspect
import textwrap
import types
import weakref
from collections.abc import Callable
from typing import Any

from framework.jit.dy2static import runtime
from framework.jit.dy2static.transformer import RUNTIME, Transcriber, has_control_flow

_FACTORY = "_jst_factory"
_converted: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_NOT_CONVERTED = object()


def convert_to_static(function: Callable) -> Callable:
    """`function` with its `if`/`while`/`for range` statements dispatching on tensors (see
    `framework.jit.dy2static`); the function itself when it has none, or its source cannot
    be read (a lambda, a builtin, code typed at a prompt)."""
    if isinstance(function, types.MethodType):
        twin = convert_to_static(function.__func__)
        if twin is function.__func__:
            return function
        return types.MethodType(twin, function.__self__)
    if not isinstance(function, types.FunctionType):
        return function
    found = _converted.get(function)
    if found is None:
        found = _convert(function)
        _converted[function] = found
    return function if found is _NOT_CONVERTED else found


def _convert(function: types.FunctionType) -> Any:
    if getattr(function, "_jst_converted", False) or function.__name__ == "<lambda>":
        return _NOT_CONVERTED
    try:
        source = textwrap.dedent(inspect.getsource(function))
        filename = inspect.getsourcefile(function) or "<unknown>"
        first_line = function.__code__.co_firstlineno
    except (OSError, TypeError):
        return _NOT_CONVERTED
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return _NOT_CONVERTED
    definition = tree.body[0] if tree.body else None
    if not isinstance(definition, ast.FunctionDef) or not has_control_flow(definition):
        return _NOT_CONVERTED
    definition.decorator_list = []  # to_static and friends are applied by the caller
    Transcriber(filename, first_line - 1).function(definition)
    freevars = list(function.__code__.co_freevars)
    factory = ast.FunctionDef(
        name=_FACTORY,
        args=ast.arguments([], [ast.arg(n) for n in [RUNTIME, *freevars]], None, [], [], None, []),
        body=[definition, ast.Return(ast.Name(definition.name, ast.Load()))],
        decorator_list=[],
    )
    module = ast.Module([factory], [])
    ast.fix_missing_locations(module)
    ast.increment_lineno(module, first_line - 1)
    scope: dict[str, Any] = {}
    exec(compile(module, filename, "exec"), function.__globals__, scope)  # noqa: S102
    try:
        cells = [cell.cell_contents for cell in function.__closure__ or ()]
    except ValueError:  # a closure variable not assigned yet
        return _NOT_CONVERTED
    twin = scope[_FACTORY](runtime, *cells)
    twin.__defaults__ = function.__defaults__
    twin.__kwdefaults__ = function.__kwdefaults__
    twin.__dict__.update(function.__dict__)
    twin._jst_converted = True
    twin.__wrapped_original__ = function
    return twin
