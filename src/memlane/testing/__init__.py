"""Test doubles that ship with memlane, for its own suite and for yours.

- :class:`FakeLLMServer`: a real HTTP server on 127.0.0.1 speaking the OpenAI and Anthropic
  wire formats, replaying scripted replies and :class:`Fault` s.
- :class:`ScriptedLLM`: an in-process :class:`~memlane.llm.LLMClient` replaying a script.

Nothing here touches the network beyond loopback. (The PostgreSQL helpers live in
``memlane.testing.postgres`` and are not imported here: they need extra dependencies.)
"""

from memlane.testing.scripted import ScriptedCall, ScriptedLLM
from memlane.testing.server import FakeLLMServer, Fault, RecordedCall, fake_embedding

__all__ = ["FakeLLMServer", "Fault", "RecordedCall", "ScriptedCall", "ScriptedLLM", "fake_embedding"]
