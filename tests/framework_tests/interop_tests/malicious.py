"""Hand-made pickles that would run code, packed the way each weight format packs its pickle.

Each payload, if unpickled by a plain `pickle.load`, creates `marker` -- the tests assert the
restricted readers raise and the marker never appears. None of this needs torch or paddle.
"""

from __future__ import annotations

import builtins
import functools
import os
import pickle
import subprocess
import zipfile
from pathlib import Path
from typing import Any

LEGACY_MAGIC = 0x1950A86A20F9469CFC6C


class Reduce:
    """An object that pickles as `function(*args)`."""

    def __init__(self, function: Any, *args: Any) -> None:
        self.function = function
        self.args = args

    def __reduce__(self) -> tuple:
        return self.function, self.args


def payloads(marker: Path) -> dict[str, Any]:
    """Named objects whose unpickling would create `marker`."""
    code = f"open({str(marker)!r}, 'w').write('pwned')"
    return {
        "os.system": Reduce(os.system, f"touch {marker}"),
        "builtins.exec": Reduce(builtins.exec, code),
        "builtins.eval": Reduce(builtins.eval, code),
        "subprocess.call": Reduce(subprocess.call, ["touch", str(marker)]),
        "functools.partial": Reduce(functools.partial(builtins.exec, code)),
        "builtins.getattr": Reduce(getattr, Reduce(builtins.__import__, "os"), "system"),
        "builtins.__import__": Reduce(builtins.__import__, "os"),
    }


def expected_names(name: str) -> tuple[str, ...]:
    """What the error may call the global (os.system is posix.system on Linux)."""
    return {"os.system": ("os.system", "posix.system", "nt.system")}.get(name, (name,))


def state_with(evil: Any) -> dict[str, Any]:
    """A plausible state dict with the payload tucked inside."""
    return {"conv.weight": [1.0, 2.0], "meta": {"epoch": 3, "hook": evil}}


def write_torch_zip(path: Path, obj: Any, folder: str = "archive") -> Path:
    """A `torch.save`-shaped zip whose data.pkl pickles `obj` (protocol 2, as torch)."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as archive:
        archive.writestr(f"{folder}/data.pkl", pickle.dumps(obj, protocol=2))
        archive.writestr(f"{folder}/byteorder", "little")
        archive.writestr(f"{folder}/version", "3\n")
    return path


def write_torch_legacy(path: Path, obj: Any) -> Path:
    """A legacy `torch.save` file (magic, protocol, sys info, object, storage keys)."""
    sys_info = {"protocol_version": 1001, "little_endian": True, "type_sizes": {}}
    with open(path, "wb") as stream:
        for part in (LEGACY_MAGIC, 1001, sys_info, obj, []):
            pickle.dump(part, stream, protocol=2)
    return path


def write_pdparams(path: Path, obj: Any, protocol: int = 4) -> Path:
    with open(path, "wb") as stream:
        pickle.dump(obj, stream, protocol=protocol)
    return path
