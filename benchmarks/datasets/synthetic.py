"""Synthetic agent memory: org chains (1–4 hops), trips with updates, preferences, look-alike distractors.

Every fact of a chain is told in its own memory, so a multi-hop question can only be answered
completely by connecting them:

    m1 "The Vorel team built Project Tarsil."      m2 "Ana Kesh leads the Vorel team."
    m3 "Ana Kesh reports to Ilo Marten."            m4 "Ilo Marten is the VP of Platform."

"Who manages the person who leads the team that built Project Tarsil?" has gold m1, m2, m3
(3 hops). Distractors reuse the same names and the question's words ("team", "leads",
"project", "flight") without answering anything. Generation is a pure function of
``(size, seed, questions)``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from .base import Dataset, MemoryItem, Question, TenantData

MIN_SIZE = 100
MAX_SIZE = 100_000
_BASE_TIME = datetime(2025, 1, 6, 9, 0)

_ONSETS = ("b", "d", "f", "g", "h", "k", "l", "m", "n", "p", "r", "s", "t", "v", "z", "br", "dr",
           "gr", "kr", "st", "th", "tr", "sh", "ch", "j", "y", "w", "pl", "cl", "fl")  # fmt: skip
_VOWELS = ("a", "e", "i", "o", "u", "ai", "ea", "io", "ou", "ae")
_CODAS = ("", "", "n", "r", "l", "s", "th", "m", "x", "nd", "rt", "sk")
_DEPARTMENTS = ("Engineering", "Platform", "Infrastructure", "Data", "Research", "Product",
                "Security", "Design", "Operations", "Growth", "Payments", "Mobile", "Cloud",
                "Analytics", "Support", "Quality", "Compliance", "Developer Relations")  # fmt: skip
_CITIES = ("Lisbon", "Osaka", "Denver", "Nairobi", "Oslo", "Lima", "Seoul", "Porto", "Austin",
           "Krakow", "Dublin", "Hanoi", "Zurich", "Quito", "Perth", "Accra", "Tallinn", "Bogota",
           "Madrid", "Cairo", "Chicago", "Toronto", "Manila", "Prague")  # fmt: skip
_AIRLINES = ("UA", "LH", "BA", "AF", "KL", "TP", "QR", "NH", "AC", "IB", "SK", "LX")
_PREFERENCES = (
    ("prefers aisle seats on long flights", "Which seat does {p} prefer on long flights?"),
    ("prefers window seats on short flights", "Which seat does {p} prefer on short flights?"),
    ("takes coffee with oat milk and no sugar", "How does {p} take their coffee?"),
    ("wants meetings before 11am only", "When does {p} want meetings?"),
    ("is vegetarian and avoids mushrooms", "What are {p}'s dietary restrictions?"),
    ("likes hotel rooms on a high floor away from the lift", "What kind of hotel room does {p} like?"),
    ("prefers written status updates over calls", "How does {p} prefer to get status updates?"),
    ("uses dark mode in every editor", "Which colour theme does {p} use in editors?"),
)
_DISTRACTORS: tuple[Callable[[_Pick], str], ...] = (
    lambda p: f"The {p.team} team reviewed the launch checklist for Project {p.project}.",
    lambda p: f"{p.person} asked who leads the weekly planning sync.",
    lambda p: f"The {p.team} team moved to a new floor in the {p.city} office.",
    lambda p: f"{p.person} shared notes about the team offsite agenda.",
    lambda p: f"A reminder that Project {p.project} demos happen on Fridays.",
    lambda p: f"{p.person} and {p.person2} discussed the budget for Project {p.project}.",
    lambda p: f"{p.person} thinks the {p.team} team should write more design docs.",
    lambda p: f"The flight to {p.city} was smooth, {p.person} said.",
    lambda p: f"{p.person} wants to know which manager approves travel to {p.city}.",
    lambda p: f"Project {p.project} had a retro about the on-call rotation.",
    lambda p: f"{p.person} recommended a restaurant near the {p.city} office.",
    lambda p: f"The {p.team} team built a small internal dashboard for stand-ups.",
    lambda p: f"{p.person} will present the quarterly roadmap to the {p.team} team.",
    lambda p: f"Someone mentioned that {p.person} used to work on Project {p.project}.",
)


@dataclass(frozen=True, slots=True)
class _Pick:
    """Names a distractor template may use."""

    person: str
    person2: str
    team: str
    project: str
    city: str


@dataclass(slots=True)
class _Unit:
    """One planted chain: project ← team ← lead → manager → role."""

    team: str
    project: str
    lead: str
    manager: str
    built: str
    leads: str
    reports: str
    role: str


class _Names:
    """Unique pronounceable names drawn from syllables (no collisions, unbounded)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.used: set[str] = set()

    def word(self, syllables: int) -> str:
        r = self.rng
        return "".join(r.choice(_ONSETS) + r.choice(_VOWELS) + r.choice(_CODAS) for _ in range(syllables))

    def unique(self, make: Callable[[], str]) -> str:
        for _ in range(1000):
            name = make()
            if name.lower() not in self.used:
                self.used.add(name.lower())
                return name
        raise RuntimeError("name space exhausted")  # pragma: no cover

    def person(self) -> str:
        return self.unique(lambda: f"{self.word(1).title()} {self.word(2).title()}")

    def single(self) -> str:
        return self.unique(lambda: self.word(2).title())


def _plan_sizes(size: int) -> tuple[int, int, int]:
    """(chain units, trips, preferences) for ``size`` memories; distractors fill the rest."""
    units = max(2, round(size * 0.30 / 4.34))
    trips = max(1, round(size * 0.12 / 3))
    prefs = max(1, round(size * 0.08))
    return units, trips, prefs


def generate(size: int = 1000, *, seed: int = 7, questions: int = 200) -> Dataset:
    """Build the synthetic dataset: exactly ``size`` memories and up to ``questions`` questions."""
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise ValueError(f"size must be between {MIN_SIZE} and {MAX_SIZE}")
    rng = random.Random(seed)
    names = _Names(rng)
    n_units, n_trips, n_prefs = _plan_sizes(size)
    mems: list[MemoryItem] = []

    def add(
        text: str, *, kind: str = "episode", at: datetime | None = None, session: str | None = None
    ) -> str:
        mid = f"syn-{len(mems):06d}"
        when = at or _BASE_TIME + timedelta(minutes=rng.randrange(0, 60 * 24 * 90))
        mems.append(
            MemoryItem(id=mid, text=text, kind=kind, session=session or f"s-{rng.randrange(10**6):06d}",
                       speaker="user", user="bench-user", at=when.isoformat())
        )  # fmt: skip
        return mid

    # Org chains: one manager per ~3 leads, so managers and their role memory are shared.
    managers: list[tuple[str, str]] = []
    units: list[_Unit] = []
    for i in range(n_units):
        if i % 3 == 0:
            m = names.person()
            dept = (
                f"{rng.choice(_DEPARTMENTS)} {names.single()}"
                if i >= 3 * len(_DEPARTMENTS)
                else _DEPARTMENTS[(i // 3) % len(_DEPARTMENTS)]
            )
            managers.append((m, add(f"{m} is the VP of {dept}.", kind="fact")))
        manager, role = managers[-1]
        team, project, lead = names.single(), names.single(), names.person()
        built_text = (
            f"The {team} team built Project {project}."
            if rng.random() < 0.7
            else f"Project {project} was built by the {team} team."
        )
        units.append(
            _Unit(team=team, project=project, lead=lead, manager=manager,
                  built=add(built_text, kind="fact"),
                  leads=add(f"{lead} leads the {team} team.", kind="fact"),
                  reports=add(f"{lead} reports to {manager}.", kind="fact"),
                  role=role)
        )  # fmt: skip

    people = [u.lead for u in units] + [m for m, _ in managers]
    cities = list(_CITIES)

    # Trips: booking, dates and a later delay, each told in its own session.
    trips: list[tuple[str, str, tuple[str, str, str]]] = []
    taken: set[tuple[str, str]] = set()
    for i in range(n_trips):
        who, city = rng.choice(people), rng.choice(cities)
        while (who, city) in taken:
            who, city = rng.choice(people), rng.choice(cities)
        taken.add((who, city))
        flight = f"{rng.choice(_AIRLINES)} {rng.randrange(100, 9999)}"
        code = "".join(rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZ23456789") for _ in range(6))
        day = _BASE_TIME + timedelta(days=rng.randrange(0, 80))
        out_day, back_day = day + timedelta(days=14), day + timedelta(days=14 + rng.randrange(2, 9))
        arrival = f"{rng.randrange(0, 24):02d}:{rng.choice((0, 10, 25, 40, 55)):02d}"
        booked = add(f"Booked flight {flight} to {city} for {who}, confirmation code {code}.",
                     kind="event", at=day, session=f"trip-{i}-a")  # fmt: skip
        dates = add(f"{who}'s {city} trip: departing {out_day:%B %d}, returning {back_day:%B %d}.",
                    kind="event", at=day + timedelta(days=1), session=f"trip-{i}-b")  # fmt: skip
        delay = add(f"Update on flight {flight}: delayed, the new arrival time is {arrival}.",
                    kind="event", at=out_day, session=f"trip-{i}-c")  # fmt: skip
        trips.append((who, city, (booked, dates, delay)))

    prefs: list[tuple[str, str, str]] = []
    told: set[tuple[str, str]] = set()
    for _ in range(n_prefs):
        who, (statement, question) = rng.choice(people), rng.choice(_PREFERENCES)
        while (who, statement) in told:
            who, (statement, question) = rng.choice(people), rng.choice(_PREFERENCES)
        told.add((who, statement))
        prefs.append((who, question.format(p=who), add(f"{who} {statement}.", kind="preference")))

    teams = [u.team for u in units]
    projects = [u.project for u in units]
    planted = len(mems)
    while len(mems) < size:
        pick = _Pick(
            rng.choice(people),
            rng.choice(people),
            rng.choice(teams),
            rng.choice(projects),
            rng.choice(cities),
        )
        add(rng.choice(_DISTRACTORS)(pick))

    rng.shuffle(mems)  # chains are not stored next to each other
    qs = _questions(rng, units, trips, prefs, questions)
    return Dataset(
        name="synthetic",
        tenants=[TenantData(tenant="synthetic", memories=mems, questions=qs)],
        info={"size": size, "seed": seed, "chains": n_units, "managers": len(managers),
              "trips": n_trips, "preferences": n_prefs, "distractors": size - planted},
        class_by="hops",
    )  # fmt: skip


def _questions(
    rng: random.Random,
    units: list[_Unit],
    trips: list[tuple[str, str, tuple[str, str, str]]],
    prefs: list[tuple[str, str, str]],
    limit: int,
) -> list[Question]:
    """Questions of every kind, mixed by fixed weights, each with its gold ids and hop count."""
    kinds = ("lead", "built_by", "reports", "pref", "trip_code", "hop2", "hop3", "hop4", "trip")
    weights = (12, 10, 8, 6, 4, 20, 20, 12, 8)
    out: list[Question] = []
    seen: set[str] = set()
    attempts = 0
    while len(out) < limit and attempts < limit * 20:
        attempts += 1
        kind = rng.choices(kinds, weights)[0]
        u = rng.choice(units)
        gold: tuple[str, ...]
        if kind == "lead":
            text, gold, hops, cat = f"Who leads the {u.team} team?", (u.leads,), 1, "org"
        elif kind == "built_by":
            text, gold, hops, cat = f"Which team built Project {u.project}?", (u.built,), 1, "org"
        elif kind == "reports":
            text, gold, hops, cat = f"Who does {u.lead} report to?", (u.reports,), 1, "org"
        elif kind == "hop2":
            text = f"Who leads the team that built Project {u.project}?"
            gold, hops, cat = (u.built, u.leads), 2, "org"
        elif kind == "hop3":
            text = f"Who manages the person who leads the team that built Project {u.project}?"
            gold, hops, cat = (u.built, u.leads, u.reports), 3, "org"
        elif kind == "hop4":
            text = f"What is the role of the manager of the person who leads the team that built Project {u.project}?"
            gold, hops, cat = (u.built, u.leads, u.reports, u.role), 4, "org"
        elif kind == "pref":
            who, text, mid = rng.choice(prefs)
            gold, hops, cat = (mid,), 1, "preference"
        elif kind == "trip_code":
            who, city, (booked, _, _) = rng.choice(trips)
            text = f"What is the confirmation code for {who}'s flight to {city}?"
            gold, hops, cat = (booked,), 1, "trip"
        else:
            who, city, ids = rng.choice(trips)
            text = (f"What's the latest on {who}'s flight to {city}? Give me the confirmation code, "
                    "travel dates, and updated arrival time.")  # fmt: skip
            gold, hops, cat = ids, 3, "trip"
        if text in seen:
            continue
        seen.add(text)
        out.append(Question(id=f"q-{len(out):05d}", text=text, gold=gold, hops=hops, category=cat))
    return out
