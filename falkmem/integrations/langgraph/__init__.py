"""LangGraph stores on falkmem (``pip install falkmem[langgraph]``): ``FalkmemStore`` and its
asyncio twin ``AsyncFalkmemStore`` are LangGraph ``BaseStore``s whose items are the memories of
one falkmem tenant (docs/langgraph.md)."""

from .store import AsyncFalkmemStore, FalkmemStore, item_id, newest, slot_ids

__all__ = ["AsyncFalkmemStore", "FalkmemStore", "item_id", "newest", "slot_ids"]
