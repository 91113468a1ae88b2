"""Adapters for agent frameworks, each an edge over the facade with its own optional extra:

- :mod:`.openai_agents`: ``MemlaneSession``, the OpenAI Agents SDK's session (``memlane[openai-agents]``);
- :mod:`.langgraph`: ``MemlaneStore``, a LangGraph ``BaseStore`` (``memlane[langgraph]``).

Import the module you need; this package imports neither framework.
"""
