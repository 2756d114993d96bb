"""The demo: remember a handful of memories in the embedded store and recall them (``python -m falkmem.demo``)."""

from __future__ import annotations

import os
import sys
import time

# (id, session, kind, speaker, text). The kind matters to the graph: a fact or an event is about
# what it names; an episode (a chat turn, the default kind) is not about its first sentence. Only
# the trip was told in a chat, by the user: those memories have a speaker, the facts have none.
MEMORIES = [
    ("helios-1", "s1", "fact", None, "Atlas team built Project Helios."),
    ("helios-2", "s1", "fact", None, "Priya Chandran leads the Atlas team."),
    ("helios-3", "s1", "fact", None, "The Atlas team is based in the Bangalore office."),
    ("helios-4", "s2", "fact", None, "Priya Chandran reports to Marcus Webb."),
    ("helios-5", "s2", "fact", None, "Marcus Webb is the VP of Engineering."),
    ("trip-1", "s3", "event", "user", "Booked flight UA 837 to Tokyo, confirmation code QX7RTP."),
    ("trip-2", "s4", "event", "user", "The Tokyo trip runs from March 3 to March 10."),
    ("trip-3", "s5", "event", "user", "UA 837 is delayed; the new arrival time is 12:15."),
    ("pref-1", "s6", "preference", None, "Dana prefers aisle seats and vegetarian meals."),
]

QUESTIONS = [
    "Who leads the Atlas team?",
    "What's the latest on my flight? Give me the confirmation code and arrival time.",
    "Who manages the person who leads the team that built Project Helios?",
    "What does Dana like when flying?",
]


def main(argv: list[str] | None = None) -> int:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    from falkmem import Memory

    args = sys.argv[1:] if argv is None else argv
    path = args[0] if args else None
    started = time.perf_counter()
    with Memory(path) as mem:
        print(f"store: {mem.location}")
        demo = mem.tenant("demo")
        result = demo.add_many(
            [
                {"id": i, "session": s, "kind": kind, "text": t} | ({"speaker": who} if who else {})
                for i, s, kind, who, t in MEMORIES
            ]
        )
        print(f"remembered {len(result.added)} new memories ({len(result.skipped)} already known)\n")
        for q in QUESTIONS:
            found = demo.search(q, k=3)
            walk = found.plan.relation_words if found.plan is not None and found.plan.depth else ()
            print(
                f"Q: {q}  [route: {found.route}, reranker: {found.reranker}"
                + (f", walks: {' / '.join(walk)}]" if walk else "]")
            )
            for hit in found:
                print(f"   {hit.score:.3f}  {hit.text}  ({hit.id}, session {hit.session})")
            print()
        question = QUESTIONS[2]
        ctx = demo.context(question, budget_tokens=120)
        print(f"context for: {question}  [route: {ctx.route}, {ctx.tokens}/{ctx.budget_tokens} tokens]")
        print(ctx.text)
        print()
    print(f"done in {time.perf_counter() - started:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
