"""Learning-rate schedulers (`framework.optimizer.lr`), as in `paddle.optimizer.lr`."""

from framework.optimizer.lr.cyclic import CosineAnnealingDecay, LinearWarmup, NoamDecay, OneCycleLR
from framework.optimizer.lr.decay import (
    ExponentialDecay,
    InverseTimeDecay,
    LambdaDecay,
    MultiplicativeDecay,
    MultiStepDecay,
    NaturalExpDecay,
    PiecewiseDecay,
    PolynomialDecay,
    StepDecay,
)
from framework.optimizer.lr.plateau import ReduceOnPlateau
from framework.optimizer.lr.scheduler import LRScheduler

__all__ = [
    "CosineAnnealingDecay",
    "ExponentialDecay",
    "InverseTimeDecay",
    "LRScheduler",
    "LambdaDecay",
    "LinearWarmup",
    "MultiStepDecay",
    "MultiplicativeDecay",
    "NaturalExpDecay",
    "NoamDecay",
    "OneCycleLR",
    "PiecewiseDecay",
    "PolynomialDecay",
    "ReduceOnPlateau",
    "StepDecay",
]
