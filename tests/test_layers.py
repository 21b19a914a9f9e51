"""The folders are the layers, and lower layers never import upper ones.

Bottom up, one layer per folder and no exception: the data model (with the ``@implements``
trace), the rules (one module per spec chapter), play (the engine and state validation), the
odds, input/output (JSON, schemas, codec, exit codes, package resources), the spec registry, the
harness (suite, protocol, runner, judge, mutation, fuzz, reports), the testing aids built on it,
the tools (board diagrams, the docs site), the command line, and the entry points. A module may
import its own layer and any below it, never one above: so the rules can be read without the
runner, and ``import camelup`` loads neither the command line nor the conformance suite.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "reference" / "camelup"

# Each folder of the package is one layer; nothing else sits at the top but the entry points.
LAYERS: dict[str, int] = {
    "camelup.model": 0,
    "camelup.rules": 1,
    "camelup.play": 2,
    "camelup.odds": 3,
    "camelup.io": 4,
    "camelup.spec": 5,
    "camelup.harness": 6,
    "camelup.testing": 7,
    "camelup.tools": 8,
    "camelup.cli": 9,
    "camelup.adapter": 10,  # ``python -m camelup.adapter``
    "camelup.__main__": 10,
    "camelup": 10,  # the package itself re-exports the library's public names
}
LIBRARY = 3  # the layers ``import camelup`` may load: model, rules, play and odds


def layer_of(module: str) -> int:
    """The layer of a module: that of the package folder it sits in (its first two names)."""
    folder = ".".join(module.split(".")[:2])
    if folder in LAYERS:
        return LAYERS[folder]
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
            # ``from camelup import engine`` imports the module camelup.play.engine
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
    tree = ast.parse("def f():\n    from camelup.harness.runner import run_cases\n")
    targets = [name for name in imported(tree, "camelup.rules") if existing(name)]
    assert targets == ["camelup.harness.runner"]
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
    above_the_library = [m for m in loaded if m != "camelup" and layer_of(m) > LIBRARY]
    assert above_the_library == []
    assert "camelup.spec.registry" not in loaded, "the library must not need the Markdown"


def test_nothing_lies_loose_at_the_top_of_the_package() -> None:
    loose = sorted(p.name for p in PACKAGE.glob("*.py") if p.stem not in {"__init__", "__main__"})
    assert loose == []
    folders = sorted(p.name for p in PACKAGE.iterdir() if (p / "__init__.py").is_file())
    assert [f"camelup.{name}" for name in folders] == sorted(
        name for name in LAYERS if name.count(".") == 1 and name != "camelup.__main__"
    )


def module_dependencies(tree: ast.AST) -> set[str]:
    """The camelup modules ``tree`` needs loaded: ``from p import m`` needs the package ``p``
    (its ``__init__`` runs first) and the module ``p.m`` when there is one."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for alias in node.names:
                found.update((node.module, f"{node.module}.{alias.name}"))
    return {name for name in found if name.startswith("camelup.") and existing(name)}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import cycles of ``graph``: its strongly connected parts of two or more modules
    (Tarjan's algorithm, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        while work:
            node, targets = work[-1]
            target = next(targets, None)
            if target is not None:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    work.append((target, iter(sorted(graph.get(target, ())))))
                elif target in stack:
                    low[node] = min(low[node], index[target])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                part = []
                while True:
                    member = stack.pop()
                    part.append(member)
                    if member == node:
                        break
                if len(part) > 1:
                    found.append(sorted(part))
    return found


# The one loop allowed: the command line's main() imports its verbs (camelup.cli.app) only once
# its signal handlers are in place, inside the function, when camelup.cli is fully loaded.
STARTED_LATE = {"camelup.cli": {"camelup.cli.app"}}


def test_no_modules_import_each_other_in_a_loop() -> None:
    graph = {
        module_name(path): module_dependencies(ast.parse(path.read_text("utf-8")))
        for path in sorted(PACKAGE.rglob("*.py"))
    }
    for module, late in STARTED_LATE.items():
        assert late <= graph[module], f"{module} no longer imports {late}: drop it from here"
        graph[module] -= late
    assert len(graph) > 30
    assert cycles(graph) == []


def test_the_cycle_check_sees_a_loop_through_a_package() -> None:
    tree = ast.parse("from camelup.harness import runner\nfrom camelup.harness import Case\n")
    assert module_dependencies(tree) == {"camelup.harness.runner", "camelup.harness"}
    loop = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(loop) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []
