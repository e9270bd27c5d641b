"""Packaged open-weights chat models, offline: the ``local/`` Inspect model provider."""
