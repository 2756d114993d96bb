"""docs/configuration.md is what tools/config_doc.py writes from the code today: a setting added,
renamed, re-defaulted or re-documented without regenerating the page fails here."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

from falkmem.config import STAGES
from falkmem.settings import Settings

ROOT = Path(__file__).resolve().parents[2]


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("config_doc", ROOT / "tools" / "config_doc.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_configuration_page_is_up_to_date() -> None:
    page = (ROOT / "docs" / "configuration.md").read_text(encoding="utf-8")
    assert page == _tool().render(), "docs/configuration.md is out of date: run python tools/config_doc.py"


def test_the_page_names_every_setting_with_its_variable_and_a_description() -> None:
    page = (ROOT / "docs" / "configuration.md").read_text(encoding="utf-8")
    rows = {ln.split(" | ")[0].strip("| `"): ln for ln in page.splitlines() if ln.startswith("| `")}
    for name, field in Settings.model_fields.items():
        default = field.get_default(call_default_factory=True)
        section = type(default).model_fields if hasattr(type(default), "model_fields") else None
        names = [f"{name}.{f}" for f in section] if section else [name]
        for full in names:
            env = "FALKMEM_" + full.upper().replace(".", "__")
            assert full in rows, f"{full} is missing from docs/configuration.md"
            cells = [c.strip() for c in rows[full].strip("|").split(" | ")]
            assert cells[1] == f"`{env}`"
            assert cells[-1], f"{full} has no description: give it a docstring"
    for stage in STAGES:
        assert f"| `{stage}` |" in page
