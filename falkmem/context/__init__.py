"""Context assembly: token counting and packing ranked memories into a token budget."""

from .pack import ContextItem as ContextItem
from .pack import PackedContext as PackedContext
from .pack import pack as pack
from .pack import refers_back as refers_back
from .tokens import HFTokenCounter as HFTokenCounter
from .tokens import RegexTokenCounter as RegexTokenCounter
from .tokens import TokenCounter as TokenCounter

__all__ = [
    "ContextItem",
    "HFTokenCounter",
    "PackedContext",
    "RegexTokenCounter",
    "TokenCounter",
    "pack",
    "refers_back",
]
