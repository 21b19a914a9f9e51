"""What the browser tests share: Debian's chromium driven by Playwright, the site built from
this checkout and served on 127.0.0.1 (the session-scoped ``site`` fixture of conftest.py),
and the rule that no request leaves the site."""

from __future__ import annotations

import functools
import http.server
import os
import socket
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

CHROMIUM = os.environ.get("CAMELUP_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def artifact_folder(factory: pytest.TempPathFactory) -> Path:
    """Where the browser tests keep their screenshots: the folder that ``CAMELUP_ARTIFACTS``
    names (.ci/run names the checkout's artifacts/, which CI keeps), else one of this run's
    temporary folders: a test run writes nothing into the checkout unasked."""
    named = os.environ.get("CAMELUP_ARTIFACTS")
    folder = Path(named) if named else factory.getbasetemp() / "artifacts"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def no_browser(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"CI needs the browser test, but {reason}", pytrace=False)
    pytest.skip(f"no headless browser here: {reason}")


def need_browser() -> None:
    """Skip (fail in CI) unless Playwright and the browser are here."""
    try:
        import playwright.async_api  # noqa: F401
    except ImportError:
        no_browser("the playwright package is not installed (pip install playwright)")
    if not (Path(CHROMIUM).is_file() and os.access(CHROMIUM, os.X_OK)):
        no_browser(f"{CHROMIUM} is missing (apt-get install chromium)")


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive: a page and its images share a connection

    def log_message(self, format: str, *args: Any) -> None:
        pass


@contextmanager
def served(folder: Path) -> Iterator[str]:
    """``folder`` served on 127.0.0.1 by a plain static file server; yields its base URL."""
    handler = functools.partial(_QuietHandler, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


def site_only(base: str) -> list[str]:
    """Chromium's arguments that refuse every request leaving the site at ``base``: all but
    the site go through a proxy that refuses every connection, so none reaches its address and
    each fails in the browser (``note_outside`` notes them): the site must work with nothing
    fetched from elsewhere. Not Playwright's routes: these pause every request of the site in
    the browser, send it to Playwright's driver and turn the browser's cache off, a quarter of
    the crawl's CPU (six seconds)."""
    site = urlsplit(base).netloc
    return [
        f"--proxy-server=http://{_refusing_address()}",
        f"--proxy-bypass-list=<-loopback>;{site}",
    ]


@functools.cache
def _refusing_address() -> str:
    """An address on 127.0.0.1 that refuses every connection: a port bound (so no other
    program may take it) but never listened on, for as long as this process runs."""
    holder = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    holder.bind(("127.0.0.1", 0))
    _HELD.append(holder)
    return f"127.0.0.1:{holder.getsockname()[1]}"


_HELD: list[socket.socket] = []


def note_outside(target: Any, base: str, note: Callable[[str], None]) -> None:
    """``note`` each request of ``target`` (a page or a context) that tried to leave the site:
    refused by :func:`site_only`'s proxy, each fails."""

    def failed(request: Any) -> None:
        if not request.url.startswith((base, "data:")):
            note(request.url)

    target.on("requestfailed", failed)
