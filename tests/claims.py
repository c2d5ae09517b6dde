"""What a failed ``assert "sentence" in text`` says: the sentence the page no longer makes
and the passage of the page that now stands nearest to it, so whoever changed the prose, a
preset's note or a panel sees which claim broke and what replaced it (issue 45). Used by
the ``pytest_assertrepr_compare`` hook in ``conftest.py``, for every test."""

from __future__ import annotations

from difflib import SequenceMatcher

#: Characters of context shown around the nearest passage, and the longest text searched.
CONTEXT, LONGEST = 40, 400_000


def nearest_passage(said: str, text: str) -> str:
    """The stretch of ``text`` around its longest run in common with ``said``, about as long
    as ``said`` plus :data:`CONTEXT` characters each side ("" when they share nothing)."""
    text = text[:LONGEST]
    match = SequenceMatcher(None, text, said, autojunk=False).find_longest_match(
        0, len(text), 0, len(said))
    if match.size < 3:
        return ""
    start = max(0, match.a - match.b - CONTEXT)
    end = min(len(text), match.a - match.b + len(said) + CONTEXT)
    return " ".join(text[start:end].split())


def missing_sentence(said: str, text: str) -> list[str]:
    """The lines pytest shows for a failed ``said in text`` between two texts."""
    near = nearest_passage(said, text)
    lines = [f"the text no longer says: {said!r:.300}"]
    lines.append(f"nearest passage now: …{near}…" if near else
                 f"nothing like it in the text ({len(text)} characters)")
    lines.append("change the sentence where the page makes it (the notebook's markdown, or the "
                 "note, panel or feedback in lessons_lib that the test names) or the "
                 "expectation here, so that the page and its check agree again")
    return lines
