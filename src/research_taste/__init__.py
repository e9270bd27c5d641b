"""Tooling on top of the evals: the `research-taste` command, sweeps, reports and site, dataset
builders, packaged local models and README/figure generators.

Imports :mod:`research_taste_evals`; never imported by it (tests/test_imports.py).
"""
