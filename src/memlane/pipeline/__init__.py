"""The memory pipeline: turns stored conversation into lasting memory through durable background jobs.

Writes to a :class:`~memlane.Memory` ask the pipeline which jobs they cause (queued in the same
transaction); workers run them (:mod:`memlane.pipeline.worker`); ``context()`` asks it for extra sections.
Each step lives in its own module and plugs in through the hooks listed in :mod:`.core`.
"""

from __future__ import annotations

from .core import Pipeline, Section

__all__ = ["Pipeline", "Section"]
