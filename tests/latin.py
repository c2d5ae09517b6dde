"""Runs of Latin letters on a Korean page that are not allowed to be there.

A Korean page may show Latin letters only where Korean text shows them too: in maths (a
symbol, a matrix's name, a function of a formula), in code, in a unit or a file format, in
a rotation order, and in the English term given in brackets after the Korean one the first
time (짐벌 락 (gimbal lock)). Everything else in Latin letters is English a learner meets on a
Korean page: :func:`latin_runs` lists it. The page's code blocks and typeset maths are left
out before the text comes here (see :data:`SKIPPED`)."""

from __future__ import annotations

import html
import re

#: The page's elements whose text is not prose: code, typeset maths, the browser's own, and
#: text marked as English on purpose (the language switch names English in English).
SKIPPED = ("code, pre, .MathJax, mjx-container, .katex, script, style, svg, option, "
           "[lang=en]")

#: Latin words allowed on a Korean page, each with its reason. A single letter is always
#: allowed (a symbol: x, y, z, q, w, R, t, the axes X, Y, Z).
ALLOWED = {
    # maths: rotation matrices about an axis, and the functions of a formula
    "Rx", "Ry", "Rz", "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sqrt",
    # a unit and a file format the Korean text names as such
    "deg", "px", "GIF", "PNG",
    # names the Korean lessons keep in Latin letters, as Korean game programmers write them
    "DirectX", "Voila", "JupyterLab", "Jupyter", "Euler",
    # a library's name, kept in Latin letters like DirectX (lesson 2 compares its slerp with it)
    "SciPy",
    # root mean square: Korean engineering text writes the abbreviation in Latin letters
    # (lesson 3 introduces it as 제곱평균제곱근 (RMS) and then says RMS, as its tables do)
    "RMS",
}
#: A rotation order (YXZ: yaw outer, roll inner) is a maths symbol too.
ORDER = re.compile(r"^[XYZ]{3}$")
#: An English term in brackets right after a Korean one: 짐벌 락 (gimbal lock).
BRACKETED = re.compile(r"([\uac00-\ud7a3][\uac00-\ud7a3\s]*)\s*\(([A-Za-z][A-Za-z \-'’/]*)\)")
WORD = re.compile(r"[A-Za-z]{2,}\d*")


def latin_runs(text: str) -> list[str]:
    """Each run of two or more Latin letters in ``text`` outside the allowed kinds, with a
    little of its surroundings so a person can find it."""
    text = BRACKETED.sub(lambda m: m.group(1), text)
    found = []
    for m in WORD.finditer(text):
        word = m.group(0)
        if word in ALLOWED or ORDER.match(word):
            continue
        found.append(f"{word!r} in {text[max(m.start() - 20, 0):m.end() + 20]!r}")
    return found


#: The page's visible text: text nodes with a box on screen, outside SKIPPED, the chosen
#: option of each drop-down (its other options are not shown), and the tooltips,
#: placeholders and accessible labels of the elements on screen.
VISIBLE_TEXT = """(skip) => {
    const out = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const el = n.parentElement;
        if (!el || !n.textContent.trim() || el.closest(skip)) continue;
        if (!el.getClientRects().length || getComputedStyle(el).visibility === 'hidden') continue;
        out.push(n.textContent);
    }
    for (const s of document.querySelectorAll('select'))
        if (s.getClientRects().length) out.push([...s.selectedOptions].map(o => o.text).join(' '));
    // what shows on hover or in an empty box: a tooltip, a placeholder, a button's label
    for (const el of document.querySelectorAll('[title], [placeholder], [aria-label]')) {
        if (el.closest(skip) || !el.checkVisibility({visibilityProperty: true})) continue;
        for (const name of ['title', 'placeholder', 'aria-label'])
            if (el.getAttribute(name)) out.push(el.getAttribute(name));
    }
    return out.join('\\n');
}"""


def english_on(page, state: str) -> list[str]:
    """The English runs visible on ``page`` now, each prefixed with ``state`` (what the
    learner had just done)."""
    text = page.evaluate(VISIBLE_TEXT, SKIPPED)
    return [f"{state}: {run}" for run in latin_runs(text)]


def figure_problems(figures, caught, records) -> list[str]:
    """What is wrong with Korean ``figures`` once drawn: missing-glyph warnings (``caught``,
    from warnings.catch_warnings(record=True)), matplotlib font warnings (``records``, from
    caplog) and runs of English in their texts (maths between $...$ left out)."""
    problems = [str(w.message) for w in caught if "Glyph" in str(w.message)]
    problems += [r.getMessage() for r in records
                 if r.name == "matplotlib.font_manager" and r.levelname == "WARNING"]
    problems += [run for fig in figures for t in figure_texts(fig)
                 for run in latin_runs(re.sub(r"\$[^$]*\$", " ", t))]
    return problems


def figure_texts(fig) -> list[str]:
    """Every text artist's string in ``fig``."""
    return [t.get_text() for t in fig.findobj(lambda a: hasattr(a, "get_text"))]


def html_text(markup: str) -> str:
    """The text a reader sees of an app's HTML: tags, code and styles left out, entities
    read."""
    markup = re.sub(r"<(code|style)>.*?</\1>", " ", markup, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", markup))
