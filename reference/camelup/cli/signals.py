"""SIGINT, SIGTERM and SIGHUP during a command: the first one stops the work where it is (as an
:class:`~camelup.io.exits.Interrupted`), so that what already finished can still be written out.

While a report is being written (:meth:`Signals.deferred`) a signal is only remembered: the
report is never cut in the middle of a line. Signals after the first are remembered too, so
that the cleanup (ending the adapter, writing the partial report) always completes; it takes
well under a second.
"""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Iterator
from types import FrameType

from camelup.io.exits import Interrupted

HANDLED = (
    signal.SIGINT,
    signal.SIGTERM,
    signal.SIGHUP,
)  # Ctrl-C, a cancelled job, a closed terminal


class Signals:
    def __init__(self) -> None:
        self.received: Interrupted | None = None
        self._raised = False
        self._deferring = 0

    def _handle(self, number: int, frame: FrameType | None) -> None:
        if self.received is None:
            self.received = Interrupted(number)
        self.raise_pending()

    def raise_pending(self) -> None:
        """Raise the signal received while deferred, once, unless still deferred."""
        if self.received is not None and not self._raised and not self._deferring:
            self._raised = True
            raise self.received

    @contextlib.contextmanager
    def deferred(self) -> Iterator[None]:
        """A signal in this block is remembered, not raised (:meth:`raise_pending` raises it)."""
        self._deferring += 1
        try:
            yield
        finally:
            self._deferring -= 1

    @contextlib.contextmanager
    def installed(self) -> Iterator[None]:
        """Handle SIGINT and SIGTERM in this block (only the main thread can)."""
        try:
            previous = {number: signal.signal(number, self._handle) for number in HANDLED}
        except ValueError:  # not the main thread, which alone can (the first call fails)
            yield
            return
        try:
            yield
        finally:
            for number, handler in previous.items():
                signal.signal(number, handler)


current = Signals()  # the command's, replaced by each call of camelup.cli.main
