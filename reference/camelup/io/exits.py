"""The exit codes of the ``camelup`` command, in one table, and the interruption that ends a run.

A leaf module (it imports nothing of camelup): the conformance runner computes a run's exit
code from these constants and the command line documents them, each verb listing only the
codes it can return. The command line imports it before its signal handlers are in place, so
it imports as little as it can (not even typing).
"""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Iterator

TYPE_CHECKING = False  # typing's constant, without importing typing
if TYPE_CHECKING:  # multiprocessing is imported only by the verbs that start workers
    import multiprocessing.pool

OK = 0
FAILED = 1  # a check failed: a case failed or errored, spec check found problems, ...
USAGE = 2  # bad option, unknown ID, no such folder
INVALID_SUITE = 3  # invalid suite, case file or expectations file
INVALID_INPUT = INVALID_SUITE  # 3 for `render` too: the state or case to draw is invalid
PROTOCOL = 4  # the adapter broke the protocol
ADAPTER = 5  # the adapter could not start, or shares no rule set with the cases
INTERNAL = 70  # EX_SOFTWARE: a bug in camelup, never a verdict about the input
OUTPUT = 74  # EX_IOERR: standard output cannot be written (closed, disk full, ...)
SIGHUP = 128 + signal.SIGHUP  # 129: the terminal was closed (an ssh session dropped)
SIGINT = 128 + signal.SIGINT  # 130: interrupted with Ctrl-C
BROKEN_PIPE = 128 + signal.SIGPIPE  # 141: the reader of standard output went away
SIGTERM = 128 + signal.SIGTERM  # 143: terminated (a CI job cancelled)

# What every verb can end with, whatever it does.
COMMON: tuple[tuple[int, str], ...] = (
    (
        INTERNAL,
        "internal error: a bug in camelup, not a verdict on the input (one line naming"
        " the exception); please report it",
    ),
    (
        OUTPUT,
        "standard output or an output file cannot be written (closed, read-only, disk full);"
        " one line on stderr",
    ),
    (SIGHUP, "hung up (SIGHUP: the terminal was closed); what finished is written, as for 130"),
    (
        SIGINT,
        "interrupted (SIGINT, Ctrl-C): the work stops at once and what finished is written"
        " (a report marked interrupted, the findings or mutants judged so far)",
    ),
    (BROKEN_PIPE, "standard output was closed by its reader (e.g. `| head`); nothing printed"),
    (SIGTERM, "terminated (SIGTERM, e.g. a cancelled CI job)"),
)


class Interrupted(KeyboardInterrupt):
    """A signal asked camelup to stop: SIGINT (Ctrl-C), SIGTERM (a cancelled CI job) or SIGHUP
    (the terminal was closed).

    A KeyboardInterrupt, so that whatever already stops cleanly on Ctrl-C stops the same way on
    SIGTERM; ``exit_code`` is 128 plus the signal's number, as a shell reports it.
    """

    def __init__(self, signal_number: int) -> None:
        super().__init__(signal.Signals(signal_number).name)
        self.signal_number = signal_number

    @property
    def signal_name(self) -> str:
        return signal.Signals(self.signal_number).name

    @property
    def exit_code(self) -> int:
        return 128 + self.signal_number


STOPPING = frozenset({signal.SIGINT, signal.SIGTERM, signal.SIGHUP})  # what the CLI handles


@contextlib.contextmanager
def signals_held() -> Iterator[None]:
    """Hold the stopping signals back in this block (they arrive when it ends): around the
    start of worker processes, so that a signal never lands half-way through it, leaving
    workers no one ends (a pool interrupted while it forks). Workers inherit the mask:
    :func:`quiet_worker` lets them go."""
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, STOPPING)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def quiet_worker() -> None:
    """The initialiser of a worker process: Ctrl-C is the parent's to handle (the terminal
    sends it to the whole group); SIGTERM and SIGHUP end the worker at once, without the
    handler it inherited from the parent (whose exception printed a worker's traceback)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for number in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(number, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOPPING)


def worker_pool(processes: int) -> multiprocessing.pool.Pool:
    """A pool of ``processes`` workers started with the stopping signals held, each running
    :func:`quiet_worker`; a signal that came meanwhile ends it before it is returned."""
    import multiprocessing

    pool = None
    try:
        with signals_held():
            pool = multiprocessing.get_context().Pool(processes, quiet_worker)
    except BaseException:  # the held signal, raised as the block ends
        if pool is not None:
            pool.terminate()
        raise
    return pool


def interruption(error: KeyboardInterrupt) -> Interrupted:
    """``error`` as an :class:`Interrupted` (a bare KeyboardInterrupt is a SIGINT)."""
    return error if isinstance(error, Interrupted) else Interrupted(signal.SIGINT)


def epilog(codes: tuple[tuple[int, str], ...], example: str | None = None) -> str:
    """The ``--help`` epilogue of one verb: its example, then its exit codes and the common ones."""
    lines: list[str] = []
    if example:
        lines += ["example:", *(f"  {line}" for line in example.splitlines()), ""]
    lines.append("exit codes:")
    for code, meaning in (*codes, *COMMON):
        first, *rest = _wrapped(meaning)
        lines.append(f"  {code:3}  {first}")
        lines.extend(f"       {line}" for line in rest)
    return "\n".join(lines) + "\n"


_WRAPPED: dict[str, list[str]] = {}


def _wrapped(meaning: str) -> list[str]:
    # Every verb's epilogue ends with the common codes, and the parser builds all of them at
    # each start of camelup: wrapping each meaning once was a third of building the parser.
    if meaning not in _WRAPPED:
        import textwrap

        _WRAPPED[meaning] = textwrap.wrap(meaning, 70)
    return _WRAPPED[meaning]
