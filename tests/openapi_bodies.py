"""What the OpenAPI tests share: the structure OpenAPI 3.0 asks of a document (no checker is a
dependency: this holds ours to the parts of the specification we use), and request bodies
generated from a body's schema: its example, and variants the schema refuses."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

SCHEMA_KEYS = {
    "type", "properties", "required", "items", "additionalProperties", "enum", "nullable",
    "oneOf", "description", "example", "pattern", "minimum", "maximum", "minItems", "maxItems",
    "default", "$ref", "format",
}  # fmt: skip
TYPES = {"string", "integer", "number", "boolean", "array", "object"}
METHODS = {"get", "post", "put", "patch", "delete"}
#: a value of another JSON type than the schema's, for each type
WRONG = {
    "string": 12345,
    "integer": "twelve",
    "number": "twelve",
    "boolean": "yes",
    "array": {"not": "a list"},
    "object": ["not", "an", "object"],
}


def problems(document: dict[str, Any]) -> list[str]:
    """Where ``document`` breaks OpenAPI 3.0's structure (empty: none found)."""
    found: list[str] = []
    if not str(document.get("openapi", "")).startswith("3.0."):
        found.append("openapi: not 3.0.x")
    if not {"title", "version"} <= set(document.get("info", {})):
        found.append("info: needs title and version")
    components = document.get("components", {})
    for path, item in document.get("paths", {}).items():
        if not path.startswith("/"):
            found.append(f"{path}: paths start with /")
        for method, op in item.items():
            where = f"{method.upper()} {path}"
            if method not in METHODS:
                found.append(f"{where}: unknown method")
                continue
            found += _operation(where, path, op, components)
    return found


def _operation(where: str, path: str, op: dict[str, Any], components: Any) -> list[str]:
    found = []
    responses = op.get("responses") or {}
    if not responses or not all(re.fullmatch(r"[1-5]\d\d|default", c) for c in responses):
        found.append(f"{where}: responses must be keyed by status codes")
    for code, answer in responses.items():
        answer = _resolve(answer, components)
        if "description" not in answer:
            found.append(f"{where} {code}: a response needs a description")
        for kind, media in answer.get("content", {}).items():
            found += _schema(f"{where} {code} {kind}", media.get("schema", {}), components)
    path_names = set(re.findall(r"{(\w+)}", path))
    for parameter in op.get("parameters", []):
        if parameter.get("in") not in ("path", "query", "header", "cookie"):
            found.append(f"{where}: parameter {parameter.get('name')} has no valid 'in'")
        if parameter.get("in") == "path" and parameter.get("required") is not True:
            found.append(f"{where}: path parameter {parameter['name']} must be required")
        found += _schema(f"{where} ?{parameter.get('name')}", parameter.get("schema"), components)
    declared = {p["name"] for p in op.get("parameters", []) if p.get("in") == "path"}
    if declared != path_names:
        found.append(f"{where}: path parameters {sorted(declared)} != {sorted(path_names)}")
    body = op.get("requestBody")
    if body is not None:
        content = body.get("content", {})
        if not content:
            found.append(f"{where}: a request body needs content")
        for kind, media in content.items():
            found += _schema(f"{where} body {kind}", media.get("schema", {}), components)
    return found


def _resolve(value: dict[str, Any], components: dict[str, Any]) -> dict[str, Any]:
    ref = value.get("$ref")
    if ref is None:
        return value
    _, section, name = ref.removeprefix("#/").split("/")
    return dict(components[section][name])


def _schema(where: str, schema: Any, components: dict[str, Any]) -> list[str]:
    if not isinstance(schema, dict):
        return [f"{where}: a schema is an object"]
    found = [f"{where}: unknown keyword {k!r}" for k in sorted(set(schema) - SCHEMA_KEYS)]
    kind = schema.get("type")
    if kind is not None and kind not in TYPES:
        found.append(f"{where}: type {kind!r} is not an OpenAPI 3.0 type")
    if "required" in schema:
        required = schema["required"]
        if not required or not set(required) <= set(schema.get("properties", {})):
            found.append(f"{where}: required must list some of the properties")
    if kind == "array" and "items" not in schema:
        found.append(f"{where}: an array needs items")
    if schema.get("nullable") and kind is None and "oneOf" not in schema:
        found.append(f"{where}: nullable needs a type")
    if "enum" in schema and not schema["enum"]:
        found.append(f"{where}: an empty enum")
    inner = [*schema.get("properties", {}).items(), *enumerate(schema.get("oneOf", []))]
    if isinstance(schema.get("items"), dict):
        inner.append(("[]", schema["items"]))
    if isinstance(schema.get("additionalProperties"), dict):
        inner.append(("{}", schema["additionalProperties"]))
    for name, sub in inner:
        found += _schema(f"{where}.{name}", sub, components)
    return found


def body_schema(op: dict[str, Any]) -> dict[str, Any]:
    """The request body's schema (the first option of a ``oneOf``)."""
    schema: dict[str, Any] = op["requestBody"]["content"]["application/json"]["schema"]
    return schema["oneOf"][0] if "oneOf" in schema else schema


def example(schema: dict[str, Any]) -> dict[str, Any]:
    """A body from the examples of the schema's properties (every required one has one)."""
    properties = schema.get("properties", {})
    missing = [k for k in schema.get("required", []) if "example" not in properties[k]]
    assert not missing, f"give these properties an example: {missing}"
    return {key: prop["example"] for key, prop in properties.items() if "example" in prop}


def refused(schema: dict[str, Any], body: dict[str, Any]) -> Iterator[tuple[str, Any]]:
    """``(key, body)``: ``body`` without a required key, or with a key of the wrong type."""
    for key in schema.get("required", []):
        yield key, {k: v for k, v in body.items() if k != key}
    for key, prop in schema.get("properties", {}).items():
        kind = prop.get("type")
        if "enum" in prop:
            yield key, {**body, key: "none-of-these"}
        elif kind in WRONG:
            yield key, {**body, key: WRONG[kind]}


def mismatches(
    value: Any, schema: dict[str, Any], where: str = "answer", *, strict: bool = False
) -> list[str]:
    """Where ``value`` does not have the shape ``schema`` describes (empty: it does).
    ``strict``: a key an object's schema does not name is one too (an answer sends only what
    its document describes; a schema with ``additionalProperties`` names every key)."""
    if value is None:
        return [] if schema.get("nullable") or not schema else [f"{where}: null"]
    if "oneOf" in schema:
        # fitting none: what is wrong with the option it comes closest to
        tried = [mismatches(value, option, where, strict=strict) for option in schema["oneOf"]]
        return min(tried, key=len)
    kind = schema.get("type")
    python = {"string": str, "integer": int, "number": (int, float), "boolean": bool,
              "array": list, "object": dict}  # fmt: skip
    if kind is None:
        return []
    if not isinstance(value, python[kind]) or (kind != "boolean" and isinstance(value, bool)):
        return [f"{where}: {value!r} is not {kind}"]
    if "enum" in schema and value not in schema["enum"]:
        return [f"{where}: {value!r} not in {schema['enum']}"]
    found: list[str] = []
    if kind == "array":
        for index, item in enumerate(value):
            found += mismatches(item, schema.get("items", {}), f"{where}[{index}]", strict=strict)
    if kind == "object":
        found += [f"{where}: no {k!r}" for k in schema.get("required", []) if k not in value]
        properties = schema.get("properties", {})
        named = "properties" in schema and "additionalProperties" not in schema
        for key, item in value.items():
            if strict and named and key not in properties:
                found.append(f"{where}: {key!r} is not in the document")
                continue
            inner = properties.get(key, schema.get("additionalProperties", {}))
            inner = inner if isinstance(inner, dict) else {}
            found += mismatches(item, inner, f"{where}.{key}", strict=strict)
    return found


def answer_schema(op: dict[str, Any], status: int) -> dict[str, Any] | None:
    """The schema the document gives the answer with ``status``, if it gives one."""
    response = op["responses"].get(str(status))
    if response is None or "content" not in response:
        return None
    schema: dict[str, Any] = response["content"].get("application/json", {}).get("schema", {})
    return schema or None
