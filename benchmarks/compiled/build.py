"""An optional compiled build of camelup's race kernel, made by mypyc from the very files that
are the reference: no rule is written twice, nothing is rewritten in another language.

Run: ``python benchmarks/compiled/build.py [--out DIR]`` (default ``build/compiled``) with the
test extras installed (mypy ships mypyc) and a C compiler with the Python headers. It copies
``reference/camelup`` to ``DIR/camelup``, links the spec and the conformance suite beside it as
a wheel holds them (``_spec``, ``_conformance``), and compiles the modules of :data:`KERNEL` in
that copy. Use it with ``PYTHONPATH=DIR``; without that the pure-Python package, which stays the
default and the fallback, is the one imported. ``--check`` says which build an interpreter
imports.

Patching: the rules call each other through their modules (``movement.lift_unit(...)``), which a
compiled module does too (an attribute lookup on the module, then a call), so a rule patched in
its module changes play and odds in this build as in the pure one: ``tests/test_odds.py``'s
patch tests pass on both. A call inside one module is direct in the compiled build; the patch
tests patch rules across modules.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOURCE = ROOT / "reference" / "camelup"

# The modules compiled, relative to the package. The rest of the package stays interpreted:
# it is not on the hot path of an enumeration, a Monte Carlo race or ``apply``, but for model/,
# which compiles and then fails at import: mypyc turns a method of a compiled class into an
# object without ``__qualname__``, which ``@implements`` on ``State.pyramid`` (a cached
# property) records.
KERNEL = (
    "rules/betting.py",
    "rules/crazy.py",
    "rules/final.py",
    "rules/leg.py",
    "rules/money.py",
    "rules/movement.py",
    "rules/partnership.py",
    "rules/race.py",
    "rules/ranking.py",
    "rules/tiles.py",
    "rules/turn.py",
    "rules/whirlwind.py",
    "play/engine.py",
    "play/validation.py",
    "odds/exact.py",
    "odds/races.py",
)

SETUP = """\
from setuptools import setup
from mypyc.build import mypycify

setup(
    name="camelup-compiled-kernel",
    ext_modules=mypycify({modules!r}, opt_level="3", group_name="camelup_kernel"),
)
"""


def build(out: Path) -> None:
    started = time.perf_counter()
    package = out / "camelup"
    if out.exists():
        shutil.rmtree(out)
    shutil.copytree(SOURCE, package, ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    (package / "_spec").symlink_to(ROOT / "spec", target_is_directory=True)
    (package / "_conformance").symlink_to(ROOT / "conformance", target_is_directory=True)
    modules = [f"camelup/{name}" for name in KERNEL]
    (out / "setup.py").write_text(SETUP.format(modules=modules))
    environment = dict(os.environ, MYPYPATH=str(out))
    subprocess.run(
        [sys.executable, "setup.py", "build_ext", "--inplace"],
        cwd=out,
        env=environment,
        check=True,
        stdout=subprocess.DEVNULL,
    )
    print(f"compiled {len(KERNEL)} modules into {package} in {time.perf_counter() - started:.0f} s")
    print(f"use it with: PYTHONPATH={out} python ...")


def check() -> None:
    import importlib

    interpreted = 0
    for name in KERNEL:
        module = importlib.import_module("camelup." + name.removesuffix(".py").replace("/", "."))
        kind = "compiled" if str(module.__file__).endswith(".so") else "interpreted"
        print(f"{kind:11} {module.__file__}")
        interpreted += kind == "interpreted"
    if interpreted:
        sys.exit(f"{interpreted} kernel modules are interpreted: not the compiled build")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "compiled")
    parser.add_argument("--check", action="store_true", help="say which build is imported")
    args = parser.parse_args()
    if args.check:
        check()
    else:
        build(args.out.resolve())


if __name__ == "__main__":
    main()
