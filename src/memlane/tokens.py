"""Exact, offline token counting for OpenAI-style chat models (cl100k_base, o200k_base).

The counts are those of OpenAI's tokenizers, computed by ``quicktok`` from vocabularies shipped in its
wheel (no download at run time). A chat request is counted the way OpenAI documents it for its chat
models: every message costs 3 tokens of framing plus its role and content (and 1 more plus the name
when it has a ``name``), tool calls cost their JSON, and the reply is primed with 3 more tokens.

Loading a whole vocabulary (o200k_base: 200,000 tokens) takes ~0.4 s of CPU during which no other thread
of the process runs: most of a one-shot ``memlane add``. A process's first few short texts are therefore
counted with a vocabulary of only the tokens they contain (:func:`_count_alone`), exactly: byte-pair
encoding splits a text into pieces with the encoding's own pattern, then merges each piece's adjacent parts
in the order of their ranks, and every part it ever looks up is a substring of the piece. A vocabulary of
the tokens that occur in the text, in the same order, makes every piece the same merges, so the same
tokens. The ranks of the whole vocabulary for that are read from a table in the user's cache folder
(``marshal``, as Python's own ``.pyc`` files; ~0.04 s), made once from the loaded vocabulary.
"""

from __future__ import annotations

import json
import logging
import marshal
import os
from collections.abc import Iterable, Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

import quicktok

from .errors import ConfigError

__all__ = ["Tokenizer", "encoding_for", "get_tokenizer"]

TOKENS_PER_MESSAGE = 3
TOKENS_PER_NAME = 1
REPLY_PRIMING = 3
_ENCODINGS = ("cl100k_base", "o200k_base")
_ROLES = frozenset({"system", "user", "assistant", "tool"})
_NAMES_KEPT = 4096  # names whose token counts a tokenizer keeps
#: How much text a tokenizer counts without its whole vocabulary (the texts' bytes, each text up to
#: ``_FEW_TEXT_BYTES``): a text counted so costs ~5 ms and ~0.02 ms a byte, so past a few kB the whole
#: vocabulary (~0.4 s once) is cheaper; and at most ``_FEW_TEXTS`` texts, so that a long-lived process (a bot
#: on ``Memory``) pays ~5 ms for a few of its first messages, not for its first sixty. A one-shot ``memlane add``
#: counts three texts: the message, its role and its name.
_FEW_BYTES = 4096
_FEW_TEXT_BYTES = 1024
_FEW_TEXTS = 8
_SCANNERS = {"cl100k_base": "cl100k", "o200k_base": "o200k"}  # quicktok's pattern of each encoding
_LONGEST = 128  # bytes of the longest token of either encoding
_TABLE_FORMAT = 1

log = logging.getLogger(__name__)


def encoding_for(model: str) -> str:
    """The encoding name for a chat model name (``gpt-4o*``, ``o1``... → o200k_base; ``gpt-4``, ``gpt-3.5`` → cl100k).

    Unknown models count with o200k_base, the encoding of current OpenAI models.
    """
    if model in _ENCODINGS:
        return model
    name = model.lower().rsplit("/", 1)[-1]
    for prefix, encoding in sorted(quicktok.MODEL_TO_ENCODING.items(), key=lambda kv: -len(kv[0])):
        if name == prefix or name.startswith((prefix + "-", prefix + ".")):
            return encoding if encoding in _ENCODINGS else "o200k_base"
    return "o200k_base"


class Tokenizer:
    """Counts tokens of texts and of whole chat requests for one encoding."""

    def __init__(self, encoding: str = "o200k_base") -> None:
        if encoding not in _ENCODINGS:
            raise ConfigError(f"unknown tokenizer encoding {encoding!r}; use one of {', '.join(_ENCODINGS)}")
        self.encoding = encoding
        self._loaded: Any = None
        self._role_tokens: dict[str, int] = {}  # every message pays for its role: count each role once
        self._name_tokens: dict[str, int] = {}  # and for its name, one of the few a conversation has
        self._few_bytes = _FEW_BYTES  # what is left to count without the whole vocabulary
        self._few_texts = _FEW_TEXTS

    @property
    def _enc(self) -> Any:
        # The vocabulary loads on first use: commands that never count tokens don't pay for it.
        if self._loaded is None:
            self._loaded = quicktok.get_encoding(self.encoding)
            _ranks.cache_clear()  # the table's ~25 MB are not needed any more (read again if they are)
        return self._loaded

    def load(self) -> None:
        """Load the whole vocabulary now (idempotent): a long-lived process does it as it starts, rather than
        in the middle of its work once its first few texts are counted (see the module's docstring)."""
        _ = self._enc

    def count(self, text: str) -> int:
        """Tokens of ``text``, all of it ordinary text: a special token's spelling in a message (a user asking
        what ``<|endoftext|>`` means) counts as the characters it is, as the provider's API counts it."""
        if not text:
            return 0
        if self._loaded is None and self._few_bytes > 0:
            data = text.encode("utf-8", "surrogatepass")
            if len(data) <= min(_FEW_TEXT_BYTES, self._few_bytes) and self._few_texts > 0:
                self._few_bytes -= len(data)
                self._few_texts -= 1
                counted = _count_alone(self.encoding, data)
                if counted is not None:
                    return counted
                if _ranks(self.encoding) is None:
                    self._table_wanted()
                self._few_bytes = 0  # no table, or quicktok refused the small vocabulary: not tried again
            else:
                self._few_bytes = 0  # a long text: the process is one that counts much
        return int(self._enc.count(text))

    def _table_wanted(self) -> None:
        """No table of ranks in the cache yet: made now from the whole vocabulary (once per installation)."""
        _save_table(self.encoding, self._enc)

    def truncate(self, text: str, max_tokens: int) -> str:
        """``text`` cut to at most ``max_tokens`` tokens, on a token boundary that decodes cleanly."""
        ids = self._enc.encode_ordinary(text)
        if len(ids) <= max_tokens:
            return text
        cut = max(max_tokens, 0)
        while cut > 0:
            piece = self._enc.decode_bytes(ids[:cut])
            try:
                return bytes(piece).decode("utf-8")
            except UnicodeDecodeError:
                cut -= 1
        return ""

    def count_message(self, message: Mapping[str, Any]) -> int:
        """Tokens one chat message adds to a request, framing included."""
        role = str(message.get("role", ""))
        role_tokens = self._role_tokens.get(role)
        if role_tokens is None:
            role_tokens = self.count(role)
            if role in _ROLES:
                self._role_tokens[role] = role_tokens
        total = TOKENS_PER_MESSAGE + role_tokens
        content = message.get("content")
        if content:
            total += self.count(content if isinstance(content, str) else json.dumps(content, ensure_ascii=False))
        name = message.get("name")
        if name:
            name = str(name)
            name_tokens = self._name_tokens.get(name)
            if name_tokens is None:
                name_tokens = self.count(name)
                if len(self._name_tokens) < _NAMES_KEPT:
                    self._name_tokens[name] = name_tokens
            total += TOKENS_PER_NAME + name_tokens
        if message.get("tool_calls"):
            total += self.count(json.dumps(message["tool_calls"], ensure_ascii=False, separators=(",", ":")))
        if message.get("tool_call_id"):
            total += self.count(str(message["tool_call_id"]))
        return total

    def count_messages(self, messages: Iterable[Mapping[str, Any]]) -> int:
        """Tokens of a whole chat request: every message plus the reply priming."""
        return REPLY_PRIMING + sum(self.count_message(m) for m in messages)


def _cache_folder() -> Path:
    import platformdirs  # only when a table is read or made

    return Path(platformdirs.user_cache_dir("memlane"))


def _table_path(encoding: str) -> Path:
    return _cache_folder() / f"ranks-{encoding}-quicktok{quicktok.__version__}-f{_TABLE_FORMAT}.marshal"


@lru_cache(maxsize=2)
def _ranks(encoding: str) -> dict[bytes, int] | None:
    """The rank of every ordinary token of ``encoding``, from the cache folder; None if it is not there (or
    is not whole: then it is made again)."""
    try:
        table = marshal.loads(_table_path(encoding).read_bytes())
    except (OSError, EOFError, ValueError, TypeError):
        return None
    if not (isinstance(table, dict) and len(table) > 256 and all(bytes([b]) in table for b in range(256))):
        return None
    return table


def _save_table(encoding: str, whole: Any) -> None:
    """Write the ranks of ``whole`` (the loaded vocabulary of ``encoding``) to the cache folder, whole or not
    at all; a folder that cannot be written leaves every process to load the whole vocabulary."""
    import tempfile  # (shutil, bz2, lzma...) not at import

    path = _table_path(encoding)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".ranks-", suffix=".tmp")
        try:
            with os.fdopen(handle, "wb") as file:  # the folder takes files: only then is the table worth ~0.5 s
                table = {token: whole.encode_single_token(token) for token in whole.token_byte_values()}
                file.write(marshal.dumps(table))
            os.replace(temporary, path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
    except OSError as error:
        log.debug("cannot keep the table of token ranks in %s: %s", path.parent, error)
        return
    _ranks.cache_clear()


def _count_alone(encoding: str, data: bytes) -> int | None:
    """Tokens of the UTF-8 text ``data``, counted with a vocabulary of only the tokens that occur in it (see
    the module's docstring); None without a table of ranks, or if quicktok refuses the small vocabulary."""
    ranks = _ranks(encoding)
    if ranks is None:
        return None
    found: dict[bytes, int] = {}
    for start in range(len(data)):
        for end in range(start + 1, min(len(data), start + _LONGEST) + 1):
            rank = ranks.get(data[start:end])
            if rank is not None:
                found[data[start:end]] = rank
    # The same order, numbered from 0 (quicktok wants ranks below the vocabulary's size).
    order = {token: n for n, token in enumerate(sorted(found, key=found.__getitem__))}
    import tempfile

    from quicktok import _import_core  # quicktok's own writer of its files

    scanner = _SCANNERS[encoding]
    try:
        with tempfile.TemporaryDirectory(prefix="memlane-tokens-") as folder:
            _import_core.write_files(folder, "text", order, {}, scanner, False)
            _import_core.ensure_tables(folder, os.path.join(os.path.dirname(quicktok.__file__), "data"), scanner, False)
            small = quicktok.Tokenizer("text", folder)
    except (OSError, RuntimeError, ValueError) as error:
        log.debug("counting without the whole vocabulary failed: %s", error)
        return None
    return int(small.count(data.decode("utf-8", "surrogatepass")))


@lru_cache(maxsize=4)
def get_tokenizer(encoding: str) -> Tokenizer:
    """A shared :class:`Tokenizer` for ``encoding`` (its vocabulary is loaded on first use)."""
    return Tokenizer(encoding)
