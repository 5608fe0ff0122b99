"""Training jobs, their metric points, evaluation reports, the worker registry and chart pages."""
