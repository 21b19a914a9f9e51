"""A progress line on a terminal: cases done / total and the failures so far.

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


class Progress:
    def __init__(self, total: int) -> None:
        self.total = total
        self.done = 0
        self.failures = 0
        self.active = sys.stderr is not None and sys.stderr.isatty()
        self._shown = 0.0

    def update(self, result: CaseResult) -> None:
        self.done += 1
        if result.verdict in ("failed", "errored"):
            self.failures += 1
        now = time.monotonic()
        if self.active and (now - self._shown >= INTERVAL or self.done == self.total):
            self._shown = now
            width = len(str(self.total))
            line = f"[{self.done:>{width}}/{self.total}] {self.failures} failed or errored"
            sys.stderr.write(f"\r{line}\x1b[K")
            sys.stderr.flush()

    def clear(self) -> None:
        if self.active and self._shown:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()
