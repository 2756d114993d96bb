"""Dataset adapters: HippoRAG layout (MuSiQue, case studies), JSONL, and the missing-data exit code."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from benchmarks.__main__ import main
from benchmarks.datasets import DatasetInvalid, DatasetMissing, load
from benchmarks.datasets.hipporag import load_folder
from benchmarks.datasets.jsonl import load as load_jsonl

CORPUS = [
    {"title": "Messi", "text": "Messi was signed by Barcelona in 2004.", "idx": 0},
    {"title": "Barcelona", "text": "Barcelona is a football club in Catalonia.", "idx": 1},
    {"title": "Catalonia", "text": "Catalonia is a region of Spain.", "idx": 2},
]
QUESTIONS = [
    {"id": "2hop__1_2", "question": "In which region is the club that signed Messi?", "answer": ["Catalonia"],
     "paragraphs": [
         {"title": "Messi", "paragraph_text": "Messi was signed by Barcelona in 2004.", "is_supporting": True, "idx": 0},
         {"title": "Barcelona", "text": "Barcelona is a football club in Catalonia.", "is_supporting": True, "idx": 1},
         {"title": "Catalonia", "text": "Catalonia is a region of Spain.", "is_supporting": False, "idx": 2}]},
    {"id": "q-plain", "question": "Where is Catalonia?", "answer": ["Spain"],
     "question_decomposition": [{"question": "Where is Catalonia?"}],
     "paragraphs": [{"title": "Catalonia", "text": "Catalonia is a region of Spain.", "is_supporting": True}]},
]  # fmt: skip
OPENIE = {"docs": [
    {"idx": "chunk-a", "passage": "Messi\nMessi was signed by Barcelona in 2004.",
     "extracted_entities": ["Messi", "Barcelona"], "extracted_triples": [["Messi", "signed by", "Barcelona"]]},
    {"idx": 2, "passage": "unmatched text", "extracted_triples": [["Catalonia", "part of", "Spain"], ["bad"]]},
]}  # fmt: skip


def _hipporag(folder: Path, *, openie: bool = True) -> Path:
    folder.mkdir(parents=True)
    (folder / "musique_corpus.json").write_text(json.dumps(CORPUS))
    (folder / "musique.json").write_text(json.dumps(QUESTIONS))
    if openie:
        (folder / "openie_musique_results_ner_gpt-4o-mini.json").write_text(json.dumps(OPENIE))
    return folder


def test_hipporag_folder_gives_rules_and_openie_tenants(tmp_path: Path) -> None:
    ds = load_folder(_hipporag(tmp_path / "m"), name="musique")
    ds.check()
    rules, openie = ds.tenants
    assert (rules.tenant, openie.tenant) == ("musique-rules", "musique-openie")
    q = rules.questions[0]
    assert q.gold == ("p000000", "p000001") and q.hops == 2 and q.category == "2hop"
    assert rules.questions[1].hops == 1
    assert rules.memories[0].text.startswith("Messi\n") and rules.memories[0].triples is None
    by_id = {m.id: m for m in openie.memories}
    assert by_id["p000000"].triples == (("Messi", "signed by", "Barcelona"),)
    assert by_id["p000002"].triples == (("Catalonia", "part of", "Spain"),)  # matched by integer idx
    assert by_id["p000001"].triples == ()
    assert ds.info["passages"] == 3 and ds.info["passages_with_triples"] == 2


def test_hipporag_without_openie_has_one_tenant(tmp_path: Path) -> None:
    ds = load_folder(_hipporag(tmp_path / "c", openie=False), name="case_study", questions=1)
    assert [t.tenant for t in ds.tenants] == ["case_study-rules"]
    assert len(ds.tenants[0].questions) == 1


def test_missing_folder_names_the_path(tmp_path: Path) -> None:
    with pytest.raises(DatasetMissing, match=re.escape(str(tmp_path / "nope"))):
        load("musique", data_dir=tmp_path / "nope")
    with pytest.raises(DatasetMissing, match="corpus"):
        (tmp_path / "empty").mkdir()
        load("case_study", data_dir=tmp_path / "empty")


def test_cli_exits_2_when_the_dataset_is_missing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["run", "--dataset", "musique", "--data-dir", str(tmp_path / "absent"), "--out",
                 str(tmp_path / "r.json")])  # fmt: skip
    assert code == 2
    assert str(tmp_path / "absent") in capsys.readouterr().err
    assert not (tmp_path / "r.json").exists()


def test_default_musique_path_is_the_shared_folder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("FALKMEM_BENCH_DATA", str(tmp_path))
    with pytest.raises(DatasetMissing, match=re.escape(str(tmp_path / "musique_train_100"))):
        load("musique")


def _jsonl(path: Path, lines: list[object]) -> Path:
    path.write_text("\n".join(json.dumps(x) if not isinstance(x, str) else x for x in lines))
    return path


def test_jsonl_reads_memories_and_questions_per_tenant(tmp_path: Path) -> None:
    f = _jsonl(tmp_path / "d.jsonl", [
        "# my memories", "",
        {"type": "memory", "id": "m1", "text": "Priya leads the Atlas team.", "triples": [["Priya", "leads", "Atlas team"]]},
        {"type": "memory", "id": "m2", "text": "Atlas built Helios.", "tenant": "acme", "session": "s1"},
        {"type": "question", "id": "q1", "text": "Who leads Atlas?", "gold": ["m1"]},
        {"type": "question", "id": "q2", "text": "Who built Helios?", "gold": ["m2"], "hops": 1, "tenant": "acme"},
    ])  # fmt: skip
    ds = load_jsonl(f)
    assert [t.tenant for t in ds.tenants] == ["jsonl", "acme"]
    jt = ds.tenants[0]
    assert jt.memories[0].triples == (("Priya", "leads", "Atlas team"),)
    assert jt.memories[0].record()["triples"] == [("Priya", "leads", "Atlas team")]
    assert jt.questions[0].hops == 1 and ds.tenants[1].memories[0].session == "s1"


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ({"type": "note", "id": "x"}, "'type'"),
        ({"type": "memory", "id": "m", "text": ""}, "'text'"),
        ({"type": "memory", "id": "m", "text": "t", "colour": "red"}, "unknown memory fields"),
        ({"type": "question", "id": "q", "text": "t", "gold": []}, "'gold'"),
        ({"type": "question", "id": "q", "text": "t", "gold": ["nope"]}, "not memories"),
        ("{not json", "not JSON"),
    ],
)
def test_jsonl_errors_name_the_line(tmp_path: Path, line: object, message: str) -> None:
    f = _jsonl(tmp_path / "bad.jsonl", [{"type": "memory", "id": "m0", "text": "ok"}, line])
    with pytest.raises(DatasetInvalid, match=message):
        load_jsonl(f)


def test_jsonl_needs_a_file(tmp_path: Path) -> None:
    with pytest.raises(DatasetMissing):
        load_jsonl(None)
    with pytest.raises(DatasetMissing, match=r"missing\.jsonl"):
        load_jsonl(tmp_path / "missing.jsonl")
