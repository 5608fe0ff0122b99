"""Ops family 'search'. `TENSOR_METHODS` binds method forms onto Tensor."""

__all__: list[str] = []

TENSOR_METHODS: dict = {}
