"""The Adam family shares one check of its learning rate, betas and epsilon."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework.core.tensor import Parameter
from framework.optimizer import Adam, Adamax, AdamW, Lamb, NAdam, RAdam

FAMILY = [Adam, AdamW, Adamax, Lamb, NAdam, RAdam]


def params() -> list[Parameter]:
    return [Parameter(np.ones((2, 2), np.float32), name="w")]


@pytest.mark.parametrize("optimizer", FAMILY, ids=lambda cls: cls.__name__)
@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"beta1": 1.0}, "Invalid beta1: 1.0, expect 0 <= beta1 < 1."),
        ({"beta1": -0.1}, "Invalid beta1"),
        ({"beta2": 1.5}, "Invalid beta2: 1.5"),
        ({"epsilon": -1e-8}, "Invalid epsilon"),
        ({"learning_rate": -0.1}, "Invalid learning rate: -0.1"),
        ({"beta2": float("nan")}, "Invalid beta2"),
    ],
)
def test_it_rejects_bad_hyperparameters_with_one_message(optimizer, kwargs, match):
    with pytest.raises(ValueError, match=match):
        optimizer(parameters=params(), **kwargs)


@pytest.mark.parametrize("optimizer", FAMILY, ids=lambda cls: cls.__name__)
def test_it_takes_one_element_tensors_for_the_betas(optimizer):
    beta1 = framework.to_tensor([0.8], dtype="float32")
    opt = optimizer(parameters=params(), beta1=beta1, beta2=framework.to_tensor(0.9))
    group = opt._param_groups[0]
    assert isinstance(group["beta1"], float)
    assert group["beta1"] == pytest.approx(0.8) and group["beta2"] == pytest.approx(0.9)
