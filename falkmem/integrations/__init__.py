"""Adapters that plug falkmem into agent frameworks: an MCP server (``falkmem[mcp]``) and a
LangGraph store (``falkmem[langgraph]``). Each module imports its framework; install the extra."""
