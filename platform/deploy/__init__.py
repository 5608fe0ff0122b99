"""Deploy: export trained models (inference package, ONNX, INT8), try them, and serve them."""
