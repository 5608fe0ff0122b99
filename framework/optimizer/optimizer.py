"""The `Optimizer` base class, as in `paddle.optimizer.Optimizer`.

An optimizer owns parameter groups and per-parameter state ("accumulators": velocities, moments).
`step()` gathers each trainable parameter's gradient, clips it (`grad_clip`), adds its
regularizer's term (`weight_decay`, or the parameter's own `regularizer`, which wins) and calls the
subclass's `_update`, which changes the parameter's array in place. Updates work on raw arrays,
never through autograd: on CPU as in-place NumPy ufuncs over reused scratch buffers, on GPU as
fused CuPy elementwise kernels.

Parameter groups follow Paddle: `parameters=[{'params': [...], 'learning_rate': 0.1, ...}]`,
where a group's `learning_rate` *scales* the optimizer's learning rate and other keys override
the optimizer's hyperparameters for that group.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from framework.backends.cpu.threads import SHARE_MIN_ELEMENTS, parallel_for, workers
from framework.core.backend import get_array_module, to_numpy
from framework.core.tensor import Tensor
from framework.nn.clip import ClipGradBase
from framework.optimizer.lr import LRScheduler
from framework.regularizer import L2Decay, WeightDecayRegularizer

__all__ = ["Optimizer"]

_NON_ACCUMULATOR_KEYS = ("LR_Scheduler", "master_weights")
# From this many elements on, a parameter's update is shared over the cores; below, one core is
# faster (a hand-off costs about as much as one core's pass over half a million values).
# Measured on step() alone: MLP (401K and 262K weights) 0.91 -> 0.64 ms updated serially in
# blocks; ResNet-18 (590K weights) 12.3 ms shared from 512K on, 12.5-13.1 ms from 1M on.
_PARALLEL_MIN_ITEMS = SHARE_MIN_ELEMENTS // 2
# An update makes four to eight passes over its arrays; on one core they run block by block, so
# that every pass after the first finds its block in L2.
_BLOCK_ITEMS = 1 << 16


class Optimizer:
    """Base class of all optimizers; subclasses implement `_create_state` and `_update`.

    Args:
        learning_rate: a float, or an `optimizer.lr.LRScheduler` (call its `step()` yourself).
        parameters: a list of parameters, or a list of parameter-group dicts.
        weight_decay: a float (L2 decay coefficient) or a regularizer (`L1Decay`, `L2Decay`).
        grad_clip: `ClipGradByGlobalNorm`, `ClipGradByNorm` or `ClipGradByValue`.
        name: prefixes accumulator names in `state_dict()`.
    """

    def __init__(
        self,
        learning_rate: float | LRScheduler,
        parameters: Sequence[Tensor] | Sequence[dict] | None = None,
        weight_decay: float | WeightDecayRegularizer | None = None,
        grad_clip: ClipGradBase | None = None,
        name: str | None = None,
        defaults: dict | None = None,
    ) -> None:
        self._learning_rate = _check_learning_rate(learning_rate)
        if grad_clip is not None and not isinstance(grad_clip, ClipGradBase):
            raise TypeError(
                "grad_clip should be a ClipGradByGlobalNorm, ClipGradByNorm or ClipGradByValue, "
                f"got {type(grad_clip).__name__}"
            )
        self._parameter_list = _check_parameters(parameters)
        self.regularization = _as_regularizer(weight_decay)
        self._grad_clip = grad_clip
        self._name = name
        self._default_dict = {
            "weight_decay": weight_decay,
            "grad_clip": grad_clip,
            **(defaults or {}),
        }
        self._grouped = isinstance(self._parameter_list[0], dict)
        self._param_groups: list[dict] = []
        if self._grouped:
            for group in self._parameter_list:
                self._add_param_group(dict(group))
        else:
            self._param_groups.append({"params": list(self._parameter_list), **self._default_dict})
        self._keys = _accumulator_prefixes(self._all_parameters())
        self._state: dict[int, dict] = {}
        self._accumulators_holder: dict[str, object] = {}
        # float16 parameters train through float32 master copies when this is on (set by
        # subclasses' `multi_precision=` or by `amp.decorate(level='O2')`).
        self._multi_precision = False
        self._master_weights: dict[str, object] = {}
        self._master_weights_holder: dict[str, object] = {}
        self._buffers: dict[tuple, object] = {}
        self.clear_gradients = self.clear_grad

    # --- parameter groups -----------------------------------------------------------------------
    def _add_param_group(self, group: dict) -> None:
        if "params" not in group:
            raise ValueError("every parameter group needs a 'params' entry")
        params = group["params"]
        if isinstance(params, Tensor):
            params = [params]
        elif isinstance(params, set):
            raise TypeError("a parameter group's params must be an ordered collection, not a set")
        group["params"] = list(params)
        for key, value in self._default_dict.items():
            group.setdefault(key, value)
        seen = {id(p) for g in self._param_groups for p in g["params"]}
        if any(id(p) in seen for p in group["params"]):
            raise ValueError("some parameters appear in more than one parameter group")
        self._configure_group_params(group)
        self._param_groups.append(group)

    def _configure_group_params(self, group: dict) -> None:
        """Like Paddle, a group's weight decay and lr scale are written onto its parameters."""
        regularizer = _as_regularizer(group["weight_decay"])
        for param in group["params"]:
            if hasattr(param, "regularizer"):
                param.regularizer = regularizer
            if getattr(param, "optimize_attr", None) is not None:
                param.optimize_attr["learning_rate"] = group.get("learning_rate", 1.0)

    def _all_parameters(self) -> list[Tensor]:
        return [p for group in self._param_groups for p in group["params"]]

    # --- learning rate --------------------------------------------------------------------------
    def get_lr(self) -> float:
        """The current learning rate (the scheduler's value when one is used)."""
        lr = self._learning_rate
        return lr if isinstance(lr, float) else lr()

    def set_lr(self, value: float) -> None:
        """Set a fixed learning rate; not allowed when the optimizer uses an LRScheduler."""
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise TypeError(f"set_lr expects a float, got {type(value).__name__}")
        if isinstance(self._learning_rate, LRScheduler):
            raise RuntimeError(
                "optimizer's learning rate can't be LRScheduler when invoke this API, "
                "because this will lead to conflict."
            )
        self._learning_rate = float(value)

    def set_lr_scheduler(self, scheduler: LRScheduler) -> None:
        if not isinstance(scheduler, LRScheduler):
            raise TypeError(f"set_lr_scheduler expects an LRScheduler, got {type(scheduler)}")
        self._learning_rate = scheduler

    # --- the update -----------------------------------------------------------------------------
    def step(self) -> None:
        """Update every parameter that has a gradient (stop_gradient ones are skipped)."""
        lr = self.get_lr()
        for group in self._param_groups:
            pairs = [
                (p, p._grad) for p in group["params"] if not p.stop_gradient and p._grad is not None
            ]
            if pairs:
                self._apply_group(pairs, group, lr)

    def minimize(
        self,
        loss: Tensor,
        startup_program: object = None,
        parameters: Sequence[Tensor] | None = None,
        no_grad_set: Iterable | None = None,
    ) -> tuple[list, list[tuple[Tensor, Tensor]]]:
        """Apply the gradients already computed by `loss.backward()` (as Paddle's dynamic mode).

        Returns `([], params_grads)`: there are no graph operators in dynamic mode.
        """
        excluded = _names_and_ids(no_grad_set)
        if parameters:
            params = list(parameters)
            group = dict(self._param_groups[0])
        else:
            params, group = None, None
        lr = self.get_lr()
        applied = []
        for current in [group] if params is not None else self._param_groups:
            candidates = params if params is not None else current["params"]
            pairs = [
                (p, p._grad)
                for p in candidates
                if not p.stop_gradient
                and p._grad is not None
                and id(p) not in excluded
                and (p.name is None or p.name not in excluded)
            ]
            if pairs:
                applied.extend(self._apply_group(pairs, current, lr))
        return [], applied

    def backward(
        self,
        loss: Tensor,
        startup_program: object = None,
        parameters: Sequence[Tensor] | Sequence[str] | None = None,
        no_grad_set: Iterable | None = None,
        callbacks: list | None = None,
    ) -> list[tuple[Tensor, Tensor]]:
        """The first half of `minimize`: the `(parameter, gradient)` pairs to apply.

        As Paddle's dynamic mode, this runs no autograd -- call `loss.backward()` first -- and
        collects the gradients already on `parameters` (Tensors or their names; default: the
        optimizer's). Parameters without a gradient, stop_gradient ones and those in
        `no_grad_set` are left out. `startup_program` and `callbacks` belong to static mode.

            loss.backward()
            params_grads = opt.backward(loss)
            opt.apply_gradients(params_grads)
        """
        params = self._all_parameters()
        if parameters:
            by_name = {p.name: p for p in params}
            params = [by_name[p] if isinstance(p, str) else p for p in parameters]
        excluded = _names_and_ids(no_grad_set)
        return [
            (p, p._grad)
            for p in params
            if not p.stop_gradient
            and p._grad is not None
            and id(p) not in excluded
            and (p.name is None or p.name not in excluded)
        ]

    def apply_gradients(self, params_grads: Sequence[tuple[Tensor, Tensor]]) -> list:
        """The second half of `minimize`: clip `params_grads`, add weight decay and update each
        parameter with its paired gradient (which need not be its `.grad`).

        Each parameter follows its parameter group's settings; one the optimizer does not own
        follows the first group's. Returns `[]`: dynamic mode has no graph operators.

            params_grads = opt.backward(loss)
            opt.apply_gradients([(p, g * 0.5) for p, g in params_grads])
        """
        grads = {id(p): (p, g) for p, g in params_grads}
        lr = self.get_lr()
        for group in self._param_groups:
            pairs = [grads.pop(id(p)) for p in group["params"] if id(p) in grads]
            if pairs:
                self._apply_group(pairs, group, lr)
        if grads:
            self._apply_group(list(grads.values()), dict(self._param_groups[0]), lr)
        return []

    def _apply_group(self, pairs: list, group: dict, lr: float) -> list:
        clip = group["grad_clip"]
        if clip is not None:
            pairs = clip(pairs)
        group_scale = group.get("learning_rate", 1.0) if self._grouped else None
        for param, grad in pairs:
            target = param._data
            master = self._master_of(param) if target.dtype == np.float16 else None
            grad_array = grad._data
            if master is not None:
                target = master
                grad_array = _copy_as(grad_array, self._scratch("grad32", master))
            regularizer = self._regularizer_of(param)
            if regularizer is not None:
                grad_array = regularizer.regularized_grad(
                    target, grad_array, out=self._scratch("grad", target)
                )
            if group_scale is None:
                attr = getattr(param, "optimize_attr", None)
                scale = 1.0 if attr is None else attr.get("learning_rate", 1.0)
            else:
                scale = group_scale
            state = self._state_of(param, group)
            self._update(param, target, grad_array, lr * scale, group, state)
            if master is not None:
                param._data[...] = master
        return pairs

    def _master_of(self, param: Tensor):
        """The float32 master copy of a float16 parameter under multi-precision, else None."""
        if not self._multi_precision:
            return None
        key = self._keys[id(param)]
        master = self._master_weights.get(key)
        if master is None:
            master = self._master_weights[key] = param._data.astype(np.float32)
            if key in self._master_weights_holder:
                _copy_into(master, self._master_weights_holder.pop(key), f"master_weights/{key}")
        return master

    def _regularizer_of(self, param: Tensor) -> WeightDecayRegularizer | None:
        own = getattr(param, "regularizer", None)
        return own if own is not None else self.regularization

    def _create_state(self, param: Tensor, group: dict) -> dict:
        """Fresh accumulators for `param`: {accumulator name: array}."""
        return {}

    def _update(self, param: Tensor, p, grad, lr: float, group: dict, state: dict) -> None:
        """Update the array `p` (the parameter's, or its float32 master copy) in place."""
        raise NotImplementedError(
            f"{type(self).__name__} cannot be used directly; use a subclass such as SGD or Adam"
        )

    def _state_of(self, param: Tensor, group: dict) -> dict:
        state = self._state.get(id(param))
        if state is None:
            state = self._state[id(param)] = self._create_state(param, group)
            for accumulator, array in state.items():
                key = self._accumulator_key(param, accumulator)
                if key in self._accumulators_holder:
                    _copy_into(array, self._accumulators_holder.pop(key), key)
        return state

    @staticmethod
    def _elementwise(update, p, *arrays) -> None:
        """Run `update(p, *arrays)` -- in-place NumPy ufuncs -- in cache-sized blocks, and split
        over the CPU cores when the parameter is large.

        NumPy's elementwise loops use one core; a big parameter is cut into contiguous ranges
        updated on several threads (the ufuncs release the GIL). A smaller one is updated on
        this thread in L2-sized blocks. Arrays written to must be C-contiguous for their flat
        views to alias them; otherwise the update runs whole.
        """
        if (
            p.size <= _BLOCK_ITEMS
            or not isinstance(p, np.ndarray)
            or not all(a.flags.c_contiguous for a in (p, *arrays[1:]))
        ):
            update(p, *arrays)
            return
        flats = [a.reshape(-1) for a in (p, *arrays)]

        def work(start: int, stop: int) -> None:
            update(*[a[start:stop] for a in flats])

        if p.size >= _PARALLEL_MIN_ITEMS and workers() > 1:
            # Each core runs its range whole: per-block ufunc calls on two threads would fight
            # over the GIL.
            parallel_for(work, p.size, min_items=_PARALLEL_MIN_ITEMS // 2)
            return
        for start in range(0, p.size, _BLOCK_ITEMS):
            work(start, min(start + _BLOCK_ITEMS, p.size))

    def _scratch(self, slot: str, like, dtype=None):
        """A reused work array shaped like `like` (so updates allocate nothing per step)."""
        dtype = like.dtype if dtype is None else np.dtype(dtype)
        xp = get_array_module(like)
        key = (slot, dtype, xp)
        buffer = self._buffers.get(key)
        if buffer is None or buffer.size < like.size:
            buffer = self._buffers[key] = xp.empty(max(like.size, 1), dtype=dtype)
        return buffer[: like.size].reshape(like.shape)

    # --- gradients ------------------------------------------------------------------------------
    def clear_grad(self, set_to_zero: bool = True) -> None:
        """Clear every trainable parameter's gradient: zeros (default) or None."""
        for param in self._all_parameters():
            if not param.stop_gradient:
                param.clear_gradient(set_to_zero)

    def zero_grad(self, set_to_none: bool = True) -> None:
        self.clear_grad(set_to_zero=not set_to_none)

    # --- state ----------------------------------------------------------------------------------
    def _accumulator_key(self, param: Tensor, accumulator: str) -> str:
        name = f"{self._name}_{accumulator}" if self._name else accumulator
        return f"{self._keys[id(param)]}_{name}_0"

    def state_dict(self) -> dict:
        """Accumulators keyed `<param name>_<accumulator>_0`, plus `LR_Scheduler` and, under
        multi-precision, `master_weights` (as Paddle).

        Values are Tensors sharing memory with the live accumulators.
        """
        result: dict = {}
        for param in self._all_parameters():
            for accumulator, array in self._state.get(id(param), {}).items():
                key = self._accumulator_key(param, accumulator)
                tensor = Tensor._wrap(array)
                tensor.name = key
                result[key] = tensor
        for key, value in self._accumulators_holder.items():
            result.setdefault(key, value)
        if self._master_weights or self._master_weights_holder:
            masters = {key: Tensor._wrap(array) for key, array in self._master_weights.items()}
            result["master_weights"] = {**self._master_weights_holder, **masters}
        if isinstance(self._learning_rate, LRScheduler):
            result["LR_Scheduler"] = self._learning_rate.state_dict()
        return result

    def set_state_dict(self, state_dict: dict) -> None:
        """Load accumulators (now, or when each parameter first steps) and the scheduler state."""
        if isinstance(self._learning_rate, LRScheduler):
            scheduler_state = state_dict.get("LR_Scheduler")
            if scheduler_state is not None:
                self._learning_rate.set_state_dict(scheduler_state)
        masters = dict(state_dict.get("master_weights") or {})
        for key, array in self._master_weights.items():
            if key in masters:
                _copy_into(array, masters.pop(key), f"master_weights/{key}")
        self._master_weights_holder = masters
        pending = {k: v for k, v in state_dict.items() if k not in _NON_ACCUMULATOR_KEYS}
        for param in self._all_parameters():
            for accumulator, array in self._state.get(id(param), {}).items():
                key = self._accumulator_key(param, accumulator)
                if key not in pending:
                    raise KeyError(f"the optimizer state has no entry {key!r} for a parameter")
                _copy_into(array, pending.pop(key), key)
        self._accumulators_holder = pending

    load_state_dict = set_state_dict

    def __repr__(self) -> str:
        return f"{type(self).__name__}(learning_rate={self.get_lr()})"


def _check_learning_rate(learning_rate: object) -> float | LRScheduler:
    if isinstance(learning_rate, LRScheduler):
        return learning_rate
    if isinstance(learning_rate, Tensor) and learning_rate.size == 1:
        return float(learning_rate.item())
    if isinstance(learning_rate, int | float) and not isinstance(learning_rate, bool):
        return float(learning_rate)
    raise TypeError(
        f"learning rate should be float or LRScheduler, got {type(learning_rate).__name__} here"
    )


def _check_parameters(parameters: object) -> list:
    if parameters is None:
        raise AttributeError(
            "parameters argument given to the Optimizer should not be None in dygraph mode; "
            "pass model.parameters()"
        )
    if isinstance(parameters, Tensor):
        raise TypeError(
            "`parameters` argument given to the optimizer should be an iterable of Tensors, "
            "not a single Tensor"
        )
    if isinstance(parameters, dict):
        raise TypeError(
            "`parameters` should not be a dict; for parameter groups pass a list of dicts"
        )
    params = list(parameters)
    if not params:
        raise ValueError("the optimizer got an empty parameter list")
    return params


def _as_regularizer(weight_decay: object) -> WeightDecayRegularizer | None:
    if weight_decay is None or isinstance(weight_decay, WeightDecayRegularizer):
        return weight_decay
    if isinstance(weight_decay, int | float) and not isinstance(weight_decay, bool):
        return L2Decay(float(weight_decay))
    raise TypeError(
        "weight_decay should be a float or a regularizer (L1Decay, L2Decay), "
        f"got {type(weight_decay).__name__}"
    )


def _accumulator_prefixes(params: list[Tensor]) -> dict[int, str]:
    """Each parameter's name, made unique: unnamed or clashing ones get their position."""
    names = [p.name for p in params]
    counts: dict[str | None, int] = {}
    for name in names:
        counts[name] = counts.get(name, 0) + 1
    return {
        id(p): name if name is not None and counts[name] == 1 else f"{name or 'param'}_{i}"
        for i, (p, name) in enumerate(zip(params, names, strict=True))
    }


def _names_and_ids(items: Iterable | None) -> set:
    result: set = set()
    for item in items or ():
        result.add(id(item) if isinstance(item, Tensor) else item)
    return result


def first_element(array) -> float:
    """The value of a step-count accumulator Paddle keeps parameter-shaped (all elements equal)."""
    return float(array.reshape(-1)[0])


def _copy_as(source, out):
    """`source` converted into the preallocated `out` (a float16 gradient to float32)."""
    out[...] = source
    return out


def _copy_into(array, value: object, key: str) -> None:
    """Overwrite an accumulator in place with a loaded value (Tensor, NumPy array or list)."""
    if isinstance(value, Tensor):
        value = value._data
    xp = get_array_module(array)
    source = xp.asarray(to_numpy(value) if xp is np else value, dtype=array.dtype)
    if source.shape != array.shape:
        if source.size == array.size == 1:
            source = source.reshape(array.shape)
        else:
            raise ValueError(
                f"optimizer state {key!r} has shape {list(source.shape)}, "
                f"expected {list(array.shape)}"
            )
    array[...] = source
