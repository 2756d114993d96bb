"""Loading a model quietly: transformers 5 draws a ``Loading weights 0%…103/103`` bar on stderr
every time it reads a checkpoint (``AutoModel.from_pretrained``, and sentence-transformers through
it), and logs load reports. falkmem loads the packaged model itself, once: none of that is the
user's business. The bar and transformers' warnings are switched off around the load and put back
as they were after it."""

from __future__ import annotations

import contextlib
import importlib
from collections.abc import Iterator
from typing import Any


@contextlib.contextmanager
def quiet_model_loading() -> Iterator[None]:
    """No progress bar and only transformers' errors while a model loads; restored after."""
    try:
        tlog: Any = importlib.import_module("transformers.utils.logging")  # untyped
    except ImportError:  # nothing to silence
        yield
        return
    bars = tlog.is_progress_bar_enabled()
    verbosity = tlog.get_verbosity()
    tlog.disable_progress_bar()
    tlog.set_verbosity_error()
    try:
        yield
    finally:
        tlog.set_verbosity(verbosity)
        if bars:
            tlog.enable_progress_bar()
