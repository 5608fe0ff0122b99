"""`Config`: where the model is and how to run it, as `paddle.inference.Config`.

config = Config("out/resnet")                  # out/resnet.json + out/resnet.safetensors
config = Config("out/resnet.json", "out/resnet.safetensors")
config.enable_use_gpu(256, 0)                  # or config.disable_gpu()
config.switch_ir_optim(True)                   # graph passes (default on)
config.enable_memory_optim()                   # buffer reuse (default on here)
config.set_cpu_math_library_num_threads(2)
predictor = create_predictor(config)
"""

from __future__ import annotations

import os

from framework.inference.passes import DEFAULT_PIPELINE, PASSES
from framework.jit.serialization import model_paths


class Config:
    def __init__(
        self, model_path: str | os.PathLike | None = None, params_file: str | None = None
    ) -> None:
        self._prog_file: str | None = None
        self._params_file: str | None = None
        if model_path is not None:
            if params_file is not None:
                self.set_model(model_path, params_file)
            else:
                self._prog_file, self._params_file = model_paths(model_path)
        self._use_gpu = False
        self._device_id = 0
        self._memory_pool_mb = 0
        self._ir_optim = True
        self._memory_optim = True
        self._threads: int | None = None
        self._passes = list(DEFAULT_PIPELINE)

    # --- the model ------------------------------------------------------------------------------
    def set_model(self, prog_file: str | os.PathLike, params_file: str | os.PathLike) -> None:
        """Use the graph in `prog_file` (.json) with the weights in `params_file`."""
        self._prog_file = os.fspath(prog_file)
        self._params_file = os.fspath(params_file)

    def set_prog_file(self, prog_file: str) -> None:
        self._prog_file = os.fspath(prog_file)

    def set_params_file(self, params_file: str) -> None:
        self._params_file = os.fspath(params_file)

    def prog_file(self) -> str | None:
        return self._prog_file

    def params_file(self) -> str | None:
        return self._params_file

    def model_dir(self) -> str | None:
        return os.path.dirname(self._prog_file) if self._prog_file else None

    # --- device ---------------------------------------------------------------------------------
    def enable_use_gpu(
        self, memory_pool_init_size_mb: int = 100, device_id: int = 0, precision_mode=None
    ) -> None:
        """Run on GPU `device_id` (CuPy). The memory pool size is a hint (CuPy grows its own)."""
        self._use_gpu = True
        self._device_id = int(device_id)
        self._memory_pool_mb = int(memory_pool_init_size_mb)

    def disable_gpu(self) -> None:
        self._use_gpu = False

    def use_gpu(self) -> bool:
        return self._use_gpu

    def gpu_device_id(self) -> int:
        return self._device_id

    def memory_pool_init_size_mb(self) -> int:
        return self._memory_pool_mb

    # --- optimisation ---------------------------------------------------------------------------
    def switch_ir_optim(self, x: bool = True) -> None:
        """Turn the graph passes on or off."""
        self._ir_optim = bool(x)

    def ir_optim(self) -> bool:
        return self._ir_optim

    def enable_memory_optim(self, x: bool = True) -> None:
        """Reuse buffers planned from value lifetimes (in-place elementwise ops, an arena of
        arrays). On by default here; `enable_memory_optim(False)` turns it off."""
        self._memory_optim = bool(x)

    def memory_optim_enabled(self) -> bool:
        return self._memory_optim

    def delete_pass(self, name: str) -> None:
        """Leave one graph pass out (names: see `framework.inference.passes.PASSES`)."""
        if name not in PASSES:
            raise ValueError(f"unknown pass {name!r}; available: {sorted(PASSES)}")
        self._passes = [p for p in self._passes if p != name]

    def passes(self) -> list[str]:
        """The passes that run when ir_optim is on, in order."""
        return list(self._passes) if self._ir_optim else []

    def set_cpu_math_library_num_threads(self, cpu_math_library_num_threads: int) -> None:
        """CPU cores one predictor run may use (default: all of them, at most 8). The
        predictor shares its convolution chunks out over these cores itself and keeps the
        BLAS library single-threaded while it runs (see `framework.backends.cpu.blas_threads`)."""
        self._threads = max(1, int(cpu_math_library_num_threads))

    def cpu_math_library_num_threads(self) -> int | None:
        return self._threads

    def summary(self) -> str:
        rows = [
            ("model", self._prog_file),
            ("params", self._params_file),
            ("device", f"gpu:{self._device_id}" if self._use_gpu else "cpu"),
            ("ir_optim", self._ir_optim),
            ("passes", ", ".join(self.passes()) or "-"),
            ("memory_optim", self._memory_optim),
            ("cpu_math_threads", self._threads or "default"),
        ]
        return "\n".join(f"{key:<18}{value}" for key, value in rows)

    def __repr__(self) -> str:
        return f"Config({self._prog_file!r})"
