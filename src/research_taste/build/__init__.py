"""Builders of evaluation data sets from public sources."""
