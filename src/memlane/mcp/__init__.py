"""memlane as an MCP server (the Model Context Protocol): an edge over the facade, for desktop assistants and
coding agents. Needs the ``mcp`` extra (``pip install 'memlane[mcp]'``, the official ``mcp`` SDK, 2.x).

    memlane --db ~/memlane.db --agent desktop mcp --user me        # stdio, as a client launches it

:func:`build_server` makes the server object for one agent and user, for other transports (the HTTP service
can mount it).
"""

from __future__ import annotations

from .server import TOOLS, build_server, run_stdio

__all__ = ["TOOLS", "build_server", "run_stdio"]
