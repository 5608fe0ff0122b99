"""The torch twin of the PP-OCRv4 recognizer (`rec_torch_peer.py`) computes what onnxruntime
does, trains exactly the weights our importer trains, and its CTC loss and two Adam steps
track `RecognizerTrainer`'s: the peer of `benchmarks/ocr.py --parts finetune` is the same
computation, channels-last (as benchmarked) or NCHW."""

from __future__ import annotations

import numpy as np
import pytest

from tests.framework_tests.ocr_tests import ocr_images as images

torch = pytest.importorskip("torch")
ort = pytest.importorskip("onnxruntime")

TEXTS = ["AB12CD", "7QX40K9", "LOT5521"]


def torch_ctc(probs, labels, lengths):
    """Our trainer's loss in torch ops: CTC on log(max(p, 1e-10)), blank 0, mean reduction."""
    log_probs = torch.log(torch.clamp(probs, min=1e-10)).transpose(0, 1)
    steps = torch.full((probs.shape[0],), probs.shape[1], dtype=torch.int64)
    labels, lengths = torch.from_numpy(labels).long(), torch.from_numpy(lengths)
    return torch.nn.functional.ctc_loss(log_probs, labels, steps, lengths, blank=0)


def test_twin_matches_onnxruntime_and_trains_like_ours() -> None:
    import framework
    from framework.vision.ocr import TextRecognizer
    from framework.vision.ocr.rec_training import RecognizerTrainer, encode_texts
    from tests.framework_tests.ocr_tests.rec_torch_peer import torch_recognizer

    torch.manual_seed(0)
    torch.set_num_threads(2)
    path = images.model_paths()["rec"]
    recognizer = TextRecognizer(framework.onnx.load(path))
    layer = recognizer.model
    trainable = {layer.onnx_names[key] for key, _ in layer.named_parameters()}
    net = torch_recognizer(path, trainable)
    assert len(list(net.parameters())) == len(trainable) > 100
    assert sum(p.numel() for p in net.parameters()) == sum(
        int(np.prod(p.shape)) for p in layer.parameters()
    )

    crops = [images.render_dot_matrix(t) for t in TEXTS]
    batch = recognizer.batch_input(crops)
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    expected = session.run(None, {session.get_inputs()[0].name: batch})[0]
    with torch.no_grad():
        got = net(torch.from_numpy(batch)).numpy()
        nchw = torch_recognizer(path, trainable, channels_last=False)
        got_nchw = nchw(torch.from_numpy(batch)).numpy()
    np.testing.assert_allclose(got, expected, atol=1e-4)
    np.testing.assert_allclose(got_nchw, expected, atol=1e-4)
    # The benchmark's twin is channels-last (NCHW depthwise backward is torch's slow path).
    kernels = [p for p in net.parameters() if p.dim() == 4]
    assert kernels and all(p.is_contiguous(memory_format=torch.channels_last) for p in kernels)
    assert not all(p.is_contiguous() for p in kernels)

    labels, lengths = encode_texts(TEXTS, recognizer.characters)
    trainer = RecognizerTrainer(recognizer, learning_rate=1e-4)
    np.testing.assert_allclose(
        torch_ctc(net(torch.from_numpy(batch)), labels, lengths).item(),
        float(trainer.loss(crops, TEXTS).numpy()),
        rtol=1e-4,
    )

    optimizer = torch.optim.Adam(net.parameters(), lr=1e-4)
    ours, theirs = [], []
    for _ in range(3):  # the third loss shows the second step's update
        ours.append(trainer.step(crops, TEXTS))
        optimizer.zero_grad()
        loss = torch_ctc(net(torch.from_numpy(batch)), labels, lengths)
        loss.backward()
        optimizer.step()
        theirs.append(loss.item())
    assert ours[2] < ours[0] - 0.05  # the steps move the loss, so matching them means something
    np.testing.assert_allclose(theirs, ours, rtol=2e-3)
