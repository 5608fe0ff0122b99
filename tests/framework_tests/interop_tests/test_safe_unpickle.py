"""The restricted unpickler: arrays and plain containers load, anything that runs code does not."""

from __future__ import annotations

import io
import pickle
from collections import OrderedDict
from pathlib import Path

import numpy as np
import pytest

from framework.interop import paddle as paddle_bridge
from framework.interop import torch as torch_bridge
from framework.interop.pickle_globals import BUILTIN_GLOBALS, NUMPY_GLOBALS
from framework.interop.safe_unpickle import (
    CheckpointError,
    CheckpointTooLargeError,
    MemoryBudget,
    UnsafePickleError,
    load_pickle,
)
from tests.framework_tests.interop_tests.malicious import (
    Reduce,
    expected_names,
    payloads,
    state_with,
    write_pdparams,
    write_torch_legacy,
    write_torch_zip,
)

ALLOWED = {**NUMPY_GLOBALS, **BUILTIN_GLOBALS}
PAYLOADS = sorted(payloads(Path("unused")))
WRITERS = {
    "torch zip": (write_torch_zip, torch_bridge.load_state_dict, ".pth"),
    "torch legacy": (write_torch_legacy, torch_bridge.load_state_dict, ".pt"),
    "pdparams": (write_pdparams, paddle_bridge.load_state_dict, ".pdparams"),
}


def restricted_loads(data: bytes) -> object:
    return load_pickle(io.BytesIO(data), ALLOWED, "test pickle", encoding="latin1")


@pytest.mark.parametrize("payload", PAYLOADS)
@pytest.mark.parametrize("kind", sorted(WRITERS))
def test_it_rejects_code_execution_and_runs_nothing(tmp_path: Path, kind: str, payload: str):
    marker = tmp_path / "marker"
    write, load, suffix = WRITERS[kind]
    path = write(tmp_path / f"evil{suffix}", state_with(payloads(marker)[payload]))
    with pytest.raises(UnsafePickleError) as caught:
        load(path)
    assert caught.value.qualified_name in expected_names(payload)
    assert any(name in str(caught.value) for name in expected_names(payload))
    assert "nothing from the file was executed" in str(caught.value)
    assert not marker.exists()


def test_the_payloads_do_run_under_plain_pickle(tmp_path: Path):
    # guards the test above: the payloads are live, so their rejection means something
    marker = tmp_path / "marker"
    pickle.loads(pickle.dumps(payloads(marker)["builtins.exec"]))
    assert marker.read_text() == "pwned"


class Arbitrary:
    pass


@pytest.mark.parametrize(
    "obj, name",
    [
        (Arbitrary(), f"{__name__}.Arbitrary"),
        (Reduce(OrderedDict.fromkeys, ["a"]), "builtins.getattr"),
        (Reduce(np.load, "x.npy"), "numpy.load"),
        (Reduce(np.ndarray, (2,), "f4"), "numpy.ndarray"),
    ],
)
def test_it_rejects_arbitrary_classes_and_callables(obj: object, name: str):
    with pytest.raises(UnsafePickleError) as caught:
        restricted_loads(pickle.dumps(obj, protocol=4))
    assert name in str(caught.value)


def test_it_refuses_latin1_encode_with_another_codec():
    import _codecs

    with pytest.raises(UnsafePickleError, match="_codecs.encode"):
        restricted_loads(pickle.dumps(Reduce(_codecs.encode, "abc", "rot13"), protocol=2))


def test_it_refuses_persistent_ids_where_the_format_has_none():
    class WithId(pickle.Pickler):
        def persistent_id(self, obj: object) -> object:
            return "storage-0" if obj == "ref" else None

    stream = io.BytesIO()
    WithId(stream, protocol=2).dump({"a": "ref"})
    with pytest.raises(UnsafePickleError, match="persistent id"):
        restricted_loads(stream.getvalue())


@pytest.mark.parametrize("protocol", [2, 3, 4, 5])
@pytest.mark.parametrize(
    "dtype", ["float16", "float32", "float64", "int8", "int32", "int64", "uint8", "bool"]
)
def test_it_loads_numpy_arrays_of_every_protocol(protocol: int, dtype: str):
    array = (np.arange(24).reshape(2, 3, 4) % 7).astype(dtype)
    fortran = np.asfortranarray(array)
    obj = {"a": array, "f": fortran, "empty": np.zeros((0, 3), dtype), "s": array[0, 0]}
    loaded = restricted_loads(pickle.dumps(obj, protocol=protocol))
    for key in obj:
        np.testing.assert_array_equal(loaded[key], obj[key])
        assert np.asarray(loaded[key]).dtype == np.dtype(dtype)


def test_it_loads_plain_containers():
    obj = OrderedDict(
        a=[1, 2.5, "x", None, True], b=(1, (2, 3)), c={1, 2}, d=frozenset({3}), e=slice(1, 5),
        f=b"raw", g=bytearray(b"ab"), h=complex(1, 2),
    )  # fmt: skip
    for protocol in (2, 4):
        assert restricted_loads(pickle.dumps(obj, protocol=protocol)) == obj


def test_it_reads_numpy_1_module_names():
    data = pickle.dumps({"w": np.ones(3, "float32")}, protocol=2)
    assert b"numpy._core.multiarray" in data
    data = data.replace(b"numpy._core.multiarray", b"numpy.core.multiarray")
    np.testing.assert_array_equal(restricted_loads(data)["w"], np.ones(3))


@pytest.mark.parametrize("data", [b"", b"\x80\x04\x95", b"not a pickle at all"])
def test_it_reports_corrupt_pickles_as_checkpoint_errors(data: bytes):
    with pytest.raises(CheckpointError, match="not a valid pickle"):
        restricted_loads(data)


def test_a_shape_that_is_not_a_tuple_is_corrupt():
    from framework.interop.pickle_globals import NDARRAY_MARKER, _reconstruct

    with pytest.raises(CheckpointError, match="bad shape"):
        _reconstruct(NDARRAY_MARKER, "boom", "f4")


def test_extension_codes_cannot_smuggle_a_cached_global(tmp_path: Path):
    """EXT opcodes name globals by number; once a plain unpickle resolved a number, the C
    unpickler answers it from a cache without calling find_class."""
    import copyreg
    import os

    copyreg.add_extension("os", "system", 0x7FFF00)
    try:
        data = b"\x80\x02\x84\x00\xff\x7f\x00."  # EXT4 0x7fff00, STOP
        assert pickle.loads(data) is os.system  # the cache now holds it
        path = write_pdparams(tmp_path / "ext.pdparams", {})
        path.write_bytes(data)
        with pytest.raises(UnsafePickleError, match="'os.system'.*copyreg extension code"):
            paddle_bridge.load_state_dict(path)
        with pytest.raises(UnsafePickleError, match="os.system"):
            restricted_loads(data)
    finally:
        copyreg.remove_extension("os", "system", 0x7FFF00)
    with pytest.raises(CheckpointError, match="unregistered extension code"):
        restricted_loads(data)


@pytest.mark.parametrize("protocol", [0, 1, 2, 3, 4, 5])
def test_it_loads_bytearrays_of_every_protocol(protocol: int):
    """Protocols 0-2 write a bytearray as `bytearray(text, 'latin-1')`; 3-4 from bytes; 5 as
    BYTEARRAY8."""
    obj = {"b": bytearray(b"\x00\xff\x80ab" * 3), "empty": bytearray(), "raw": b"\xff\x00"}
    assert restricted_loads(pickle.dumps(obj, protocol=protocol)) == obj


@pytest.mark.parametrize(
    "reduce",
    [
        Reduce(bytearray, "\U0010ffff" * 8, "unicode_escape"),  # ten bytes a character
        Reduce(bytearray, "\u0100" * 8, "latin-1", "backslashreplace"),  # ten again
        Reduce(bytearray, "abc", "utf-32"),
        Reduce(bytes, "abc", "rot13"),
        Reduce(bytearray, "abc"),
    ],
    ids=["unicode_escape", "backslashreplace", "utf-32", "bytes-rot13", "no-encoding"],
)
def test_bytearray_text_is_admitted_in_latin1_only(reduce: Reduce):
    with pytest.raises(UnsafePickleError, match=r"builtins\.(bytearray|bytes).*latin-1 only"):
        restricted_loads(pickle.dumps(reduce, protocol=2))


def test_a_bytearray_from_text_is_charged_its_length():
    """`bytearray(n latin-1 characters)` costs the n bytes it makes, on top of the text the
    unpickler holds (n bytes of the pickle): two bytes a character, not more."""

    def used(n: int) -> int:
        data = pickle.dumps(Reduce(bytearray, "a" * n, "latin-1"), protocol=2)
        budget = MemoryBudget("test pickle", file_size=len(data))
        assert load_pickle(io.BytesIO(data), ALLOWED, "test pickle", budget=budget) == b"a" * n
        return budget.used

    assert used(3000) - used(1000) == 2 * 2000


def test_a_bytearray_of_more_than_the_file_holds_is_refused_before_it_is_made():
    data = pickle.dumps(Reduce(bytearray, 2**40), protocol=2)  # 1 TiB from a 30-byte pickle
    with pytest.raises(CheckpointTooLargeError, match=r"1\.0 TiB for a bytearray") as caught:
        restricted_loads(data)
    assert caught.value.limit == MemoryBudget("x", len(data)).limit
