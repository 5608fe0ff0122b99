"""Making an export, as the worker's `deploy.export_model` task runs it: the trained network is
written in the chosen format, then checked against itself (parity), timed (latency) and, for
INT8, scored (accuracy change)."""
