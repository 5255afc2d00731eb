"""A small JSON Schema (2020-12) validator for the keywords the scenario/1 schema uses, for its
tests (the `jsonschema` package is not a dependency). A keyword it does not know is an error, so
the schema cannot say more than these tests check."""

from __future__ import annotations

import re
from typing import Any

ANNOTATIONS = frozenset({"$schema", "$id", "title", "description", "example", "examples"})
TYPES = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
}


def _json_equal(a: Any, b: Any) -> bool:
    """JSON equality: true is not 1, and 1 is 1.0."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_json_equal(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_json_equal(x, y) for x, y in zip(a, b, strict=True))
    return type(a) is type(b) and a == b or (TYPES["number"](a) and TYPES["number"](b) and a == b)


class Validator:
    def __init__(self, schema: dict[str, Any]) -> None:
        self.root = schema

    def errors(self, instance: Any) -> list[str]:
        found: list[str] = []
        self._check(self.root, instance, "", found)
        return found

    def is_valid(self, instance: Any) -> bool:
        return not self.errors(instance)

    def _resolve(self, ref: str) -> dict[str, Any]:
        assert ref.startswith("#/$defs/"), ref
        return self.root["$defs"][ref.removeprefix("#/$defs/")]

    def _check(self, schema: Any, value: Any, at: str, found: list[str]) -> None:
        if schema is True:
            return
        if schema is False:
            found.append(f"{at}: nothing is allowed here")
            return
        for keyword, rule in schema.items():
            if keyword in ANNOTATIONS or keyword in ("$defs", "then", "else"):
                continue
            check = getattr(self, "_" + keyword.lstrip("$"), None)
            if check is None:
                raise NotImplementedError(f"keyword {keyword!r} at {at or 'the root'}")
            check(rule, value, at, found, schema)

    def _passes(self, schema: Any, value: Any, at: str) -> bool:
        found: list[str] = []
        self._check(schema, value, at, found)
        return not found

    # Keywords.

    def _ref(self, rule, value, at, found, schema):
        self._check(self._resolve(rule), value, at, found)

    def _type(self, rule, value, at, found, schema):
        names = rule if isinstance(rule, list) else [rule]
        if not any(TYPES[name](value) for name in names):
            found.append(f"{at}: not of type {rule}")

    def _const(self, rule, value, at, found, schema):
        if not _json_equal(rule, value):
            found.append(f"{at}: must be {rule!r}")

    def _enum(self, rule, value, at, found, schema):
        if not any(_json_equal(option, value) for option in rule):
            found.append(f"{at}: {value!r} is not one of {rule}")

    def _required(self, rule, value, at, found, schema):
        if isinstance(value, dict):
            found.extend(f"{at}: needs {key!r}" for key in rule if key not in value)

    def _properties(self, rule, value, at, found, schema):
        if isinstance(value, dict):
            for key, sub in rule.items():
                if key in value:
                    self._check(sub, value[key], f"{at}.{key}", found)

    def _additionalProperties(self, rule, value, at, found, schema):
        if isinstance(value, dict):
            for key, item in value.items():
                if key not in schema.get("properties", {}):
                    self._check(rule, item, f"{at}.{key}", found)

    def _propertyNames(self, rule, value, at, found, schema):
        if isinstance(value, dict):
            for key in value:
                self._check(rule, key, f"{at} key {key!r}", found)

    def _items(self, rule, value, at, found, schema):
        if isinstance(value, list):
            for index, item in enumerate(value):
                self._check(rule, item, f"{at}[{index}]", found)

    def _minItems(self, rule, value, at, found, schema):
        if isinstance(value, list) and len(value) < rule:
            found.append(f"{at}: fewer than {rule} items")

    def _maxItems(self, rule, value, at, found, schema):
        if isinstance(value, list) and len(value) > rule:
            found.append(f"{at}: more than {rule} items")

    def _uniqueItems(self, rule, value, at, found, schema):
        if rule and isinstance(value, list):
            for index, item in enumerate(value):
                if any(_json_equal(item, other) for other in value[:index]):
                    found.append(f"{at}[{index}]: a repeated item")

    def _minLength(self, rule, value, at, found, schema):
        if isinstance(value, str) and len(value) < rule:
            found.append(f"{at}: shorter than {rule}")

    def _maxLength(self, rule, value, at, found, schema):
        if isinstance(value, str) and len(value) > rule:
            found.append(f"{at}: longer than {rule}")

    def _pattern(self, rule, value, at, found, schema):
        if isinstance(value, str) and not re.search(rule, value):
            found.append(f"{at}: does not match {rule}")

    def _minimum(self, rule, value, at, found, schema):
        if TYPES["number"](value) and value < rule:
            found.append(f"{at}: under {rule}")

    def _allOf(self, rule, value, at, found, schema):
        for sub in rule:
            self._check(sub, value, at, found)

    def _anyOf(self, rule, value, at, found, schema):
        if not any(self._passes(sub, value, at) for sub in rule):
            found.append(f"{at}: matches none of anyOf")

    def _oneOf(self, rule, value, at, found, schema):
        matching = sum(self._passes(sub, value, at) for sub in rule)
        if matching != 1:
            found.append(f"{at}: matches {matching} of oneOf, not exactly one")

    def _if(self, rule, value, at, found, schema):
        branch = schema.get("then") if self._passes(rule, value, at) else schema.get("else")
        if branch is not None:
            self._check(branch, value, at, found)
