"""Inference (Paddle's `paddle.inference`): run a saved graph fast, without model code.

    from framework.inference import Config, create_predictor
    predictor = create_predictor(Config("out/resnet"))
    outputs = predictor.run([images])

The predictor optimises the graph once (`framework.inference.passes`), then executes it on
arrays with prebuilt kernels and a buffer-reuse plan (`Executor`).
"""

from framework.inference.config import Config
from framework.inference.executor import Executor
from framework.inference.handle import PredictorTensor
from framework.inference.predictor import Predictor, create_predictor

Tensor = PredictorTensor  # Paddle's name for the handles

__all__ = ["Config", "Executor", "Predictor", "PredictorTensor", "Tensor", "create_predictor"]
