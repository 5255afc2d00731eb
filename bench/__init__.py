"""Benchmarks: `python -m bench.engine` times the rulings engine (see docs/benchmarks.md)."""

from __future__ import annotations
