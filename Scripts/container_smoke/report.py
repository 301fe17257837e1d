"""Progress lines and failures, with the time since the smoke test started."""

from __future__ import annotations

import os
import sys
import time

# Shared with the re-executed run inside the namespaces, so its times continue the count.
STARTED_VARIABLE = "CONTAINER_SMOKE_STARTED"
_started = float(os.environ.setdefault(STARTED_VARIABLE, str(time.monotonic())))


def step(message: str) -> None:
    print(f"[{time.monotonic() - _started:6.1f}s] {message}", flush=True)


class CheckFailed(Exception):
    """A check of the assembled image did not hold."""


def expect(condition: bool, message: str) -> None:
    if not condition:
        raise CheckFailed(message)
    step(f"ok: {message}")


def fail(message: str) -> None:
    print(f"container-smoke: FAILED: {message}", file=sys.stderr, flush=True)
    raise SystemExit(1)
