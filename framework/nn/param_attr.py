"""`ParamAttr` and `create_parameter`: how a parameter is named, initialised and trained.

weight_attr = framework.ParamAttr(
    name="fc_w", initializer=framework.nn.initializer.Normal(std=0.02), learning_rate=0.5
)
fc = framework.nn.Linear(4, 8, weight_attr=weight_attr, bias_attr=False)   # no bias
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from framework.core import backend
from framework.core import dtype as dtypes
from framework.core.tensor import Parameter
from framework.nn.initializer import Constant, Initializer, XavierUniform
from framework.nn.initializer.initializer import global_initializer
from framework.nn.layer.naming import unique_name


class ParamAttr:
    """The attributes of one parameter, as `paddle.ParamAttr`.

    Attributes of one parameter, as `paddle.ParamAttr`.

    `name` (generated when None), `initializer` (None: the layer's default, XavierUniform for
    weights and Constant(0) for biases), `learning_rate` (multiplies the optimizer's),
    `regularizer` (overrides the optimizer's weight decay for this parameter), `trainable`,
    `do_model_average` and `need_clip` (whether gradient clipping applies).

    Args:
        name (str, optional): the parameter's name; None generates one. Default: None.
        initializer (Initializer, optional): None is the layer's default. Default: None.
        learning_rate (float, optional): multiplies the optimizer's. Default: 1.0.
        regularizer (WeightDecayRegularizer, optional): overrides the optimizer's weight decay.
            Default: None.
        trainable (bool, optional): False freezes the parameter. Default: True.
        do_model_average (bool, optional): accepted for Paddle compatibility. Default: True.
        need_clip (bool, optional): gradient clipping applies to it. Default: True.

    Examples:
        >>> import framework as paddle
        >>> init = paddle.nn.initializer.Constant(0.5)
        >>> attr = paddle.ParamAttr(initializer=init, trainable=False)
        >>> fc = paddle.nn.Linear(2, 2, weight_attr=attr)
        >>> fc.weight.tolist(), fc.weight.trainable
        ([[0.5, 0.5], [0.5, 0.5]], False)
    """

    def __init__(
        self,
        name: str | None = None,
        initializer: Initializer | None = None,
        learning_rate: float = 1.0,
        regularizer: object = None,
        trainable: bool = True,
        do_model_average: bool = True,
        need_clip: bool = True,
    ) -> None:
        if name is not None and not isinstance(name, str):
            raise TypeError(f"ParamAttr name must be a str, got {type(name).__name__}")
        if initializer is not None and not isinstance(initializer, Initializer):
            raise TypeError(
                f"ParamAttr initializer must be an Initializer, got {type(initializer).__name__}"
            )
        if not isinstance(learning_rate, int | float):
            raise TypeError(f"learning_rate must be a number, got {type(learning_rate).__name__}")
        self.name = name
        self.initializer = initializer
        self.learning_rate = float(learning_rate)
        self.regularizer = regularizer
        self.trainable = trainable
        self.do_model_average = do_model_average
        self.need_clip = need_clip

    @staticmethod
    def _to_attr(arg: object) -> ParamAttr | bool:
        """Normalise what layers accept as `weight_attr`/`bias_attr`.

        None -> default ParamAttr; a str -> its name; an Initializer -> its initializer;
        False -> False (no parameter at all); a ParamAttr -> itself.
        """
        if arg is None:
            return ParamAttr()
        if isinstance(arg, ParamAttr):
            return arg
        if isinstance(arg, str):
            return ParamAttr(name=arg)
        if isinstance(arg, Initializer):
            return ParamAttr(initializer=arg)
        if arg is False:
            return False
        if arg is True:
            return ParamAttr()
        raise TypeError(f"{type(arg).__name__} cannot be turned into a ParamAttr")

    def __repr__(self) -> str:
        return (
            f"ParamAttr(name={self.name!r}, initializer={self.initializer!r}, "
            f"learning_rate={self.learning_rate}, trainable={self.trainable})"
        )


def make_parameter(
    shape: Sequence[int],
    attr: object = None,
    dtype: object = None,
    is_bias: bool = False,
    default_initializer: Initializer | None = None,
    name_prefix: str = "create_parameter",
) -> Parameter | None:
    """Create and initialise one Parameter; None when `attr` is False (Paddle's "no bias")."""
    attr = ParamAttr._to_attr(attr)
    if attr is False:
        return None
    shape = tuple(int(s) for s in shape)
    if any(s < 0 for s in shape):
        raise ValueError(f"every dimension of a parameter's shape must be >= 0, got {list(shape)}")
    dtype = dtypes.convert_dtype(dtype) if dtype is not None else dtypes.default_float_dtype()
    initializer = (
        attr.initializer
        or global_initializer(is_bias)
        or default_initializer
        or (Constant(0.0) if is_bias else XavierUniform())
    )
    if dtype.kind != "f" and attr.initializer is None and default_initializer is None:
        raise TypeError(
            f"cannot create a {dtype} parameter with the default initializer; "
            "pass default_initializer (or a ParamAttr initializer) that fits the dtype"
        )
    array = initializer._generate(shape, dtype)
    array = backend.to_place(np.ascontiguousarray(array), backend.current_place())
    name = attr.name or unique_name(f"{name_prefix}.{'b' if is_bias else 'w'}")
    return Parameter(
        array,
        name=name,
        trainable=attr.trainable,
        optimize_attr={"learning_rate": attr.learning_rate},
        regularizer=attr.regularizer,
        need_clip=attr.need_clip,
    )


def create_parameter(
    shape: Sequence[int],
    dtype: object,
    name: str | None = None,
    attr: ParamAttr | None = None,
    is_bias: bool = False,
    default_initializer: Initializer | None = None,
) -> Parameter:
    """A standalone trainable Parameter, as `paddle.create_parameter`.

    w = framework.create_parameter([3, 4], "float32")   # XavierUniform
    b = framework.create_parameter([4], "float32", is_bias=True)   # zeros
    """
    attr = ParamAttr._to_attr(attr) or ParamAttr()
    if name is not None and attr.name is None:
        attr.name = name
    return make_parameter(shape, attr, dtype, is_bias, default_initializer)
