"""The deploy REST API: exports, deployments, the predict endpoint and traffic."""
