"""The benchmark models, written once against Paddle's `nn` API and built three ways.

`build_model(nn, name)` takes an `nn` namespace with Paddle's layer names -- `framework.nn`,
`paddle.nn`, or `torch_nn()` (PyTorch's layers under Paddle's names) -- so ours, Paddle's and
PyTorch's twins have the same architecture layer for layer:

- mlp:         Linear 784-512-512-10 with ReLU, input [128, 784]
- lenet:       Paddle's LeNet (conv 1->6 3x3 pad 1, pool, conv 6->16 5x5, pool, fc 400-120-84-10),
               input [64, 1, 28, 28]
- resnet18:    CIFAR ResNet-18 (3x3 stem, no max-pool, BasicBlocks 64-128-256-512), [32, 3, 32, 32]
- mobilenetv2: CIFAR MobileNetV2 (stride-1 stem and second stage), [32, 3, 32, 32]
"""

from __future__ import annotations

from types import SimpleNamespace

# name -> (default batch size, input shape without the batch dimension)
MODELS = {
    "mlp": (128, (784,)),
    "lenet": (64, (1, 28, 28)),
    "resnet18": (32, (3, 32, 32)),
    "mobilenetv2": (32, (3, 32, 32)),
}
NUM_CLASSES = 10


def build_model(nn, name: str):
    """The model `name` built from the layer namespace `nn`."""
    builders = {"mlp": _mlp, "lenet": _lenet, "resnet18": _resnet18, "mobilenetv2": _mobilenetv2}
    return builders[name](nn)


def torch_nn():
    """PyTorch's layers under Paddle's names and argument conventions."""
    import torch

    def conv2d(
        in_channels, out_channels, kernel_size, stride=1, padding=0, groups=1, bias_attr=None
    ):
        return torch.nn.Conv2d(
            in_channels,
            out_channels,
            kernel_size,
            stride,
            padding,
            groups=groups,
            bias=bias_attr is not False,
        )

    return SimpleNamespace(
        Layer=torch.nn.Module,
        Sequential=torch.nn.Sequential,
        Linear=torch.nn.Linear,
        Conv2D=conv2d,
        BatchNorm2D=torch.nn.BatchNorm2d,
        ReLU=torch.nn.ReLU,
        ReLU6=torch.nn.ReLU6,
        MaxPool2D=torch.nn.MaxPool2d,
        AdaptiveAvgPool2D=torch.nn.AdaptiveAvgPool2d,
        Flatten=torch.nn.Flatten,
    )


def _mlp(nn):
    return nn.Sequential(
        nn.Linear(784, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, NUM_CLASSES)
    )


def _lenet(nn):
    return nn.Sequential(
        nn.Conv2D(1, 6, 3, stride=1, padding=1),
        nn.ReLU(),
        nn.MaxPool2D(2, 2),
        nn.Conv2D(6, 16, 5, stride=1, padding=0),
        nn.ReLU(),
        nn.MaxPool2D(2, 2),
        nn.Flatten(),
        nn.Linear(400, 120),
        nn.Linear(120, 84),
        nn.Linear(84, NUM_CLASSES),
    )


def _conv_bn(nn, cin, cout, kernel, stride, groups=1, act=None):
    layers = [
        nn.Conv2D(
            cin, cout, kernel, stride=stride, padding=kernel // 2, groups=groups, bias_attr=False
        ),
        nn.BatchNorm2D(cout),
    ]
    if act is not None:
        layers.append(act())
    return nn.Sequential(*layers)


def _resnet18(nn):
    class BasicBlock(nn.Layer):
        def __init__(self, cin, cout, stride):
            super().__init__()
            self.conv1 = _conv_bn(nn, cin, cout, 3, stride, act=nn.ReLU)
            self.conv2 = _conv_bn(nn, cout, cout, 3, 1)
            self.shortcut = (
                _conv_bn(nn, cin, cout, 1, stride) if stride != 1 or cin != cout else None
            )
            self.relu = nn.ReLU()

        def forward(self, x):
            identity = x if self.shortcut is None else self.shortcut(x)
            return self.relu(self.conv2(self.conv1(x)) + identity)

    blocks = [_conv_bn(nn, 3, 64, 3, 1, act=nn.ReLU)]
    cin = 64
    for cout, stride in [(64, 1), (128, 2), (256, 2), (512, 2)]:
        blocks += [BasicBlock(cin, cout, stride), BasicBlock(cout, cout, 1)]
        cin = cout
    blocks += [nn.AdaptiveAvgPool2D(1), nn.Flatten(), nn.Linear(512, NUM_CLASSES)]
    return nn.Sequential(*blocks)


def _mobilenetv2(nn):
    class InvertedResidual(nn.Layer):
        def __init__(self, cin, cout, stride, expand):
            super().__init__()
            hidden = cin * expand
            layers = [] if expand == 1 else [_conv_bn(nn, cin, hidden, 1, 1, act=nn.ReLU6)]
            layers += [
                _conv_bn(nn, hidden, hidden, 3, stride, groups=hidden, act=nn.ReLU6),
                _conv_bn(nn, hidden, cout, 1, 1),
            ]
            self.body = nn.Sequential(*layers)
            self.residual = stride == 1 and cin == cout

        def forward(self, x):
            return x + self.body(x) if self.residual else self.body(x)

    # (expansion, channels, repeats, stride); the CIFAR variant keeps 32x32 through stage two.
    settings = [(1, 16, 1, 1), (6, 24, 2, 1), (6, 32, 3, 2), (6, 64, 4, 2), (6, 96, 3, 1),
                (6, 160, 3, 2), (6, 320, 1, 1)]  # fmt: skip
    layers = [_conv_bn(nn, 3, 32, 3, 1, act=nn.ReLU6)]
    cin = 32
    for expand, cout, repeats, stride in settings:
        for i in range(repeats):
            layers.append(InvertedResidual(cin, cout, stride if i == 0 else 1, expand))
            cin = cout
    layers += [
        _conv_bn(nn, cin, 1280, 1, 1, act=nn.ReLU6),
        nn.AdaptiveAvgPool2D(1),
        nn.Flatten(),
        nn.Linear(1280, NUM_CLASSES),
    ]
    return nn.Sequential(*layers)
