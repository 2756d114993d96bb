"""The ``falkmem`` command line: tenant administration, bulk add, search, context, doctor."""

from __future__ import annotations

import sys


def main() -> None:
    """Entry point of the ``falkmem`` console script."""
    try:
        from .app import cli
    except ImportError as exc:  # pragma: no cover - click is a dependency, but say what to do
        print(f"falkmem: the command line needs click ({exc}); pip install 'falkmem[cli]'", file=sys.stderr)
        raise SystemExit(1) from None
    cli(prog_name="falkmem")


__all__ = ["main"]
