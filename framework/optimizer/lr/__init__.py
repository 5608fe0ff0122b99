"""Learning-rate schedulers (`framework.optimizer.lr`), as in `paddle.optimizer.lr`."""

from framework.optimizer.lr.cyclic import CosineAnnealingDecay, LinearWarmup, NoamDecay, OneCycleLR
from framework.optimizer.lr.decay import (
    ExponentialDecay,
    InverseTimeDecay,
    LambdaDecay,
    LinearLR,
    MultiplicativeDecay,
    MultiStepDecay,
    NaturalExpDecay,
    PiecewiseDecay,
    PolynomialDecay,
    StepDecay,
)
from framework.optimizer.lr.periodic import CosineAnnealingWarmRestarts, CyclicLR
from framework.optimizer.lr.plateau import ReduceOnPlateau
from framework.optimizer.lr.scheduler import LRScheduler

__all__ = [
    "CosineAnnealingDecay",
    "CosineAnnealingWarmRestarts",
    "CyclicLR",
    "ExponentialDecay",
    "InverseTimeDecay",
    "LRScheduler",
    "LambdaDecay",
    "LinearLR",
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
