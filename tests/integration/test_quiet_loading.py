"""Loading the packaged model draws no progress bar (transformers 5's ``Loading weights
0%…103/103``, issue 51) and leaves transformers' own settings as it found them."""

from __future__ import annotations

from pathlib import Path

import pytest

from falkmem.embedding.minilm import minilm_path
from falkmem.embedding.onnx import export_onnx
from falkmem.embedding.quiet import quiet_model_loading

tlog = pytest.importorskip("transformers.utils.logging")


def test_the_onnx_export_draws_no_progress_bar(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    assert tlog.is_progress_bar_enabled()
    out = export_onnx(minilm_path(), tmp_path / "onnx")  # a fresh cache: the model is loaded
    assert out.is_file()
    captured = capfd.readouterr()
    assert "Loading weights" not in captured.err + captured.out
    assert captured.err.strip() == ""
    assert tlog.is_progress_bar_enabled()  # put back for the caller's own use of transformers


def test_quiet_loading_restores_what_it_found() -> None:
    before = tlog.get_verbosity()
    tlog.disable_progress_bar()
    try:
        with quiet_model_loading():
            assert not tlog.is_progress_bar_enabled()
            assert tlog.get_verbosity() == tlog.ERROR
        assert not tlog.is_progress_bar_enabled()  # it was off: it stays off
        assert tlog.get_verbosity() == before
    finally:
        tlog.enable_progress_bar()
