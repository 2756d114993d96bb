"""The relations a question asks about (routing/relations.py) and what the plan says of them."""

from __future__ import annotations

import re

import pytest

from falkmem.extraction import KnownEntities, lookup_relation
from falkmem.extraction.vocab import ANSWERED_BY, PREDICATES, QUESTION_WORDS, RELATIONS
from falkmem.routing import RouterConfig, plan_query
from falkmem.routing.relations import find_relations

README = "Who manages the person who leads the team that built Project Helios?"


def test_the_readme_question_names_three_relations_and_their_inverses() -> None:
    asked = find_relations(README)
    assert asked.words == ("manages", "leads", "built")
    assert asked.steps == 3
    # "manages" is also stated the other way round ("Priya Chandran reports to Marcus Webb")
    assert {"manages", "reports_to", "leads", "built"} <= set(asked.relations)
    assert "related_to" not in asked.relations  # co-mention edges are not what it asks for


@pytest.mark.parametrize(
    ("question", "relation"),
    [
        ("Who is Priya Chandran's boss?", "reports_to"),
        ("Who does Priya Chandran report to?", "manages"),
        ("Who founded Acme Corp?", "created"),
        ("Who is the founder of Acme Corp?", "created"),
        ("Who does Dana work for?", "member_of"),
        ("Which company employs Dana?", "member_of"),
        ("Who directed Big Eye?", "related_to"),
        ("Who directed Big Eye?", "created"),  # "X is a film directed by Y": created(Y, X)
        ("Where were the performers of Brother formed?", "created"),  # "a song by the band Pearl Jam"
        ("Who is Kim Jong-chul married to?", "related_to"),
        ("Who is Kim Jong-chul married to?", "family"),  # "X married Y", "X, wife of Y": family(X, Y)
        ("Who is the paternal grandfather of Louis XIV?", "family"),
        ("Who is the spouse of the director of Big Eye?", "related_to"),
        ("Where was the composer of Aschenbrodel born?", "based_in"),
        ("In which county is Johnnycake located?", "located_in"),
        ("Which team built Project Tarsil?", "built"),
        ("What is the role of Marcus Webb?", "holds_role"),
    ],
)
def test_relational_words_map_onto_the_labels_the_extractor_writes(question: str, relation: str) -> None:
    assert relation in find_relations(question).relations


def test_a_compound_kinship_word_spans_two_steps() -> None:
    assert find_relations("Who is the paternal grandfather of Louis XIV?").steps == 2
    assert find_relations("Who is the mother-in-law of Kim Jong-chul?").steps == 2
    assert find_relations("Who is the father of Louis XIV?").steps == 1


def test_the_longest_overlapping_phrase_wins() -> None:
    asked = find_relations("Who are the members of the Atlas team?")
    assert asked.words == ("members of",)
    assert asked.relations == ("member_of", "part_of")  # not the looser "members" (also related_to)


@pytest.mark.parametrize(
    "question",
    [
        "What does Dana like when flying?",
        "What's the latest on my flight? Give me the confirmation code and arrival time.",
        "How many times did I go to the gym last week?",
        "What did I buy for my sister's birthday?",  # the asker's own: the chain starts at the user
        "Where was I born?",
        "Which of my colleagues did I meet in May?",
    ],
)
def test_questions_that_name_no_relation_of_the_graph_ask_none(question: str) -> None:
    asked = find_relations(question)
    assert (asked.words, asked.relations, asked.steps) == ((), (), 0)


def test_every_label_is_in_the_vocabulary() -> None:
    for _, relations, steps in QUESTION_WORDS:
        assert set(relations) <= RELATIONS and steps in (1, 2)
    for relation, others in ANSWERED_BY.items():
        assert {relation, *others} <= RELATIONS


def _plain_words(pattern: str) -> list[str]:
    """The alternatives of a predicate pattern that are plain words (no regex syntax)."""
    return [w for w in pattern.split("|") if re.fullmatch(r"[a-z ]+", w)]


def test_a_predicate_the_router_recognises_asks_for_the_relation_the_extractor_writes() -> None:
    """One vocabulary: wherever the router reads one of the extractor's predicates, it asks for
    the label the extractor writes for it (the two tables cannot drift apart)."""
    checked = 0
    for pattern, _ in PREDICATES:
        for word in _plain_words(pattern):
            asked = find_relations(f"Who {word} the Atlas team?")
            written = lookup_relation(word)
            if asked.words and written is not None:
                checked += 1
                assert written[0] in asked.relations, (word, written, asked)
    assert checked >= 40


def test_the_plan_says_which_relations_and_how_deep() -> None:
    known = KnownEntities([("project helios", "Project Helios"), ("atlas team", "Atlas team")])
    plan = plan_query(README, known, RouterConfig(entity_threshold=1))
    assert plan.route == "hybrid"
    assert plan.relation_words == ("manages", "leads", "built")
    assert {"manages", "reports_to", "leads", "built"} <= set(plan.relations)
    assert plan.depth == 2  # three relations, bounded by RELATED_TO*1..2
    one = plan_query("Who leads the Atlas team?", known, RouterConfig(entity_threshold=1))
    assert (one.relations[:1], one.depth) == (("leads",), 1)


def test_no_walk_without_a_relation_or_off_the_hybrid_route() -> None:
    known = KnownEntities([("atlas team", "Atlas team")])
    plain = plan_query("What did the Atlas team eat at the offsite?", known, RouterConfig(entity_threshold=1))
    assert plain.route == "hybrid" and plain.relations == () and plain.depth == 0
    vector = plan_query(README, KnownEntities(), RouterConfig(entity_threshold=1), force="vector")
    assert vector.route == "vector" and vector.depth == 0
    assert vector.relation_words == ("manages", "leads", "built")  # still said, for explain()


def test_a_relational_question_naming_no_known_entity_goes_to_the_graph() -> None:
    # the graph channel starts from the entities the first vector hits name
    cfg = RouterConfig(entity_threshold=1)
    chain = plan_query("Who was in charge of the country where the composer of Aschenbrodel was a citizen?",
                       KnownEntities(), cfg)  # fmt: skip
    assert chain.route == "hybrid" and chain.entities == ()
    assert chain.rule == "no known entity named, relational cue 'who': the graph starts from the vector hits"
    worded = plan_query(
        "What is the southern tip of the continent where most coffee is grown?", KnownEntities(), cfg
    )
    assert worded.route == "hybrid" and worded.cues == () and worded.relation_words
    lookup = plan_query("What is on the cafeteria lunch menu?", KnownEntities(), cfg)
    assert lookup.route == "vector" and lookup.rule == "no known entity named"
    strict = plan_query(README, KnownEntities(), RouterConfig(entity_threshold=1, require_cue=True))
    assert strict.route == "vector"  # a cue alone is not enough when entities are required


def test_the_router_finds_a_name_typed_without_its_accents() -> None:
    known = KnownEntities([("akinoshū kenji", "Akinoshū Kenji")])
    plan = plan_query("What kind of plane dropped the bomb on Akinoshu Kenji's birthplace?", known,
                      RouterConfig(entity_threshold=1))  # fmt: skip
    assert plan.entities == (("akinoshū kenji", "Akinoshū Kenji"),)
    assert plan.route == "hybrid"
