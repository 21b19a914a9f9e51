"""Test configuration: the ``clause`` and ``needs_rule_source`` markers and the import path of
the shared helpers."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))  # `import helpers` from any test module


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "clause(*ids): the spec clause IDs (spec/*.md) whose rule the test checks",
    )
    config.addinivalue_line(
        "markers",
        "needs_rule_source: the test edits or recompiles a rule's Python source (the mutants),"
        " which the compiled build (benchmarks/compiled/) holds as machine code, or needs the"
        " package in its checkout; CI runs every other test on that build too",
    )
    if not hasattr(config, "workerinput"):
        _share_bytecode()
        _cache_for_this_run(config)


def _cache_for_this_run(config: pytest.Config) -> None:
    """Give the run a cache folder of its own (``CAMELUP_CACHE_DIR``), empty at the start.

    camelup keeps the judged suite (and the site's engine snapshot) in the user's cache folder
    for the next command. A test must neither write there nor be served what an earlier run
    left: every process of this run (workers and the `camelup` they start inherit it) shares one
    fresh folder, so the run pays each piece of work once, as a user's first command does, and
    the folder goes when the run ends."""
    import shutil
    import tempfile

    folder = tempfile.mkdtemp(prefix="camelup-tests-cache-")
    os.environ["CAMELUP_CACHE_DIR"] = folder
    config.add_cleanup(lambda: shutil.rmtree(folder, ignore_errors=True))


def _share_bytecode() -> None:
    """Let every process of the run keep and reuse the bytecode it compiles.

    Hundreds of tests start `camelup`, and some start pytest itself. Where PYTHONDONTWRITEBYTECODE
    is set (as on this machine and CI's) no process could keep what it compiled: each `camelup`
    compiled the package afresh (0.4 s apiece), and each pytest process, every xdist worker
    among them, rewrote the asserts of every test module and plugin again (collecting the suite:
    9.0 s of CPU against 2.5 s with a cache). Run by the controller before any worker starts, so
    that the workers and every subprocess inherit it: the bytecode goes to one cache outside the
    checkout, which the package is compiled into once here."""
    import compileall
    import tempfile

    if os.environ.pop("PYTHONDONTWRITEBYTECODE", None) is not None:
        prefix = Path(tempfile.gettempdir()) / f"camelup-tests-pycache-{os.getuid()}"
        os.environ["PYTHONPYCACHEPREFIX"] = str(prefix)
        sys.pycache_prefix = str(prefix)
        sys.dont_write_bytecode = False
    package = Path(__file__).resolve().parent.parent / "reference" / "camelup"
    compileall.compile_dir(package, quiet=1, workers=1)


# Hypothesis profiles, chosen with HYPOTHESIS_PROFILE (default "ci"); see docs/testing.md.
# "ci" is derandomized and small enough that the whole suite stays well under five minutes on
# two cores; "long" plays many more and longer games with fresh randomness on every run.
from hypothesis import HealthCheck, settings  # noqa: E402

settings.register_profile(
    "ci",
    max_examples=20,
    stateful_step_count=40,
    deadline=None,
    derandomize=True,
    database=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "long",
    max_examples=300,
    stateful_step_count=200,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture(autouse=True)
def _in_a_fresh_working_directory(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each test runs in an empty working directory of its own: what a command writes there
    (``conformance run`` records its failures in ``.camelup-lastfailed.json``) stays out of the
    checkout and out of the other tests."""
    monkeypatch.chdir(tmp_path_factory.mktemp("cwd"))


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """The docs site built from this checkout once per session (both browser tests use it),
    served on 127.0.0.1: its base URL and its folder. Under pytest-xdist the two test modules
    may run on two workers: the first to get here builds it into the session's shared temporary
    folder, the other waits for that build (8 s of CPU) instead of making a second. The engine's
    memory snapshot goes to the run's own cache folder (see _cache_for_this_run), so it is made
    here once, as a user's first build makes it."""
    import fcntl

    from browser import served
    from camelup.tools.docs.site import build_site

    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = shared.parent  # the folder of this session's workers
    out, built = shared / "site", shared / "site.built"
    with open(shared / "site.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not built.exists():
            build_site(Path(__file__).resolve().parent.parent, out)
            built.touch()
    with served(out) as base:
        yield base, out
