"""What the benchmarks print about the machine they ran on (shared by the scripts here)."""

from __future__ import annotations

import datetime
import os
import platform
from pathlib import Path

import numpy as np
import scipy

import hclib


def machine_description() -> str:
    """Platform, CPU model and count, memory, Python/numpy/scipy/dask/hclib versions, the date."""
    cpu = platform.processor()
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        for line in cpuinfo.read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    try:
        import psutil
        memory = f", {psutil.virtual_memory().total / 2**30:.0f} GB RAM"
    except ImportError:  # pragma: no cover
        memory = ""
    try:
        import dask
        dask_version = f", dask {dask.__version__}"
    except ImportError:  # pragma: no cover
        dask_version = ""
    date = datetime.datetime.now().astimezone().isoformat(timespec="seconds")
    return (
        f"{platform.platform()}, CPU: {cpu or 'unknown'} × {os.cpu_count()}{memory}, "
        f"Python {platform.python_version()}, numpy {np.__version__}, scipy {scipy.__version__}"
        f"{dask_version}, hclib {hclib.__version__}; {date}"
    )


def load_average() -> str:
    """The 1, 5 and 15 minute load averages and the number of CPUs."""
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f}, {five:.2f}, {fifteen:.2f} (1, 5, 15 min) on {os.cpu_count()} CPUs"
