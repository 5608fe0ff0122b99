"""Vision datasets from local files, as `paddle.vision.datasets`. Nothing is downloaded."""

from framework.vision.datasets.cifar import Cifar10, Cifar100
from framework.vision.datasets.folder import IMG_EXTENSIONS, DatasetFolder, ImageFolder
from framework.vision.datasets.image_backend import (
    get_image_backend,
    image_load,
    set_image_backend,
)
from framework.vision.datasets.local_files import dataset_dir
from framework.vision.datasets.mnist import MNIST, FashionMNIST

__all__ = [
    "DatasetFolder",
    "ImageFolder",
    "MNIST",
    "FashionMNIST",
    "Cifar10",
    "Cifar100",
    "IMG_EXTENSIONS",
    "dataset_dir",
    "get_image_backend",
    "set_image_backend",
    "image_load",
]
