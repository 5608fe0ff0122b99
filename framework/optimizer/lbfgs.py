"""L-BFGS, as `paddle.optimizer.LBFGS` (and `torch.optim.LBFGS`, which it follows step for step)."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence

import numpy as np

from framework.core.autograd import enable_grad
from framework.core.backend import get_array_module, to_numpy
from framework.core.tensor import Tensor
from framework.nn.clip import ClipGradBase
from framework.optimizer.line_search import strong_wolfe
from framework.optimizer.lr import LRScheduler
from framework.optimizer.optimizer import Optimizer
from framework.regularizer import WeightDecayRegularizer

__all__ = ["LBFGS"]

# Below this curvature (y . s) a step says nothing reliable about the Hessian and is not stored.
_MIN_CURVATURE = 1e-10
_ARRAY_STATE = ("d", "prev_flat_grad")
_ARRAY_LIST_STATE = ("old_yk", "old_sk")
_FLOAT_LIST_STATE = ("ro", "al")


class LBFGS(Optimizer):
    """Limited-memory BFGS (Nocedal & Wright, algorithm 7.4) over all parameters as one flat
    vector. `step(closure)` runs up to `max_iter` iterations; `closure()` must clear the
    gradients, compute the loss, call `loss.backward()` and return the loss (a 1-element
    Tensor). It returns the closure's first loss.

    Args:
        learning_rate: the step length (default 1.0); a float or an `LRScheduler`.
        max_iter: iterations per `step()` (default 20).
        max_eval: closure evaluations per `step()` (default `max_iter * 5 // 4`).
        tolerance_grad: stop when the largest absolute gradient entry is at most this (1e-7).
        tolerance_change: stop when the loss or the step changes less than this (1e-9).
        history_size: how many (s, y) pairs approximate the inverse Hessian (default 100).
        line_search_fn: None (fixed steps of `learning_rate`) or "strong_wolfe".
        parameters: the parameters to optimize: a list of Tensors (or one parameter group).
        weight_decay, grad_clip: accepted for Paddle's signature; Paddle's LBFGS applies
            neither, and neither does this one (a warning says so): add a penalty to the
            closure's loss instead.

    Parameters may have any shapes but share one float dtype; the search works in it. State
    (`state_dict()["state"]`) holds Paddle's entries: `func_evals`, `n_iter`, the direction `d`,
    the step `alpha`, the histories `old_yk`, `old_sk` and `ro`, `H_diag`, `prev_flat_grad`,
    `prev_loss` and `al`.

        opt = framework.optimizer.LBFGS(
            learning_rate=1.0, line_search_fn="strong_wolfe", parameters=model.parameters()
        )

        def closure():
            opt.clear_grad()
            loss = loss_fn(model(x), y)
            loss.backward()
            return loss

        opt.step(closure)
    """

    def __init__(
        self,
        learning_rate: float | LRScheduler = 1.0,
        max_iter: int = 20,
        max_eval: int | None = None,
        tolerance_grad: float = 1e-7,
        tolerance_change: float = 1e-9,
        history_size: int = 100,
        line_search_fn: str | None = None,
        parameters: Sequence[Tensor] | Sequence[dict] | None = None,
        weight_decay: float | WeightDecayRegularizer | None = None,
        grad_clip: ClipGradBase | None = None,
        name: str | None = None,
    ) -> None:
        if line_search_fn not in (None, "strong_wolfe"):
            raise ValueError(
                f"line_search_fn should be None or 'strong_wolfe', got {line_search_fn!r}"
            )
        if weight_decay is not None or grad_clip is not None:
            warnings.warn(
                "LBFGS applies neither weight_decay nor grad_clip (as Paddle's LBFGS): "
                "add the penalty to the closure's loss instead",
                stacklevel=2,
            )
        super().__init__(learning_rate, parameters, None, None, name)
        if len(self._param_groups) != 1:
            raise ValueError("LBFGS doesn't support per-parameter options (parameter groups)")
        self._params = list(self._param_groups[0]["params"])
        dtypes = {p._data.dtype for p in self._params}
        if len(dtypes) != 1:
            raise TypeError(f"LBFGS needs parameters of one dtype, got {sorted(map(str, dtypes))}")
        self.max_iter = int(max_iter)
        self.max_eval = int(max_eval) if max_eval is not None else self.max_iter * 5 // 4
        self.tolerance_grad = float(tolerance_grad)
        self.tolerance_change = float(tolerance_change)
        self.history_size = int(history_size)
        self.line_search_fn = line_search_fn
        self.state: dict = {}

    # --- the flat view of the parameters --------------------------------------------------------
    def _gather_flat_grad(self):
        """Every parameter's gradient (zeros where it has none) in one new flat array."""
        xp = get_array_module(self._params[0]._data)
        return xp.concatenate(
            [
                xp.zeros(p._data.size, p._data.dtype) if p._grad is None else p._grad._data.ravel()
                for p in self._params
            ]
        )

    def _add_grad(self, step: float, direction) -> None:
        """Move the parameters in place: x += step * direction."""
        offset = 0
        for p in self._params:
            size = p._data.size
            p._data += (direction[offset : offset + size] * step).reshape(p._data.shape)
            offset += size

    def _directional_evaluate(self, closure: Callable, x: list, step: float, d):
        """The loss and flat gradient at x + step * d; the parameters are reset to x after."""
        self._add_grad(step, d)
        loss = float(closure())
        flat_grad = self._gather_flat_grad()
        for p, saved in zip(self._params, x, strict=True):
            p._data[...] = saved
        return loss, flat_grad

    # --- the update -----------------------------------------------------------------------------
    def step(self, closure: Callable[[], Tensor]) -> Tensor:  # type: ignore[override]
        """Run up to `max_iter` L-BFGS iterations; returns the loss of the first evaluation."""
        if not callable(closure):
            raise TypeError("LBFGS.step needs a closure that computes and returns the loss")
        lr = self.get_lr()
        state = self.state
        state.setdefault("func_evals", 0)
        state.setdefault("n_iter", 0)

        def evaluate() -> Tensor:
            with enable_grad():
                return closure()

        orig_loss = evaluate()
        loss = float(orig_loss)
        current_evals = 1
        state["func_evals"] += 1
        flat_grad = self._gather_flat_grad()
        if float(abs(flat_grad).max()) <= self.tolerance_grad:
            return orig_loss

        d, alpha = state.get("d"), state.get("alpha")
        old_yk, old_sk, ro = state.get("old_yk"), state.get("old_sk"), state.get("ro")
        h_diag, prev_flat_grad = state.get("H_diag"), state.get("prev_flat_grad")
        prev_loss = state.get("prev_loss")
        n_iter = 0
        while n_iter < self.max_iter:
            n_iter += 1
            state["n_iter"] += 1
            if state["n_iter"] == 1:
                d = -flat_grad
                old_yk, old_sk, ro, h_diag = [], [], [], 1.0
            else:
                y = flat_grad - prev_flat_grad
                s = d * alpha
                ys = _dot(y, s)
                if ys > _MIN_CURVATURE:
                    if len(old_yk) == self.history_size:
                        old_yk.pop(0)
                        old_sk.pop(0)
                        ro.pop(0)
                    old_yk.append(y)
                    old_sk.append(s)
                    ro.append(1.0 / ys)
                    h_diag = ys / _dot(y, y)
                d = self._two_loop(flat_grad, old_yk, old_sk, ro, h_diag)
            if prev_flat_grad is None:
                prev_flat_grad = flat_grad.copy()
            else:
                prev_flat_grad[...] = flat_grad
            prev_loss = loss

            # The first step ever is scaled down by the gradient's size; later ones are lr.
            if state["n_iter"] == 1:
                alpha = min(1.0, 1.0 / float(abs(flat_grad).sum())) * lr
            else:
                alpha = lr
            gtd = _dot(flat_grad, d)
            if gtd > -self.tolerance_change:
                break

            evaluations = 0
            if self.line_search_fn is not None:
                x_init = [p._data.copy() for p in self._params]

                def along_d(trial: float, x_init=x_init, d=d):
                    return self._directional_evaluate(evaluate, x_init, trial, d)

                loss, flat_grad, alpha, evaluations = strong_wolfe(
                    along_d, alpha, d, loss, flat_grad, gtd, tolerance_change=self.tolerance_change
                )
                self._add_grad(alpha, d)
                converged = float(abs(flat_grad).max()) <= self.tolerance_grad
            else:
                self._add_grad(alpha, d)
                converged = False
                if n_iter != self.max_iter:
                    loss = float(evaluate())
                    flat_grad = self._gather_flat_grad()
                    converged = float(abs(flat_grad).max()) <= self.tolerance_grad
                    evaluations = 1
            current_evals += evaluations
            state["func_evals"] += evaluations

            if (
                converged
                or float(abs(d * alpha).max()) <= self.tolerance_change
                or abs(loss - prev_loss) < self.tolerance_change
                or current_evals >= self.max_eval
            ):
                break

        state.update(
            d=d,
            alpha=alpha,
            old_yk=old_yk,
            old_sk=old_sk,
            ro=ro,
            H_diag=h_diag,
            prev_flat_grad=prev_flat_grad,
            prev_loss=prev_loss,
        )
        return orig_loss

    def _two_loop(self, flat_grad, old_yk: list, old_sk: list, ro: list, h_diag: float):
        """The L-BFGS direction -H g from the stored pairs (Nocedal & Wright, algorithm 7.4)."""
        al = self.state.setdefault("al", [None] * self.history_size)
        q = -flat_grad
        for i in range(len(old_yk) - 1, -1, -1):
            al[i] = _dot(old_sk[i], q) * ro[i]
            q -= old_yk[i] * al[i]
        r = q * h_diag
        for i in range(len(old_yk)):
            be_i = _dot(old_yk[i], r) * ro[i]
            r += old_sk[i] * (al[i] - be_i)
        return r

    def minimize(self, loss, startup_program=None, parameters=None, no_grad_set=None):
        raise NotImplementedError(
            "LBFGS does not minimize a loss computed beforehand: pass a closure to step()"
        )

    # --- state ----------------------------------------------------------------------------------
    def state_dict(self) -> dict:
        """`{"state": {...}}` as Paddle's LBFGS (arrays as Tensors, scalars as floats), plus
        `LR_Scheduler` when the learning rate is a scheduler."""
        packed: dict = {}
        for key, value in self.state.items():
            if key in _ARRAY_STATE and value is not None:
                value = Tensor._wrap(value.copy())
            elif key in _ARRAY_LIST_STATE:
                value = [None if v is None else _as_tensor(v) for v in value]
            elif key in _FLOAT_LIST_STATE:
                value = list(value)
            packed[key] = value
        result: dict = {"state": packed}
        if isinstance(self._learning_rate, LRScheduler):
            result["LR_Scheduler"] = self._learning_rate.state_dict()
        return result

    def set_state_dict(self, state_dict: dict) -> None:
        """Resume from `state_dict()` (ours, or Paddle's LBFGS state loaded as arrays)."""
        if "state" not in state_dict:
            raise KeyError("an LBFGS state_dict has a 'state' entry")
        if isinstance(self._learning_rate, LRScheduler) and "LR_Scheduler" in state_dict:
            self._learning_rate.set_state_dict(state_dict["LR_Scheduler"])
        xp = get_array_module(self._params[0]._data)
        dtype = self._params[0]._data.dtype

        def array(value):
            if isinstance(value, Tensor):
                value = value._data
            return xp.array(to_numpy(value) if xp is np else value, dtype=dtype).reshape(-1)

        state: dict = {}
        for key, value in state_dict["state"].items():
            if key in _ARRAY_STATE:
                value = None if value is None else array(value)
            elif key in _ARRAY_LIST_STATE:
                value = [None if v is None else array(v) for v in value]
            elif key in _FLOAT_LIST_STATE:
                value = [None if v is None else float(v) for v in value]
            elif key in ("func_evals", "n_iter"):
                value = int(value)
            elif value is not None:
                value = float(value)
            state[key] = value
        self.state = state

    load_state_dict = set_state_dict


def _dot(x, y) -> float:
    return float((x * y).sum())


def _as_tensor(array) -> Tensor:
    return Tensor._wrap(array.copy())
