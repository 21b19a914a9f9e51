"""The published JSON Schemas as the gate: loaded once, compiled once, one error per document.

Every JSON document camelup reads (states, actions, setups, rulesets, rolls, events, case files,
expectations files, protocol messages in both directions) is checked here against its schema in
``conformance/schema/`` (JSON Schema 2020-12) before anything else looks at it.
:func:`check` answers None for a valid document, or the one :class:`Violation` that
``jsonschema.exceptions.best_match`` picks (its relevance, except that a value that is there and
wrong comes before a missing key), as one line: the JSON pointer of the offending value, what is
wrong, and a clause ID.

The clause is the ``x-clause`` annotation of the nearest schema location on the way to the
failing keyword (following ``$ref``). Where none lies on the way, it is the default clause of
the kind of document checked (:data:`DEFAULT_CLAUSES`; none for the tooling's own documents).
A missing key is reported at the pointer where it should be, an unknown or refused key at the
key, an item listed twice at its second place.

Names: ``"state"`` is ``state.schema.json``; ``"case-file#/$defs/case"`` is a definition in it.
``jsonschema`` and ``referencing`` are imported on first use, not by ``import camelup``.
Validity is decided by ``jsonschema_rs`` (the same 2020-12 semantics, compiled: some hundred
times faster, which the runner needs to check every state of every reply) when it is
installed, and explained by ``jsonschema``; without it, ``jsonschema`` decides too.
"""

from __future__ import annotations

import functools
import importlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs

from camelup.io.jsonio import JSONInputError, find, pointer, printable, read_json_file
from camelup.io.resources import schema_directory

__all__ = [
    "BASE_URI",
    "DEFAULT_CLAUSES",
    "GAME_KINDS",
    "SchemaFileError",
    "Schemas",
    "Violation",
    "bundled",
    "check",
]

BASE_URI = "https://camelup.invalid/schema/"
GAME_KINDS = ("ruleset", "setup", "roll", "state", "action", "event")
"""The schemas of the game's values (the codec's); the others are the tooling's."""
DEFAULT_CLAUSES: dict[str, str] = {
    "ruleset": "ruleset.editions",
    "setup": "setup.racing-camels",
    "roll": "dice.racing-faces",
    "state": "track.spaces",
    "action": "turn.one-action",
    "event": "turn.one-action",
}
"""The clause of a violation of a game value's schema where no ``x-clause`` lies on the way."""


@attrs.frozen
class Violation:
    """Why a document does not follow its schema: where (a JSON pointer into the document),
    what, and the clause the schema location encodes (None for the tooling's documents)."""

    pointer: str
    message: str
    clause: str | None = None

    def __str__(self) -> str:
        clause = f" [{self.clause}]" if self.clause else ""
        return f"{self.pointer or '/'}: {self.message}{clause}"


class SchemaFileError(Exception):
    """A schema file cannot be used: ``file`` and ``message`` say which and why."""

    def __init__(self, file: Path, message: str) -> None:
        super().__init__(f"{file}: {message}")
        self.file = file
        self.message = message


class Schemas:
    """The schemas of one folder (every ``*.schema.json`` in it), resolving ``$ref`` between
    them by their ``$id``; validators are built once per name and kept."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.documents: dict[str, dict[str, Any]] = {}  # by file stem: "state", "case-file"
        for path in sorted(directory.glob("*.schema.json")):
            try:
                contents = read_json_file(path)
            except JSONInputError as error:
                raise SchemaFileError(path, str(error)) from None
            if not isinstance(contents, dict):
                raise SchemaFileError(path, "a JSON Schema must be a JSON object")
            contents.setdefault("$id", BASE_URI + path.name)
            self.documents[path.name.removesuffix(".schema.json")] = contents
        self._fast: dict[str, Callable[[Any], bool]] = {}
        self._slow: dict[str, Any] = {}
        self._rs_registry: Any = None

    def uri(self, name: str) -> str:
        kind, _, fragment = name.partition("#")
        if kind not in self.documents:
            raise SchemaFileError(self.directory / f"{kind}.schema.json", "no such schema file")
        uri = str(self.documents[kind]["$id"])
        return f"{uri}#{fragment}" if fragment else uri

    def root(self, name: str) -> dict[str, Any]:
        """The schema that validates documents of ``name``."""
        kind, _, fragment = name.partition("#")
        if not fragment:
            self.uri(name)
            return self.documents[kind]
        return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$ref": self.uri(name)}

    def check(self, name: str, instance: Any) -> Violation | None:
        """None if ``instance`` follows the schema ``name``, else the best violation."""
        fast = self._fast.get(name) or self._fast_validator(name)
        try:
            if fast(instance):
                return None
        except (ValueError, TypeError, OverflowError, RecursionError):
            pass  # a value the compiled validator cannot take in: explained below
        return self.explain(name, instance)

    def explain(self, name: str, instance: Any) -> Violation | None:
        """The violation ``jsonschema.exceptions.best_match`` picks, or None."""
        exceptions = importlib.import_module("jsonschema.exceptions")
        validator = self.validator(name)
        kind = name.partition("#")[0]
        try:
            error = exceptions.best_match(validator.iter_errors(instance), key=_relevance)
        except RecursionError:
            return Violation("", "nested too deeply to check", DEFAULT_CLAUSES.get(kind))
        except ValueError:  # jsonschema's message could not quote an over-long integer
            huge = find(instance, lambda node, _: _show(node) if _huge(node) else None)
            where, shown = huge[:2] if huge else ("", "a value")
            return Violation(where, f"{shown}: too long to be checked", DEFAULT_CLAUSES.get(kind))
        if error is None:
            return None
        return _violation(error, self._clause(name, error))

    def validator(self, name: str) -> Any:
        """The ``jsonschema`` Draft 2020-12 validator of ``name`` (built once)."""
        if name not in self._slow:
            jsonschema = importlib.import_module("jsonschema")  # untyped; imported only here
            self._slow[name] = jsonschema.Draft202012Validator(
                self.root(name), registry=self.registry
            )
        return self._slow[name]

    @functools.cached_property
    def registry(self) -> Any:
        """The ``referencing`` registry of the folder's schemas, by ``$id``."""
        referencing = importlib.import_module("referencing")
        resources = [
            (str(doc["$id"]), referencing.Resource.from_contents(doc))
            for doc in self.documents.values()
        ]
        return referencing.Registry().with_resources(resources)

    def _fast_validator(self, name: str) -> Callable[[Any], bool]:
        try:
            rs = importlib.import_module("jsonschema_rs")
        except ImportError:
            slow = self.validator(name)
            fast: Callable[[Any], bool] = slow.is_valid
        else:
            if self._rs_registry is None:  # built once: resources are parsed when it is
                self._rs_registry = rs.Registry(
                    [(str(d["$id"]), d) for d in self.documents.values()]
                )
            fast = rs.Draft202012Validator(self.root(name), registry=self._rs_registry).is_valid
        self._fast[name] = fast
        return fast

    def _clause(self, name: str, error: Any) -> str | None:
        """The ``x-clause`` nearest to the failing keyword on its schema path."""
        node: Any = self.root(name)
        resolver = self.registry.resolver(base_uri=self.uri(name).partition("#")[0])
        clause = node.get("x-clause")
        for token in error.absolute_schema_path:
            while isinstance(node, dict) and token not in node and "$ref" in node:
                resolved = resolver.lookup(node["$ref"])
                node, resolver = resolved.contents, resolved.resolver
                clause = node.get("x-clause", clause) if isinstance(node, dict) else clause
            try:
                node = node[token]
            except (KeyError, IndexError, TypeError):
                break
            if isinstance(node, dict) and "x-clause" in node:
                clause = node["x-clause"]
        kind = name.partition("#")[0]
        return clause if clause is not None else DEFAULT_CLAUSES.get(kind)


@functools.cache
def bundled() -> Schemas:
    """The schemas that ship with camelup."""
    return Schemas(schema_directory())


def check(name: str, instance: Any) -> Violation | None:
    """:meth:`Schemas.check` against the bundled schemas."""
    return bundled().check(name, instance)


# ------------------------------------------------------------------------- error rendering


def _relevance(error: Any) -> Any:
    """best_match's relevance, but a value that is there and wrong first, then a missing key:
    ``{"track": 5}`` as a state is first of all a track that is no track."""
    relevance = importlib.import_module("jsonschema.exceptions").relevance
    return (error.validator != "required", *relevance(error))


def _violation(error: Any, clause: str | None) -> Violation:
    where = list(error.absolute_path)
    instance = error.instance
    keyword = error.validator
    message = _message(error)
    if "propertyNames" in error.absolute_schema_path:
        where.append(instance)
        message = f"key {_key(instance)} is not allowed here"
    elif keyword == "required" and isinstance(instance, dict):
        missing = next(k for k in error.validator_value if k not in instance)
        where.append(missing)
        sub = error.schema.get("properties", {}).get(missing, {})
        clause = sub.get("x-clause", clause) if isinstance(sub, dict) else clause
        message = f"missing key {_key(missing)}"
    elif keyword in ("additionalProperties", "unevaluatedProperties") and isinstance(
        instance, dict
    ):
        known = error.schema.get("properties", {})
        extra = next((k for k in instance if k not in known), None)
        if extra is not None:
            where.append(extra)
            message = f"unknown key {_key(extra)}"
    elif keyword == "uniqueItems" and isinstance(instance, list):
        index = _repeated(instance)
        where.append(index)
        message = f"{_show(instance[index])} is listed twice"
    return Violation(printable(pointer(*where)), printable(message), clause)


_TYPES = {
    "object": "an object",
    "array": "an array",
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "boolean": "a boolean",
    "null": "null",
}


def _expected(error: Any) -> str | None:
    """What the failing keyword wanted, in words (type, enum and const only)."""
    value = error.validator_value
    if error.validator == "type":
        names = [value] if isinstance(value, str) else list(value)
        return " or ".join(_TYPES.get(n, n) for n in names)
    if error.validator == "enum":
        shown = ", ".join(_show(v) for v in value)
        return f"one of {shown}" if len(shown) <= 100 else f"one of {shown[:97]}..."
    if error.validator == "const":
        return _show(value)
    return None


def _message(error: Any) -> str:
    got = _show(error.instance)
    wanted = _expected(error)
    if wanted is not None:
        return f"expected {wanted}, got {got}"
    keyword, value = error.validator, error.validator_value
    if keyword in ("anyOf", "oneOf"):
        phrases = [_expected(e) for e in error.context if list(e.path) == list(error.path)]
        if phrases and None not in phrases:
            return f"expected {' or '.join(dict.fromkeys(p for p in phrases if p))}, got {got}"
        return f"{got} matches none of the allowed forms"
    if keyword == "minItems":
        return f"expected at least {value} item(s), got {len(error.instance)}"
    if keyword == "maxItems":
        return f"expected at most {value} item(s), got {len(error.instance)}"
    if keyword == "minLength":
        return f"expected a string of at least {value} character(s), got {got}"
    if keyword == "minProperties":
        return f"expected at least {value} member(s), got {got}"
    if keyword == "pattern":
        # The schema's own words for the form read better than a regex where they name it (a
        # noun phrase in lower case: "an exact probability ..."); a sentence documenting the
        # field ("Stable, unique, ...") follows the regex instead of pretending to be a form.
        described = error.schema.get("description") if isinstance(error.schema, dict) else None
        if described and described[:1].islower():
            return f"{got} is not {described}"
        form = f"{got} does not have the form {value}"
        return f"{form} ({described.rstrip('.')})" if described else form
    if keyword in ("minimum", "maximum"):
        return f"expected {'at least' if keyword == 'minimum' else 'at most'} {value}, got {got}"
    if keyword == "not":
        return f"{got} is not allowed here"
    text = " ".join(str(error.message).split())
    return text if len(text) <= 160 else text[:157] + "..."


def _repeated(items: list[Any]) -> int:
    seen: list[str] = []
    for index, item in enumerate(items):
        key = json.dumps(item, sort_keys=True)
        if key in seen:
            return index
        seen.append(key)
    return len(items) - 1


def _key(name: Any) -> str:
    text = repr(name)
    return text if len(text) <= 40 else text[:37] + "..."


def _huge(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64


def _show(value: Any) -> str:
    """A short, safe rendering of an input value for a message."""
    if _huge(value):
        return f"an integer of {value.bit_length()} bits"  # str() of huge ints may raise
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        text = type(value).__name__
    return printable(text if len(text) <= 40 else text[:37] + "...")
