"""Reproducible speed measurements: ``python -m benchmarks [NAME ...]`` prints JSON.

Every ``benchmarks/bench_*.py`` module defines ``run() -> dict`` returning its figures.
"""
