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
import sys
from collections.abc import Iterator
from types import FrameType

from camelup.io.exits import STOPPING, Interrupted


class Signals:
    def __init__(self) -> None:
        self.received: Interrupted | None = None
        self._raised = False
        self._deferring = 0
        self._previous_hook = sys.unraisablehook

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

    def _unraisable(self, unraisable: sys.UnraisableHookArgs) -> None:
        # A signal that came while Python ran a weakref callback or a finalizer raised its
        # Interrupted there, where Python prints it as "Exception ignored" and goes on: it is
        # remembered in ``received``, and the command ends as interrupted (camelup.cli.app).
        if not isinstance(unraisable.exc_value, Interrupted):
            self._previous_hook(unraisable)

    @contextlib.contextmanager
    def installed(self) -> Iterator[None]:
        """Handle SIGINT, SIGTERM and SIGHUP in this block (only the main thread can)."""
        try:
            previous = {number: signal.signal(number, self._handle) for number in STOPPING}
        except ValueError:  # not the main thread, which alone can (the first call fails)
            yield
            return
        self._previous_hook, sys.unraisablehook = sys.unraisablehook, self._unraisable
        try:
            yield
        finally:
            sys.unraisablehook = self._previous_hook
            for number, handler in previous.items():
                signal.signal(number, handler)


current = Signals()  # the command's, replaced by each call of camelup.cli.main
