"""Gold answers of the dev sets, read from their raw files, and whether a text carries one.

The dataset loaders (``benchmarks/datasets``) keep gold memory ids only; the context
measurement (``context_eval.py``) also needs the answers: MuSiQue's ``answer`` and
``answer_aliases``, LongMemEval's ``answer``, REALTALK's ``answer`` of each ``qa`` item. They
are read here, keyed like the loaders key their questions.

Matching (:func:`answer_in`): both texts are normalised the SQuAD way (case folded, accents
kept, punctuation and the articles a/an/the dropped, whitespace collapsed) after full dates
are rewritten to one form (``30 December, 2023``, ``Dec 30 2023``, ``2023-12-30`` and
``30.12.2023`` all become ``2023 12 30``); an answer is in a text when its normalised words
occur there as consecutive whole words. Answers that are yes/no, or longer than
``MAX_ANSWER_WORDS`` words, are not scored (:func:`scorable`): they are verdicts or
explanations that no context carries verbatim.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Iterable, Sequence
from pathlib import Path

from falkmem.context.when import unanchor

from .datasets.hipporag import find_files
from .datasets.paths import data_root, shared_data

MAX_ANSWER_WORDS = 8
"""Longer answers are explanations, not spans: not scored."""
_YES_NO = frozenset({"yes", "no"})
_MONTHS = {
    m: i + 1
    for i, names in enumerate(
        [("january", "jan"), ("february", "feb"), ("march", "mar"), ("april", "apr"), ("may",), ("june", "jun"),
         ("july", "jul"), ("august", "aug"), ("september", "sep", "sept"), ("october", "oct"),
         ("november", "nov"), ("december", "dec")]
    )
    for m in names
}  # fmt: skip
_MONTH = "|".join(sorted(_MONTHS, key=len, reverse=True))
_DMY = re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+({_MONTH})\.?,?\s+(\d{{4}})\b", re.IGNORECASE)
_MDY = re.compile(rf"\b({_MONTH})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+(\d{{4}})\b", re.IGNORECASE)
_ISO = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
_DOTTED = re.compile(r"\b(\d{1,2})\.(\d{1,2})\.(\d{4})\b")
_PUNCT = re.compile(r"[^\w\s]|_")
_ARTICLES = re.compile(r"\b(?:a|an|the)\b")
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")
_LABEL = re.compile(r"^\[\d+\]\s*", re.MULTILINE)
"""The provenance label that opens a line of ``context()`` ("[2] ..."): not content (the answer
"2" is not in "[2]")."""


def _date(m: re.Match[str], y: str, month: int, d: str) -> str:
    if not (1 <= month <= 12 and 1 <= int(d) <= 31):
        return m.group(0)
    return f" {int(y):04d} {month:02d} {int(d):02d} "


def canonical_dates(text: str) -> str:
    """Full dates in any of the usual forms rewritten as ``YYYY MM DD`` (day-first for ``30.12.2023``)."""
    text = _ISO.sub(lambda m: _date(m, m.group(1), int(m.group(2)), m.group(3)), text)
    text = _DOTTED.sub(lambda m: _date(m, m.group(3), int(m.group(2)), m.group(1)), text)
    text = _DMY.sub(lambda m: _date(m, m.group(3), _MONTHS[m.group(2).lower()], m.group(1)), text)
    return _MDY.sub(lambda m: _date(m, m.group(3), _MONTHS[m.group(1).lower()], m.group(2)), text)


def normalise(text: str) -> str:
    """Dates in one form, case folded, punctuation and articles dropped, whitespace collapsed."""
    text = canonical_dates(unicodedata.normalize("NFKC", text)).casefold()
    text = _ARTICLES.sub(" ", _PUNCT.sub(" ", text))
    return " ".join(text.split())


def scorable(answer: str) -> bool:
    """Whether an answer is scored: not a yes/no verdict (first word), 1 to ``MAX_ANSWER_WORDS`` words, not empty once normalised."""
    words = normalise(answer).split()
    return bool(words) and words[0] not in _YES_NO and len(answer.split()) <= MAX_ANSWER_WORDS


def answer_in(text: str, answers: Sequence[str]) -> bool:
    """Whether one of ``answers`` occurs in ``text`` as consecutive whole words, both normalised
    (the ``[n]`` labels that open ``context()``'s lines left out)."""
    hay = f" {normalise(_LABEL.sub('', text))} "
    return any((n := normalise(a)) and f" {n} " in hay for a in answers)


def sentences(text: str) -> list[str]:
    """The sentences of a memory as the measurement cuts them: after ``.!?`` + space, and at line breaks."""
    return [s.strip() for s in _SENTENCE.split(text) if s.strip()]


def answer_sentences(texts: Iterable[str], answers: Sequence[str]) -> list[str]:
    """The sentences of the gold memories that carry an answer, normalised (the evidence to find)."""
    out: list[str] = []
    for text in texts:
        for s in sentences(text):
            if answer_in(s, answers):
                out.append(normalise(s))
    return list(dict.fromkeys(out))


def evidence_in(text: str, evidence: Sequence[str]) -> bool:
    """Whether one of the normalised answer-bearing sentences occurs whole in ``text`` (the
    dates ``context()`` writes after "yesterday" and the like left out: they are not the memory's words)."""
    hay = f" {normalise(_LABEL.sub('', unanchor(text)))} "
    return any(f" {e} " in hay for e in evidence)


# --- reading the answers ----------------------------------------------------------------------


def _hipporag(folder: Path) -> dict[str, list[str]]:
    _, questions, _ = find_files(folder)
    raw = json.loads(questions.read_text(encoding="utf-8"))
    out: dict[str, list[str]] = {}
    for n, q in enumerate(raw):
        qid = str(q.get("id", f"q{n}"))
        answers = [str(q.get("answer") or "")] + [str(a) for a in q.get("answer_aliases") or []]
        out[qid] = [a for a in dict.fromkeys(answers) if a.strip()]
    return out


def _longmemeval(folder: Path) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for path in sorted(folder.glob("*.json")):
        raw = json.loads(path.read_text(encoding="utf-8"))
        out[str(raw["question_id"])] = [str(raw.get("answer") or "")]
    return out


def _realtalk(folder: Path) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for path in folder.glob("Chat_*.json"):
        m = re.match(r"^Chat_(\d+)_", path.name)
        chat = m.group(1) if m else path.stem.lower()
        raw = json.loads(path.read_text(encoding="utf-8"))
        for i, qa in enumerate(raw.get("qa") or []):
            out[f"chat{chat}-q{i}"] = [str(qa.get("answer") or "")]
    return out


def load_answers(dataset: str, data_dir: Path | None = None) -> dict[str, list[str]]:
    """Question id → its answers (the first one the gold answer, then aliases), as the loaders id them.

    Raises:
        ValueError: the dataset has no answers to read (synthetic, case_study, jsonl).
    """
    if dataset == "musique":
        return _hipporag(data_dir or shared_data("musique_train_100"))
    if dataset == "musique200":
        return _hipporag(data_dir or data_root() / "migres" / "musique_200")
    if dataset == "longmemeval":
        return _longmemeval(data_dir or data_root() / "longmemeval_s_dev")
    if dataset == "realtalk":
        return _realtalk(data_dir or data_root() / "realtalk")
    raise ValueError(
        f"no answers are known for dataset {dataset!r}: use musique, musique200, longmemeval or realtalk"
    )


__all__ = [
    "MAX_ANSWER_WORDS",
    "answer_in",
    "answer_sentences",
    "canonical_dates",
    "evidence_in",
    "load_answers",
    "normalise",
    "scorable",
    "sentences",
]
