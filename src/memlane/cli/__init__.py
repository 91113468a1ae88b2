"""The ``memlane`` command line: an edge over the core :class:`memlane.Memory` facade.

Layout: ``app`` wires the commands and maps errors to exit codes (``exitcodes``); ``state`` holds the
global options; ``render`` turns core records into rich tables or JSON; the ``commands_*`` modules hold
the commands; ``demo`` is the newcomer's tour over the bundled ``demo_conversation.json``.
The core never imports this package.
"""

from __future__ import annotations

__all__: list[str] = []
