"""Context assembly: token counting, and packing the sentences of ranked memories into a token budget."""

from .items import context_items as context_items
from .pack import ContextItem as ContextItem
from .pack import PackedContext as PackedContext
from .pack import Source as Source
from .pack import pack as pack
from .pack import refers_back as refers_back
from .tokens import HFTokenCounter as HFTokenCounter
from .tokens import RegexTokenCounter as RegexTokenCounter
from .tokens import TiktokenCounter as TiktokenCounter
from .tokens import TokenCounter as TokenCounter
from .tokens import make_counter as make_counter

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
