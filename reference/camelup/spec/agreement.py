"""Where the code restates a fact of the spec for speed or independence, check they agree.

The library must import without the Markdown, so the variants' rule sets are written in
:data:`camelup.model.ruleset.VARIANT_RULE_SETS` too; and the published ruleset schema lists the
editions, modules and variants as enums, for implementations that read no Python.
``camelup spec check`` runs both checks.
"""

from __future__ import annotations

from enum import Enum
from pathlib import Path

from camelup.io.jsonio import read_json_file
from camelup.io.resources import schema_directory
from camelup.model.ruleset import VARIANT_RULE_SETS, Edition, Module, Variant
from camelup.spec.registry import Registry


def variant_problems(registry: Registry) -> list[str]:
    """One line per variant whose rule sets in the code differ from the rulings register."""
    problems = []
    in_code = {variant.value: variant for variant in Variant}
    for name in sorted(set(in_code) | set(registry.variants)):
        defined = registry.variants.get(name)
        if defined is None:
            problems.append(f"variant {name} is in the code but no ruling defines it")
            continue
        if name not in in_code:
            problems.append(f"variant {name} ({defined.ruling}) is not in camelup.model.ruleset")
            continue
        editions, modules = VARIANT_RULE_SETS[in_code[name]]
        code = {e.value for e in editions} | {m.value for m in modules}
        if code != set(defined.rule_sets):
            problems.append(
                f"variant {name}: {defined.ruling} defines it for {sorted(defined.rule_sets)},"
                f" camelup.model.ruleset for {sorted(code)}"
            )
    return problems


def schema_enum_problems(schema_folder: Path | None = None) -> list[str]:
    """One line per member of ``ruleset.schema.json`` whose enum differs from the model's enum:
    the schema must name exactly the editions, modules and variants the code knows."""
    path = (schema_folder or schema_directory()) / "ruleset.schema.json"
    properties = read_json_file(path)["properties"]
    listed = {
        "edition": properties["edition"]["enum"],
        "modules": properties["modules"]["items"]["enum"],
        "variants": properties["variants"]["items"]["enum"],
    }
    in_code: dict[str, type[Enum]] = {"edition": Edition, "modules": Module, "variants": Variant}
    problems = []
    for member, enum in in_code.items():
        wanted = [item.value for item in enum]
        if listed[member] != wanted:
            problems.append(
                f"{path.name}: /properties/{member} lists {listed[member]},"
                f" {enum.__module__}.{enum.__name__} has {wanted}"
            )
    return problems
