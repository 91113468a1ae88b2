"""Names in URL paths. A thread's name may hold a ``/`` (``alice/notes``, ``slack/C123``): clients send it
percent-encoded (``alice%2Fnotes``), and the server keeps it one path segment. Starlette routes on the decoded
path, where ``%2F`` would already be a separator, so the edge middleware (:func:`keep_encoded_slashes`) turns an
encoded slash into a control character that names never hold, and the ``thread`` convertor of the routes turns
it back. Every other rule of names is checked once, by the core (:func:`memlane.validation.check_key`).
"""

from __future__ import annotations

from urllib.parse import quote, unquote_to_bytes

from starlette.convertors import Convertor, register_url_convertor
from starlette.types import Scope

__all__ = ["THREAD", "keep_encoded_slashes"]

_SLASH = "\x1f"  # stands for an encoded "/" inside one path segment while routing; refused in every name
THREAD = "{thread:thread}"


class _ThreadConvertor(Convertor[str]):
    regex = "[^/]+"

    def convert(self, value: str) -> str:
        return value.replace(_SLASH, "/")

    def to_string(self, value: str) -> str:
        return quote(value, safe="")


register_url_convertor("thread", _ThreadConvertor())


def keep_encoded_slashes(scope: Scope) -> None:
    """Route ``%2F`` inside a path segment as part of that segment, not as a separator."""
    raw = scope.get("raw_path")
    if not raw or b"%2f" not in raw.lower():
        return
    segments = raw.split(b"?", 1)[0].split(b"/")
    scope["path"] = "/".join(
        unquote_to_bytes(segment).decode("utf-8", "replace").replace("/", _SLASH) for segment in segments
    )
