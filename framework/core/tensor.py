"""`Tensor`, `Parameter` and `to_tensor`.

A Tensor wraps one array (`numpy.ndarray` on CPU, `cupy.ndarray` on GPU) plus autograd state.
Operators and the method forms of ops (`x.sum()`, `x.reshape(...)`) are bound onto the class by
`framework.ops.bind_tensor_methods`, so that this module stays free of op code.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable

import numpy as np

from framework.core import backend
from framework.core import dtype as dtypes
from framework.core.autograd import RemovableHandle, bind_tensor_class, run_backward, zeroed_grad
from framework.core.printing import tensor_to_string
from framework.core.size import Size


class Tensor:
    __slots__ = (
        "_data",
        "stop_gradient",
        "_grad",
        "_node",
        "_out_index",
        "name",
        "_hooks",
        "persistable",
        # Left unset until the first in-place op, so making a tensor costs nothing more.
        "_inplace_version",
        "__weakref__",
    )
    # Make NumPy defer to our reflected operators: `ndarray + Tensor` gives a Tensor.
    __array_priority__ = 1000
    __hash__ = object.__hash__

    def __init__(
        self,
        data: object = None,
        dtype: object = None,
        place: object = None,
        stop_gradient: bool = True,
        name: str | None = None,
    ) -> None:
        array = _as_array(data if data is not None else [], dtype, place)
        self._data = array
        self.stop_gradient = stop_gradient
        self._grad = None
        self._node = None
        self._out_index = 0
        self.name = name
        self._hooks = None
        self.persistable = False

    # --- fast constructors used by the autograd machinery ---------------------------------------
    @classmethod
    def _wrap(cls, array, stop_gradient: bool = True) -> Tensor:
        t = object.__new__(Tensor)
        t._data = array
        t.stop_gradient = stop_gradient
        t._grad = None
        t._node = None
        t._out_index = 0
        t.name = None
        t._hooks = None
        t.persistable = False
        return t

    @classmethod
    def _from_op(cls, array, node, index: int) -> Tensor:
        t = Tensor._wrap(array, stop_gradient=False)
        t._node = node
        t._out_index = index
        return t

    # --- metadata -------------------------------------------------------------------------------
    @property
    def shape(self) -> Size:
        """The dims as a `Size` (a list of ints that prints `paddle.Size([2, 3])`, as Paddle's)."""
        return Size(self._data.shape)

    @property
    def dtype(self) -> np.dtype:
        return self._data.dtype

    @property
    def place(self) -> backend.Place:
        return backend.place_of(self._data)

    @property
    def ndim(self) -> int:
        return self._data.ndim

    def dim(self) -> int:
        return self._data.ndim

    @property
    def size(self) -> int:
        return int(self._data.size)

    def numel(self) -> int:
        return int(self._data.size)

    def element_size(self) -> int:
        """Bytes per element: 1 for bool, 2 for float16, 4 for float32, 8 for int64.

        framework.zeros([3, 2], dtype="float16").element_size()   # 2
        """
        return int(self._data.dtype.itemsize)

    @property
    def inplace_version(self) -> int:
        """How many in-place ops (`x.add_(y)`, `x[0] = 1`, `x.reshape_(...)`) have changed this
        tensor since it was made, as Paddle counts them; `clone()` starts again at 0.

            x = framework.ones([2]); x.exp_(); x[0] = 3.0
            x.inplace_version   # 2
        """
        return getattr(self, "_inplace_version", 0)

    @property
    def is_leaf(self) -> bool:
        return self._node is None

    @property
    def grad_fn(self):
        return self._node

    @property
    def data(self) -> Tensor:
        return self.detach()

    @data.setter
    def data(self, value: object) -> None:
        self.set_value(value)

    # --- gradients ------------------------------------------------------------------------------
    @property
    def grad(self) -> Tensor | None:
        return self._grad

    @grad.setter
    def grad(self, value: Tensor | None) -> None:
        self._grad = value

    def gradient(self) -> np.ndarray | None:
        """The gradient as a NumPy array (Paddle's `Tensor.gradient()`)."""
        return None if self._grad is None else self._grad.numpy()

    def clear_grad(self, set_to_zero: bool = False) -> None:
        if set_to_zero and self._grad is not None:
            self._grad = zeroed_grad(self._grad)
        else:
            self._grad = None

    clear_gradient = clear_grad

    def backward(self, grad_tensor: Tensor | None = None, retain_graph: bool = False) -> None:
        """Accumulate d(self)/d(leaf) into every leaf's `.grad`. `grad_tensor` defaults to ones."""
        if grad_tensor is None:
            xp = backend.get_array_module(self._data)
            grad_tensor = Tensor._wrap(xp.ones(self._data.shape, dtype=self._data.dtype))
        elif not isinstance(grad_tensor, Tensor):
            grad_tensor = Tensor(grad_tensor, dtype=self.dtype)
        if list(grad_tensor.shape) != self.shape:
            raise ValueError(
                f"grad_tensor has shape {grad_tensor.shape} but the tensor has shape {self.shape}"
            )
        run_backward([self], [grad_tensor], retain_graph=retain_graph)

    def register_hook(self, hook: Callable[[Tensor], Tensor | None]) -> RemovableHandle:
        """Call `hook(grad)` when this tensor's gradient is computed; it may return a new grad."""
        if self.stop_gradient:
            raise RuntimeError("cannot register a hook on a tensor with stop_gradient=True")
        if self._node is None:
            if self._hooks is None:
                self._hooks = []
            hooks = self._hooks
        else:
            node = self._node
            if node._output_hooks is None:
                node._output_hooks = {}
            hooks = node._output_hooks.setdefault(self._out_index, [])
        hooks.append(hook)
        return RemovableHandle(hooks, hook)

    def retain_grads(self) -> None:
        """Keep `.grad` on this non-leaf tensor after backward."""
        if self._node is None:
            return
        node = self._node
        if node._retain_grad_outputs is None:
            node._retain_grad_outputs = {}
        node._retain_grad_outputs[self._out_index] = weakref.ref(self)

    def detach(self) -> Tensor:
        """The same data, cut from the graph."""
        return Tensor._wrap(self._data)

    def detach_(self) -> Tensor:
        self._node = None
        self.stop_gradient = True
        return self

    # --- conversion -----------------------------------------------------------------------------
    def numpy(self) -> np.ndarray:
        return backend.to_numpy(self._data)

    def item(self, *index: int):
        array = self.numpy()
        if not index and array.size != 1:
            raise ValueError(
                f"item() needs a tensor with one element, this one has shape {self.shape}"
            )
        return array.item(*index)

    def tolist(self) -> list:
        return self.numpy().tolist()

    def __array__(self, dtype=None, copy=None) -> np.ndarray:
        array = self.numpy()
        return array.astype(dtype) if dtype is not None else array

    def __len__(self) -> int:
        if self._data.ndim == 0:
            raise TypeError("len() of a 0-D tensor")
        return self._data.shape[0]

    def __bool__(self) -> bool:
        if self._data.size != 1:
            raise ValueError(
                f"the truth value of a tensor with {self._data.size} elements is ambiguous; "
                "use .any() or .all()"
            )
        return bool(self.item())

    def __float__(self) -> float:
        return float(self.item())

    def __int__(self) -> int:
        return int(self.item())

    def __index__(self) -> int:
        if self.dtype.kind not in "iu":
            raise TypeError(f"only integer tensors can be used as an index, not {self.dtype}")
        return int(self.item())

    def set_value(self, value: object) -> None:
        """Overwrite the data in place (same shape); keeps this tensor's identity."""
        array = value._data if isinstance(value, Tensor) else value
        array = _as_array(array, self._data.dtype, self.place)
        if array.shape != self._data.shape:
            raise ValueError(
                f"set_value got shape {list(array.shape)} for a tensor of shape {self.shape}"
            )
        self._data = array

    def cpu(self) -> Tensor:
        return self._to_place(backend.CPUPlace())

    def cuda(self, device_id: int | None = None) -> Tensor:
        return self._to_place(backend._parse_device(f"gpu:{device_id or 0}"))

    def _to_place(self, place: backend.Place) -> Tensor:
        from framework.ops.manipulation.transfer import to_place

        return to_place(self, place)

    def to(self, *args, **kwargs) -> Tensor:
        """`to('cpu')`, `to('gpu:0')`, `to('float64')` or `to(device=..., dtype=...)`."""
        device = kwargs.pop("device", None)
        dtype = kwargs.pop("dtype", None)
        for arg in args:
            if isinstance(arg, backend.Place) or (isinstance(arg, str) and _is_device(arg)):
                device = arg
            else:
                dtype = arg
        result = self
        if device is not None:
            result = result._to_place(backend._parse_device(device))
        if dtype is not None:
            result = result.astype(dtype)
        return result

    def __repr__(self) -> str:
        """Paddle's text, header and values alike (see `framework.core.printing`)."""
        return tensor_to_string(self.numpy(), self.dtype.name, self.place, self.stop_gradient)

    def __format__(self, format_spec: str) -> str:
        # As in Paddle: a 0-d tensor formats as its Python number (f"{loss:.3f}"), others as str.
        if self._data.ndim == 0:
            return format(self.item(), format_spec)
        return object.__format__(self, format_spec)

    def __deepcopy__(self, memo: dict) -> Tensor:
        copy = type(self).__new__(type(self))
        for cls in type(self).__mro__:
            for slot in getattr(cls, "__slots__", ()):
                if slot != "__weakref__" and hasattr(self, slot):
                    object.__setattr__(copy, slot, getattr(self, slot))
        copy._data = self._data.copy()
        copy._node = None
        copy._grad = None if self._grad is None else Tensor._wrap(self._grad._data.copy())
        memo[id(self)] = copy
        return copy


bind_tensor_class(Tensor)


class Parameter(Tensor):
    """A trainable tensor owned by a Layer, as Paddle's Parameter.

    A trainable tensor owned by a Layer. `trainable=False` is `stop_gradient=True`.

    Args:
        data (Tensor|numpy.ndarray|list): the initial value, any shape.
        dtype (str, optional): float32, float64, ...; None keeps `data`'s. Default: None.
        name (str, optional): the parameter's name. Default: None.
        trainable (bool, optional): False is `stop_gradient=True`. Default: True.
        optimize_attr (dict, optional): e.g. `{'learning_rate': 1.0}`. Default: None.
        regularizer (WeightDecayRegularizer, optional): its own weight decay. Default: None.
        need_clip (bool, optional): gradient clipping applies to it. Default: True.

    Returns:
        Parameter: a Tensor that layers register and optimizers update.

    Examples:
        >>> import framework as paddle
        >>> w = paddle.create_parameter([2, 3], 'float32')
        >>> w.shape, w.stop_gradient, w.trainable
        (paddle.Size([2, 3]), False, True)
        >>> fc = paddle.nn.Linear(3, 2)
        >>> type(fc.weight).__name__, fc.weight.trainable
        ('Parameter', True)
    """

    __slots__ = ("optimize_attr", "regularizer", "need_clip", "do_model_average", "is_distributed")

    def __init__(
        self,
        data: object,
        dtype: object = None,
        name: str | None = None,
        trainable: bool = True,
        optimize_attr: dict | None = None,
        regularizer: object = None,
        need_clip: bool = True,
    ) -> None:
        super().__init__(data, dtype=dtype, stop_gradient=not trainable, name=name)
        self.persistable = True
        self.optimize_attr = optimize_attr or {"learning_rate": 1.0}
        self.regularizer = regularizer
        self.need_clip = need_clip
        self.do_model_average = None
        self.is_distributed = False

    @property
    def trainable(self) -> bool:
        return not self.stop_gradient

    @trainable.setter
    def trainable(self, value: bool) -> None:
        self.stop_gradient = not value

    def __repr__(self) -> str:
        return "Parameter containing:\n" + super().__repr__()


def _is_device(text: str) -> bool:
    text = text.lower()
    return text in ("cpu", "gpu", "cuda") or text.startswith(("gpu:", "cuda:"))


def _default_dtype_for(data: object) -> np.dtype | None:
    """Paddle's rule: Python floats become the default float dtype and Python complex numbers
    its complex counterpart (complex64 under float32); arrays and NumPy scalars keep theirs
    (`np.float64` subclasses `float`, so it is checked first)."""
    if isinstance(data, np.generic):
        return data.dtype
    if isinstance(data, bool):
        return dtypes.bool_
    if isinstance(data, int):
        return dtypes.int64
    if isinstance(data, float):
        return dtypes.default_float_dtype()
    if isinstance(data, complex):
        return dtypes.default_complex_dtype()
    if isinstance(data, list | tuple):
        array = np.asarray(data)
        if array.dtype.kind == "f":
            return dtypes.default_float_dtype()
        if array.dtype.kind == "c":
            return dtypes.default_complex_dtype()
        if array.dtype.kind in "iu":
            return dtypes.int64
        return None
    return None


def _as_array(data: object, dtype: object = None, place: object = None):
    if isinstance(data, Tensor):
        data = data._data
    target = dtypes.convert_dtype(dtype) if dtype is not None else _default_dtype_for(data)
    if place is None:
        place = backend.place_of(data) if backend.is_gpu_array(data) else backend.current_place()
    elif isinstance(place, str):
        place = backend._parse_device(place)
    xp = backend.xp_for_place(place)
    if backend.is_gpu_array(data) and xp is np:
        data = backend.to_numpy(data)
    array = xp.asarray(data) if target is None else xp.asarray(data, dtype=target)
    if array.dtype == np.float64 and target is None and not hasattr(data, "dtype"):
        array = array.astype(dtypes.default_float_dtype())
    if array.dtype.kind in "OUS":
        raise TypeError(f"cannot make a tensor from data of type {array.dtype}")
    return array


def to_tensor(
    data: object, dtype: object = None, place: object = None, stop_gradient: bool = True
) -> Tensor:
    """Make a Tensor from a Python value, a NumPy/CuPy array or another Tensor (copied).

    Python floats become float32 (the default dtype), Python ints int64, NumPy arrays keep
    their dtype unless `dtype` is given.

        x = framework.to_tensor([[1.0, 2.0], [3.0, 4.0]], stop_gradient=False)
        x.shape   # [2, 2]
        x.dtype   # float32
    """
    if isinstance(data, Tensor):
        data = data._data.copy()
    elif isinstance(data, np.ndarray) or backend.is_gpu_array(data):
        data = data.copy()
    return Tensor(data, dtype=dtype, place=place, stop_gradient=stop_gradient)
