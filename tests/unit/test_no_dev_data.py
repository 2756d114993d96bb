"""The library holds no dev data: no name from the dev sets in its code, docstrings or queries.

The rule of the project: never put dev data (passages, names, questions) into the library. Rules
and examples written from a dev question fit that question, not the next user's. This test
checks an explicit list of proper names from the dev sets (the REALTALK speakers, and titles,
people and names of MuSiQue, 2Wiki, LongMemEval and REALTALK passages that no example of the
library has a reason to use) against every ``falkmem/**/*.py`` and ``cypher/**/*.cypher``. The
list lives here, not in the library; an example needs a name, it can be an invented one.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

SPEAKERS = (
    "Emi", "Elise", "Kevin", "Paola", "Nicolas", "Nebraas", "Vanessa", "Akib", "Muhhamed", "Fahim",
)  # fmt: skip
"""The REALTALK speakers, matched case-sensitively as whole words ("Emi", not "EMI" or "emit")."""

DEV_NAMES = (
    # 2WikiMultihopQA passages
    "Kamakalawa", "Eddie Romero", "Chat Silayan", "Louis the Pious", "Teutberga", "Lotharingia",
    "The King on Main Street", "Return of the Hero",
    # MuSiQue passages (HippoRAG's musique_train_100, musique_200)
    "Izgoy", "Aschenbrödel", "Akinoshū Kenji", "Dodge City Regional Airport", "Tekezé River",
    "Malchiostro Annunciation", "Lorenzo Costa the Younger", "Another Page", "Winnie Kiiza",
    "Stone Gossard",
    # LongMemEval and REALTALK turns
    "Irradon", "Fissionator",
)  # fmt: skip
"""Distinctive titles and names of dev passages and chats, matched as whole words in any case
and with or without accents ("Aschenbrodel" is "Aschenbrödel")."""


def _fold(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c)).casefold()


@functools.cache
def _lines(path: Path) -> tuple[str, ...]:
    return tuple(path.read_text(encoding="utf-8").splitlines())


def _library_files() -> list[Path]:
    files = sorted(ROOT.glob("falkmem/**/*.py")) + sorted(ROOT.glob("cypher/**/*.cypher"))
    assert files, f"no library files under {ROOT}"
    return files


def _speaker(name: str) -> re.Pattern[str]:
    return re.compile(rf"\b{re.escape(name)}\b")


def _title(name: str) -> re.Pattern[str]:
    words = r"\W+".join(re.escape(w) for w in _fold(name).split())
    return re.compile(rf"(?<!\w){words}(?!\w)")


def _hits(pattern: re.Pattern[str], fold: bool, files: list[Path] | None = None) -> list[str]:
    out = []
    for path in _library_files() if files is None else files:
        for n, line in enumerate(_lines(path), 1):
            if pattern.search(_fold(line) if fold else line):
                where = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path.name
                out.append(f"{where}:{n}: {line.strip()}")
    return out


@pytest.mark.parametrize("name", SPEAKERS)
def test_no_realtalk_speaker_in_the_library(name: str) -> None:
    hits = _hits(_speaker(name), fold=False)
    assert not hits, f"REALTALK speaker {name!r} in the library (use an invented name):\n" + "\n".join(hits)


@pytest.mark.parametrize("name", DEV_NAMES)
def test_no_dev_title_in_the_library(name: str) -> None:
    hits = _hits(_title(name), fold=True)
    assert not hits, f"dev-set name {name!r} in the library (use an invented one):\n" + "\n".join(hits)


def test_the_check_finds_names_in_any_case_and_accent(tmp_path: Path) -> None:
    f = tmp_path / "example.py"
    lines = ["The opera ASCHENBRODEL, as Emi said;", "the KING on main street.", "EMI Records, emit."]
    f.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert _hits(_title("Aschenbrödel"), fold=True, files=[f]) == [f"example.py:1: {lines[0]}"]
    assert _hits(_title("The King on Main Street"), fold=True, files=[f]) == [f"example.py:2: {lines[1]}"]
    assert _hits(_speaker("Emi"), fold=False, files=[f]) == [f"example.py:1: {lines[0]}"]
    assert not _hits(_title("Izgoy"), fold=True, files=[f])


@pytest.mark.parametrize("name", DEV_NAMES + SPEAKERS)
def test_no_dev_name_in_the_readme(name: str) -> None:
    pattern = _speaker(name) if name in SPEAKERS else _title(name)
    hits = _hits(pattern, fold=name not in SPEAKERS, files=[ROOT / "README.md"])
    assert not hits, f"dev-set name {name!r} in the README (use an invented one):\n" + "\n".join(hits)
