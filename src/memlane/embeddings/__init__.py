"""memlane's embedders: text in, unit-length float32 vectors out.

Providers implement one method, :meth:`Embedder.embed_batch`; :meth:`Embedder.embed` (cache,
de-duplication, batching) and :meth:`Embedder.embed_query` are built once on top.

- :class:`OnnxMiniLMEmbedder` (``"minilm"``, the default): all-MiniLM-L6-v2 on the CPU, offline.
- :class:`OpenAICompatibleEmbedder` (``"openai"``): any server with OpenAI's ``/embeddings``.
- :class:`FakeEmbedder` (``"fake"``): hashed words, deterministic and instant, for tests.

Importing this package is cheap: onnxruntime and the tokenizer load on the first embedding, and the
OpenAI-compatible client (with httpx) on first use of its name.
"""

from __future__ import annotations

import importlib
import inspect
from typing import TYPE_CHECKING, Any

from memlane.embeddings.base import Embedder, EmbedKind, Vectors
from memlane.embeddings.fake import FakeEmbedder
from memlane.embeddings.onnx import OnnxMiniLMEmbedder
from memlane.errors import ConfigError

if TYPE_CHECKING:
    from memlane.embeddings.openai_compat import OpenAICompatibleEmbedder

    EMBEDDERS: dict[str, type[Embedder]]

__all__ = [
    "EMBEDDERS",
    "EmbedKind",
    "Embedder",
    "FakeEmbedder",
    "OnnxMiniLMEmbedder",
    "OpenAICompatibleEmbedder",
    "Vectors",
    "make_embedder",
]

#: The names :func:`make_embedder` knows, and where the class each builds is (module, class).
_CLASSES = {
    "fake": ("fake", "FakeEmbedder"),
    "minilm": ("onnx", "OnnxMiniLMEmbedder"),
    "openai": ("openai_compat", "OpenAICompatibleEmbedder"),
}


def _class(key: str) -> type[Embedder]:
    module, name = _CLASSES[key]
    cls: type[Embedder] = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    return cls


def __getattr__(name: str) -> object:
    # ``EMBEDDERS`` (the names make_embedder knows, and the class each builds) and the OpenAI-compatible
    # client load on first use: httpx is not needed by the local model.
    if name == "EMBEDDERS":
        return {key: _class(key) for key in _CLASSES}
    if name == "OpenAICompatibleEmbedder":
        return _class("openai")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def make_embedder(name: str = "minilm", **options: Any) -> Embedder:
    """Build the embedder called ``name`` (case-insensitive) with ``options`` as its arguments.

    ``"minilm"`` (local, offline; the default), ``"openai"`` (any OpenAI-compatible server; needs
    ``base_url`` and ``model``) or ``"fake"`` (tests). Nothing is loaded or contacted yet.

    Raises:
        ConfigError: unknown name, ``"openai"`` without ``base_url`` or ``model``, an option the
            embedder does not take, or an option value it refuses.
    """
    key = str(name).strip().lower()
    if key not in _CLASSES:
        raise ConfigError(f"unknown embedder {name!r}; expected one of {', '.join(sorted(_CLASSES))}")
    cls = _class(key)
    if key == "openai":
        missing = [option for option in ("base_url", "model") if not options.get(option)]
        if missing:
            raise ConfigError(f"the 'openai' embedder needs {' and '.join(missing)} (e.g. MEMLANE_EMBEDDER_BASE_URL)")
    try:
        inspect.signature(cls).bind(**options)
    except TypeError as error:
        raise ConfigError(f"invalid options for the {key!r} embedder: {error}") from error
    return cls(**options)
