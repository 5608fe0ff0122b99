"""The in-place forms of the activations (`relu_`, `elu_`, ...), with their docstrings."""

from __future__ import annotations

from framework.nn.functional.activation.exponential import elu
from framework.nn.functional.activation.rectifiers import hardtanh, leaky_relu, relu
from framework.nn.functional.activation.shrinks import thresholded_relu
from framework.nn.functional.softmax import softmax
from framework.ops.math.inplace import inplace_form

# In-place forms, by the framework's one in-place rule (see framework.ops.math.inplace): the
# tensor is rebound to the result, and a leaf that requires a gradient is refused.
relu_ = inplace_form(relu, "relu_")
elu_ = inplace_form(elu, "elu_")
leaky_relu_ = inplace_form(leaky_relu, "leaky_relu_")
hardtanh_ = inplace_form(hardtanh, "hardtanh_")
thresholded_relu_ = inplace_form(thresholded_relu, "thresholded_relu_")
softmax_ = inplace_form(softmax, "softmax_")


def _document_inplace(form, call: str, values: str, x: str = "[-2.0, 0.0, 1.0, 3.0]") -> None:
    """Give an in-place form Paddle's docstring shape, with an example that doctest runs."""
    base = form.__name__[:-1]
    form.__doc__ = f"""In-place `{base}`, as `paddle.nn.functional.{form.__name__}`.

    Args:
        x (Tensor): the input, rebound to the result; float16, float32 or float64. A leaf that
            requires a gradient is refused.
        The other arguments are `{base}`'s.

    Returns:
        Tensor: `x` itself, its shape and dtype unchanged.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> x = paddle.to_tensor({x})
        >>> F.{call} is x
        True
        >>> print(x)
        Tensor(shape=[{len(x.split(","))}], dtype=float32, place=Place(cpu), stop_gradient=True,
               {values})
    """


_document_inplace(relu_, "relu_(x)", "[0., 0., 1., 3.]")
_document_inplace(
    elu_, "elu_(x, alpha=0.2)", "[-0.17293295,  0.        ,  1.        ,  3.        ]"
)
_document_inplace(
    leaky_relu_,
    "leaky_relu_(x, negative_slope=0.1)",
    "[-0.20000000,  0.        ,  1.        ,  3.        ]",
)
_document_inplace(hardtanh_, "hardtanh_(x)", "[-1.,  0.,  1.,  1.]")
_document_inplace(thresholded_relu_, "thresholded_relu_(x, threshold=0.5)", "[0., 0., 1., 3.]")
_document_inplace(
    softmax_, "softmax_(x)", "[0.09003057, 0.24472846, 0.66524094]", x="[1.0, 2.0, 3.0]"
)
