"""`framework.vision.ops` offers every name of `paddle.vision.ops.__all__`, with Paddle's
argument names, so that Paddle code runs unchanged."""

from __future__ import annotations

import inspect

import pytest

from framework.vision import ops


def test_every_paddle_vision_op_is_exported() -> None:
    paddle = pytest.importorskip("paddle")
    missing = sorted(set(paddle.vision.ops.__all__) - set(ops.__all__))
    assert missing == []
    assert all(hasattr(ops, name) for name in ops.__all__)


def test_arguments_are_named_as_in_paddle() -> None:
    paddle = pytest.importorskip("paddle")
    for name in paddle.vision.ops.__all__:
        theirs, ours = getattr(paddle.vision.ops, name), getattr(ops, name)
        if inspect.isclass(theirs):
            theirs, ours = theirs.__init__, ours.__init__
        want = list(inspect.signature(theirs).parameters)
        got = list(inspect.signature(ours).parameters)
        assert got[: len(want)] == want, name


# generate_proposals: Paddle's example gives 40 anchors for 100 positions (its kernel reads
# past the end; ours refuses). read_file / decode_jpeg: examples need a file and a GPU.
EXAMPLES_THAT_DO_NOT_RUN = {"generate_proposals", "read_file", "decode_jpeg"}


@pytest.mark.parametrize(
    "name",
    [
        "roi_align",
        "RoIAlign",
        "roi_pool",
        "RoIPool",
        "psroi_pool",
        "PSRoIPool",
        "deform_conv2d",
        "DeformConv2D",
        "yolo_box",
        "yolo_loss",
        "prior_box",
        "matrix_nms",
        "distribute_fpn_proposals",
    ],
)
def test_paddles_doc_examples_run_unchanged(name) -> None:
    paddle = pytest.importorskip("paddle")
    doc = inspect.getdoc(getattr(paddle.vision.ops, name)) or ""
    code = "\n".join(
        line.strip()[4:] for line in doc.splitlines() if line.strip().startswith((">>>", "..."))
    )
    assert code, f"{name} has no example"
    code = code.replace("import paddle", "import framework as paddle")
    code = code.replace("from paddle.", "from framework.")
    exec(compile(code, f"<paddle example of {name}>", "exec"), {})  # noqa: S102
