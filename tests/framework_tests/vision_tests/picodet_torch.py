"""PicoDet-S written in PyTorch, layer for layer as `framework.vision.models.picodet_s` (the
same parameters in the same order, so a state dict copies across by position), and its loss
in torch ops on a given assignment: the oracle of the PicoDet tests and the peer of
`benchmarks/detection.py`. Not a test module."""

from __future__ import annotations

from typing import Any


def torch_picodet_s(num_classes: int) -> Any:
    """The torch twin of `picodet_s(num_classes)` (a `torch.nn.Module`; `forward(x)` returns
    the class and regression logits of the four levels)."""
    import torch
    from torch import nn
    from torch.nn import functional as F

    def conv_bn(cin, cout, k=1, s=1, groups=1, act="hardswish"):
        layers = [nn.Conv2d(cin, cout, k, s, (k - 1) // 2, groups=groups, bias=False),
                  nn.BatchNorm2d(cout)]  # fmt: skip
        layers += {"hardswish": [nn.Hardswish()], "relu6": [nn.ReLU6()], None: []}[act]
        return nn.Sequential(*layers)

    def separable(ch, k=5, s=1):
        return nn.Sequential(conv_bn(ch, ch, k, s, groups=ch), conv_bn(ch, ch, 1))

    class Inverted(nn.Module):
        def __init__(self, cin, cout, stride, expand):
            super().__init__()
            hidden = cin * expand
            self.residual = stride == 1 and cin == cout
            layers = [conv_bn(cin, hidden, act="relu6")] if expand != 1 else []
            layers += [conv_bn(hidden, hidden, 3, stride, hidden, "relu6"),
                       conv_bn(hidden, cout, act=None)]  # fmt: skip
            self.conv = nn.Sequential(*layers)

        def forward(self, x):
            return x + self.conv(x) if self.residual else self.conv(x)

    class CSP(nn.Module):
        def __init__(self, cin, cout, k=5):
            super().__init__()
            mid = cout // 2
            self.main, self.short = conv_bn(cin, mid), conv_bn(cin, mid)
            self.blocks = nn.Sequential(conv_bn(mid, mid), separable(mid, k))
            self.final = conv_bn(2 * mid, cout)

        def forward(self, x):
            return self.final(torch.cat([self.blocks(self.main(x)), self.short(x)], 1))

    class PicoDetS(nn.Module):
        def __init__(self, ch=96, convs=2, bins=8):
            super().__init__()
            features, cin = [conv_bn(3, 32, 3, 2, act="relu6")], 32
            settings = [(1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2),
                        (6, 96, 3, 1), (6, 160, 3, 2), (6, 320, 1, 1)]  # fmt: skip
            for t, c, n, s in settings:
                for i in range(n):
                    features.append(Inverted(cin, c, s if i == 0 else 1, t))
                    cin = c
            self.features = nn.ModuleList(features)
            self.lateral = nn.ModuleList([conv_bn(c, ch) for c in (32, 96, 320)])
            self.top_down = nn.ModuleList([CSP(2 * ch, ch) for _ in range(2)])
            self.down = nn.ModuleList([separable(ch, 5, 2) for _ in range(2)])
            self.bottom_up = nn.ModuleList([CSP(2 * ch, ch) for _ in range(2)])
            self.extra_in, self.extra_out = separable(ch, 5, 2), separable(ch, 5, 2)
            self.head = nn.ModuleList(
                [nn.Sequential(*[separable(ch) for _ in range(convs)]) for _ in range(4)]
            )
            self.cls = nn.ModuleList([nn.Conv2d(ch, num_classes, 1) for _ in range(4)])
            self.reg = nn.ModuleList([nn.Conv2d(ch, 4 * bins, 1) for _ in range(4)])

        def forward(self, x):
            taps = []
            for index, layer in enumerate(self.features):
                x = layer(x)
                if index in (6, 13, 17):
                    taps.append(x)
            inputs = [lateral(t) for lateral, t in zip(self.lateral, taps, strict=True)]
            inner = [inputs[2]]
            for index in (2, 1):
                up = F.interpolate(inner[0], scale_factor=2, mode="nearest")
                inner.insert(0, self.top_down[2 - index](torch.cat([up, inputs[index - 1]], 1)))
            outs = [inner[0]]
            for index in range(2):
                down = self.down[index](outs[-1])
                outs.append(self.bottom_up[index](torch.cat([down, inner[index + 1]], 1)))
            outs.append(self.extra_in(inputs[2]) + self.extra_out(outs[-1]))
            shared = [h(o) for h, o in zip(self.head, outs, strict=True)]
            return ([c(s) for c, s in zip(self.cls, shared, strict=True)],
                    [r(s) for r, s in zip(self.reg, shared, strict=True)])  # fmt: skip

    return PicoDetS()


def torch_gfl_loss(cls: list, reg: list, assignment: Any, grid: Any, num_classes: int) -> dict:
    """PicoDet's VFL + 2.5 GIoU + 0.5 DFL in torch ops, on a precomputed assignment
    (`GFLLoss.assign`) and anchor grid: `{"loss", "loss_vfl", "loss_giou", "loss_dfl"}`,
    the parts weighted."""
    import numpy as np
    import torch
    from torch.nn import functional as F

    logits = torch.cat([c.flatten(2) for c in cls], 2).transpose(1, 2).reshape(-1, num_classes)
    dist = torch.cat([r.flatten(2) for r in reg], 2).transpose(1, 2).reshape(logits.shape[0], -1)
    q = torch.from_numpy(assignment.scores.reshape(-1, num_classes)).to(logits.dtype)
    avg = max(float(q.sum()), 1.0)
    p = logits.sigmoid()
    focal = q * (q > 0) + 0.75 * (p - q).abs().pow(2) * (q <= 0)
    vfl = (F.binary_cross_entropy_with_logits(logits, q, reduction="none") * focal).sum() / avg
    positive = np.nonzero(assignment.positive.reshape(-1))[0]
    if len(positive) == 0:
        zero = vfl * 0
        return {"loss": vfl, "loss_vfl": vfl, "loss_giou": zero, "loss_dfl": zero}
    dtype = logits.dtype
    anchor = positive % grid.points.shape[0]
    stride = grid.strides[anchor][:, None]
    points = torch.from_numpy(grid.points[anchor] / stride).to(dtype)
    target = torch.from_numpy(assignment.boxes.reshape(-1, 4)[positive] / stride).to(dtype)
    weight = torch.from_numpy(assignment.scores.reshape(-1, num_classes).max(1)[positive])
    weight = weight.to(dtype)
    bins = dist[torch.from_numpy(positive)].reshape(-1, 8)
    d = (bins.softmax(-1) * torch.arange(8.0, dtype=dtype)).sum(-1).reshape(-1, 4)
    pred = torch.cat([points - d[:, :2], points + d[:, 2:]], 1)
    lt, rb = torch.max(pred[:, :2], target[:, :2]), torch.min(pred[:, 2:], target[:, 2:])
    overlap = (rb - lt).clamp(min=0).prod(1)

    def area(b):
        return (b[:, 2] - b[:, 0]).clamp(min=0) * (b[:, 3] - b[:, 1]).clamp(min=0)

    union = area(pred) + area(target) - overlap + 1e-10
    corner_max = torch.max(pred[:, 2:], target[:, 2:])
    enclose = (corner_max - torch.min(pred[:, :2], target[:, :2])).prod(1)
    giou = overlap / union - (enclose + 1e-10 - union) / (enclose + 1e-10)
    loss_giou = ((1 - giou) * weight).sum() / avg
    sides = torch.cat([points - target[:, :2], target[:, 2:] - points], 1).clamp(0, 6.9).reshape(-1)
    left = sides.floor().long()
    log_p = bins.log_softmax(-1)
    rows = torch.arange(len(sides))
    dfl = -(log_p[rows, left] * (left + 1 - sides) + log_p[rows, left + 1] * (sides - left))
    loss_dfl = (dfl * weight.repeat_interleave(4)).sum() / 4 / avg
    parts = {"loss_vfl": vfl, "loss_giou": 2.5 * loss_giou, "loss_dfl": 0.5 * loss_dfl}
    return {"loss": sum(parts.values()), **parts}


def copy_weights(model: Any, twin: Any) -> None:
    """Copy a framework `picodet_s`'s parameters and batch-norm statistics into its twin, by
    position (torch's `num_batches_tracked` counters have no counterpart)."""
    import torch

    ours = list(model.state_dict().items())
    theirs = [(k, v) for k, v in twin.state_dict().items() if not k.endswith("num_batches_tracked")]
    if len(ours) != len(theirs):
        raise ValueError(f"{len(ours)} tensors against the twin's {len(theirs)}")
    with torch.no_grad():
        for (name, value), (twin_name, twin_value) in zip(ours, theirs, strict=True):
            array = value.numpy()
            if tuple(array.shape) != tuple(twin_value.shape):
                raise ValueError(f"{name} {array.shape} against {twin_name} {twin_value.shape}")
            twin_value.copy_(torch.from_numpy(array))
