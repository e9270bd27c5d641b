"""Tooling around the evaluation tasks: builders, command line, reporting."""
