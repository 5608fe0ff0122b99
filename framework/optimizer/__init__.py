"""Optimizers (`framework.optimizer`) and learning-rate schedulers (`framework.optimizer.lr`),
as in `paddle.optimizer`."""

from framework.optimizer import lr
from framework.optimizer.adadelta import Adadelta
from framework.optimizer.adagrad import Adagrad
from framework.optimizer.adam import Adam
from framework.optimizer.adamax import Adamax
from framework.optimizer.adamw import AdamW
from framework.optimizer.asgd import ASGD
from framework.optimizer.lamb import Lamb
from framework.optimizer.lbfgs import LBFGS
from framework.optimizer.momentum import Momentum
from framework.optimizer.nadam import NAdam
from framework.optimizer.optimizer import Optimizer
from framework.optimizer.radam import RAdam
from framework.optimizer.rmsprop import RMSProp
from framework.optimizer.rprop import Rprop
from framework.optimizer.sgd import SGD

__all__ = [
    "ASGD",
    "LBFGS",
    "SGD",
    "Adadelta",
    "Adagrad",
    "Adam",
    "Adamax",
    "AdamW",
    "Lamb",
    "Momentum",
    "NAdam",
    "Optimizer",
    "RAdam",
    "RMSProp",
    "Rprop",
    "lr",
]
