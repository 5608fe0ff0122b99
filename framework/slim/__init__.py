"""`framework.slim`: the name PaddleSlim users look for; the same API as
`framework.quantization` (INT8 post-training quantization)."""

from framework import quantization
from framework.quantization import *  # noqa: F403

__all__ = quantization.__all__
