"""The in-process adapter: a Python engine under test as a class, no subprocess.

An :class:`Adapter` answers the requests of adapter protocol 1 (``docs/adapter-protocol.md``)
as method calls: :meth:`~Adapter.hello` returns the handshake reply, :meth:`~Adapter.run` the
reply to one ``run`` (without its ``seq``), :meth:`~Adapter.stop` ends the session. They take and
return the very JSON values the protocol carries, so one class serves the pytest plugin
(:mod:`camelup.testing.plugin`) and, through :mod:`camelup.testing.serve`, ``conformance run``.

:class:`InProcessAdapter` is the runner's client for such a class. Every reply goes through
JSON text on its way, exactly as on the wire: a value that a served adapter could not send (a
set, ``NaN``, an object) is answered ``errored`` here as there, and a tuple or an integer key
arrives as the list or the string key that the served adapter would have written.
"""

from __future__ import annotations

import importlib
import json
import time
import traceback
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, Protocol

from camelup.harness.protocol import AdapterStartError, Hello, Outcome, Reply, parse_hello
from camelup.io.jsonio import parse_json


class Adapter(Protocol):
    """A Python engine under test, one method per request of protocol 1.

    Subclass it (or just have the methods): ``stop`` does nothing unless overridden.
    """

    def hello(self) -> Mapping[str, Any]:
        """The handshake reply: ``{"protocol": 1, "implementation": ..., "supports": ...,
        "capabilities": [...]}``."""
        ...

    def run(self, case: Mapping[str, Any]) -> Mapping[str, Any]:
        """The reply to one case (``initial_state``/``steps``/..., ``skipped`` or ``errored``),
        without ``seq``. An exception is answered ``errored``, as a served adapter would."""
        ...

    def stop(self) -> None:
        """The session is over (``stop``): release what the engine holds."""
        return None


AdapterFactory = Callable[[], Adapter]


class AdapterLoadError(Exception):
    """``module:attribute`` names no adapter that can be made."""


def load_adapter(spec: str) -> AdapterFactory:
    """The adapter class (or factory) named ``package.module:Name``; AdapterLoadError says what
    is wrong with ``spec`` in one line."""
    module_name, colon, attribute = spec.partition(":")
    if not colon or not module_name or not attribute:
        raise AdapterLoadError(f"{spec!r}: expected module:Class, e.g. my_engine.tests:MyAdapter")
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise AdapterLoadError(f"{spec!r}: cannot import {module_name}: {error}") from None
    found: Any = module
    for name in attribute.split("."):
        try:
            found = getattr(found, name)
        except AttributeError:
            raise AdapterLoadError(f"{spec!r}: {module_name} has no {attribute}") from None
    if not callable(found):
        raise AdapterLoadError(f"{spec!r}: {attribute} is not a class or a factory")
    factory: AdapterFactory = found
    return factory


def answer(adapter: Adapter, case: Mapping[str, Any]) -> dict[str, Any]:
    """The adapter's reply to ``case`` as it would cross the wire (JSON text and back). An
    exception of the engine, or a reply a served adapter could not write (not JSON, not an
    object), is answered ``errored``, saying where or what."""
    try:
        reply = adapter.run(case)
    except Exception as error:  # a bug of the engine: reported, the session goes on
        return {"errored": {"message": _exception_line(error)}}
    try:
        body = wire_json(reply)
    except (TypeError, ValueError) as error:
        return {"errored": {"message": f"the reply is not JSON: {error}"}}
    if not isinstance(body, dict):
        return {"errored": {"message": f"the reply is not a JSON object: {type(reply).__name__}"}}
    return body


def wire_json(value: Any) -> Any:
    """``value`` written as a protocol line and read back as the runner reads one; ValueError
    or TypeError when it is not JSON (NaN, infinities and lone surrogates included)."""
    return parse_json(json.dumps(value, allow_nan=False))


def _exception_line(error: Exception) -> str:
    frames = traceback.extract_tb(error.__traceback__)
    where = (
        f" (at {frames[-1].filename}:{frames[-1].lineno} in {frames[-1].name})" if frames else ""
    )
    return f"{type(error).__name__}: {error}{where}"


class InProcessAdapter:
    """The runner's client (:class:`camelup.harness.runner.Client`) for an :class:`Adapter`
    class: made once, on the first :meth:`start`, and stopped by :meth:`stop`, so that many runs
    (one per pytest item) share one engine."""

    def __init__(self, factory: AdapterFactory, description: str | None = None) -> None:
        self._factory = factory
        self._description = description or getattr(factory, "__qualname__", repr(factory))
        self._adapter: Adapter | None = None
        self._hello: Hello | None = None
        self.protocol_broken = False

    @property
    def description(self) -> str:
        return f"{self._description} (in-process)"

    def start(self) -> Hello:
        """Make the adapter and shake hands (once); AdapterStartError names the defect."""
        if self._hello is not None:
            return self._hello
        try:
            adapter = self._factory()
            hello = wire_json(adapter.hello())
        except (TypeError, ValueError) as error:
            raise AdapterStartError(f"the hello reply is not JSON: {error}") from None
        except Exception as error:
            raise AdapterStartError(f"the adapter raised {_exception_line(error)}") from None
        self._adapter, self._hello = adapter, parse_hello(hello)
        return self._hello

    def run(self, cases: Sequence[Mapping[str, Any]]) -> Iterator[tuple[int, Outcome]]:
        adapter = self._adapter
        assert adapter is not None, "start() first"
        for index, case in enumerate(cases):
            began = time.perf_counter()
            body = answer(adapter, case)
            yield index, Reply(body, time.perf_counter() - began)

    def close(self, gently: bool = True) -> None:
        """The end of one run: the adapter lives on for the next (see :meth:`stop`)."""
        return None

    def stop(self) -> None:
        """End the session: the adapter's own ``stop``."""
        if self._adapter is not None:
            stop = getattr(self._adapter, "stop", None)
            if callable(stop):
                stop()
            self._adapter, self._hello = None, None
