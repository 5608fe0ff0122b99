"""The lookup table layer, Embedding, as in `paddle.nn`."""

from __future__ import annotations

from framework.core.tensor import Tensor
from framework.nn import functional as F
from framework.nn.layer.checks import array_of, check_device
from framework.nn.layer.layers import Layer, default_dtype


class Embedding(Layer):
    """A lookup table `weight[num_embeddings, embedding_dim]` indexed by int ids, as
    `paddle.nn.Embedding`.

    The row `padding_idx` (if set) is zero and gets no gradient.

    Args:
        num_embeddings (int): size of the vocabulary.
        embedding_dim (int): size of each embedding vector.
        padding_idx (int, optional): an id whose row stays zero; negative counts from the end.
        max_norm (float, optional): rows with a larger norm are rescaled to it on lookup.
        norm_type (float, optional): the p of the norm used by `max_norm`. Default: 2.0.
        sparse (bool, optional): accepted for Paddle's signature; gradients are dense.
        weight_attr (ParamAttr, optional): the table's attribute (initializer, name).
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: int32 or int64 ids of any shape `[*]`.
        - output: `[*, embedding_dim]`, float32.

    Examples:
        >>> import framework as paddle
        >>> emb = paddle.nn.Embedding(10, 3, padding_idx=0)
        >>> ids = paddle.to_tensor([[0, 2], [5, 9]], dtype="int64")
        >>> out = emb(ids)
        >>> out.shape, out.dtype == paddle.float32
        (paddle.Size([2, 2, 3]), True)
        >>> out[0, 0]
        Tensor(shape=[3], dtype=float32, place=Place(cpu), stop_gradient=False,
               [0., 0., 0.])
    """

    def __init__(
        self,
        num_embeddings: int,
        embedding_dim: int,
        padding_idx: int | None = None,
        max_norm: float | None = None,
        norm_type: float = 2.0,
        *,
        scale_grad_by_freq: bool = False,
        sparse: bool = False,
        _weight: Tensor | None = None,
        _freeze: bool = False,
        device: object = None,
        dtype: object = None,
        weight_attr: object = None,
        name: str | None = None,
    ) -> None:
        super().__init__()
        if num_embeddings <= 0:
            raise ValueError("num_embeddings must be gather than 0")
        if embedding_dim <= 0:
            raise ValueError("embedding_dim must be gather than 0")
        if padding_idx is not None and not -num_embeddings <= padding_idx < num_embeddings:
            raise ValueError(f"padding_idx must be within [-{num_embeddings}, {num_embeddings})")
        self._num_embeddings = num_embeddings
        self._embedding_dim = embedding_dim
        self._padding_idx = padding_idx
        self._max_norm = max_norm
        self._norm_type = norm_type
        self._sparse = sparse
        self._scale_grad_by_freq = scale_grad_by_freq
        self._name = name
        self._dtype = dtype if dtype is not None else default_dtype()
        if _weight is not None:
            if list(_weight.shape) != [num_embeddings, embedding_dim]:
                raise ValueError("Shape of weight does not match num_embeddings and embedding_dim")
            self.weight = _weight
            self.weight.stop_gradient = _freeze
        else:
            self.weight = self.create_parameter(
                [num_embeddings, embedding_dim], attr=weight_attr, device=device
            )
            if weight_attr is None:
                self.weight.stop_gradient = _freeze
        if padding_idx is not None:
            self.weight._data[padding_idx % num_embeddings] = 0

    @property
    def padding_idx(self) -> int | None:
        return self._padding_idx

    def _short(self) -> str:
        return f"Embedding({self._num_embeddings}, {self._embedding_dim})"

    def forward(self, x: Tensor) -> Tensor:
        if type(array_of(self, x)) is not type(self.weight._data):
            check_device(self, x, self.weight)
        return F.embedding(
            x,
            weight=self.weight,
            padding_idx=self._padding_idx,
            max_norm=self._max_norm,
            norm_type=self._norm_type,
            sparse=self._sparse,
            scale_grad_by_freq=self._scale_grad_by_freq,
        )

    def extra_repr(self) -> str:
        text = f"{self._num_embeddings}, {self._embedding_dim}"
        if self._padding_idx is not None:
            text += f", padding_idx={self._padding_idx}"
        text += f", sparse={self._sparse}, scale_grad_by_freq={self._scale_grad_by_freq}"
        return text + (f", name={self._name}" if self._name else "")
