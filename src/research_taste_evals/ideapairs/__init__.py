"""Idea-pair forecasting (Mule et al. 2026): builder and task."""
