"""Labeling: the annotation API, claiming the next item, and the labeling pages."""
