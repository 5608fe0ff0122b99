"""The digits data set (scikit-learn's load_digits) upsampled to 28x28, split 80/20 stratified."""

from __future__ import annotations

import pytest

from tests.framework_tests.digits_data import ArrayDataset, digits_split


@pytest.fixture(scope="session")
def digits() -> tuple[ArrayDataset, ArrayDataset]:
    return digits_split(28, 1)
