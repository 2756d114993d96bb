"""Every command documents itself: help text, an example epilog, and a section in docs/cli.md."""

from __future__ import annotations

from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from falkmem.cli.app import cli

DOCS = Path(__file__).resolve().parents[2] / "docs" / "cli.md"


def _commands(group: click.Group, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    out: list[tuple[str, ...]] = []
    for name, cmd in sorted(group.commands.items()):
        out.append((*prefix, name))
        if isinstance(cmd, click.Group):
            out.extend(_commands(cmd, (*prefix, name)))
    return out


COMMANDS = _commands(cli)


def test_the_whole_tree_is_there() -> None:
    names = {" ".join(c) for c in COMMANDS}
    for want in ("tenants list", "tenants create", "tenants show", "tenants stats", "tenants drop",
                 "tenants copy", "tenants export", "tenants import", "tenants migrate", "tenants grant",
                 "tenants revoke", "add", "search", "context", "explain", "doctor"):  # fmt: skip
        assert want in names


@pytest.mark.parametrize("path", COMMANDS, ids=[" ".join(c) for c in COMMANDS])
def test_command_has_help_an_example_and_docs(path: tuple[str, ...]) -> None:
    result = CliRunner().invoke(cli, [*path, "--help"])
    assert result.exit_code == 0, result.output
    cmd: click.Command = cli
    for part in path:
        assert isinstance(cmd, click.Group)
        cmd = cmd.commands[part]
    assert (cmd.help or "").strip(), f"{path} has no help"
    assert "falkmem " in (cmd.epilog or ""), f"{path} has no example epilog"
    assert f"falkmem {' '.join(path)}" in DOCS.read_text(encoding="utf-8"), f"{path} is not in docs/cli.md"


def test_root_help_documents_exit_codes_and_never_opens_a_store(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["--path", str(tmp_path / "none"), "--help"])
    assert result.exit_code == 0
    for code in ("0  success", "1  the server", "2  bad usage"):
        assert code in result.output
    assert not (tmp_path / "none").exists()


def test_usage_errors_exit_2() -> None:
    assert CliRunner().invoke(cli, ["tenants", "frobnicate"]).exit_code == 2
    assert CliRunner().invoke(cli, ["search"]).exit_code == 2
