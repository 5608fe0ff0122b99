"""Image transforms, as `paddle.vision.transforms`, on PIL images, HWC NumPy arrays and CHW
Tensors. Random transforms draw from the framework's seeded generator.

    transform = Compose([
        RandomResizedCrop(224),
        RandomHorizontalFlip(),
        ToTensor(),
        Normalize(mean=[0.485, 0.456, 0.406], std=[0.229, 0.224, 0.225]),
    ])
"""

from framework.vision.transforms.base import BaseTransform, Compose
from framework.vision.transforms.color import (
    BrightnessTransform,
    ColorJitter,
    ContrastTransform,
    Grayscale,
    HueTransform,
    SaturationTransform,
)
from framework.vision.transforms.conversion import Normalize, ToTensor
from framework.vision.transforms.erasing import RandomErasing
from framework.vision.transforms.functional import (
    adjust_brightness,
    adjust_contrast,
    adjust_hue,
    adjust_saturation,
    affine,
    center_crop,
    crop,
    erase,
    hflip,
    normalize,
    pad,
    perspective,
    resize,
    rotate,
    to_grayscale,
    to_tensor,
    vflip,
)
from framework.vision.transforms.geometry import (
    CenterCrop,
    Pad,
    RandomCrop,
    RandomHorizontalFlip,
    RandomResizedCrop,
    RandomRotation,
    RandomVerticalFlip,
    Resize,
    Transpose,
)
from framework.vision.transforms.random_warps import RandomAffine, RandomPerspective

__all__ = [
    "BaseTransform",
    "Compose",
    "ToTensor",
    "Normalize",
    "Resize",
    "RandomResizedCrop",
    "CenterCrop",
    "RandomCrop",
    "RandomHorizontalFlip",
    "RandomVerticalFlip",
    "RandomRotation",
    "RandomAffine",
    "RandomPerspective",
    "RandomErasing",
    "ColorJitter",
    "BrightnessTransform",
    "ContrastTransform",
    "SaturationTransform",
    "HueTransform",
    "Grayscale",
    "Pad",
    "Transpose",
    "to_tensor",
    "normalize",
    "resize",
    "crop",
    "center_crop",
    "hflip",
    "vflip",
    "rotate",
    "affine",
    "perspective",
    "erase",
    "pad",
    "adjust_brightness",
    "adjust_contrast",
    "adjust_saturation",
    "adjust_hue",
    "to_grayscale",
]
