"""JSON Schema of the article records, generated from `ArticleItem` (types) and the ``#:``
comments on its fields and on `Article`'s (descriptions), so it cannot drift from the code."""

from __future__ import annotations

import inspect
import re
import types
import typing
from dataclasses import fields
from typing import Any

from newsspider.extraction.article import PAGE_TYPES, Article, ArticleImage
from newsspider.items import ArticleItem

SCHEMA_ID = "https://github.com/newsspider/newsspider/schemas/article.json"
_FIELD_DOC = re.compile(r"((?:^[ \t]*#:.*\n)+)^[ \t]*(\w+)\s*:", re.MULTILINE)


def _field_docs(cls: type) -> dict[str, str]:
    try:
        source = inspect.getsource(cls)
    except (OSError, TypeError):
        return {}
    docs = {}
    for comment, name in _FIELD_DOC.findall(source):
        lines = [line.strip().removeprefix("#:").strip() for line in comment.splitlines()]
        docs[name] = " ".join(line for line in lines if line).replace("``", "`")
    return docs


def _json_type(annotation: Any) -> dict[str, Any]:
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        options = [_json_type(arg) for arg in typing.get_args(annotation)]
        kinds = [o["type"] for o in options if "items" not in o]
        if len(kinds) == len(options):
            return {"type": kinds if len(kinds) > 1 else kinds[0]}
        return {"anyOf": options}
    if origin is dict:
        values = typing.get_args(annotation)[1:]
        return {"type": "object", "additionalProperties": _json_type(values[0]) if values else {}}
    if origin in (list, tuple):
        args = [a for a in typing.get_args(annotation) if a is not Ellipsis]
        return {"type": "array", "items": _json_type(args[0]) if args else {}}
    simple = {str: "string", float: "number", int: "integer", bool: "boolean"}
    if annotation in simple:
        return {"type": simple[annotation]}
    if annotation is type(None):
        return {"type": "null"}
    return {}


def _image_schema() -> dict[str, Any]:
    """One `ArticleImage` as a JSON object (`images`' items)."""
    hints = typing.get_type_hints(ArticleImage)
    docs = _field_docs(ArticleImage)
    properties = {}
    for image_field in fields(ArticleImage):
        properties[image_field.name] = {
            **_json_type(hints[image_field.name]),
            "description": docs.get(image_field.name, ""),
        }
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }


def article_schema() -> dict[str, Any]:
    """A JSON Schema (draft 2020-12) for one line of the JSONL output."""
    hints = typing.get_type_hints(ArticleItem)
    docs = {**_field_docs(Article), **_field_docs(ArticleItem)}
    properties: dict[str, Any] = {}
    for item_field in fields(ArticleItem):
        prop = _json_type(hints[item_field.name])
        if item_field.name in docs:
            prop["description"] = docs[item_field.name]
        if item_field.name == "page_type":
            prop["enum"] = list(PAGE_TYPES)
        if item_field.name in ("confidence", "article_probability"):
            prop.update(minimum=0, maximum=1)
        if item_field.name == "images":
            prop["items"] = _image_schema()
        properties[item_field.name] = prop
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "newsspider article record",
        "description": "One line of newsspider's JSONL output; fields in this order.",
        "type": "object",
        "properties": properties,
        "required": [f.name for f in fields(ArticleItem)],
        "additionalProperties": False,
    }
