"""`set_flags` / `get_flags` (top level and `paddle.base`) against Paddle's: the flags of
Paddle's FLAGS guide at Paddle's defaults, values converted to the flag's type, and unknown
names, wrong argument types and unconvertible values refused as Paddle refuses them."""

from __future__ import annotations

import pytest

import framework
from framework.core import runtime_switches

# Flags that only Paddle's GPU build defines: the CPU wheel used as the oracle refuses them.
GPU_BUILD_ONLY = {
    "FLAGS_conv_workspace_size_limit",
    "FLAGS_cudnn_batchnorm_spatial_persistent",
    "FLAGS_cudnn_deterministic",
    "FLAGS_cudnn_exhaustive_search",
    "FLAGS_embedding_deterministic",
}
CPU_FLAGS = sorted(set(runtime_switches._DEFAULTS) - GPU_BUILD_ONLY)


@pytest.fixture(autouse=True)
def _restore_flags():
    yield
    runtime_switches._FLAGS.clear()
    runtime_switches._FLAGS.update(runtime_switches._DEFAULTS)


@pytest.fixture
def paddle():
    paddle = pytest.importorskip("paddle")
    saved = paddle.get_flags(CPU_FLAGS)
    yield paddle
    paddle.set_flags(saved)


def test_every_flag_starts_at_paddles_default(paddle):
    theirs = paddle.get_flags(CPU_FLAGS)
    assert framework.get_flags(CPU_FLAGS) == pytest.approx(theirs)
    assert [type(v) for v in framework.get_flags(CPU_FLAGS).values()] == [
        type(v) for v in theirs.values()
    ]


def test_the_base_names_are_the_top_level_functions(paddle):
    assert framework.base.set_flags is framework.set_flags
    assert framework.base.get_flags is framework.get_flags
    assert framework.base.framework.set_flags is framework.set_flags
    assert paddle.base.set_flags is paddle.set_flags


@pytest.mark.parametrize(
    "name, value",
    [
        ("FLAGS_check_nan_inf", True),
        ("FLAGS_check_nan_inf", 1),
        ("FLAGS_check_nan_inf", 0.0),
        ("FLAGS_call_stack_level", 2),
        ("FLAGS_call_stack_level", True),
        ("FLAGS_eager_delete_tensor_gb", 2),
        ("FLAGS_allocator_strategy", "naive_best_fit"),
        ("FLAGS_paddle_num_threads", 4),
    ],
)
def test_a_set_value_reads_back_converted_as_in_paddle(paddle, name, value):
    framework.set_flags({name: value})
    paddle.set_flags({name: value})
    ours, theirs = framework.get_flags(name)[name], paddle.get_flags(name)[name]
    assert ours == theirs and type(ours) is type(theirs)


@pytest.mark.parametrize(
    "name, value",
    [
        ("FLAGS_call_stack_level", 2.7),
        ("FLAGS_eager_delete_tensor_gb", "1"),
        ("FLAGS_allocator_strategy", 3),
    ],
)
def test_an_unconvertible_value_is_refused_and_changes_nothing(paddle, name, value):
    before = framework.get_flags(CPU_FLAGS)
    with pytest.raises(TypeError, match=f"{name} takes a"):
        framework.set_flags({"FLAGS_check_nan_inf": True, name: value})
    assert framework.get_flags(CPU_FLAGS) == before
    with pytest.raises(RuntimeError, match="Unable to cast"):
        paddle.set_flags({name: value})


@pytest.mark.parametrize("name", ["FLAGS_no_such_flag", "check_nan_inf", "FLAGS_use_ngraph"])
def test_unknown_names_are_refused_with_paddles_message(paddle, name):
    for module in (framework, paddle):
        with pytest.raises(ValueError, match=f"Flag {name} cannot set its value"):
            module.set_flags({name: True})
        with pytest.raises(ValueError, match=f"Flag {name} cannot get its value"):
            module.get_flags(name)
        with pytest.raises(ValueError, match=f"Flag {name} cannot get its value"):
            module.get_flags(("FLAGS_check_nan_inf", name))


def test_wrong_argument_types_are_refused_with_paddles_messages(paddle):
    for module in (framework, paddle):
        with pytest.raises(TypeError, match="flags in set_flags should be a dict"):
            module.set_flags([("FLAGS_check_nan_inf", True)])
        with pytest.raises(TypeError, match="Flags in get_flags should be a list, tuple or str"):
            module.get_flags(3)


def test_gpu_build_flags_round_trip():
    framework.set_flags({"FLAGS_cudnn_deterministic": True, "FLAGS_conv_workspace_size_limit": 64})
    assert framework.get_flags(
        ["FLAGS_cudnn_deterministic", "FLAGS_conv_workspace_size_limit"]
    ) == {
        "FLAGS_cudnn_deterministic": True,
        "FLAGS_conv_workspace_size_limit": 64,
    }
