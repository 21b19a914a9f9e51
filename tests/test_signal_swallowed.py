"""A signal whose Interrupted Python swallows: raised while a weakref callback (or a finalizer)
runs, where Python prints "Exception ignored" and goes on. The command still ends as
interrupted: one line, 128 + the signal's number, no traceback."""

from __future__ import annotations

import gc
import signal
import weakref
from collections.abc import Sequence

import pytest

import camelup.cli.app as app
import camelup.cli.signals as signals
from camelup.cli import main


class _Collected:
    """Something whose weakref callback runs when it is collected."""


def _signal_in_a_weakref_callback(argv: Sequence[str] | None) -> int:
    thing = _Collected()
    # The handler as Python calls it when SIGTERM arrives during the callback.
    ref = weakref.ref(thing, lambda _: signals.current._handle(signal.SIGTERM, None))
    del thing
    gc.collect()
    assert ref() is None
    return 0  # the verb went on as if nothing had come


def test_a_signal_swallowed_in_a_weakref_callback_still_interrupts(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(app, "_dispatch", _signal_in_a_weakref_callback)
    code = main(["conformance", "list"])
    out, err = capsys.readouterr()
    assert code == 128 + signal.SIGTERM
    assert err == "camelup: interrupted (SIGTERM)\n"  # no "Exception ignored", no traceback
    assert out == ""


def test_a_verb_that_reports_its_interruption_itself_is_not_reported_twice(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def interrupted_verb(argv: Sequence[str] | None) -> int:
        with signals.current.deferred():
            signals.current._handle(signal.SIGHUP, None)
        return 128 + signal.SIGHUP

    monkeypatch.setattr(app, "_dispatch", interrupted_verb)
    assert main([]) == 128 + signal.SIGHUP
    assert capsys.readouterr().err == ""
