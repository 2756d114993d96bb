"""The README's demo command runs and recalls what it remembered."""

from __future__ import annotations

from pathlib import Path

import pytest

from falkmem import demo


def test_demo_remembers_and_recalls(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert demo.main([str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "remembered 9 new memories" in out
    assert "Priya Chandran leads the Atlas team." in out
    assert "[route: hybrid" in out
    assert "Priya Chandran reports to Marcus Webb." in out  # the context reached the chain's end
    context = out.split("context for:", 1)[1].splitlines()[1:]
    assert any(ln.startswith("[") and "user: Booked flight UA 837" in ln for ln in context)  # told in chat
    assert not any("user:" in ln and "Atlas" in ln for ln in context)  # facts have no speaker
    assert "dana:" not in out
    assert demo.main([str(tmp_path)]) == 0  # a second run adds nothing new
    assert "remembered 0 new memories (9 already known)" in capsys.readouterr().out
