"""Where the code restates a fact of the spec for speed or independence, check they agree.

The library must import without the Markdown, so the variants' rule sets are written in
:data:`camelup.model.ruleset.VARIANT_RULE_SETS` too; ``camelup spec check`` runs this.
"""

from __future__ import annotations

from camelup.model.ruleset import VARIANT_RULE_SETS, Variant
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
