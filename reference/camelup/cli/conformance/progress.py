"""A progress line on a terminal: ``[done/total]`` and what went wrong so far.

Shown only when stderr is a terminal, rewritten in place at most ten times a second and
erased at the end; when stderr is a file or a pipe, nothing is written at all.
"""

from __future__ import annotations

import sys
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from camelup.harness.runner import CaseResult

INTERVAL = 0.1


class ProgressLine:
    def __init__(self) -> None:
        self.active = sys.stderr is not None and sys.stderr.isatty()
        self._shown = 0.0

    def show(self, done: int, total: int, counts: str) -> None:
        """``[done/total] counts``, unless shown less than INTERVAL ago (the last always is)."""
        now = time.monotonic()
        if self.active and (now - self._shown >= INTERVAL or done == total):
            self._shown = now
            sys.stderr.write(f"\r[{done:>{len(str(total))}}/{total}] {counts}\x1b[K")
            sys.stderr.flush()

    def clear(self) -> None:
        if self.active and self._shown:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()


class Progress(ProgressLine):
    """``conformance run``'s: cases done / total and the failures so far."""

    def __init__(self, total: int) -> None:
        super().__init__()
        self.total = total
        self.done = 0
        self.failures = 0

    def update(self, result: CaseResult) -> None:
        self.done += 1
        if result.verdict in ("failed", "errored"):
            self.failures += 1
        self.show(self.done, self.total, f"{self.failures} failed or errored")
