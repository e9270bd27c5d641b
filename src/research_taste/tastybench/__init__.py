"""Tooling for TastyBench read from finished runs (tests and docs)."""
