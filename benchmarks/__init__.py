"""falkmem benchmarks: routing, recall, latency, tokens and ingest on one store (``python -m benchmarks run``)."""

from __future__ import annotations

REPORT_SCHEMA_VERSION = 2
"""Bumped when the JSON report's shape changes."""
