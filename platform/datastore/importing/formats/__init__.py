"""Readers for each import format, and detection of which format an upload is in."""
