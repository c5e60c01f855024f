"""A library setting switched for one block: how a study runs each variant it compares.

The variants that issue 41's rules compare are settings read at the call, such as
``hclib.calibration.outsider.DEFAULT_VARIANT`` or
``hclib.attribution.calibration_rows.PSEUDO_WORK_ROWS``. A study sets one for its runs
and puts the old value back, also when a run fails.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

__all__ = ["switched"]


@contextmanager
def switched(owner: Any, name: str, value: Any) -> Iterator[None]:
    """Within the block ``owner.name`` is ``value``; afterwards the value it had before,
    whatever the block raised. AttributeError if ``owner`` has no ``name``."""
    before = getattr(owner, name)
    setattr(owner, name, value)
    try:
        yield
    finally:
        setattr(owner, name, before)
