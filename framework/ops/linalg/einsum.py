"""Einstein summation with gradients of any order.

The gradient of operand i is itself an einsum: the output gradient contracted with the other
operands, producing operand i's subscripts. Two cases need help, and get it from constant
operands so that the backward stays one einsum (and so is differentiable again): a subscript
that appears only in operand i (it was summed away, so the gradient is broadcast along it: a
ones vector brings the letter back) and a subscript repeated within operand i (a diagonal: an
identity matrix ties the repeated letter to a fresh one).
"""

from __future__ import annotations

import string

from framework.core.autograd import Function
from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.ops.manipulation.broadcast import broadcast_to
from framework.ops.math.complex_parts import conj_grad


class Einsum(Function):
    def __init__(self, inputs: tuple[str, ...], output: str) -> None:
        self.inputs = inputs
        self.output = output

    def forward(self, *arrays):
        self.retain_inputs(*range(len(arrays)))
        equation = ",".join(self.inputs) + "->" + self.output
        xp = get_array_module(*arrays)
        return xp.einsum(equation, *arrays, optimize=len(arrays) > 1)

    def backward(self, gy: Tensor):
        operands = self.saved_inputs()
        return tuple(
            self._operand_grad(gy, operands, i) if need else None
            for i, need in enumerate(self.needs_input_grad)
        )

    def _operand_grad(self, gy: Tensor, operands: tuple, i: int) -> Tensor:
        xp = get_array_module(gy._data)
        dtype = gy._data.dtype
        target = self.inputs[i]
        others = [s for j, s in enumerate(self.inputs) if j != i]
        available = set(self.output).union(*others)
        free = iter(c for c in string.ascii_letters if c not in set("".join(self.inputs)))
        shape = operands[i]._data.shape
        subscripts = [self.output] + others
        # Multilinear, so complex operands only need conjugating (conjugate Wirtinger rule).
        tensors = [gy] + [conj_grad(t) for j, t in enumerate(operands) if j != i]
        renamed = []
        for position, letter in enumerate(target):
            size = shape[position]
            if letter in renamed:  # a repeated subscript: a diagonal of operand i
                fresh = next(free)
                subscripts.append(letter + fresh)
                tensors.append(Tensor._wrap(xp.eye(size, dtype=dtype)))
                letter = fresh
            elif letter not in available:  # summed away in forward: broadcast back along it
                subscripts.append(letter)
                tensors.append(Tensor._wrap(xp.ones(size, dtype=dtype)))
            renamed.append(letter)
        return Einsum(tuple(subscripts), "".join(renamed)).apply(*tensors)


def _parse(equation: str, operands: list[Tensor]) -> tuple[list[str], str]:
    """Explicit subscripts per operand and for the output, with '...' spelled out."""
    equation = equation.replace(" ", "")
    lhs, arrow, rhs = equation.partition("->")
    inputs = lhs.split(",")
    if len(inputs) != len(operands):
        raise ValueError(
            f"einsum: equation {equation!r} has {len(inputs)} operands, got {len(operands)}"
        )
    used = set(equation) - set(",.->")
    pool = [c for c in string.ascii_letters if c not in used]
    ranks = []
    for sub, t in zip(inputs, operands, strict=True):
        named = len(sub.replace("...", ""))
        rank = t._data.ndim - named if "..." in sub else 0
        if rank < 0 or ("..." not in sub and named != t._data.ndim):
            raise ValueError(f"einsum: subscripts {sub!r} do not fit an operand of shape {t.shape}")
        ranks.append(rank)
    width = max(ranks, default=0)
    block = "".join(pool[:width])
    inputs = [
        sub.replace("...", block[width - rank :]) for sub, rank in zip(inputs, ranks, strict=True)
    ]
    if arrow:
        output = rhs.replace("...", block)
    else:
        letters = "".join(inputs)
        output = block + "".join(
            sorted(c for c in set(letters) if letters.count(c) == 1 and c not in block)
        )
    return inputs, output


def einsum(equation: str, *operands: Tensor) -> Tensor:
    """Einstein summation over `operands`, as `numpy.einsum` (explicit `->` or implicit output,
    `...` broadcasting); differentiable to any order.

        a = framework.randn([2, 3]); b = framework.randn([3, 4])
        framework.einsum("ij,jk->ik", a, b)     # matmul
        framework.einsum("bij->bji", framework.randn([5, 2, 3])).shape   # [5, 3, 2]
    """
    if len(operands) == 1 and isinstance(operands[0], list | tuple):
        operands = tuple(operands[0])
    tensors = list(operands)
    dtypes = {t._data.dtype for t in tensors}
    if len(dtypes) > 1:
        raise TypeError(f"einsum: operands must share one dtype, got {sorted(map(str, dtypes))}")
    inputs, output = _parse(equation, tensors)
    sizes: dict[str, int] = {}
    for sub, t in zip(inputs, tensors, strict=True):
        for letter, size in zip(sub, t._data.shape, strict=True):
            if sizes.get(letter, 1) == 1:
                sizes[letter] = size
            elif size not in (1, sizes[letter]):
                raise ValueError(
                    f"einsum: subscript {letter!r} has sizes {sizes[letter]} and {size} in "
                    f"{equation!r}"
                )
    # Size-1 dims that broadcast against a larger size are expanded, so every operand agrees on
    # every letter's size and the backward einsums see consistent shapes.
    for k, (sub, t) in enumerate(zip(inputs, tensors, strict=True)):
        want = tuple(sizes[c] for c in sub)
        if want != t._data.shape and len(set(sub)) == len(sub):
            tensors[k] = broadcast_to(t, want)
    return Einsum(tuple(inputs), output).apply(*tensors)
