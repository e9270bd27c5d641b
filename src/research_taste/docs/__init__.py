"""Generators of README tables and figures (run from bench/ scripts; checked by tests)."""
