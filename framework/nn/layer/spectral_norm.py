"""SpectralNorm and LocalResponseNorm, as in `paddle.nn`.

SpectralNorm is Paddle's layer form: it holds the power-iteration vectors `weight_u` `[h]` and
`weight_v` `[w]` (parameters with stop_gradient, so Paddle state dicts load) and maps a weight
to `weight / sigma`, sigma its largest singular value estimated from them. As in Paddle's
kernel, the vectors are refined `power_iters` times for each call without being written back.
The gradient is the derivative with the refined vectors held constant (PyTorch's rule); Paddle's
kernel returns `g * (1 - u v^T * sum(W / sigma)) / sigma`, which is not the derivative of its
output, so gradients differ from Paddle's by design (see tests/.../test_spectral_norm.py).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.nn import functional as F
from framework.nn.initializer import Normal
from framework.nn.layer.layers import Layer
from framework.ops.linalg import matmul
from framework.ops.manipulation import transpose


class SpectralNorm(Layer):
    """Spectral normalisation of a weight, as `paddle.nn.SpectralNorm`.

    `y = x / sigma(x)` for a weight `x` of shape `weight_shape`, sigma estimated by power
    iteration on x seen as the matrix `[weight_shape[dim], rest]`; y has x's shape and dtype.

    Args:
        weight_shape (list|tuple): the weight's shape.
        dim (int, optional): the axis taken as the matrix's rows. Default: 0.
        power_iters (int, optional): power-iteration steps per call. Default: 1.
        eps (float, optional): keeps the norms finite. Default: 1e-12.
        dtype (str, optional): 'float32' or 'float64'. Default: 'float32'.

    Shape:
        - x: a weight of shape `weight_shape`; float32 or float64.
        - output: the shape and dtype of `x`, its largest singular value about 1.

    Examples:
        >>> import framework as paddle
        >>> _ = paddle.seed(1)
        >>> norm = paddle.nn.SpectralNorm([2, 2], dim=0, power_iters=20)
        >>> w = paddle.to_tensor([[3.0, 0.0], [0.0, 1.0]])
        >>> print(norm(w))
        Tensor(shape=[2, 2], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[1.        , 0.        ],
                [0.        , 0.33333334]])
    """

    def __init__(
        self,
        weight_shape: Sequence[int],
        dim: int = 0,
        power_iters: int = 1,
        eps: float = 1e-12,
        dtype: str = "float32",
    ) -> None:
        super().__init__()
        self._power_iters = power_iters
        self._eps = eps
        self._dim = dim
        self._dtype = dtype
        self._weight_shape = list(weight_shape)
        if math.prod(self._weight_shape) <= 0:
            raise ValueError(f"SpectralNorm: weight_shape must have no zero dims: {weight_shape}")
        if dim not in (0, 1) or dim >= len(self._weight_shape):
            raise ValueError(  # Paddle's kernel takes only these two
                f"SpectralNorm: dim must be 0 or 1 (and below the rank), got {dim}"
            )
        h = self._weight_shape[dim]
        w = math.prod(self._weight_shape) // h
        self.weight_u = self.create_parameter([h], dtype=dtype, default_initializer=Normal())
        self.weight_u.stop_gradient = True
        self.weight_v = self.create_parameter([w], dtype=dtype, default_initializer=Normal())
        self.weight_v.stop_gradient = True

    def forward(self, x: Tensor) -> Tensor:
        if list(x.shape) != self._weight_shape:
            raise ValueError(
                f"SpectralNorm: expected a weight of shape {self._weight_shape}, got {x.shape}"
            )
        order = [self._dim] + [a for a in range(x.ndim) if a != self._dim]
        matrix = transpose(x, order).reshape([self._weight_shape[self._dim], -1])
        u, v = self._power_iteration(matrix._data)
        sigma = (matmul(Tensor._wrap(u), matrix) * Tensor._wrap(v)).sum()
        return x / sigma

    def _power_iteration(self, matrix):
        """`v = W^T u / (|W^T u| + eps)`, `u = W v / (|W v| + eps)`, `power_iters` times, on
        copies of the stored vectors (no graph: the gradient holds them fixed)."""
        xp = get_array_module(matrix)
        u = self.weight_u._data.astype(matrix.dtype)
        v = self.weight_v._data.astype(matrix.dtype)
        for _ in range(self._power_iters):
            v = matrix.T @ u
            v = v / (xp.sqrt((v * v).sum()) + self._eps)
            u = matrix @ v
            u = u / (xp.sqrt((u * u).sum()) + self._eps)
        return u, v


class LocalResponseNorm(Layer):
    """Local response normalization across channels (AlexNet), as `paddle.nn.LocalResponseNorm`:
    `y = x / (k + alpha / size * sum(x ** 2 over size neighbouring channels)) ** beta`.

    Args:
        size (int): number of neighbouring channels summed.
        alpha (float, optional): scale of the sum. Default: 1e-4.
        beta (float, optional): exponent. Default: 0.75.
        k (float, optional): additive constant. Default: 1.0.
        data_format (str, optional): 'NCHW' (any `[N, C, ...]`) or channels last.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: `[N, C, *]` (3-D to 5-D), float32 or float64.
        - output: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> lrn = paddle.nn.LocalResponseNorm(size=3)
        >>> lrn(paddle.ones([1, 4, 2, 2])).shape
        paddle.Size([1, 4, 2, 2])
    """

    def __init__(
        self,
        size: int,
        alpha: float = 0.0001,
        beta: float = 0.75,
        k: float = 1.0,
        data_format: str = "NCHW",
        name: str | None = None,
    ) -> None:
        super().__init__()
        self.size = size
        self.alpha = alpha
        self.beta = beta
        self.k = k
        self.data_format = data_format
        self.name = name

    def forward(self, input: Tensor) -> Tensor:
        return F.local_response_norm(
            input, self.size, self.alpha, self.beta, self.k, self.data_format
        )

    def extra_repr(self) -> str:
        text = f"size={self.size}, alpha={self.alpha}, beta={self.beta}, k={self.k}"
        if self.data_format != "NCHW":
            text += f", data_format={self.data_format}"
        if self.name is not None:
            text += f", name={self.name}"
        return text
