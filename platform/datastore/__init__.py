"""Datasets: upload, import and validation, samples and their labels, versions and exports."""
