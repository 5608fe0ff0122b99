"""What every app shares: workspace scoping, role permissions, enqueue(), health checks."""
