"""Adapter protocol 1: the handshake, and the clients that send cases and collect replies.

:class:`SubprocessAdapter` runs any program that speaks the protocol on stdin/stdout (argv split
with ``shlex``, never through a shell). It pipelines: up to ``window`` cases are written ahead,
and the replies, which must come back in request order, are matched by ``seq``. When the adapter
crashes, hangs past the per-case timeout, writes something that is not a protocol line or
answers with the wrong ``seq``, the case it owed a reply for is reported broken (with the tail of
its stderr), the adapter is restarted and the other cases are sent again.

:class:`InProcessReference` runs the bundled reference engine in this process through
:func:`camelup.harness.adapter.run_case`, the same function the reference adapter program uses.
"""

from __future__ import annotations

import atexit
import collections
import contextlib
import json
import os
import queue
import shlex
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import IO, Any

import attrs

from camelup.harness.nesting import may_nest_too_deep, too_deep
from camelup.io import schemas
from camelup.io.jsonio import JSONInputError, parse_json

PROTOCOL = 1
DEFAULT_TIMEOUT = 5.0
START_TIMEOUT = 20.0  # the handshake may include starting an interpreter or a VM
MAX_LINE_BYTES = 16 << 20  # the longest protocol line read; a longer one breaks the protocol
STDERR_LINES = 20
STDERR_LINE_BYTES = 4096  # of each stderr line kept: the tail stays small whatever is written
CHUNK = 1 << 16
QUEUED_BYTES = 32 << 20  # read ahead of the runner: at most this much (or one longer line)
# Blank lines carry no message; past this many while one reply is due, the adapter is only
# making noise (each is also charged LINE_COST bytes of the read-ahead, its real memory).
MAX_BLANK_LINES = 10_000
# An adapter that breaks this many times in a row, each time before its first reply since it
# was (re)started, breaks on every restart: the remaining cases are given up at once rather
# than after each restart's start-up and timeout (a blank-line flood under --timeout 1 cost
# 21 of them, 49 s). Any kinds of break count: under load the same flood is now a timeout,
# now too many blank lines.
SAME_BREAKS = 3
LINE_COST = 64
POLL = 0.05  # how often a wait for a line looks whether the adapter's process has exited
EXIT_GRACE = 0.2  # how long lines may still come after it has exited


class AdapterStartError(Exception):
    """The adapter could not be started, or its handshake is not protocol 1."""


@attrs.frozen
class Hello:
    """What the adapter said about itself in its handshake."""

    name: str
    version: str
    editions: frozenset[str]
    modules: frozenset[str]
    variants: frozenset[str]
    capabilities: frozenset[str]
    raw: Mapping[str, Any] = attrs.field(eq=False, repr=False)
    # ``supports.partnerships``: false for an engine that plays 6-8 players of the 2nd edition
    # without partnership cards; an adapter that does not say supports them (protocol 1 as
    # first published sent it every case of its editions).
    partnerships: bool = True

    def supports(self, ruleset: Mapping[str, Any]) -> bool:
        """Whether the edition, every module and every variant of ``ruleset`` is supported."""
        return (
            ruleset.get("edition") in self.editions
            and set(ruleset.get("modules", ())) <= self.modules
            and set(ruleset.get("variants", ())) <= self.variants
        )

    def supports_case(self, ruleset: Mapping[str, Any], needs_partnerships: bool) -> bool:
        """Whether a case of ``ruleset`` can be sent: its rule set is supported, and so are
        partnerships if the case needs them (:mod:`camelup.harness.features`)."""
        return self.supports(ruleset) and (self.partnerships or not needs_partnerships)

    def unsupported(self, ruleset: Mapping[str, Any]) -> str:
        """What of ``ruleset`` the adapter does not support, in words."""
        parts = []
        if ruleset.get("edition") not in self.editions:
            parts.append(f"edition {ruleset.get('edition')}")
        parts.extend(f"module {m}" for m in ruleset.get("modules", ()) if m not in self.modules)
        parts.extend(f"variant {v}" for v in ruleset.get("variants", ()) if v not in self.variants)
        return ", ".join(parts)

    def summary(self) -> str:
        return (
            f"{self.name} {self.version} (editions: {', '.join(sorted(self.editions)) or '-'};"
            f" modules: {', '.join(sorted(self.modules)) or '-'};"
            + ("" if self.partnerships else " no partnerships;")
            + f" capabilities: {', '.join(sorted(self.capabilities)) or '-'})"
        )


def parse_hello(reply: Any) -> Hello:
    """The handshake reply as a :class:`Hello`, after ``protocol.schema.json``; AdapterStartError
    names the defect (another protocol version first: the adapter may speak one)."""
    if isinstance(reply, dict) and reply.get("protocol") != PROTOCOL:
        raise AdapterStartError(
            f"the adapter speaks protocol {reply.get('protocol')!r},"
            f" the runner speaks protocol {PROTOCOL}"
        )
    violation = schemas.check("protocol#/$defs/hello_reply", reply)
    if violation is not None:
        raise AdapterStartError(f"bad hello reply: {violation}")
    implementation, supports = reply["implementation"], reply["supports"]
    return Hello(
        name=implementation["name"],
        version=implementation["version"],
        editions=frozenset(supports["editions"]),
        modules=frozenset(supports["modules"]),
        variants=frozenset(supports["variants"]),
        capabilities=frozenset(reply["capabilities"]),
        raw=reply,
        partnerships=supports.get("partnerships", True),
    )


@attrs.frozen
class Reply:
    """The adapter's well-formed answer to one ``run`` (its ``seq`` removed)."""

    body: Mapping[str, Any]
    seconds: float
    # Where the reply nests more than nesting.MAX_DEPTH levels deep (found from its text as it
    # is read), or None: such a reply is malformed and is never compared.
    too_deep: str | None = None


@attrs.frozen
class Broken:
    """The adapter broke the protocol while it owed the reply to this case."""

    kind: str  # "crash", "timeout", "garbage", "seq", "steps", "noise", "restart", "gave-up"
    message: str
    stderr: str = ""


Outcome = Reply | Broken


class InProcessReference:
    """The bundled reference engine, called directly (no subprocess, no JSON text)."""

    def __init__(self) -> None:
        import camelup.harness.adapter as adapter

        self._run_case: Callable[[Mapping[str, Any]], dict[str, Any]] = adapter.run_case
        self._hello = parse_hello(adapter.hello_reply())
        self.protocol_broken = False

    @property
    def description(self) -> str:
        return "the bundled reference engine (in-process)"

    def start(self) -> Hello:
        return self._hello

    def run(self, cases: Sequence[Mapping[str, Any]]) -> Iterator[tuple[int, Outcome]]:
        for index, case in enumerate(cases):
            began = time.perf_counter()
            body = self._run_case(case)
            yield index, Reply(body, time.perf_counter() - began)

    def close(self, gently: bool = True) -> None:
        return None


@attrs.frozen
class Overlong:
    """Stands in the line queue for a line longer than the limit (the rest was not read)."""

    limit: int


@attrs.frozen
class Noise:
    """Returned instead of a line when the adapter wrote more than ``limit`` blank lines while
    one reply was due."""

    limit: int


# Adapter process groups still running: ended at exit whatever ends the runner (an exception,
# a signal that unwound the stack past a ``finally``), so that no adapter outlives it.
_LIVE: set[int] = set()


@atexit.register
def _end_live_groups() -> None:
    for group in list(_LIVE):
        _kill_group(group)


def _kill_group(group: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):  # already gone
        os.killpg(group, signal.SIGKILL)
    _LIVE.discard(group)


def _kill_escaped(pipes: frozenset[int]) -> None:
    """Kill the processes outside this one's session that still hold one of the adapter's
    ``pipes`` (by inode) once its group is killed: a child that left the group with ``setsid``
    (or a daemon's double fork) escapes ``killpg``, but not the pipe it inherited. Linux's
    /proc only: elsewhere (or for a process that closed the pipes) nothing is found. This
    process and its own workers (a fuzz pool) share this session and are never touched."""
    names = {f"pipe:[{inode}]" for inode in pipes}
    session = os.getsid(0)
    with contextlib.suppress(OSError):
        for entry in os.scandir("/proc"):
            if not entry.name.isdigit():
                continue
            pid = int(entry.name)
            with contextlib.suppress(OSError):  # gone, or not ours to look at
                if os.getsid(pid) == session:
                    continue
                if any(os.readlink(fd.path) in names for fd in os.scandir(f"{entry.path}/fd")):
                    os.kill(pid, signal.SIGKILL)


class _Process:
    """One running adapter with its reader, writer and stderr threads.

    The adapter runs in a session (and process group) of its own, and the whole group is
    killed when it is stopped: a wrapper script, ``cargo run`` or ``npm start`` leave children
    behind that hold the adapter's stdout open. A child that left the group (``setsid``) but
    still holds one of the adapter's pipes is killed too (:func:`_kill_escaped`). No thread of
    the runner ever waits for such a pipe: the readers are daemon threads the runner never
    joins, and the adapter counts as gone once its own process has exited, whether or not its
    stdout has reached end of file.
    """

    def __init__(self, argv: Sequence[str], max_line_bytes: int = MAX_LINE_BYTES) -> None:
        try:
            self.popen = subprocess.Popen(
                list(argv),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                bufsize=0,
                start_new_session=True,
            )
        except OSError as error:
            raise AdapterStartError(
                f"cannot start {shlex.join(argv)}: {error.strerror or error}"
            ) from None
        assert (
            self.popen.stdin is not None
            and self.popen.stdout is not None
            and self.popen.stderr is not None
        )
        self.group = self.popen.pid  # start_new_session: the adapter leads its own group
        self.pipes = frozenset(
            os.fstat(stream.fileno()).st_ino
            for stream in (self.popen.stdin, self.popen.stdout, self.popen.stderr)
        )
        _LIVE.add(self.group)
        self.max_line_bytes = max_line_bytes
        self.stopped = threading.Event()
        # Lines read and not yet taken, bounded by their bytes (QUEUED_BYTES): an adapter that
        # writes faster than the runner judges waits for it instead of filling memory.
        self.lines: queue.Queue[bytes | Overlong | None] = queue.Queue()
        self._room = threading.Condition()
        self._queued = 0
        self.outgoing: queue.Queue[bytes | None] = queue.Queue()
        self.stderr_tail: collections.deque[str] = collections.deque(maxlen=STDERR_LINES)
        self._exited_at: float | None = None
        self._threads = [
            threading.Thread(target=self._read, args=(self.popen.stdout,), daemon=True),
            threading.Thread(target=self._write, args=(self.popen.stdin,), daemon=True),
            threading.Thread(target=self._drain, args=(self.popen.stderr,), daemon=True),
        ]
        for thread in self._threads:
            thread.start()

    def _put(self, item: bytes | Overlong | None) -> bool:
        """Queue ``item`` for the runner once there is room for it (a line is always let in
        when none is queued); False once the process is stopped (nobody reads)."""
        size = max(len(item), LINE_COST) if isinstance(item, bytes) else 0
        with self._room:
            while self._queued and self._queued + size > QUEUED_BYTES:
                if self.stopped.is_set():
                    return False
                self._room.wait(0.1)
            self._queued += size
        self.lines.put(item)
        return True

    def _taken(self, item: bytes | Overlong | None) -> bytes | Overlong | None:
        if isinstance(item, bytes):
            with self._room:
                self._queued -= max(len(item), LINE_COST)
                self._room.notify()
        return item

    def _read(self, stream: IO[bytes]) -> None:
        """Split stdout into lines, in chunks, never holding more than one line of at most
        ``max_line_bytes`` (plus a chunk): an adapter writing without newlines costs nothing."""
        pending = bytearray()
        try:
            while chunk := stream.read(CHUNK):
                searched = len(pending)  # what is pending holds no newline: look in the chunk
                pending += chunk
                start = 0
                while (end := pending.find(b"\n", max(start, searched))) >= 0:
                    if end - start > self.max_line_bytes:
                        self._put(Overlong(self.max_line_bytes))
                        return
                    if not self._put(bytes(pending[start : end + 1])):
                        return
                    start = end + 1
                del pending[:start]
                if len(pending) > self.max_line_bytes:
                    self._put(Overlong(self.max_line_bytes))
                    return
            if pending.strip():
                self._put(bytes(pending))
        except (OSError, ValueError):
            pass
        finally:
            _close(stream)
        self._put(None)

    def _write(self, stream: IO[bytes]) -> None:
        try:
            while True:
                item = self.outgoing.get()
                if item is None:
                    break
                chunks = [item]
                while True:  # batch whatever is queued into one write
                    try:
                        more = self.outgoing.get_nowait()
                    except queue.Empty:
                        break
                    if more is None:
                        _write_all(stream, b"".join(chunks))
                        return
                    chunks.append(more)
                _write_all(stream, b"".join(chunks))
        except (OSError, ValueError):
            pass
        finally:
            _close(stream)

    def _drain(self, stream: IO[bytes]) -> None:
        """Keep the last lines of stderr, each cut to ``STDERR_LINE_BYTES``: read in chunks, so
        that a flood of stderr, with or without newlines, costs no memory."""
        pending = bytearray()

        def keep(line: bytes) -> None:
            self.stderr_tail.append(line.decode("utf-8", "replace").rstrip("\r"))

        try:
            while chunk := stream.read(CHUNK):
                pending += chunk
                *lines, rest = pending.split(b"\n")
                for line in lines:
                    keep(bytes(line[:STDERR_LINE_BYTES]))
                pending = bytearray(rest[:STDERR_LINE_BYTES])
            if pending:
                keep(bytes(pending))
        except (OSError, ValueError):
            pass
        finally:
            _close(stream)

    def send(self, message: Mapping[str, Any]) -> None:
        self.outgoing.put(
            (json.dumps(message, separators=(",", ":"), ensure_ascii=False) + "\n").encode()
        )

    def receive(self, timeout: float) -> bytes | Overlong | Noise | None:
        """The next stdout line that is not blank, ``None`` at end of output or once the
        adapter's own process has exited (a child of it may hold stdout open); raises
        queue.Empty on timeout, blank lines or not, and Noise past MAX_BLANK_LINES of them."""
        deadline = time.monotonic() + max(timeout, 0.0)
        blank = 0
        while True:
            now = time.monotonic()
            try:
                line = self._taken(self.lines.get(timeout=max(min(deadline - now, POLL), 0.0)))
                if not isinstance(line, bytes) or line.strip():
                    return line
                blank += 1
                if blank > MAX_BLANK_LINES:
                    return Noise(MAX_BLANK_LINES)
                if time.monotonic() >= deadline:
                    raise queue.Empty
            except queue.Empty:
                now = time.monotonic()
                if self.popen.poll() is not None:
                    self._exited_at = self._exited_at or now
                    if now - self._exited_at >= EXIT_GRACE:  # its last lines had time to come
                        return None
                if now >= deadline:
                    raise

    def stderr(self) -> str:
        # Let the stderr thread catch the last lines of a dying process (it ends at end of
        # file, unless something that escaped the process group still holds the pipe).
        self._threads[2].join(0.5 if self.stopped.is_set() else 0.01)
        return "\n".join(self.stderr_tail)

    def exit_status(self, wait: float) -> int | None:
        try:
            return self.popen.wait(timeout=wait)
        except subprocess.TimeoutExpired:
            return None

    def stop(self, gently: bool) -> None:
        """End the adapter and its whole process group. ``gently``: send ``stop`` and give it
        a second to exit on its own first."""
        if gently and self.popen.poll() is None:
            self.send({"cmd": "stop"})
        self.outgoing.put(None)
        if gently:
            self.exit_status(1.0)
        self.stopped.set()
        _kill_group(self.group)  # also when it exited: what it left behind goes with it
        _kill_escaped(self.pipes)
        self.popen.wait()


def _ended(status: int | None) -> str:
    """How an adapter whose standard output ended went: it exited, or (``status`` None) it
    closed its standard output and ran on (it is killed)."""
    if status is None:
        return "the adapter closed its standard output but kept running (it was killed)"
    return f"the adapter exited (status {status})"


def _write_all(stream: IO[bytes], data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = stream.write(view)
        view = view[written or 0 :]


def _close(stream: IO[bytes]) -> None:
    with contextlib.suppress(OSError):
        stream.close()


class SubprocessAdapter:
    """An adapter program speaking protocol 1 on stdin/stdout."""

    def __init__(
        self,
        command: str | Sequence[str],
        timeout: float = DEFAULT_TIMEOUT,
        max_restarts: int = 20,
        window: int = 32,
        handshake_timeout: float = START_TIMEOUT,
        max_line_bytes: int = MAX_LINE_BYTES,
    ) -> None:
        self.argv = shlex.split(command) if isinstance(command, str) else list(command)
        if not self.argv:
            raise AdapterStartError("the adapter command is empty")
        self.timeout = timeout
        self.handshake_timeout = handshake_timeout
        self.max_line_bytes = max_line_bytes
        self.max_restarts = max_restarts
        self.window = max(1, window)
        self.restarts = 0
        self.protocol_broken = False
        # The kinds of the breaks in a row of freshly started processes (a reply of the
        # current process clears them): see SAME_BREAKS.
        self._fresh_breaks: tuple[str, ...] = ()
        self._replied = False
        self._process: _Process | None = None
        self._hello: Hello | None = None
        self._seq = 0

    @property
    def description(self) -> str:
        return shlex.join(self.argv)

    def start(self) -> Hello:
        """Start the adapter and shake hands; AdapterStartError when that fails."""
        process = _Process(self.argv, self.max_line_bytes)
        process.send({"cmd": "hello", "protocol": PROTOCOL})
        try:
            try:
                line = process.receive(self.handshake_timeout)
            except queue.Empty:
                raise AdapterStartError(
                    f"no answer to hello within {self.handshake_timeout:g} s"
                    " (--handshake-timeout)" + _tail(process.stderr())
                ) from None
            if line is None:
                raise AdapterStartError(
                    f"{_ended(process.exit_status(1.0))} before answering hello"
                    + _tail(process.stderr())
                )
            if isinstance(line, Overlong):
                raise AdapterStartError(
                    f"the hello reply is longer than {line.limit} bytes (--max-line-bytes)"
                )
            if isinstance(line, Noise):
                raise AdapterStartError(
                    f"more than {line.limit} blank lines and no answer to hello"
                )
            try:
                message = parse_json(line)
            except JSONInputError as error:
                raise AdapterStartError(f"the hello reply is {error}: {_clip(line)}") from None
            hello = parse_hello(message)
        except AdapterStartError:
            process.stop(gently=False)
            raise
        if self._hello is not None and hello != self._hello:
            process.stop(gently=False)
            raise AdapterStartError("the restarted adapter answered hello differently")
        self._process, self._hello = process, hello
        self._replied = False
        return hello

    def close(self, gently: bool = True) -> None:
        """End the adapter and its process group; ``gently``: ask it to stop first."""
        if self._process is not None:
            self._process.stop(gently=gently)
            self._process = None

    def _kill(self) -> str:
        """Stop the broken process; return the tail of its stderr."""
        assert self._process is not None
        process, self._process = self._process, None
        process.stop(gently=False)
        return process.stderr()

    def run(self, cases: Sequence[Mapping[str, Any]]) -> Iterator[tuple[int, Outcome]]:
        """Send every case, yield ``(index, outcome)`` as the replies come (in request order)."""
        pending = collections.deque(range(len(cases)))
        inflight: collections.deque[tuple[int, int, float]] = (
            collections.deque()
        )  # seq, index, sent
        progress = time.monotonic()
        while pending or inflight:
            if self._process is None:
                breaks = self._fresh_breaks
                if self.restarts >= self.max_restarts or len(breaks) >= SAME_BREAKS:
                    message = (
                        f"not run: the adapter was restarted {self.restarts} times, giving up"
                        if len(breaks) < SAME_BREAKS
                        else f"not run: the adapter broke {len(breaks)} times in a row, each time"
                        f" before its first reply ({', '.join(breaks)}), giving up"
                    )
                    for index in (*(i for _, i, _ in inflight), *pending):
                        yield index, Broken("gave-up", message)
                    return
                self.restarts += 1
                try:
                    self.start()
                except AdapterStartError as error:
                    for index in (*(i for _, i, _ in inflight), *pending):
                        yield (
                            index,
                            Broken(
                                "restart", f"not run: the adapter could not be restarted: {error}"
                            ),
                        )
                    raise
                progress = time.monotonic()
            process = self._process
            assert process is not None
            while pending and len(inflight) < self.window:
                index = pending.popleft()
                self._seq += 1
                process.send({"cmd": "run", "seq": self._seq, "case": cases[index]})
                inflight.append((self._seq, index, time.monotonic()))
            seq, index, sent = inflight[0]
            started = max(sent, progress)
            try:
                line = process.receive(started + self.timeout - time.monotonic())
            except queue.Empty:
                why = Broken(
                    "timeout", f"no reply within {self.timeout:g} s (the adapter was killed)"
                )
            else:
                if line is None:
                    why = Broken(
                        "crash", f"{_ended(process.exit_status(2.0))} while running this case"
                    )
                elif isinstance(line, Overlong):
                    why = Broken(
                        "overlong",
                        f"the adapter wrote a line longer than {line.limit} bytes"
                        " (--max-line-bytes)",
                    )
                elif isinstance(line, Noise):
                    why = Broken(
                        "noise",
                        f"the adapter wrote more than {line.limit} blank lines while running"
                        " this case",
                    )
                else:
                    outcome = self._parse(line, seq, inflight, cases[index])
                    if not isinstance(outcome, Broken):
                        inflight.popleft()
                        now = time.monotonic()
                        deep = too_deep(outcome) if may_nest_too_deep(line, 0) else None
                        self._replied, self._fresh_breaks = True, ()
                        yield index, Reply(outcome, now - started, deep)
                        progress = now
                        continue
                    why = outcome
            broken = attrs.evolve(why, stderr=self._kill())
            self.protocol_broken = True
            inflight.popleft()
            if not self._replied:
                self._fresh_breaks += (broken.kind,)
            yield index, broken
            pending.extendleft(reversed([i for _, i, _ in inflight]))
            inflight.clear()

    def _parse(
        self,
        line: bytes,
        seq: int,
        inflight: Sequence[tuple[int, int, float]],
        case: Mapping[str, Any],
    ) -> dict[str, Any] | Broken:
        try:
            message = parse_json(line)
        except JSONInputError as error:
            return Broken("garbage", f"the adapter wrote a line that is {error}: {_clip(line)}")
        if not isinstance(message, dict):
            return Broken("garbage", f"the adapter wrote JSON that is not an object: {_clip(line)}")
        got = message.pop("seq", None)
        if type(got) is not int or got != seq:  # true and 1.0 equal 1 in Python, not in JSON
            later = any(s == got for s, _, _ in inflight)
            why = "out of order" if later else "with an unknown seq"
            return Broken("seq", f"the adapter answered {why}: seq {got!r} while seq {seq} was due")
        steps = message.get("steps")
        if isinstance(steps, list) and len(steps) > len(case.get("steps", ())):
            return Broken(
                "steps",
                f"the adapter answered {len(steps)} steps to a case of"
                f" {len(case.get('steps', ()))}",
            )
        return message


def _clip(line: bytes, width: int = 80) -> str:
    text = line.decode("utf-8", "replace").rstrip("\n")
    return repr(text if len(text) <= width else text[: width - 3] + "...")


def _tail(stderr: str) -> str:
    last = [line for line in stderr.splitlines() if line.strip()]
    return f"; stderr: {last[-1].strip()}" if last else ""
