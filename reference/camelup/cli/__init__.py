"""The ``camelup`` command line. Every failure is one line on stderr and a documented exit code.

:func:`main` puts the SIGINT, SIGTERM and SIGHUP handlers in place before it imports anything
heavy (the parser, the verbs, the engine: :mod:`camelup.cli.app`), so that a Ctrl-C even in the
first tenth of a second ends in one line and its exit code, never a traceback. This module
therefore imports only the signal handling, which needs nothing beyond the standard library.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from camelup.cli import signals
from camelup.io import exits


def main(argv: Sequence[str] | None = None) -> int:
    signals.current = signals.Signals()
    with signals.current.installed():
        try:
            from camelup.cli import app
        except KeyboardInterrupt as error:  # interrupted while starting: nothing to keep
            interrupted = exits.interruption(error)
            sys.stderr.write(f"camelup: interrupted ({interrupted.signal_name})\n")
            return interrupted.exit_code
        return app.run(argv)
