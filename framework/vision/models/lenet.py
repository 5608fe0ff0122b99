"""LeNet for 1x28x28 inputs, as `paddle.vision.models.LeNet`."""

from __future__ import annotations

import framework
from framework import nn
from framework.core.tensor import Tensor


class LeNet(nn.Layer):
    """LeNet-5, as `paddle.vision.models.LeNet`.

    Two conv/pool stages and three linear layers; 61,610 parameters for 10 classes.

    Args:
        num_classes (int, optional): the classifier's outputs. Default: 10.

    Returns:
        LeNet: logits `[N, num_classes]` for float32 `[N, 1, 28, 28]` images.

    Examples:
        >>> import framework as paddle
        >>> model = paddle.vision.models.LeNet(num_classes=10)
        >>> model(paddle.ones([8, 1, 28, 28])).shape
        paddle.Size([8, 10])
        >>> sum(int(p.numel()) for p in model.parameters())
        61610
    """

    def __init__(self, num_classes: int = 10) -> None:
        super().__init__()
        self.num_classes = num_classes
        self.features = nn.Sequential(
            nn.Conv2D(1, 6, 3, stride=1, padding=1),
            nn.ReLU(),
            nn.MaxPool2D(2, 2),
            nn.Conv2D(6, 16, 5, stride=1, padding=0),
            nn.ReLU(),
            nn.MaxPool2D(2, 2),
        )
        if num_classes > 0:
            self.fc = nn.Sequential(
                nn.Linear(400, 120), nn.Linear(120, 84), nn.Linear(84, num_classes)
            )

    def forward(self, inputs: Tensor) -> Tensor:
        x = self.features(inputs)
        if self.num_classes > 0:
            x = framework.flatten(x, 1)
            x = self.fc(x)
        return x
