"""The strong-Wolfe line search of `LBFGS(line_search_fn="strong_wolfe")`.

The algorithm is Nocedal & Wright's (Numerical Optimization, algorithms 3.5 and 3.6) with cubic
interpolation, step for step as Paddle's `paddle.optimizer.lbfgs._strong_wolfe` and torch's
`torch.optim.lbfgs._strong_wolfe`, so that the three optimizers take the same steps. It works on
flat arrays (NumPy or CuPy) and Python floats; `evaluate(step)` returns the loss and the flat
gradient at `x + step * d` and leaves the parameters as they were.
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["cubic_interpolate", "strong_wolfe"]


def cubic_interpolate(
    x1: float,
    f1: float,
    g1: float,
    x2: float,
    f2: float,
    g2: float,
    bounds: tuple[float, float] | None = None,
) -> float:
    """The minimiser of the cubic through (x1, f1) and (x2, f2) with slopes g1 and g2, clamped
    to `bounds` (default: the interval between x1 and x2); the interval's midpoint when the
    cubic has no real minimiser.

        cubic_interpolate(0.0, 1.0, -1.0, 1.0, 0.5, 0.5)  # -> 0.8165 (= sqrt(2/3))
    """
    if bounds is not None:
        low, high = bounds
    else:
        low, high = (x1, x2) if x1 <= x2 else (x2, x1)
    d1 = g1 + g2 - 3 * (f1 - f2) / (x1 - x2)
    d2_square = d1**2 - g1 * g2
    if d2_square < 0:
        return (low + high) / 2.0
    d2 = d2_square**0.5
    if x1 <= x2:
        position = x2 - (x2 - x1) * ((g2 + d2 - d1) / (g2 - g1 + 2 * d2))
    else:
        position = x1 - (x1 - x2) * ((g1 + d2 - d1) / (g1 - g2 + 2 * d2))
    return min(max(position, low), high)


def strong_wolfe(
    evaluate: Callable[[float], tuple[float, object]],
    step: float,
    d,
    loss: float,
    grad,
    gtd: float,
    c1: float = 1e-4,
    c2: float = 0.9,
    tolerance_change: float = 1e-9,
    max_ls: int = 25,
) -> tuple[float, object, float, int]:
    """Find a step along the descent direction `d` (a flat array) that satisfies the strong
    Wolfe conditions, starting from `step`; `loss`, `grad` and `gtd` (= grad . d) are the
    values at step 0.

    Returns `(loss, flat gradient, step, evaluations)` at the step found.
    """
    d_norm = float(abs(d).max())
    grad = grad.copy()
    loss_new, grad_new = evaluate(step)
    evaluations = 1
    gtd_new = _dot(grad_new, d)

    # Bracket an interval that holds a point satisfying the conditions.
    t_prev, f_prev, g_prev, gtd_prev = 0.0, loss, grad, gtd
    done = False
    ls_iter = 0
    while ls_iter < max_ls:
        if loss_new > loss + c1 * step * gtd or (ls_iter > 1 and loss_new >= f_prev):
            bracket, bracket_f = [t_prev, step], [f_prev, loss_new]
            bracket_g, bracket_gtd = [g_prev, grad_new.copy()], [gtd_prev, gtd_new]
            break
        if abs(gtd_new) <= -c2 * gtd:
            bracket, bracket_f, bracket_g = [step], [loss_new], [grad_new]
            done = True
            break
        if gtd_new >= 0:
            bracket, bracket_f = [t_prev, step], [f_prev, loss_new]
            bracket_g, bracket_gtd = [g_prev, grad_new.copy()], [gtd_prev, gtd_new]
            break
        bounds = (step + 0.01 * (step - t_prev), step * 10)
        previous = step
        step = cubic_interpolate(t_prev, f_prev, gtd_prev, step, loss_new, gtd_new, bounds)
        t_prev, f_prev, g_prev, gtd_prev = previous, loss_new, grad_new.copy(), gtd_new
        loss_new, grad_new = evaluate(step)
        evaluations += 1
        gtd_new = _dot(grad_new, d)
        ls_iter += 1
    if ls_iter == max_ls:
        bracket, bracket_f, bracket_g = [0.0, step], [loss, loss_new], [grad, grad_new]

    # Zoom: shrink the bracket until a point in it satisfies the conditions.
    insufficient_progress = False
    low, high = (0, 1) if bracket_f[0] <= bracket_f[-1] else (1, 0)
    while not done and ls_iter < max_ls:
        if abs(bracket[1] - bracket[0]) * d_norm < tolerance_change:
            break
        step = cubic_interpolate(
            bracket[0], bracket_f[0], bracket_gtd[0], bracket[1], bracket_f[1], bracket_gtd[1]
        )
        # A trial point too close to an end of the bracket makes little progress: after two
        # such points in a row (or one outside), move it a tenth of the bracket inwards.
        margin = 0.1 * (max(bracket) - min(bracket))
        if min(max(bracket) - step, step - min(bracket)) < margin:
            if insufficient_progress or step >= max(bracket) or step <= min(bracket):
                if abs(step - max(bracket)) < abs(step - min(bracket)):
                    step = max(bracket) - margin
                else:
                    step = min(bracket) + margin
                insufficient_progress = False
            else:
                insufficient_progress = True
        else:
            insufficient_progress = False
        loss_new, grad_new = evaluate(step)
        evaluations += 1
        gtd_new = _dot(grad_new, d)
        ls_iter += 1
        if loss_new > loss + c1 * step * gtd or loss_new >= bracket_f[low]:
            bracket[high], bracket_f[high] = step, loss_new
            bracket_g[high], bracket_gtd[high] = grad_new.copy(), gtd_new
            low, high = (0, 1) if bracket_f[0] <= bracket_f[1] else (1, 0)
        else:
            if abs(gtd_new) <= -c2 * gtd:
                done = True
            elif gtd_new * (bracket[high] - bracket[low]) >= 0:
                bracket[high], bracket_f[high] = bracket[low], bracket_f[low]
                bracket_g[high], bracket_gtd[high] = bracket_g[low], bracket_gtd[low]
            bracket[low], bracket_f[low] = step, loss_new
            bracket_g[low], bracket_gtd[low] = grad_new.copy(), gtd_new
    return bracket_f[low], bracket_g[low], bracket[low], evaluations


def _dot(x, y) -> float:
    return float((x * y).sum())
