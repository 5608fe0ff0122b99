"""Training operations that span models: creating, cancelling and re-running jobs, reading
metrics and reports, and the read-only view of dataset versions that training needs."""
