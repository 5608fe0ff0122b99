"""The predictor API: handles, run forms, options, errors, and thread-safe clones."""

from __future__ import annotations

import threading

import numpy as np
import pytest

import framework
import framework.nn.functional as F
from framework import nn
from framework.inference import Config, Predictor, create_predictor
from framework.jit import InputSpec, ModelFormatError


class TwoHeads(nn.Layer):
    def __init__(self) -> None:
        super().__init__()
        self.conv = nn.Conv2D(3, 8, 3, padding=1)
        self.bn = nn.BatchNorm2D(8)
        self.fc = nn.Linear(8, 4)

    def forward(self, image, scale):
        y = F.relu(self.bn(self.conv(image)))
        pooled = F.adaptive_avg_pool2d(y, 1).flatten(1)
        return self.fc(pooled) * scale, pooled


SPECS = [InputSpec([None, 3, 8, 8], "float32", "image"), InputSpec([None, 1], "float32", "scale")]


@pytest.fixture(scope="module")
def model_path(tmp_path_factory):
    model = TwoHeads()
    rng = np.random.default_rng(0)
    model.bn._mean.set_value(rng.normal(0, 0.2, 8).astype(np.float32))
    model.eval()
    path = str(tmp_path_factory.mktemp("model") / "two_heads")
    framework.jit.save(model, path, input_spec=SPECS)
    return model, path


def _inputs(batch: int, seed: int = 0) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    return [
        rng.standard_normal((batch, 3, 8, 8)).astype(np.float32),
        rng.uniform(0.5, 2.0, (batch, 1)).astype(np.float32),
    ]


def _eager(model, arrays) -> list[np.ndarray]:
    with framework.no_grad():
        return [t.numpy() for t in model(*[framework.to_tensor(a) for a in arrays])]


def test_handles_feed_and_fetch_by_name(model_path) -> None:
    model, path = model_path
    predictor = create_predictor(Config(path))
    assert isinstance(predictor, Predictor)
    assert predictor.get_input_names() == ["image", "scale"]
    assert predictor.get_output_names() == ["output_0", "output_1"]
    arrays = _inputs(3)
    for name, array in zip(predictor.get_input_names(), arrays, strict=True):
        handle = predictor.get_input_handle(name)
        handle.reshape(array.shape)
        handle.copy_from_cpu(array)
    assert predictor.run() is True
    want = _eager(model, arrays)
    for name, expected in zip(predictor.get_output_names(), want, strict=True):
        handle = predictor.get_output_handle(name)
        assert handle.shape() == list(expected.shape)
        assert handle.type() == np.float32
        np.testing.assert_allclose(handle.copy_to_cpu(), expected, rtol=1e-5, atol=1e-5)


def test_run_with_a_list_returns_arrays(model_path) -> None:
    model, path = model_path
    predictor = create_predictor(Config(path))
    arrays = _inputs(1)
    outputs = predictor.run(arrays)
    assert all(isinstance(o, np.ndarray) for o in outputs)
    for got, want in zip(outputs, _eager(model, arrays), strict=True):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_results_are_owned_by_the_caller(model_path) -> None:
    _, path = model_path
    predictor = create_predictor(Config(path))
    first = predictor.run(_inputs(2, seed=1))[0]
    kept = first.copy()
    predictor.run(_inputs(2, seed=2))
    np.testing.assert_array_equal(first, kept)


@pytest.mark.parametrize("ir_optim, memory_optim", [(False, False), (False, True), (True, False)])
def test_options_do_not_change_results(model_path, ir_optim, memory_optim) -> None:
    model, path = model_path
    config = Config(path)
    config.switch_ir_optim(ir_optim)
    config.enable_memory_optim(memory_optim)
    config.set_cpu_math_library_num_threads(1)
    predictor = create_predictor(config)
    assert ("batch_norm" in predictor.program.op_counts()) is not ir_optim
    arrays = _inputs(2)
    for got, want in zip(predictor.run(arrays), _eager(model, arrays), strict=True):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_deleted_passes_do_not_run(model_path) -> None:
    _, path = model_path
    config = Config(path)
    config.delete_pass("conv_bn_fold")
    assert "conv_bn_fold" not in config.passes()
    assert "batch_norm" in create_predictor(config).program.op_counts()
    with pytest.raises(ValueError, match="unknown pass"):
        config.delete_pass("make_it_fast")


def test_clones_serve_concurrent_requests(model_path, monkeypatch) -> None:
    from framework.inference.kernels import conv

    model, path = model_path
    prepared = []
    gemm_matrix = conv.gemm_matrix
    monkeypatch.setattr(conv, "gemm_matrix", lambda *a: prepared.append(1) or gemm_matrix(*a))
    predictor = create_predictor(Config(path))
    requests = [_inputs(batch, seed) for seed, batch in enumerate([1, 2, 3, 4, 1, 2] * 2)]
    expected = [_eager(model, arrays) for arrays in requests]
    results: dict[int, list] = {}
    errors: list[BaseException] = []

    def serve(worker: int, clone: Predictor) -> None:
        try:
            for _ in range(3):
                for index in range(worker, len(requests), 4):
                    results[index] = clone.run(requests[index])
        except BaseException as error:  # surfaced below
            errors.append(error)

    clones = [predictor.clone() for _ in range(4)]
    assert all(c.program is predictor.program for c in clones)  # weights shared, not copied
    assert len(prepared) == 1  # so is the conv's GEMM layout of its weight
    threads = [threading.Thread(target=serve, args=(i, c)) for i, c in enumerate(clones)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    for index, want in enumerate(expected):
        for got, expected_output in zip(results[index], want, strict=True):
            np.testing.assert_allclose(got, expected_output, rtol=1e-5, atol=1e-5)


def test_one_predictor_shared_by_threads_stays_correct(model_path) -> None:
    model, path = model_path
    predictor = create_predictor(Config(path))
    arrays = _inputs(2)
    want = _eager(model, arrays)[0]
    outputs: list = []
    threads = [
        threading.Thread(target=lambda: outputs.append(predictor.run(arrays)[0])) for _ in range(4)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for got in outputs:
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_inputs_are_checked(model_path) -> None:
    _, path = model_path
    predictor = create_predictor(Config(path))
    image = predictor.get_input_handle("image")
    with pytest.raises(ValueError, match=r"must have shape \['\?', 3, 8, 8\]"):
        image.copy_from_cpu(np.zeros((2, 3, 9, 8), np.float32))
    with pytest.raises(TypeError, match="float32"):
        image.copy_from_cpu(np.zeros((2, 3, 8, 8), np.int32))
    image.reshape([2, 3, 8, 8])
    with pytest.raises(ValueError, match="reshape"):
        image.copy_from_cpu(np.zeros((1, 3, 8, 8), np.float32))
    with pytest.raises(RuntimeError, match="no data"):
        predictor.run()
    with pytest.raises(ValueError, match="takes 2 inputs"):
        predictor.run([np.zeros((1, 3, 8, 8), np.float32)])
    with pytest.raises(KeyError, match="no input named"):
        predictor.get_input_handle("label")
    with pytest.raises(RuntimeError, match="call predictor.run"):
        create_predictor(Config(path)).get_output_handle("output_0").copy_to_cpu()


def test_float64_inputs_are_cast(model_path) -> None:
    model, path = model_path
    predictor = create_predictor(Config(path))
    arrays = _inputs(2)
    got = predictor.run([a.astype(np.float64) for a in arrays])[0]
    np.testing.assert_allclose(got, _eager(model, arrays)[0], rtol=1e-5, atol=1e-5)


def test_config_paths(model_path, tmp_path) -> None:
    _, path = model_path
    for config in (
        Config(path),
        Config(path + ".json"),
        Config(path + ".json", path + ".safetensors"),
    ):
        assert config.prog_file() == path + ".json"
        assert config.params_file() == path + ".safetensors"
    config = Config()
    config.set_model(path + ".json", path + ".safetensors")
    assert create_predictor(config).get_input_names() == ["image", "scale"]
    with pytest.raises(ValueError, match="no model"):
        create_predictor(Config())


def test_config_switches() -> None:
    config = Config("somewhere/model")
    assert not config.use_gpu() and config.ir_optim() and config.memory_optim_enabled()
    config.enable_use_gpu(256, 1)
    assert config.use_gpu() and config.gpu_device_id() == 1
    assert config.memory_pool_init_size_mb() == 256
    config.disable_gpu()
    config.switch_ir_optim(False)
    assert config.passes() == []
    config.set_cpu_math_library_num_threads(3)
    assert config.cpu_math_library_num_threads() == 3
    assert "cpu_math_threads  3" in config.summary()


def test_missing_or_corrupt_models_are_clear_errors(model_path, tmp_path) -> None:
    with pytest.raises(ModelFormatError, match="no graph file"):
        create_predictor(Config(str(tmp_path / "missing")))
    broken = tmp_path / "broken"
    (tmp_path / "broken.json").write_text("[1, 2")
    (tmp_path / "broken.safetensors").write_bytes(b"")
    with pytest.raises(ModelFormatError, match="not a readable JSON graph"):
        create_predictor(Config(str(broken)))


@pytest.mark.gpu
def test_gpu_predictor_matches_cpu(model_path) -> None:
    _, path = model_path
    cpu = create_predictor(Config(path))
    config = Config(path)
    config.enable_use_gpu(100, 0)
    gpu = create_predictor(config)
    arrays = _inputs(3)
    for got, want in zip(gpu.run(arrays), cpu.run(arrays), strict=True):
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)
    clone = gpu.clone()
    np.testing.assert_allclose(clone.run(arrays)[0], cpu.run(arrays)[0], rtol=1e-4, atol=1e-4)


def test_workers_share_the_cores_and_blas_threads_come_back(model_path) -> None:
    threadpoolctl = pytest.importorskip("threadpoolctl")
    from framework.backends.cpu import blas_threads
    from framework.backends.cpu.blas_threads import _blas_libraries

    switched = {lib.filepath for lib in _blas_libraries()}  # MKL, if loaded, is sequential
    assert switched
    model, path = model_path
    arrays = _inputs(4)
    results = []
    for threads in (1, 2):
        config = Config(path)
        config.set_cpu_math_library_num_threads(threads)
        predictor = create_predictor(config)
        with threadpoolctl.threadpool_limits(limits=2, user_api="blas"):
            results.append(predictor.run(arrays)[0])
            info = threadpoolctl.threadpool_info()
        assert all(lib["num_threads"] == 2 for lib in info if lib["filepath"] in switched)
    np.testing.assert_allclose(results[0], results[1], rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(results[0], _eager(model, arrays)[0], rtol=1e-5, atol=1e-5)
    with blas_threads.single_threaded_blas(), blas_threads.single_threaded_blas():
        inside = threadpoolctl.threadpool_info()
    assert all(lib["num_threads"] == 1 for lib in inside if lib["filepath"] in switched)


class GroupedConvNet(nn.Layer):
    """Kernels borrowed from training: a grouped (not depthwise) convolution and max pooling."""

    def __init__(self) -> None:
        super().__init__()
        self.conv = nn.Conv2D(32, 32, 3, padding=1, groups=2)
        self.pool = nn.MaxPool2D(3, 2, 1)

    def forward(self, x):
        return self.pool(F.relu(self.conv(x)))


def _two_workers_counting_hand_offs(monkeypatch) -> list:
    """Two cores' worth of workers, whatever the machine has; returns the list that records
    every piece of work handed to the pool."""
    from framework.backends.cpu import threads

    monkeypatch.setattr(threads, "CPU_WORKERS", 2)
    monkeypatch.setattr(threads, "_pool", None)
    submitted = []
    executor = threads._executor

    def counting_executor():
        pool = executor()
        submit = pool.submit
        pool.submit = lambda *a, **k: submitted.append(a) or submit(*a, **k)
        return pool

    monkeypatch.setattr(threads, "_executor", counting_executor)
    return submitted


def test_a_one_thread_predictor_keeps_training_kernels_on_its_thread(tmp_path, monkeypatch):
    """One thread per request means one core, also in kernels that share work over the cores
    in training; with two threads they share it again, with the same results."""
    from framework.backends.cpu import threads

    model = GroupedConvNet()
    model.eval()
    path = str(tmp_path / "grouped")
    framework.jit.save(model, path, input_spec=[InputSpec([None, 32, 64, 64], "float32", "x")])
    x = np.random.default_rng(5).standard_normal((8, 32, 64, 64)).astype(np.float32)
    submitted = _two_workers_counting_hand_offs(monkeypatch)
    results = {}
    for cores in (1, 2):
        submitted.clear()
        config = Config(path)
        config.set_cpu_math_library_num_threads(cores)
        results[cores] = create_predictor(config).run([x])[0]
        assert bool(submitted) == (cores == 2)
    assert threads.workers() == 2  # the cap ended with the run
    np.testing.assert_allclose(results[1], results[2], rtol=1e-5, atol=1e-5)
    with framework.no_grad():
        eager = model(framework.to_tensor(x)).numpy()
    np.testing.assert_allclose(results[1], eager, rtol=1e-4, atol=1e-4)


class PlainConvNet(nn.Layer):
    def __init__(self) -> None:
        super().__init__()
        self.conv = nn.Conv2D(16, 32, 3, padding=1)

    def forward(self, x):
        return F.relu(self.conv(x))


def test_a_single_sample_runs_on_its_thread_and_blas_spreads_the_gemms(tmp_path, monkeypatch):
    """Batch 1: every op on the calling thread, with BLAS lent the predictor's cores (no
    hand-offs to sleeping workers). A batch of several shares its work over the workers with
    BLAS on one thread. The results agree."""
    threadpoolctl = pytest.importorskip("threadpoolctl")
    from framework.backends.cpu import blas_threads, threads
    from framework.backends.cpu.onednn import library as onednn
    from framework.inference.kernels import conv_gemm

    if not blas_threads.available():
        pytest.skip("no BLAS library reachable through threadpoolctl")
    monkeypatch.setattr(onednn, "available", lambda: False)  # our kernels (see the next test)
    model = PlainConvNet()
    model.eval()
    path = str(tmp_path / "plain")
    framework.jit.save(model, path, input_spec=[InputSpec([None, 16, 48, 48], "float32", "x")])
    submitted, blas_seen = _two_workers_counting_hand_offs(monkeypatch), []
    product = conv_gemm.product

    def recording_product(xp, rows, weight_t, out):
        blas_seen.extend(lib.get_num_threads() for lib in blas_threads._blas_libraries())
        product(xp, rows, weight_t, out)

    monkeypatch.setattr(conv_gemm, "product", recording_product)
    config = Config(path)
    config.set_cpu_math_library_num_threads(2)
    predictor = create_predictor(config)
    x = np.random.default_rng(6).standard_normal((4, 16, 48, 48)).astype(np.float32)
    with threadpoolctl.threadpool_limits(limits=2, user_api="blas"):
        one = predictor.run([x[:1]])[0]
        assert not submitted and set(blas_seen) == {2}
        blas_seen.clear()
        several = predictor.run([x])[0]
        assert submitted and set(blas_seen) == {1}
        assert {lib.get_num_threads() for lib in blas_threads._blas_libraries()} == {2}
    assert threads.workers() == 2
    np.testing.assert_allclose(one, several[:1], rtol=1e-5, atol=1e-5)
    with framework.no_grad():
        eager = model(framework.to_tensor(x)).numpy()
    np.testing.assert_allclose(several, eager, rtol=1e-4, atol=1e-4)


class TwoConvNet(nn.Layer):
    def __init__(self) -> None:
        super().__init__()
        self.first = nn.Conv2D(16, 32, 3, padding=1)
        self.second = nn.Conv2D(32, 32, 3, padding=1)

    def forward(self, x):
        return F.relu(self.second(F.relu(self.first(x))))


def test_a_single_sample_runs_its_convolutions_on_onednn(tmp_path, monkeypatch):
    """Batch 1 with oneDNN installed: its OpenMP team gets the cores and runs the convolutions
    (the first one from a channel-last copy of the caller's NCHW input), BLAS stays on one
    thread (its spinning threads would fight the team). A batch of several is split over the
    workers, each slice's convolutions on oneDNN with one thread; a one-thread predictor runs
    the whole batch so. Without oneDNN they run our kernels. The results agree with each other
    and with the eager model. (`test_cpu_routes` holds the plans; this runs them.)"""
    from framework.backends.cpu import blas_threads
    from framework.backends.cpu.onednn import library as onednn
    from framework.backends.cpu.onednn import primitives
    from framework.inference.kernels import conv_gemm

    if not onednn.available():
        pytest.skip("oneDNN is not installed")
    model = TwoConvNet()
    model.eval()
    path = str(tmp_path / "two_convs")
    framework.jit.save(model, path, input_spec=[InputSpec([None, 16, 20, 20], "float32", "x")])
    submitted, blas_lent, onednn_calls = _two_workers_counting_hand_offs(monkeypatch), [], []
    product = conv_gemm.product

    def recording_product(xp, rows, weight_t, out):
        blas_lent.append(blas_threads.lent())
        product(xp, rows, weight_t, out)

    monkeypatch.setattr(conv_gemm, "product", recording_product)
    conv2d = primitives.conv2d

    def counting_conv2d(*args):  # the team each convolution oneDNN ran had
        ran = conv2d(*args)
        if ran:
            onednn_calls.append(onednn.given())
        return ran

    monkeypatch.setattr(primitives, "conv2d", counting_conv2d)
    x = np.random.default_rng(7).standard_normal((3, 16, 20, 20)).astype(np.float32)
    with framework.no_grad():
        eager = model(framework.to_tensor(x)).numpy()
    config = Config(path)
    config.set_cpu_math_library_num_threads(2)
    predictor = create_predictor(config)
    submitted.clear()  # the eager model shared its work out
    one = predictor.run([x[:1]])[0]
    assert onednn_calls == [2, 2] and not submitted and not blas_lent
    onednn_calls.clear()
    several = predictor.run([x])[0]
    assert onednn_calls == [1] * 4 and submitted and not blas_lent  # two slices, two convs
    np.testing.assert_allclose(one, several[:1], rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(several, eager, rtol=1e-4, atol=1e-4)
    one_thread = Config(path)
    one_thread.set_cpu_math_library_num_threads(1)
    onednn_calls.clear()
    submitted.clear()
    alone = create_predictor(one_thread).run([x])[0]
    assert onednn_calls == [1, 1] and not submitted  # the whole batch, on the calling thread
    np.testing.assert_allclose(alone, eager, rtol=1e-4, atol=1e-4)
    monkeypatch.setattr(onednn, "available", lambda: False)
    predictor = create_predictor(config)
    onednn_calls.clear()
    one, several = predictor.run([x[:1]])[0], predictor.run([x])[0]
    assert not onednn_calls and any(blas_lent) and not all(blas_lent)
    np.testing.assert_allclose(one, several[:1], rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(several, eager, rtol=1e-4, atol=1e-4)


class InvertedResidual(nn.Layer):
    def __init__(self) -> None:
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2D(8, 48, 1, bias_attr=False),
            nn.BatchNorm2D(48),
            nn.ReLU6(),
            nn.Conv2D(48, 48, 3, padding=1, groups=48, bias_attr=False),
            nn.BatchNorm2D(48),
            nn.ReLU6(),
            nn.Conv2D(48, 8, 1, bias_attr=False),
            nn.BatchNorm2D(8),
        )

    def forward(self, x):
        return x + self.body(x)


def test_graphs_with_fused_blocks_run_single_samples_unfused_on_onednn(tmp_path, monkeypatch):
    """With oneDNN installed, a single sample runs on a twin without fused blocks whose three
    convolutions (ReLU6 fused) are oneDNN's, and so do the slices of a batch. Without oneDNN
    both run the fused inverted-residual kernel. All agree with eager."""
    from framework.backends.cpu.onednn import library as onednn
    from framework.backends.cpu.onednn import primitives
    from framework.inference.kernels import inverted_residual, registry
    from framework.inference.passes import block_fusion

    model = InvertedResidual()
    model.eval()
    path = str(tmp_path / "inverted_residual")
    framework.jit.save(model, path, input_spec=[InputSpec([None, 8, 12, 12], "float32", "x")])
    fused_runs, onednn_calls = [], []
    block = inverted_residual.inverted_residual

    def counting_block(node, ctx):
        run = block(node, ctx)
        return lambda *arrays: fused_runs.append(1) or run(*arrays)

    monkeypatch.setitem(registry._INTERNAL, block_fusion.OP_TYPE, counting_block)
    conv2d = primitives.conv2d
    monkeypatch.setattr(
        primitives, "conv2d", lambda *args: conv2d(*args) and (onednn_calls.append(1) or True)
    )
    x = np.random.default_rng(8).standard_normal((3, 8, 12, 12)).astype(np.float32)
    with framework.no_grad():
        eager = model(framework.to_tensor(x)).numpy()
    for installed in (True, False):
        if not installed:
            monkeypatch.setattr(onednn, "available", lambda: False)
        elif not onednn.available():
            continue
        config = Config(path)
        config.set_cpu_math_library_num_threads(2)
        predictor = create_predictor(config)
        fused_runs.clear()
        onednn_calls.clear()
        several = predictor.run([x])[0]
        assert (not fused_runs and len(onednn_calls) == 6) if installed else fused_runs
        fused_runs.clear()
        onednn_calls.clear()
        one = predictor.run([x[:1]])[0]
        assert (not fused_runs and len(onednn_calls) == 3) if installed else fused_runs
        np.testing.assert_allclose(several, eager, rtol=1e-4, atol=1e-4)
        np.testing.assert_allclose(one, eager[:1], rtol=1e-4, atol=1e-4)
