"""Translators from autograd `Function`s to graph IR nodes, one module per op family."""

from framework.jit.translators import activation, manipulation, math, nn  # noqa: F401 - register
from framework.jit.translators.registry import supported_functions, translates, translator_for

__all__ = ["supported_functions", "translates", "translator_for"]
