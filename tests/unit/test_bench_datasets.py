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


def _lme(folder: Path, qid: str, qtype: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    session = [{"role": "user", "content": "I adopted a cat named Miso.", "has_answer": True},
               {"role": "assistant", "content": "Congratulations on Miso!", "has_answer": False},
               {"role": "user", "content": "   "}]  # fmt: skip
    other = [{"role": "user", "content": "Any tips for a trip to Lisbon?"},
             {"role": "assistant", "content": "Try the trams."}]  # fmt: skip
    raw = {"question_id": qid, "question_type": qtype, "question": "What is my cat called?",
           "question_date": "2023/06/01 (Thu) 10:00", "answer": "Miso", "answer_session_ids": ["s_ans"],
           "haystack_session_ids": ["s_other", "s_ans", "s_other"],
           "haystack_dates": ["2023/05/20 (Sat) 02:21", "2023/05/21 (Sun) 14:05", "2023/05/22 (Mon) 09:00"],
           "haystack_sessions": [other, session, other]}  # fmt: skip
    (folder / f"{qid}.json").write_text(json.dumps(raw))
    return folder


def test_longmemeval_turns_are_memories_with_session_speaker_and_date(tmp_path: Path) -> None:
    from benchmarks.datasets.longmemeval import parse_date

    assert parse_date("2023/05/20 (Sat) 02:21").isoformat() == "2023-05-20T02:21:00"
    folder = _lme(tmp_path / "lme", "Q1", "single-session-user")
    ds = load("longmemeval", data_dir=folder)
    [t] = ds.tenants
    assert t.tenant == "lme-q1" and t.group == "longmemeval"
    # the repeated identical session is stored once, the blank turn is skipped
    assert [m.id for m in t.memories] == ["s_other:0", "s_other:1", "s_ans:0", "s_ans:1"]
    ans = t.memories[2]
    assert (ans.session, ans.speaker, ans.at) == ("s_ans", "user", "2023-05-21T14:05:00")
    assert t.memories[3].at == "2023-05-21T14:05:01"  # turn order kept
    [q] = t.questions
    assert q.gold == ("s_ans:0",) and q.gold_sessions == ("s_ans",) and q.category == "single-session-user"
    assert t.session_of()["s_ans:1"] == "s_ans"


def test_longmemeval_tenants_interleave_question_types(tmp_path: Path) -> None:
    folder = tmp_path / "lme"
    for qid, qtype in [("a1", "multi-session"), ("a2", "multi-session"), ("b1", "temporal-reasoning"),
                       ("b2", "temporal-reasoning")]:  # fmt: skip
        _lme(folder, qid, qtype)
    ds = load("longmemeval", data_dir=folder, tenants=2)
    assert [t.questions[0].category for t in ds.tenants] == ["multi-session", "temporal-reasoning"]
    with pytest.raises(DatasetMissing, match=re.escape(str(tmp_path / "none"))):
        load("longmemeval", data_dir=tmp_path / "none")


def test_longmemeval_bad_date_is_invalid(tmp_path: Path) -> None:
    folder = _lme(tmp_path / "lme", "q1", "multi-session")
    raw = json.loads((folder / "q1.json").read_text())
    raw["haystack_dates"][0] = "20 May 2023"
    (folder / "q1.json").write_text(json.dumps(raw))
    with pytest.raises(DatasetInvalid, match="20 May 2023"):
        load("longmemeval", data_dir=folder)


def test_musique200_is_one_rules_tenant(tmp_path: Path) -> None:
    ds = load("musique200", data_dir=_hipporag(tmp_path / "m200", openie=False))
    assert [t.tenant for t in ds.tenants] == ["musique200-rules"]
    assert ds.tenants[0].questions[0].hops == 2


def test_case_study_gives_one_tenant_per_study_in_one_group(tmp_path: Path) -> None:
    folder = tmp_path / "cs"
    folder.mkdir()
    for study in ("books", "movies"):
        (folder / f"case_study_{study}_corpus.json").write_text(json.dumps(CORPUS))
        # the question text comes after a long paragraph list (as in HippoRAG's files)
        q = {
            **QUESTIONS[0],
            "paragraphs": QUESTIONS[0]["paragraphs"] + [{"title": "x", "text": "y" * 30_000}],
        }
        (folder / f"case_study_{study}.json").write_text(json.dumps([q]))
    ds = load("case_study", data_dir=folder)
    assert [(t.tenant, t.group) for t in ds.tenants] == [("case_study-books-rules", "case_study-rules"),
                                                          ("case_study-movies-rules", "case_study-rules")]  # fmt: skip
    assert [t.questions[0].category for t in ds.tenants] == ["books", "movies"]


def test_openie_triples_falkmem_refuses_are_dropped(tmp_path: Path) -> None:
    folder = _hipporag(tmp_path / "m")
    raw = json.loads((folder / "openie_musique_results_ner_gpt-4o-mini.json").read_text())
    raw["docs"][0]["extracted_triples"] += [["Messi", "plays", "x" * 300], ["-", "is", "Barcelona"]]
    (folder / "openie_musique_results_ner_gpt-4o-mini.json").write_text(json.dumps(raw))
    openie = load_folder(folder, name="musique").tenants[1]
    assert openie.memories[0].triples == (("Messi", "signed by", "Barcelona"),)
