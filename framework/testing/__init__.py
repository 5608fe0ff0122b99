"""Tools for testing ops: numerical gradient checks (backward and double backward)."""

from framework.testing.gradient_check import check_backward, check_double_backward, numerical_grad

__all__ = ["check_backward", "check_double_backward", "numerical_grad"]
