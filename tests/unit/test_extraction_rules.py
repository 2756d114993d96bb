"""Tests for RuleExtractor: names, identifiers, known entities and typed relation patterns."""

from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from falkmem.extraction import Extraction, Extractor, KnownEntities, LLMExtractor, RuleExtractor
from falkmem.text.sentences import split_sentences
from tests.protocols import assert_implements

RULES = RuleExtractor()


def triples(ex: Extraction, relation: str | None = None) -> set[tuple[str, str, str]]:
    return {(t.relation, t.subject, t.object) for t in ex.triples if relation in (None, t.relation)}


def types(ex: Extraction) -> dict[str, str]:
    return {e.key: e.type for e in ex.entities}


@pytest.mark.parametrize(
    ("text", "triple", "typed"),
    [
        ("Atlas team built Project Helios.", ("built", "atlas team", "project helios"),
         {"atlas team": "team", "project helios": "project"}),
        ("Priya Chandran leads the Atlas team.", ("leads", "priya chandran", "atlas team"),
         {"priya chandran": "person", "atlas team": "team"}),
        ("The Atlas team is based in the Bangalore office.",
         ("based_in", "atlas team", "bangalore office"), {"bangalore office": "place"}),
        ("Priya Chandran reports to Marcus Webb.", ("reports_to", "priya chandran", "marcus webb"),
         {"marcus webb": "person"}),
        ("Marcus Webb is the VP of Engineering.",
         ("holds_role", "marcus webb", "vp of engineering"), {"vp of engineering": "role"}),
        ("Project Helios was built by the Atlas team.", ("built", "atlas team", "project helios"), {}),
    ],
)  # fmt: skip
def test_project_helios_sentences(text: str, triple: tuple[str, str, str], typed: dict[str, str]) -> None:
    ex = RULES.extract(text)
    assert triple in triples(ex)
    assert not triples(ex, "related_to")  # the one pair is typed, so no co-mention edge
    assert typed.items() <= types(ex).items()


def test_passive_keeps_the_predicate_as_label() -> None:
    ex = RULES.extract("Project Helios was built by the Atlas team.")
    assert [(t.relation, t.label, t.weight) for t in ex.triples] == [("built", "was built by", 1.0)]
    assert RULES.extract("Atlas team built Project Helios.").triples[0].label is None


def test_the_helios_story_forms_one_connected_graph() -> None:
    story = (
        "Atlas team built Project Helios. Priya Chandran leads the Atlas team. "
        "The Atlas team is based in the Bangalore office. Priya Chandran reports to Marcus Webb. "
        "Marcus Webb is the VP of Engineering."
    )
    ex = RULES.extract(story)
    assert {
        ("built", "atlas team", "project helios"),
        ("leads", "priya chandran", "atlas team"),
        ("based_in", "atlas team", "bangalore office"),
        ("located_in", "bangalore office", "bangalore"),
        ("reports_to", "priya chandran", "marcus webb"),
        ("holds_role", "marcus webb", "vp of engineering"),
    } == triples(ex)
    assert len({e.key for e in ex.entities}) == len(ex.entities) == 7


def test_trip_booking_identifiers() -> None:
    ex = RULES.extract("Booked flight UA 837 to Tokyo, confirmation code QX7RTP.")
    assert types(ex) == {"ua 837": "identifier", "tokyo": "place", "qx7rtp": "identifier"}
    rel = {(t.subject, t.object): t.weight for t in ex.triples}
    assert rel == {("ua 837", "tokyo"): 0.5, ("ua 837", "qx7rtp"): 0.5, ("tokyo", "qx7rtp"): 0.5}
    assert triples(ex) == triples(ex, "related_to")


def test_known_entities_are_found_in_lower_case() -> None:
    known = KnownEntities([("ua 837", "UA 837"), ("tokyo", "Tokyo")])
    assert types(RULES.extract("My flight is delayed, new arrival 12:15.", known=known)) == {"12 15": "date"}
    ex = RULES.extract("ua 837 is delayed", known=known)
    assert [(e.key, e.name) for e in ex.entities] == [("ua 837", "UA 837")]
    ex = RULES.extract("landed in tokyo on ua837? no: ua 837 at 11:40 pm", known=known)
    assert {"tokyo", "ua 837", "23 40"} <= set(types(ex))


@pytest.mark.parametrize(
    ("text", "key", "etype"),
    [
        ("Flight LH401 leaves at 10:05.", "lh 401", "identifier"),
        ("Flight LH401 leaves at 10:05.", "10 05", "date"),
        ("Refund for order #A-10293 is pending.", "10293", "identifier"),
        ("Refund for order 55512 is pending.", "55512", "identifier"),
        ("Ticket PROJ-1234 is open.", "proj 1234", "identifier"),
        ("Write to priya.chandran@acme.com today.", "priya chandran acme com", "email"),
        ("Launch on 2026-03-03.", "2026 03 03", "date"),
        ("Launch on March 3.", "march 3", "date"),
        ("Launch on 3 March 2026.", "2026 03 03", "date"),
        ("Launch on Mar 3rd, 2026.", "2026 03 03", "date"),
        ("Launch in May.", "may", "date"),
        ("Paid $1,200 for it.", "usd 1200", "amount"),
        ("Paid €40 for it.", "eur 40", "amount"),
        ("Paid 300 USD for it.", "usd 300", "amount"),
        ("Paid $2.5 million for it.", "usd 2.5m", "amount"),
        ("The reference code is ABCDEF.", "abcdef", "identifier"),
        ("Meet at 3pm.", "15 00", "date"),
    ],
)
def test_identifier_patterns(text: str, key: str, etype: str) -> None:
    assert types(RULES.extract(text)).get(key) == etype


def test_names_quotes_and_stop_words() -> None:
    ex = RULES.extract('Yesterday I met Sarah Connor in New York about the "Blue Sky" project.')
    assert types(ex) == {
        "sarah connor": "person",
        "new york": "place",
        "project blue sky": "project",
    }
    assert RULES.extract("The weather is nice. Who knows? I do.").entities == ()
    assert RULES.extract("").entities == ()
    ex = RULES.extract("Team Atlas works on the Helios project with Dr. Ana Lima from Acme Corp.")
    assert {"atlas team", "project helios", "ana lima", "acme corp"} == set(types(ex))
    assert ("works_on", "atlas team", "project helios") in triples(ex)
    assert types(ex)["acme corp"] == "organization"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Priya Chandran, who leads the Atlas team, reports to Marcus Webb.",
         {("leads", "priya chandran", "atlas team"), ("reports_to", "priya chandran", "marcus webb")}),
        ("Sam Altman is the CEO of OpenAI.",
         {("holds_role", "sam altman", "ceo"), ("member_of", "sam altman", "openai")}),
        ("CEO Dana Reyes owns Acme Corp.",
         {("holds_role", "dana reyes", "ceo"), ("owns", "dana reyes", "acme corp")}),
        ("Ana is the head of the Atlas team.", {("leads", "ana", "atlas team")}),
        ("Priya joined Acme Corp.", {("member_of", "priya", "acme corp")}),
        ("Helios is part of Apollo.", {("part_of", "helios", "apollo")}),
        ("The Helios project uses Postgres.", {("uses", "project helios", "postgres")}),
        ("Project Helios is led by Priya.", {("leads", "priya", "project helios")}),
        ("Priya works on Project Helios.", {("works_on", "priya", "project helios")}),
        ("Marcus manages Priya.", {("manages", "marcus", "priya")}),
    ],
)  # fmt: skip
def test_relation_patterns(text: str, expected: set[tuple[str, str, str]]) -> None:
    assert expected <= triples(RULES.extract(text))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('Brother (Pearl Jam song)\n"Brother" is a song by the American rock band Pearl Jam.',
         {("created", "pearl jam", "brother")}),
        ("Kamakalawa\nKamakalawa is a 1981 Filipino fantasy film written, produced and directed by Eddie Romero"
         " and starred Christopher De Leon.", {("created", "eddie romero", "kamakalawa")}),
        ('Aschenbrödel\nAschenbrödel ("Cinderella") is a ballet written by Johann Strauss II.',
         {("created", "johann strauss ii", "aschenbrödel")}),
        ("Reporter\nReporter is a 1939 American mystery film directed by William Clemens and written by"
         " Kenneth Gamet.", {("created", "william clemens", "reporter"), ("created", "kenneth gamet", "reporter")}),
    ],
)  # fmt: skip
def test_a_work_and_who_made_it(text: str, expected: set[tuple[str, str, str]]) -> None:
    """Encyclopedic "X is a song / film / ballet ... by Y": the first hop of "the performer of
    X", "the director of X" (held-out compositional questions ask for exactly these)."""
    assert expected <= triples(RULES.extract(text))


@pytest.mark.parametrize(
    "text",
    [
        "Brother is a song by the American rock band Pearl Jam.",  # not opened by a name: "Brother" is no span
        "Marjatta Raita was a Finnish actress, best known for her roles in films by Spede Pasanen.",  # not a work
        "I watched a film by Nolan with Anna yesterday.",  # the subject is the speaker
        '"Blink Blink" is a single by American rapper, LL Cool J.',  # "American" is no maker; the comma ends the run
    ],
)
def test_no_maker_where_the_sentence_does_not_say_it(text: str) -> None:
    assert not any(t.relation == "created" for t in RULES.extract(text).triples)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Lucius Antonius\nLucius Antonius (20 BC – AD 25) was the eldest son of Iullus Antonius and Claudia"
            " Marcella Major.",
            {("family", "lucius antonius", "iullus antonius"), ("family", "lucius antonius", "claudia marcella major")},
        ),
        (  # a pronoun opens the sentence: the titled memory's subject is meant
            "Louis the Pious\nLouis the Pious was King of the Franks. He was the son of Charlemagne and Hildegard.",
            {("family", "louis the pious", "charlemagne"), ("family", "louis the pious", "hildegard")},
        ),
        ("Godomar II\nGodomar II (or Gundomar), son of king Gundobad, was king of Burgundy.",
         {("family", "godomar ii", "gundobad")}),
        ("Kim Jong-chul married Anna Lee in 2001.", {("family", "kim jong chul", "anna lee")}),
    ],
)  # fmt: skip
def test_kin_and_spouses(text: str, expected: set[tuple[str, str, str]]) -> None:
    """Encyclopedic "X was the son of Y": the first hop of "the paternal grandfather of X" (held-out
    inference questions ask for chains of these)."""
    assert expected <= triples(RULES.extract(text))


@pytest.mark.parametrize(
    "text",
    [
        "He was the son of Charlemagne.",  # a pronoun, and no titled memory to say whom it means
        "Sam moved to Paris with Ana. The daughter of a baker opened a shop.",  # no name after "of"
        "Ana met Bob and Carl in Rome.",
    ],
)
def test_no_kin_where_the_sentence_does_not_say_it(text: str) -> None:
    assert not any(t.relation == "family" for t in RULES.extract(text).triples)


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("It is based on the novel written by P. G. Wodehouse.", {"p g wodehouse"}),
        ("George H. W. Bush met Franklin D. Roosevelt's grandson.", {"george h w bush", "franklin d roosevelt"}),
        ("The film was directed by P. A. Backer and scored by A. R. Rahman.", {"p a backer", "r rahman"}),
        ("I. M. Pei designed it.", {"i m pei"}),
        ("He was directed by J. Lee Thompson in London.", {"j lee thompson", "london"}),
    ],
)  # fmt: skip
def test_an_initial_opens_the_name_after_it(text: str, names: set[str]) -> None:
    """A name with initials is one person ("P. G. Wodehouse"), not the entities P, G and Wodehouse:
    a single letter is shared by every name with that initial (a walk from "P" reached "P. Bhaskaran")."""
    keys = {e.key for e in RULES.extract(text).entities}
    assert names <= keys
    assert not any(len(k) == 1 for k in keys), keys


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("The empire lasted until the end of World War I. Born in Starnberg, he moved to Rome.", {"world war", "starnberg"}),
        ("The crown passed to Henry V. He ruled France.", {"henry v", "france"}),
        ("Ana got a B. Then she left for Paris.", {"ana", "paris"}),
    ],
)  # fmt: skip
def test_no_initial_where_a_sentence_goes_on(text: str, names: set[str]) -> None:
    """A numeral after a name, or a letter before a sentence opener, opens no name."""
    keys = {e.key for e in RULES.extract(text).entities}
    assert names <= keys, keys
    assert not any(k.startswith(("world war i ", "henry v ", "b then")) for k in keys), keys


@pytest.mark.parametrize(
    ("text", "triple"),
    [
        ("Night Train to Dover\nNight Train to Dover is a 1952 British drama film directed by Ruth Calder.",
         ("created", "ruth calder", "night train to dover")),
        ("Taming of the Fire\nTaming of the fire is a 1972 Soviet drama film directed by Daniil Khrabrovitsky.",
         ("created", "daniil khrabrovitsky", "taming of the fire")),
        ('"Heroes" (song)\n"Heroes" is a song by David Bowie.', ("created", "david bowie", "heroes")),
        ("Under the Cards\nUnder the Cards (French: Le dessous des cartes) is a 1948 French crime film directed by"
         " André Cayatte.", ("created", "andré cayatte", "under the cards")),
        ("The King on Main Street\nThe King on Main Street, also known as The King, is a 1925 American comedy film"
         " directed by Monta Bell.", ("created", "monta bell", "king on main street")),
    ],
)  # fmt: skip
def test_a_sentence_that_opens_with_the_title_names_it_whole(text: str, triple: tuple[str, str, str]) -> None:
    """The capitalised runs of "Night Train to Dover" are "Night Train" and "Dover"; the sentence's
    subject is the memory's whole title, which a question names ("the director of Night Train to Dover")."""
    assert triple in triples(RULES.extract(text))


def test_the_title_is_no_subject_where_the_sentence_does_not_open_with_it() -> None:
    ex = RULES.extract("Night Train to Dover\nThe film was directed by Ruth Calder in Dover.")
    assert ("created", "ruth calder", "night train to dover") not in triples(ex)


def test_comention_weights_and_window() -> None:
    text = "Alice, Bob, Carol, Dave and Erin met."
    ex = RULES.extract(text)
    assert len(ex.triples) == 10
    assert {t.weight for t in ex.triples} == {0.25}
    assert all(t.relation == "related_to" for t in ex.triples)
    ten = "Alice, Bob, Carol, Dave, Erin, Fay, Gus, Hal, Ida and Jon met."
    assert len(RULES.extract(ten).triples) == 45 - 1  # no pair more than 8 apart
    assert triples(RULES.extract("Alice met Bob. Carol met Dave.")) == {
        ("related_to", "alice", "bob"),
        ("related_to", "carol", "dave"),
    }


def test_sentence_splitting() -> None:
    parts = split_sentences("Dr. Ana Lima met J. Smith. He left.\nNext line; more", clauses=True)
    assert parts == ["Dr. Ana Lima met J. Smith.", "He left.", "Next line", "more"]


def test_protocol_and_speaker_is_ignored() -> None:
    assert_implements(RULES, Extractor)  # signatures, not only names
    assert_implements(LLMExtractor(api_key="x"), Extractor)
    text = "Priya Chandran leads the Atlas team."
    assert RULES.extract(text, speaker="assistant") == RULES.extract(text)


def test_deterministic_and_linear_on_long_text() -> None:
    text = " ".join(["Priya Chandran leads the Atlas team in Bangalore on March 3."] * 400)
    t0 = time.perf_counter()
    ex = RULES.extract(text)
    assert time.perf_counter() - t0 < 3.0
    assert ex == RULES.extract(text)
    assert ("leads", "priya chandran", "atlas team") in triples(ex)


_WORDS = ["Priya", "leads", "the", "Atlas", "team", "was", "built", "by", "Project", "CEO", "of", "is",
          "Dr.", ",", ".", "'s", '"', "UA", "837", "12:15", "$", "March", "3", "&", "—", "Ⅻ", "İ", "\n"]  # fmt: skip


@settings(max_examples=150, deadline=None, database=None)
@given(st.lists(st.sampled_from(_WORDS), max_size=20) | st.lists(st.text(max_size=10), max_size=8))
def test_never_raises_on_arbitrary_text(words: list[str]) -> None:
    known = KnownEntities([("atlas team", "Atlas team"), ("a", "A")])
    ex = RULES.extract(" ".join(words), known=known)
    assert all(t.subject != t.object for t in ex.triples)


def test_role_holder_is_never_its_own_employer() -> None:
    RULES.extract("team İ in Ⅻ CEO of Ⅻ Dr. team head UA")  # regression: a self-loop member_of
