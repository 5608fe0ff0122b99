"""The high-level API: `Model`, callbacks, `summary` and `flops` (Paddle's `paddle.hapi`)."""

from framework.hapi import callbacks
from framework.hapi.model import Model
from framework.hapi.model_summary import flops, summary

__all__ = ["Model", "callbacks", "flops", "summary"]
