"""What every benchmark reports alongside its figures."""

from __future__ import annotations

import os
import platform


def machine() -> dict:
    return {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "cpu": platform.processor() or platform.machine(),
        "cores": os.cpu_count(),
    }


def percentiles(samples: list[float]) -> dict:
    """p50, p99 and max of ``samples`` (seconds), in milliseconds."""
    ordered = sorted(samples)

    def at(q: float) -> float:
        return round(1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))], 2)

    return {
        "p50_ms": at(0.5),
        "p99_ms": at(0.99),
        "max_ms": round(1000 * ordered[-1], 2),
        "frames": len(ordered),
    }
