"""Deprecated: :func:`keep` now lives in :mod:`hclib.plotting` (kept until the chapters move)."""

from .plotting import keep

__all__ = ["keep"]
