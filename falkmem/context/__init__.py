"""Context assembly: token counting, and packing the sentences of ranked memories into a token budget."""

from .items import context_items
from .pack import ContextItem, PackedContext, Source, pack, refers_back
from .tokens import HFTokenCounter, RegexTokenCounter, TiktokenCounter, TokenCounter, make_counter

__all__ = [
    "ContextItem",
    "HFTokenCounter",
    "PackedContext",
    "RegexTokenCounter",
    "Source",
    "TiktokenCounter",
    "TokenCounter",
    "context_items",
    "make_counter",
    "pack",
    "refers_back",
]
