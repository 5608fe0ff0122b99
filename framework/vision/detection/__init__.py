"""Object detection: the losses, label assignment and heads of anchor-free detectors."""
