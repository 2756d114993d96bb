"""A compositional question through who made a work (issue 23): "In which city was the
performer of Brother formed?" goes from the song the question names, over the typed ``created``
edge the rule extractor writes for '"Brother" is a song by the American rock band Pearl Jam',
to the passage about Pearl Jam, which shares no name with the question.

The song is also co-mentioned with a dozen other bands (festival line-ups), each with its own
passage that looks as much like the question as Pearl Jam's, and a few passages look more like
the question than the song's, so the song is no seed of the graph channel: it is reached as the
entity the question names, and only the typed edge from it tells the bands apart (it must not
count a thirteenth because the song has twelve co-mention edges).
"""

from __future__ import annotations

from typing import Any

import pytest

from falkmem import Tenant

QUESTION = "In which city was the performer of Brother formed?"
BANDS = [
    ("Nirvana", "Aberdeen, Washington", 1987), ("Soundgarden", "Seattle, Washington", 1984),
    ("Alice in Chains", "Seattle, Washington", 1987), ("Stone Temple Pilots", "San Diego, California", 1989),
    ("Mudhoney", "Seattle, Washington", 1988), ("Screaming Trees", "Ellensburg, Washington", 1985),
    ("Temple of the Dog", "Seattle, Washington", 1990), ("Smashing Pumpkins", "Chicago, Illinois", 1988),
    ("Melvins", "Montesano, Washington", 1983), ("Green River", "Seattle, Washington", 1984),
    ("Mother Love Bone", "Seattle, Washington", 1988), ("Candlebox", "Seattle, Washington", 1990),
]  # fmt: skip


LOOK_ALIKES = [  # closer to the question's words than the song's passage: the vector channel's first hits
    "Garage bands\nWhere a band was formed shaped the songs it performed for years.",
    "Band origins\nMost bands that performed in the 1990s were formed in a city with small clubs.",
    "Local scenes\nA band formed where it performed first, and the city named its sound.",
    "Touring\nThe band performed where it was formed before it toured.",
]


def _records() -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = [
        {"id": "song", "text": 'Brother (Pearl Jam song)\n"Brother" is a song by the American rock band Pearl Jam.',
         "kind": "document"},
        {"id": "band", "text": "Pearl Jam\nPearl Jam is an American rock band formed in 1990 in Seattle, Washington.",
         "kind": "document"},
    ]  # fmt: skip
    for n, text in enumerate(LOOK_ALIKES):
        out.append({"id": f"like{n}", "kind": "document", "text": text})
    for n, (band, town, year) in enumerate(BANDS):
        out.append({"id": f"about{n}", "kind": "document",
                    "text": f"{band}\n{band} is an American rock band formed in {year} in {town}."})  # fmt: skip
        out.append({"id": f"bill{n}", "kind": "document",
                    "text": f"Festival {n}\nThe Festival {n} line-up put Brother next to {band} on the main stage."})  # fmt: skip
    return out


@pytest.fixture
def songs(tenant: Tenant) -> Tenant:
    tenant.add_many(_records())
    return tenant


def test_the_band_that_made_the_song_is_in_the_first_five_hits(songs: Tenant) -> None:
    found = songs.search(QUESTION, k=5)
    assert "band" in found.ids, [h.text for h in found]
    assert found.plan is not None and "created" in found.plan.relations
