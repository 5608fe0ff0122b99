"""The model zoo: the architecture catalog, measured profiles, and weights with their source."""
