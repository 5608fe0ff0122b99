"""A restricted unpickler for weight files: tensors and plain containers in, nothing else, and
no more memory than the file can justify.

Torch `.pth` and Paddle `.pdparams` files are pickles, and a pickle can name any importable
callable (`os.system`, `builtins.exec`) and have the loader call it. `RestrictedUnpickler` only
resolves the globals in an explicit table, each mapped to OUR implementation (never the original
callable of another library), so loading a file cannot run code from it. Anything else stops the
load with `UnsafePickleError`, naming the global, before it is called.

A pickle can also ask for memory out of all proportion to its size (`bytearray(2**40)` is 30
bytes). Every load therefore carries a `MemoryBudget`: what the file's opcodes build, what the
admitted globals allocate and what the readers copy or decompress is charged to it first, and a
charge beyond it raises `CheckpointTooLargeError` before anything is allocated.

    from framework.interop.pickle_globals import BUILTIN_GLOBALS, NUMPY_GLOBALS

    budget = MemoryBudget("'model.pdparams'", file_size=os.path.getsize(path))
    with open(path, "rb") as stream:
        obj = load_pickle(stream, NUMPY_GLOBALS | BUILTIN_GLOBALS, budget.where, budget=budget)
"""

from __future__ import annotations

import _compat_pickle
import copyreg
import io
import os
import pickle
import pickletools
import reprlib
from collections.abc import Callable, Mapping
from contextvars import ContextVar
from typing import IO, Any

__all__ = [
    "DEFAULT_MAX_BYTES",
    "MAX_NESTING",
    "CheckpointError",
    "CheckpointTooLargeError",
    "MemoryBudget",
    "RestrictedUnpickler",
    "UnsafePickleError",
    "brief_repr",
    "charge",
    "display_name",
    "human_size",
    "load_pickle",
    "marker_class",
    "open_weight_file",
]

# The ceiling on one load, whatever the file's size; callers (the platform) pass their own.
DEFAULT_MAX_BYTES = 8 * 2**30
# Within that ceiling a file may allocate FILE_SIZE_FACTOR times its size plus SLACK_BYTES. A
# torch zip's tensors are at most its stored bytes (1x, torch never compresses them); widening
# bfloat16 to float32 makes one more copy twice their size (3x); a Paddle pickle holds its
# arrays' bytes (1x) and joining split big parameters copies them once more (2x). The fourth
# share and the slack pay for the pickle's own objects, which a small file has proportionally
# more of, and for small tensors a file may legitimately expand (a stride-0 `expand`).
FILE_SIZE_FACTOR = 4
SLACK_BYTES = 64 * 2**20
# Real checkpoints nest a few levels (checkpoint -> optimizer -> state -> param -> tensor).
MAX_NESTING = 100


class CheckpointError(ValueError):
    """A weight file that cannot be read: truncated, corrupt, or of an unsupported kind."""


class UnsafePickleError(CheckpointError, pickle.UnpicklingError):
    """The pickle names a global outside the allow-list (`os.system`, an arbitrary class...).

    Raised by `find_class`, before anything the file names is called.
    """

    def __init__(self, qualified_name: str, where: str = "the pickle", why: str = "") -> None:
        self.qualified_name = qualified_name
        reason = why or "it is not a tensor, an array or a plain container"
        super().__init__(
            f"refusing to load {where}: it asks for '{qualified_name}', and {reason}. "
            "Only tensors, NumPy arrays and plain containers are admitted; nothing from the "
            "file was executed."
        )


class CheckpointTooLargeError(CheckpointError):
    """The file asks for more memory than its load may use (see `MemoryBudget`).

    Raised before the allocation it refuses; `requested` is what was asked for, `limit` the
    load's whole budget, in bytes.
    """

    def __init__(self, message: str, *, requested: int = 0, limit: int = 0) -> None:
        super().__init__(message)
        self.requested = requested
        self.limit = limit


def human_size(nbytes: int) -> str:
    """`nbytes` for people: '89 bytes', '4.0 KiB', '2.8 GiB'."""
    if nbytes < 1024:
        return f"{nbytes} bytes"
    size = float(nbytes)
    for unit in ("KiB", "MiB", "GiB", "TiB", "PiB"):
        size /= 1024
        if size < 1024 or unit == "PiB":
            break
    return f"{size:.1f} {unit}"


class MemoryBudget:
    """What one load may allocate: `min(max_bytes, FILE_SIZE_FACTOR * file_size +
    SLACK_BYTES)` bytes, charged as the readers go and never given back (a load's arrays
    live until it returns). `where` names the file in messages.

        budget = MemoryBudget("'model.pth'", file_size=89)
        budget.charge(2**31, "a bytearray")   # CheckpointTooLargeError
    """

    def __init__(self, where: str, file_size: int, max_bytes: int = DEFAULT_MAX_BYTES) -> None:
        if isinstance(max_bytes, bool) or not isinstance(max_bytes, int) or max_bytes <= 0:
            raise ValueError(f"max_bytes must be a positive number of bytes, got {max_bytes!r}")
        self.where = where
        self.file_size = file_size
        self.max_bytes = max_bytes
        self.limit = min(max_bytes, FILE_SIZE_FACTOR * file_size + SLACK_BYTES)
        self.used = 0

    def charge(self, nbytes: int, what: str, at_least: bool = False) -> None:
        """Account for `nbytes` about to be allocated for `what` ('a bytearray'), or raise
        CheckpointTooLargeError when the load would pass its limit. `at_least` says that
        `nbytes` is where counting stopped, not the whole request."""
        if nbytes < 0:
            raise CheckpointError(f"corrupt checkpoint {self.where}: {what} has a negative size")
        if self.used + nbytes > self.limit:
            raise CheckpointTooLargeError(
                self._refusal(nbytes, what, at_least), requested=nbytes, limit=self.limit
            )
        self.used += nbytes

    def _refusal(self, nbytes: int, what: str, at_least: bool) -> str:
        amount = f"at least {human_size(nbytes)}" if at_least else human_size(nbytes)
        asked = f"refusing to load {self.where}: it asks for {amount} for {what}"
        if self.used:
            asked += f" on top of {human_size(self.used)} already allocated"
        if self.limit == self.max_bytes:
            return f"{asked}, but one load may allocate at most {human_size(self.max_bytes)}"
        return (
            f"{asked}, but a file of {human_size(self.file_size)} can hold at most "
            f"{human_size(self.limit)} of tensors (limit: {FILE_SIZE_FACTOR} x its size + "
            f"{human_size(SLACK_BYTES)}, at most {human_size(self.max_bytes)}); it is damaged "
            "or made to exhaust memory"
        )


# The budget of the pickle being loaded, for the functions of the global tables, which the
# unpickler calls with the file's arguments only.
_ACTIVE_BUDGET: ContextVar[MemoryBudget | None] = ContextVar("active_budget", default=None)


def charge(nbytes: int, what: str) -> None:
    """Charge the budget of the pickle `RestrictedUnpickler` is loading (see MemoryBudget)."""
    budget = _ACTIVE_BUDGET.get()
    if budget is None:  # fail closed: these functions only run inside a load
        raise RuntimeError(f"{what} allocated outside RestrictedUnpickler.load")
    budget.charge(nbytes, what)


def marker_class(qualified_name: str) -> type:
    """A stand-in for a class that may appear as an argument (a type tag) but never be built.

    `numpy.ndarray` is the `subtype` argument of `_reconstruct`, and `torch.Tensor` that of
    `_rebuild_from_type_v2`; returning the real class would let `REDUCE` or `NEWOBJ` call it
    with arguments of the file's choosing.
    """

    def refuse(cls: type, *args: object, **kwargs: object) -> None:
        raise UnsafePickleError(qualified_name, why="it may only be used as a type tag")

    return type(f"Marker[{qualified_name}]", (), {"__new__": refuse, "name": qualified_name})


class RestrictedUnpickler(pickle.Unpickler):
    """An Unpickler that resolves only the globals in `allowed`, hands persistent ids to
    `persistent_load` (a callable; refused when none is given), and charges `budget` for the
    objects the pickle builds before building them.

    `allowed` maps `(module, name)` to the object to use instead; `explain` may return a
    replacement or raise a clearer error for a global outside the table. `file` must be
    seekable: `load` reads the pickle's opcodes once to price them, then unpickles. Without
    a budget, the pickle may allocate what the rest of the stream could hold.
    """

    def __init__(
        self,
        file: IO[bytes],
        allowed: Mapping[tuple[str, str], object],
        persistent_load: Callable[[object], object] | None = None,
        where: str = "the pickle",
        encoding: str = "ASCII",
        explain: Callable[[str, str], object] | None = None,
        budget: MemoryBudget | None = None,
    ) -> None:
        super().__init__(file, encoding=encoding)
        self._file = file
        self._allowed = allowed
        self._persistent = persistent_load
        self._where = where
        self._explain = explain
        self._budget = budget or MemoryBudget(where, _remaining_bytes(file))

    def load(self) -> Any:
        _charge_opcodes(self._file, self._budget, self._where)
        token = _ACTIVE_BUDGET.set(self._budget)
        try:
            return super().load()
        finally:
            _ACTIVE_BUDGET.reset(token)

    def find_class(self, module: str, name: str) -> Any:
        # Protocol 0-2 pickles name Python 2 modules (`__builtin__`, `copy_reg`); map them as
        # pickle's own find_class does, then check the Python 3 name against the table.
        if (module, name) in _compat_pickle.NAME_MAPPING:
            module, name = _compat_pickle.NAME_MAPPING[(module, name)]
        module = _compat_pickle.IMPORT_MAPPING.get(module, module)
        found = self._allowed.get((module, name))
        if found is not None:
            return found
        if self._explain is not None:
            special = self._explain(module, name)  # may raise a more specific error
            if special is not None:
                return special
        raise UnsafePickleError(f"{module}.{name}", self._where)

    def persistent_load(self, pid: object) -> Any:
        if self._persistent is None:
            raise UnsafePickleError(
                f"persistent id {brief_repr(pid)}", self._where, "this format has no persistent ids"
            )
        return self._persistent(pid)


def display_name(path: str | os.PathLike, name: str | None = None) -> str:
    """What messages call the file: `name`, else its base name. Never its folder, which on a
    server is a path of no concern to the person reading the message."""
    return name if name is not None else os.path.basename(os.fspath(path))


def open_weight_file(path: str | os.PathLike, name: str | None = None) -> tuple[IO[bytes], str]:
    """The file opened for binary reading, and how messages name it (`display_name`, quoted).

    FileNotFoundError / IsADirectoryError / CheckpointError carry that name, not the path.
    """
    path = os.fspath(path)
    where = repr(display_name(path, name))
    if not os.path.exists(path):
        raise FileNotFoundError(2, f"no such weight file: {where}")
    if os.path.isdir(path):
        raise IsADirectoryError(21, f"expected a weight file, got the folder {where}")
    try:
        return open(path, "rb"), where
    except OSError as exc:
        raise CheckpointError(f"cannot open {where}: {exc.strerror}") from None


def load_pickle(
    stream: IO[bytes],
    allowed: Mapping[tuple[str, str], object],
    where: str,
    persistent_load: Callable[[object], object] | None = None,
    encoding: str = "ASCII",
    explain: Callable[[str, str], object] | None = None,
    budget: MemoryBudget | None = None,
) -> Any:
    """One pickle from `stream` through `RestrictedUnpickler`, charged to `budget`; a corrupt
    or truncated pickle raises CheckpointError (its subclasses pass through)."""
    unpickler = RestrictedUnpickler(
        stream, allowed, persistent_load, where, encoding, explain, budget
    )
    try:
        return unpickler.load()
    except CheckpointError:
        raise
    except RecursionError as exc:
        raise CheckpointError(f"{where} is nested too deeply to load") from exc
    except (pickle.UnpicklingError, EOFError, ValueError, TypeError, KeyError, IndexError) as exc:
        raise CheckpointError(
            f"{where} is not a valid pickle (truncated or corrupt): {exc}"
        ) from exc
    # SystemError: NumPy's ndarray.__setstate__ on a crafted void dtype that claims objects.
    except (AttributeError, UnicodeDecodeError, OverflowError, MemoryError, SystemError) as exc:
        raise CheckpointError(
            f"{where} is not a valid pickle (truncated or corrupt): {exc}"
        ) from exc


_BRIEF = reprlib.Repr()
_BRIEF.maxstring = _BRIEF.maxother = 80


def brief_repr(obj: object) -> str:
    """A repr short enough for a message, whatever the file put in `obj`."""
    return _BRIEF.repr(obj)


def _remaining_bytes(stream: IO[bytes]) -> int:
    start = stream.tell()
    end = stream.seek(0, io.SEEK_END)
    stream.seek(start)
    return end - start


# --- pricing a pickle before it is unpickled ---------------------------------------------------
_OPCODES = {op.code.encode("latin-1")[0]: op for op in pickletools.opcodes}
# Each opcode makes at most one small Python object and a stack, mark or memo slot for it;
# charging every opcode the same also bounds how many a load may run.
_OPCODE_BYTES = 64
_SET_BYTES = 256  # an empty set or frozenset alone takes 216 bytes
# ndarray.__setstate__ copies data of up to 1000 bytes (larger data stays shared with the
# pickle's bytes object, which is charged as an argument), so one BUILD may copy that much.
_BUILD_BYTES = 1024 + _OPCODE_BYTES
# The C unpickler grows its memo array to twice an index it is asked to store at, zero-filled:
# an 8-byte pickle storing at index 2**32 - 1 would take 64 GiB.
_MEMO_SLOT_BYTES = 16
_OPCODE_COST = {"EMPTY_SET": _SET_BYTES, "FROZENSET": _SET_BYTES, "BUILD": _BUILD_BYTES}
_LENGTH_PREFIX = {  # how the length of a counted argument is stored: bytes, signed
    pickletools.TAKEN_FROM_ARGUMENT1: (1, False),
    pickletools.TAKEN_FROM_ARGUMENT4: (4, True),
    pickletools.TAKEN_FROM_ARGUMENT4U: (4, False),
    pickletools.TAKEN_FROM_ARGUMENT8U: (8, False),
}
_MEMO_PUTS = {"PUT", "BINPUT", "LONG_BINPUT"}
_Truncated = Callable[[str], CheckpointError]


def _charge_opcodes(stream: IO[bytes], budget: MemoryBudget, where: str) -> None:
    """Walk the pickle's opcodes up to STOP, without building anything, and charge `budget`
    for what unpickling them builds: each opcode, the bytes of its arguments, frames, memo
    growth. Counted arguments are skipped with seek, so a pickle of large arrays is priced
    without being read twice. Also refuses copyreg extension codes (see below)."""
    start = stream.tell()
    end = stream.seek(0, io.SEEK_END)
    stream.seek(start)

    def truncated(detail: str) -> CheckpointError:
        return CheckpointError(f"{where} is not a valid pickle (truncated or corrupt): {detail}")

    cost, memo_size, stopped = 0, 0, False
    while not stopped:
        op, value, argument_bytes = _read_opcode(stream, end, truncated)
        cost += _OPCODE_COST.get(op.name, _OPCODE_BYTES) + argument_bytes
        if op.name == "FRAME":  # the unpickler reads a whole frame into memory first
            if value > end - stream.tell():
                raise truncated("FRAME claims more bytes than the pickle holds")
            cost += value
        elif op.name in _MEMO_PUTS:
            index = _memo_index(value, truncated)
            if index >= memo_size:
                cost += (index + 1 - memo_size) * _MEMO_SLOT_BYTES
                memo_size = index + 1
        elif op.name.startswith("EXT"):
            _refuse_extension_code(value, where)
        elif op.name == "STOP":
            break
        stopped = cost > budget.limit - budget.used  # then charge() refuses the file
    stream.seek(start)
    budget.charge(cost, "the objects its pickle builds", at_least=stopped)


def _read_opcode(
    stream: IO[bytes], end: int, truncated: _Truncated
) -> tuple[pickletools.OpcodeInfo, int | bytes | None, int]:
    """The next opcode, its argument's value where it is an index or a length (text for
    newline-ended ones), and how many argument bytes the unpickler will hold in memory."""
    code = stream.read(1)
    if not code:
        raise truncated("it ends before its STOP opcode")
    op = _OPCODES.get(code[0])
    if op is None:
        raise truncated(f"unknown opcode {code!r}")
    arg = op.arg
    if arg is None:
        return op, None, 0
    if arg.n >= 0:  # a fixed-size argument: an index, a length, a float
        data = stream.read(arg.n)
        if len(data) != arg.n:
            raise truncated(f"{op.name} is cut short")
        return op, int.from_bytes(data, "little", signed=arg.name == "int4"), 0
    if arg.n == pickletools.UP_TO_NEWLINE:  # text; GLOBAL and INST have two lines
        lines = [stream.readline() for _ in range(2 if "pair" in arg.name else 1)]
        if not all(line.endswith(b"\n") for line in lines):
            raise truncated(f"{op.name} is cut short")
        return op, lines[0], sum(map(len, lines))
    width, signed = _LENGTH_PREFIX[arg.n]  # counted: strings, bytes, big integers
    data = stream.read(width)
    length = int.from_bytes(data, "little", signed=signed)
    if len(data) != width or length < 0 or length > end - stream.tell():
        raise truncated(f"{op.name} claims more bytes than the pickle holds")
    stream.seek(length, io.SEEK_CUR)
    return op, None, length


def _memo_index(value: int | bytes, truncated: _Truncated) -> int:
    if isinstance(value, int):
        return value
    try:
        return int(value)  # PUT's text index, newline included (int() strips it)
    except ValueError:
        raise truncated(f"bad memo index {brief_repr(value)}") from None


def _refuse_extension_code(code: int, where: str) -> None:
    """The EXT1/2/4 opcodes name a global by a number from `copyreg`'s extension registry, and
    the unpickler resolves a number it has seen before from a cache, without `find_class`.
    The registry is empty unless some library fills it; an unregistered code fails when
    unpickled."""
    if code in copyreg._inverted_registry:
        module, name = copyreg._inverted_registry[code]
        raise UnsafePickleError(
            f"{module}.{name}", where, "it is named by a copyreg extension code"
        )
