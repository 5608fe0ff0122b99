"""The short-time Fourier transform and its inverse, as `paddle.signal.stft` / `istft`.

Built from differentiable ops (gather for reflect padding and framing, `paddle.fft`, and the
scatter-add of overlap-add), so both have gradients of every order. Argument checks raise
Paddle's messages; as Paddle's are `assert`s, the error is an `AssertionError` as well as a
`ValueError`. `istft` takes any `n_fft`, odd ones too (Paddle 3.3's fails on odd `n_fft`).
"""

from __future__ import annotations

from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.ops import fft
from framework.ops.manipulation.broadcast import broadcast_to
from framework.ops.manipulation.indexing import GetItem
from framework.ops.manipulation.join import concat
from framework.ops.manipulation.shape import reshape
from framework.ops.manipulation.transpose import transpose
from framework.ops.math.complex_parts import conj, real
from framework.ops.signal.frames import frames_last, overlap_add_last


class SignalArgumentError(ValueError, AssertionError):
    """A bad stft/istft argument: Paddle's message, catchable as Paddle's AssertionError."""


def _require(ok: bool, message: str) -> None:
    if not ok:
        raise SignalArgumentError(message)


def _swap_last(x: Tensor) -> Tensor:
    return transpose(x, [*range(x.ndim - 2), x.ndim - 1, x.ndim - 2])


def _window(window: Tensor | None, win_length: int, n_fft: int, dtype, like) -> Tensor:
    """The window, checked, as ones by default, centre-padded with zeros to `n_fft`."""
    xp = get_array_module(like)
    if window is not None:
        _require(
            window.ndim == 1 and window.shape[0] == win_length,
            f"expected a 1D window tensor of size equal to win_length({win_length}), "
            f"but got window with shape {window.shape}.",
        )
    else:
        window = Tensor._wrap(xp.ones(win_length, dtype=dtype))
    if win_length == n_fft:
        return window
    left = (n_fft - win_length) // 2
    zeros = Tensor._wrap(xp.zeros(n_fft - win_length, dtype=window._data.dtype))
    return concat([zeros[:left], window, zeros[left:]])


def _centre_pad(x: Tensor, pad: int, mode: str) -> Tensor:
    xp = get_array_module(x._data)
    if mode == "constant":
        zeros = Tensor._wrap(xp.zeros((*x._data.shape[:-1], pad), dtype=x._data.dtype))
        return concat([zeros, x, zeros], axis=-1)
    length = x._data.shape[-1]
    _require(
        pad < length,
        f"reflect padding of {pad} needs a signal longer than that, but got length {length}.",
    )
    inner = xp.arange(length, dtype="int64")
    index = xp.concatenate([inner[pad:0:-1], inner, inner[-2 : -pad - 2 : -1]])
    return GetItem((slice(None), index), True).apply(x)


def stft(
    x: Tensor,
    n_fft: int,
    hop_length: int | None = None,
    win_length: int | None = None,
    window: Tensor | None = None,
    center: bool = True,
    pad_mode: str = "reflect",
    normalized: bool = False,
    onesided: bool | None = None,
    name: str | None = None,
) -> Tensor:
    """The short-time Fourier transform: the DFT of each `hop_length`-spaced frame of
    `n_fft` samples, times `window` (centre-padded to `n_fft` when `win_length < n_fft`).

    `x`: `[seq_length]` or `[batch, seq_length]`, float32/float64 or complex64/complex128.
    Returns `[..., n_fft // 2 + 1, n_frames]` (real `x`, `onesided`, the default for real
    input) or `[..., n_fft, n_frames]`, complex64 for float32/complex64 input, complex128
    otherwise. `hop_length` defaults to `n_fft // 4`, `win_length` to `n_fft`, the window to
    ones. `center` pads `n_fft // 2` samples each side ('reflect' or 'constant');
    `normalized` scales by `1 / sqrt(n_fft)`.

        x = framework.randn([8, 48000], dtype="float64")
        framework.signal.stft(x, n_fft=512).shape                  # [8, 257, 376]
        framework.signal.stft(x, n_fft=512, onesided=False).shape  # [8, 512, 376]
    """
    rank = x.ndim
    _require(rank in (1, 2), f"x should be a 1D or 2D real tensor, but got rank of x is {rank}")
    if rank == 1:
        x = reshape(x, [1, -1])
    hop_length = n_fft // 4 if hop_length is None else hop_length
    _require(hop_length > 0, f"hop_length should be > 0, but got {hop_length}.")
    win_length = n_fft if win_length is None else win_length
    length = x.shape[-1]
    _require(0 < n_fft <= length, f"n_fft should be in (0, seq_length({length})], but got {n_fft}.")
    _require(
        0 < win_length <= n_fft,
        f"win_length should be in (0, n_fft({n_fft})], but got {win_length}.",
    )
    window = _window(window, win_length, n_fft, x._data.dtype, x._data)
    if center:
        _require(
            pad_mode in ("constant", "reflect"),
            f'pad_mode should be "reflect" or "constant", but got "{pad_mode}".',
        )
        x = _centre_pad(x, n_fft // 2, pad_mode)
    frames = frames_last(x, n_fft, hop_length) * window  # [batch, n_frames, n_fft]
    is_complex = frames._data.dtype.kind == "c"
    onesided = not is_complex if onesided is None else onesided
    if is_complex:
        _require(not onesided, "onesided should be False when input or window is a complex Tensor.")
    norm = "ortho" if normalized else "backward"
    out = fft.rfft(frames, norm=norm) if onesided else fft.fft(frames, norm=norm)
    out = _swap_last(out)  # [batch, freq, n_frames]
    return reshape(out, out.shape[1:]) if rank == 1 else out


def _check_istft_input(x: Tensor, n_fft: int, hop_length: int, win_length: int, onesided: bool):
    if x._data.dtype.kind != "c":
        raise TypeError(
            "The data type of 'x' in istft must be ['complex64', 'complex128'], but received "
            f"{x._data.dtype.name}."
        )
    _require(
        x.ndim in (2, 3), f"x should be a 2D or 3D complex tensor, but got rank of x is {x.ndim}"
    )
    _require(
        0 < hop_length <= win_length,
        f"hop_length should be in (0, win_length({win_length})], but got {hop_length}.",
    )
    _require(
        0 < win_length <= n_fft,
        f"win_length should be in (0, n_fft({n_fft})], but got {win_length}.",
    )
    _require(x._data.size != 0, "x should not be an empty tensor.")
    fft_size = x.shape[-2]
    if onesided:
        _require(
            fft_size == n_fft // 2 + 1,
            f"fft_size should be equal to n_fft // 2 + 1({n_fft // 2 + 1}) when onesided is "
            f"True, but got {fft_size}.",
        )
    else:
        _require(
            fft_size == n_fft,
            f"fft_size should be equal to n_fft({n_fft}) when onesided is False, but got "
            f"{fft_size}.",
        )


def istft(
    x: Tensor,
    n_fft: int,
    hop_length: int | None = None,
    win_length: int | None = None,
    window: Tensor | None = None,
    center: bool = True,
    normalized: bool = False,
    onesided: bool = True,
    length: int | None = None,
    return_complex: bool = False,
    name: str | None = None,
) -> Tensor:
    """The inverse of `stft`: inverse DFT of each frame, times the window, overlap-added and
    divided by the overlap-added squared window (the least-squares estimate).

    `x`: `[freq, n_frames]` or `[batch, freq, n_frames]`, complex64/complex128, with
    `freq = n_fft // 2 + 1` when `onesided` (the default), else `n_fft`. Returns
    `[..., seq_length]`: float32/float64 (complex64/complex128 with `return_complex`, which
    needs `onesided=False`). `center` says `x` came from a centre-padded signal; `length`
    crops the result to that many samples. A window whose overlap-added square has a zero
    (the NOLA condition fails) raises ValueError.

        x = framework.randn([8, 48000], dtype="float64")
        y = framework.signal.stft(x, n_fft=512)
        framework.signal.istft(y, n_fft=512).shape   # [8, 48000]
    """
    rank = x.ndim
    hop_length = n_fft // 4 if hop_length is None else hop_length
    win_length = n_fft if win_length is None else win_length
    _check_istft_input(x, n_fft, hop_length, win_length, onesided)
    if rank == 2:
        x = reshape(x, [1, *x.shape])
    n_frames = x.shape[-1]
    real_dtype = "float32" if x._data.dtype.name == "complex64" else "float64"
    window = _window(window, win_length, n_fft, real_dtype, x._data)
    frames = _swap_last(x)  # [batch, n_frames, freq]
    norm = "ortho" if normalized else "backward"
    if return_complex:
        _require(
            not onesided,
            "onesided should be False when input(output of istft) or window is a complex Tensor.",
        )
        signal = fft.ifft(frames, norm=norm)
    else:
        _require(
            window._data.dtype.kind != "c",
            "Data type of window should not be complex when return_complex is False.",
        )
        if not onesided:
            frames = frames[:, :, : n_fft // 2 + 1]
        signal = fft.irfft(frames, n=n_fft, norm=norm)
    out = overlap_add_last(signal * window, hop_length)  # [batch, seq_length]
    # The overlap-added squared window, a graph in the window so it is differentiable too.
    squared = window * conj(window) if window._data.dtype.kind == "c" else window * window
    squared = broadcast_to(
        real(squared) if squared._data.dtype.kind == "c" else squared, [n_frames, n_fft]
    )
    envelope = overlap_add_last(squared, hop_length)
    start = n_fft // 2 if center else 0
    if length is not None:
        stop = start + length
    else:
        stop = out.shape[-1] - start
    out, envelope = out[:, start:stop], envelope[start:stop]
    xp = get_array_module(x._data)
    if envelope._data.size and float(xp.abs(envelope._data).min()) < 1e-11:
        raise ValueError(
            "Abort istft because Nonzero Overlap Add (NOLA) condition failed. For more "
            "information about NOLA constraint please see `scipy.signal.check_NOLA`"
            "(https://docs.scipy.org/doc/scipy/reference/generated/scipy.signal.check_NOLA.html)."
        )
    out = out / envelope
    return reshape(out, out.shape[1:]) if rank == 2 else out
