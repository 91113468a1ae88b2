"""Settings: defaults that work out of the box, overridden by a config file, then by ``MEMLANE_*`` env vars.

Precedence, highest first: arguments given in code, environment variables (``MEMLANE_<FIELD>``, any case), the
config file (``MEMLANE_CONFIG``, else ``$MEMLANE_HOME/config.toml`` / ``config.yaml``), the defaults below.
A config file may hold the keys at top level or under a ``memlane:`` (or ``memory:``) section.

The sources are merged here, in a few lines, and pydantic validates the result: a pydantic model rather than
pydantic-settings' ``BaseSettings``, whose import alone (it brings asyncio, dotenv and the loaders of a dozen
sources memlane does not read) took longer than the rest of ``Settings`` (bench/RESULTS.md, "Cold start").
PyYAML and platformdirs load only when a YAML file is read or the default home is needed.
"""

from __future__ import annotations

import os
import re
import tomllib
from contextvars import ContextVar
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from .errors import ConfigError

__all__ = ["ENV_PREFIX", "Settings", "default_home", "load_settings"]

#: The prefix of the environment variables that set memlane's settings (``MEMLANE_AGENT`` sets ``agent``).
ENV_PREFIX = "MEMLANE_"

#: recall()'s default floor on a hit's score (the ``min_score`` setting), calibrated on bench/facts.py and
#: bench/locomo.py with the default preset and the local MiniLM embedder (bench/RESULTS.md, issue 38).
MIN_SCORE = 0.08
#: The embedding models that floor was calibrated with: with another model (whose cosines run on another
#: scale), or keyword search alone, recall() has no floor unless ``min_score`` is given.
CALIBRATED_MODELS = frozenset({"all-MiniLM-L6-v2-int8"})

_config_file: ContextVar[Path | None] = ContextVar("memlane_config_file", default=None)


def default_home() -> Path:
    """The memlane home directory: ``$MEMLANE_HOME``, else the user's data dir (e.g. ~/.local/share/memlane)."""
    env = os.environ.get("MEMLANE_HOME")
    if env:
        return Path(env).expanduser()
    import platformdirs  # only when the home is not given

    return Path(platformdirs.user_data_dir("memlane"))


def memory_bytes(text: str) -> int:
    """Bytes of a PostgreSQL memory size such as ``"2GB"`` or ``"512MB"`` (units kB, MB, GB, TB).

    Raises:
        ValueError: ``text`` is no such size.
    """
    match = re.fullmatch(r"\s*(\d+)\s*(kB|MB|GB|TB)\s*", text)
    if match is None:
        raise ValueError(f"must be a PostgreSQL memory size such as 2GB or 512MB (units kB, MB, GB, TB), not {text!r}")
    return int(match.group(1)) * {"kB": 1 << 10, "MB": 1 << 20, "GB": 1 << 30, "TB": 1 << 40}[match.group(2)]


class Settings(BaseModel):
    """Every tunable of memlane, with its default.

    ``Settings(**values)`` reads the sources as the module docstring says: ``values`` win over the ``MEMLANE_*``
    environment variables, which win over the config file, which wins over the defaults.

    Raises:
        ValidationError: a value is invalid (:func:`load_settings` raises it as a ``ConfigError``).
        ConfigError: the config file is unusable.
    """

    model_config = ConfigDict(extra="forbid", validate_default=True)

    home: Path = Field(default_factory=default_home, description="Directory of the default database.")
    database: str | None = Field(None, description="SQLite path or postgresql:// URL; default <home>/memlane.db.")
    agent: str = Field("default", description="Agent (app, bot) whose memory is used when none is given.")
    model: str = Field("gpt-4o-mini", description="Chat model whose tokenizer counts the context budget.")
    encoding: str | None = Field(None, description="Tokenizer encoding (cl100k_base, o200k_base); else by model.")
    max_history_tokens: int = Field(4000, ge=64, description="Default token budget of context().")
    max_messages_in_context: int = Field(50, ge=1, description="Most recent messages context() considers.")
    fact_visibility: Literal["private", "shared"] = Field(
        "private",
        description="Visibility of facts remember() stores without one and of those the pipeline extracts; shared "
        "suits a group chat, where what anyone says about a person may serve everyone.",
    )
    share_needs_approval: bool = Field(
        True,
        description="A fact a user shares through a user API key waits, private, until an agent key shares it "
        "(a shared fact reaches every other user's prompt).",
    )
    strategy: Literal["simple", "summarization", "hybrid"] = Field(
        "hybrid",
        description="What context() holds besides the newest messages: simple nothing (and no "
        "summaries are made), summarization the rolling summaries, hybrid also facts, recalled items, memories "
        "and the thread's older system messages.",
    )
    summarize_after: int = Field(30, ge=2, description="Unsummarized messages that trigger a summary.")
    summarize_batch: int = Field(20, ge=1, description="Messages per rolling summary.")
    auto_prune_days: int = Field(0, ge=0, description="Delete threads idle this many days on open; 0 = never.")
    message_retention_days: int = Field(
        0, ge=0, description="Delete messages older than this many days on open (what was learned stays); 0 = never."
    )
    max_content_chars: int = Field(100_000, ge=1, description="Longest accepted message or fact content.")
    busy_timeout_ms: int = Field(5000, ge=0, description="How long SQLite waits for a lock before retrying.")
    lock_retries: int = Field(8, ge=0, description="Retries with backoff when the database stays locked.")
    pg_pool_size: int = Field(10, ge=1, description="Most connections a PostgreSQL store opens per process.")
    pg_pool_timeout: float = Field(
        5.0,
        gt=0,
        description="Seconds a PostgreSQL call waits for a pooled connection before failing with StorageError "
        "(HTTP 503): how long a request takes to fail while the database is down.",
    )
    pg_hnsw_m: int = Field(16, ge=2, le=100, description="HNSW graph degree of PostgreSQL vector indexes.")
    pg_hnsw_ef_construction: int = Field(
        64, ge=4, le=1000, description="HNSW candidate list size while building PostgreSQL vector indexes."
    )
    pg_hnsw_ef_search: int = Field(
        40, ge=1, le=1000, description="HNSW candidate list size of a PostgreSQL vector query (at least its limit)."
    )
    pg_index_min_rows: int = Field(
        100_000,
        ge=0,
        description="Message vectors from which a PostgreSQL store builds its whole-agent IVF index in the "
        "background; 0 = never.",
    )
    pg_index_memory: str = Field(
        "2GB",
        description="Most maintenance_work_mem of that index's builds (e.g. 512MB, 4GB; its k-means asks "
        "~360MB over 100k message vectors, ~1GB over 300k): it trains as many cells as fit, ~2,100 in 1GB, "
        "3,000 in 2GB, 3,800 in 3GB.",
    )
    embedder: str = Field("minilm", description="minilm (local, offline), openai, fake or none.")
    embed_behind: bool = Field(
        True,
        description="With a local model, a small write returns once its messages are stored and a helper "
        "thread embeds the texts of queued writes together; recall waits for its agent's (false: every write "
        "embeds before it commits).",
    )
    embedder_base_url: str | None = None
    embedder_model: str | None = None
    embedder_api_key: str | None = None
    max_facts_per_user: int = Field(
        0,
        ge=0,
        description="Most active facts a user may own (0: no cap); beyond it the least important, least "
        "recently recalled go.",
    )
    memory_cap: int = Field(
        10, ge=1, description="Most memories an agent keeps per audience (its own, a user's, a group's); compaction."
    )
    memory_decay_days: int = Field(
        30,
        ge=0,
        description="Facts neither recalled nor shown in a context for this many days rank lower in context() "
        "(0: no decay).",
    )
    facts_on_write: bool = Field(
        True,
        description="Store the facts a user's message states plainly (rules, no LLM) with the message itself "
        "(false: only when its batch is summarized).",
    )
    search_preset: str = Field("default", description="Named search preset used by recall().")
    min_score: float | None = Field(
        None,
        ge=0.0,
        le=1.0,
        description="recall() leaves out hits scoring below this (0 turns the floor off). Unset: 0.08 with the local "
        "MiniLM model it was calibrated with on bench/facts.py and bench/locomo.py, no floor with another embedder "
        "(its cosines run on another scale) or keyword search alone.",
    )
    llm_provider: str | None = Field(None, description="openai, ollama, anthropic or none.")
    llm_base_url: str | None = None
    llm_api_key: str | None = None
    llm_model: str | None = None
    llm_timeout: float = Field(30.0, gt=0)
    # -- background jobs and the LLM budget (memlane.pipeline.worker / memlane.pipeline.usage) --
    worker: Literal["thread", "none"] = Field(
        "thread", description="Run queued jobs in a background thread of each Memory ('none': only workers do)."
    )
    worker_poll_interval: float = Field(1.0, gt=0, description="Seconds an idle worker waits between polls.")
    worker_lease_seconds: float = Field(
        300.0, gt=0, description="How long a claimed job is leased; must outlast the slowest job (LLM retries)."
    )
    worker_batch: int = Field(8, ge=1, description="Jobs a worker claims at a time.")
    # -- profile merges (memlane.pipeline.profile) --
    profile_merge_delay: float = Field(
        60.0, ge=0, description="Seconds after a fact change before the user's profile job looks (batches bursts)."
    )
    profile_merge_facts: int = Field(
        20, ge=1, description="New facts of a user that make the LLM re-merge their profile at once."
    )
    profile_llm_min_facts: int = Field(
        15,
        ge=0,
        description="Facts a user needs before the LLM writes their profile as prose; fewer stay a bullet list.",
    )
    profile_merge_max_age: float = Field(
        604_800.0, ge=0, description="Seconds a new fact may wait for an LLM profile merge (reads show it at once)."
    )
    llm_budget_tokens: int = Field(
        0, ge=0, description="LLM tokens each agent may spend per budget window; 0 = unlimited."
    )
    llm_budget_window: float = Field(86_400.0, gt=0, description="Length of the rolling budget window, seconds.")
    llm_budget_reserve: float = Field(
        0.2, ge=0, le=1, description="Background LLM jobs wait while less than this share of the budget is left."
    )

    def __init__(self, **values: Any) -> None:
        path = _config_file.get() or _find_config_file()
        super().__init__(**{**(read_config_file(path) if path else {}), **_environment(), **values})

    @field_validator("pg_index_memory")
    @classmethod
    def _memory_size(cls, value: str) -> str:
        memory_bytes(value)
        return value.strip()

    @field_validator("home", mode="before")
    @classmethod
    def _expand_home(cls, value: Any) -> Any:
        return Path(value).expanduser() if isinstance(value, str | Path) else value

    def database_location(self) -> str:
        """The database to open: the configured path/URL, else ``<home>/memlane.db``."""
        return self.database or str(self.home / "memlane.db")


def _environment() -> dict[str, str]:
    """The settings given by ``MEMLANE_<FIELD>`` environment variables (names in any case). Others with the
    prefix are ignored, as variables for other tools may share it (``MEMLANE_HOME`` is one of the settings)."""
    prefix = ENV_PREFIX.lower()
    found: dict[str, str] = {}
    for name, value in os.environ.items():
        field = name.lower().removeprefix(prefix)
        if len(field) < len(name) and field in Settings.model_fields:
            found[field] = value
    return found


def _find_config_file() -> Path | None:
    env = os.environ.get("MEMLANE_CONFIG")
    if env:
        path = Path(env).expanduser()
        if not path.is_file():
            raise ConfigError(f"MEMLANE_CONFIG points to {path}, which is not a file")
        return path
    home = default_home()
    for name in ("config.toml", "config.yaml", "config.yml"):
        if (home / name).is_file():
            return home / name
    return None


#: Other names config files may use for memlane's settings: other memory systems' keys that mean the same.
ALIASES: dict[str, str] = {
    "storage_path": "database",  # a memory sub-agent's config
    "max_tokens_in_context": "max_history_tokens",  # a chat-room bot's MemoryConfig
    "summarize_after_messages": "summarize_after",  # a chat-room bot's MemoryConfig
    "max_context": "max_messages_in_context",  # a chat-room bot's plugin config
    "max_memories_per_channel": "max_facts_per_user",  # a chat-room bot's MemoryConfig (its memories are facts)
}


def read_config_file(path: Path) -> dict[str, Any]:
    """Parse a TOML or YAML config file into a flat mapping of setting names.

    Raises:
        ConfigError: the file cannot be read or parsed, or is not a mapping.
    """
    try:
        text = path.read_text(encoding="utf-8")
        if path.suffix == ".toml":
            data: Any = tomllib.loads(text)
        else:
            import yaml  # only for a YAML file

            try:
                data = yaml.safe_load(text)
            except yaml.YAMLError as exc:
                raise ConfigError(f"cannot read config file {path}: {exc}") from exc
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"cannot read config file {path}: {exc}") from exc
    data = data or {}
    if not isinstance(data, dict):
        raise ConfigError(f"config file {path} must hold a mapping of settings")
    for section in ("memlane", "memory"):
        if isinstance(data.get(section), dict):
            data = {**{k: v for k, v in data.items() if k != section}, **data[section]}
    for other, ours in ALIASES.items():  # other systems' names for memlane's settings
        if other in data:
            if ours in data:
                raise ConfigError(f"config file {path} sets both {other!r} and {ours!r} (the same setting)")
            data[ours] = data.pop(other)
    enabled = data.pop("enabled", True)  # another system's switch; memlane on a config that turns memory off: a mistake
    if enabled is not True:
        raise ConfigError(
            f"config file {path} says enabled: {enabled!r}; memlane does not run with memory turned off "
            "(leave memlane out, or set enabled: true)"
        )
    return dict(data)


def load_settings(config_file: str | Path | None = None, **overrides: Any) -> Settings:
    """Build :class:`Settings` from defaults, the config file, the environment and ``overrides``.

    Raises:
        ConfigError: a value is invalid or the config file is unusable.
    """
    token = _config_file.set(Path(config_file).expanduser() if config_file else None)
    try:
        if config_file and not Path(config_file).expanduser().is_file():
            raise ConfigError(f"config file {config_file} does not exist")
        return Settings(**{k: v for k, v in overrides.items() if v is not None})
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']) or 'settings'}: {err['msg']}" for err in exc.errors()
        )
        raise ConfigError(f"invalid settings: {problems}") from exc
    finally:
        _config_file.reset(token)
