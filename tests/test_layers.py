"""The folders show the layers, and lower layers never import upper ones.

Bottom up: the leaf utilities (``trace``, ``resources``, ``exits``, ``safe_text``), the data
model, the rules, the engine and state validation, input/output and the spec registry, the
adapters and tools built on the engine, the conformance runner, the command line. A module may
import its own layer and any below it, never one above: so the rules can be read without the
runner, and ``import camelup`` loads neither the command line nor the conformance suite.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "reference" / "camelup"

# The first dotted prefix that matches names the layer (longest prefixes first).
LAYERS: dict[str, int] = {
    "camelup.trace": 0,
    "camelup.resources": 0,
    "camelup.exits": 0,  # the exit codes, for the runner and the command line
    "camelup.safe_text": 0,  # escaping text from outside, for the reports and the terminal
    "camelup.model": 1,
    "camelup.rules": 2,
    "camelup.engine": 3,
    "camelup.validation": 3,
    "camelup.odds": 3,
    "camelup.io": 4,
    "camelup.spec": 4,
    "camelup.render": 5,
    "camelup.adapter": 5,
    "camelup.strategies": 5,
    "camelup.odds_by_apply": 5,  # the plain enumeration through apply that checks camelup.odds
    # The mutant catalogue needs only the engine; the adapter loads it for --mutant NAME.
    "camelup.conformance.mutants": 5,
    "camelup.conformance": 6,
    "camelup.docs": 6,  # the generated pages and the site: they read the suite, below the CLI
    "camelup.cli": 7,
    "camelup.__main__": 8,
    "camelup": 8,  # the package itself re-exports the library's public names
}


def layer_of(module: str) -> int:
    for prefix in sorted(LAYERS, key=len, reverse=True):
        if module == prefix or module.startswith(prefix + "."):
            return LAYERS[prefix]
    raise AssertionError(f"{module} is in no layer: add its folder to LAYERS")


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(tree: ast.AST, package: str) -> set[str]:
    """Every camelup module that ``tree`` imports, at the top or inside a function."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # a relative import
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1])
                base = f"{base}.{node.module}" if node.module else base
            found.add(base)
            # ``from camelup import engine`` imports the module camelup.engine
            found.update(f"{base}.{alias.name}" for alias in node.names)
    # The bare package runs on any import of a submodule anyway: it is no dependency.
    return {name for name in found if name.startswith("camelup.")}


def existing(name: str) -> bool:
    relative = Path(*name.split("."))
    root = PACKAGE.parent
    return (root / relative).with_suffix(".py").is_file() or (root / relative).is_dir()


def test_no_module_imports_a_layer_above_its_own() -> None:
    upward = []
    modules = sorted(PACKAGE.rglob("*.py"))
    assert len(modules) > 30
    for path in modules:
        name = module_name(path)
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        tree = ast.parse(path.read_text("utf-8"))
        for target in sorted(imported(tree, package)):
            if not existing(target) or target == name:
                continue  # a name re-exported by a package, not a module
            if layer_of(target) > layer_of(name):
                upward.append(f"{name} (layer {layer_of(name)}) imports {target}")
    assert upward == []


def test_the_layer_check_sees_an_upward_import() -> None:
    tree = ast.parse("def f():\n    from camelup.conformance.runner import run_cases\n")
    targets = [name for name in imported(tree, "camelup.rules") if existing(name)]
    assert targets == ["camelup.conformance.runner"]
    assert layer_of(targets[0]) > layer_of("camelup.rules.tiles")


def test_import_camelup_loads_only_the_library() -> None:
    probe = (
        "import sys, camelup\n"
        "loaded = sorted(m for m in sys.modules if m.startswith('camelup'))\n"
        "heavy = [m for m in ('jsonschema', 'hypothesis', 'argparse') if m in sys.modules]\n"
        "print(repr((loaded, heavy)))\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    loaded, heavy = ast.literal_eval(out.stdout)
    assert heavy == []
    above_the_engine = [m for m in loaded if m != "camelup" and layer_of(m) > 3]
    assert above_the_engine == []
    assert "camelup.spec.registry" not in loaded, "the library must not need the Markdown"
