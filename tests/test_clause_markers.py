"""Every ``@pytest.mark.clause(...)`` names a clause of the spec, and every rule test has one.

The marker IDs are read statically from the test files (no import of the test modules), so
this test also covers files that are not collected in the current run.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from camelup.spec.registry import load_registry

TESTS = Path(__file__).resolve().parent


def _is_clause_marker(node: ast.AST) -> bool:
    # pytest.mark.clause(...)
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "clause"
        and isinstance(node.func.value, ast.Attribute)
        and node.func.value.attr == "mark"
    )


def marker_ids(path: Path) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if _is_clause_marker(node):
            assert isinstance(node, ast.Call)
            assert node.args, f"{path.name}:{node.lineno}: a clause marker needs at least one ID"
            for arg in node.args:
                assert isinstance(arg, ast.Constant) and isinstance(arg.value, str), (
                    f"{path.name}:{node.lineno}: clause IDs must be string literals"
                )
                found.append((node.lineno, arg.value))
    return found


def test_every_marked_clause_id_exists_in_the_spec() -> None:
    known = load_registry().clause_ids
    used = {
        (path.name, line, cid)
        for path in sorted(TESTS.rglob("*.py"))
        for line, cid in marker_ids(path)
    }
    assert len(used) > 50
    unknown = sorted(f"{name}:{line}: {cid}" for name, line, cid in used if cid not in known)
    assert not unknown, "unknown clause IDs:\n" + "\n".join(unknown)


@pytest.mark.parametrize("path", sorted(TESTS.glob("test_rules_*.py")), ids=lambda p: p.name)
def test_every_rule_test_names_its_clause(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    module_marked = any(
        isinstance(node, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id == "pytestmark" for t in node.targets)
        and any(_is_clause_marker(n) for n in ast.walk(node.value))
        for node in tree.body
    )
    unmarked = [
        node.name
        for node in tree.body
        if isinstance(node, ast.FunctionDef)
        and node.name.startswith("test_")
        and not module_marked
        and not any(_is_clause_marker(d) for d in node.decorator_list)
    ]
    assert not unmarked, f"tests without @pytest.mark.clause: {unmarked}"


def test_the_marker_is_registered(pytestconfig: pytest.Config) -> None:
    assert any(line.startswith("clause(") for line in pytestconfig.getini("markers"))
