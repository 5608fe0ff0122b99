"""Deploy behaviour that spans models: starting exports, serving, traffic statistics."""
