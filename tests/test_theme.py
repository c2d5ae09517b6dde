"""Every colour and HTML text size in lessons_lib/apps comes from core/theme.py: no colour
literal and no CSS font size (``font-size:14px``) anywhere else.

A literal is a hex colour in a string (``"#D55E00"``, ``"#444"``, CSS ``color:#444`` in an
HTML panel), a matplotlib named colour given to a colour argument (``color="white"``,
``"fc": "black"``, ``mec="k"``) or in CSS (``color:grey``), or a colour-cycle name
(``"C0"`` .. ``"C9"``). ``"none"`` (draw nothing) is not a colour.
"""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

import pytest
from matplotlib.colors import get_named_colors_mapping

APPS = Path(__file__).resolve().parent.parent / "lessons_lib" / "apps"
THEME = APPS / "core" / "theme.py"

_NAMED = {name.lower() for name in get_named_colors_mapping()} - {"none"}
# a hex colour, not an HTML entity (&#9733;) nor part of a longer word
_HEX = re.compile(r"(?<![&\w])#(?:[0-9A-Fa-f]{8}|[0-9A-Fa-f]{6}|[0-9A-Fa-f]{3})(?![\w])")
_CYCLE = re.compile(r"^C[0-9]$")
_ARGS = ("color|colors|c|fc|ec|facecolor|facecolors|edgecolor|edgecolors|mfc|mec|"
         "markerfacecolor|markeredgecolor|foreground|background|labelcolor|handle_color")
# a colour argument or dict key given a quoted word: color="white", "fc": 'k'
_ARG = re.compile(rf"""(?<!\w)["']?(?:{_ARGS})["']?\s*[=:]\s*(["'])([\w:]+)\1""")
# CSS in a string: color:white, background: grey, border: 1px solid black
_CSS = re.compile(r"(?:color|background|border[-\w]*)\s*:\s*([^;'\"<>{}]*)")
_STRINGS = {tokenize.STRING} | {getattr(tokenize, "FSTRING_MIDDLE", tokenize.STRING)}


def _string_literals(source: str):
    """(line, text) of every string token of ``source``."""
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type in _STRINGS:
            yield tok.start[0], tok.string


def colour_literals(source: str, name: str = "<string>") -> list[str]:
    """Every colour literal in Python ``source``, as ``name:line: literal``."""
    found = set()
    for line, text in _string_literals(source):
        found |= {(line, m.group(0)) for m in _HEX.finditer(text)}
        if _CYCLE.match(text.strip("'\"rbf")):
            found.add((line, text))
        found |= {(line, css.group(0).strip()) for css in _CSS.finditer(text)
                  if any(w.lower() in _NAMED for w in re.findall(r"[A-Za-z]+", css.group(1)))}
    for line, code in enumerate(source.splitlines(), 1):
        found |= {(line, m.group(0)) for m in _ARG.finditer(code)
                  if m.group(2).lower() in _NAMED or _CYCLE.match(m.group(2))}
    return [f"{name}:{line}: {text}" for line, text in sorted(found)]


def test_the_scanner_finds_each_kind_of_literal():
    planted = '''
ax.plot(x, y, color="#D55E00")
ax.plot(x, y, mec="white", mfc='k')
box = {"fc": "black", "ec": "none"}
note = f"<span style='color:#444'>{text}</span>"
edge = "border:1px solid grey;"
line = ax.plot(x, y, "C3")
'''
    found = colour_literals(planted, "planted.py")
    assert found == ["planted.py:2: #D55E00", 'planted.py:3: mec="white"',
                     "planted.py:3: mfc='k'", 'planted.py:4: "fc": "black"',
                     "planted.py:5: #444", "planted.py:6: border:1px solid grey",
                     'planted.py:7: "C3"'], found


def test_the_scanner_leaves_theme_names_entities_and_none_alone():
    clean = '''
ax.plot(x, y, color=PALETTE["black"], mec=GREYS["white"], mfc="none")
star = "apex &#9733; &#10230; &#123;"
note = f"<span style='color:{GREYS['note']}'>issue 45</span>"
# a comment about #444 is not code, but a string is: see above
'''
    assert colour_literals(clean) == []


def test_every_colour_comes_from_the_theme():
    files = sorted(p for p in APPS.rglob("*.py") if p != THEME)
    assert len(files) > 20, "the scan found too few files to mean anything"
    found = [hit for p in files
             for hit in colour_literals(p.read_text(), str(p.relative_to(APPS.parent.parent)))]
    assert not found, ("colour literals outside lessons_lib/apps/core/theme.py; name them "
                       "there (PALETTE, GREYS, TINTS, REDS) and use the name:\n  "
                       + "\n  ".join(found))


#: a CSS font size written out in a string: font-size:14px, font-size: 1.2em
_FONT_SIZE = re.compile(r"font-size\s*:\s*[\d.]+\s*(?:px|pt|em|rem|%)")


def font_size_literals(source: str, name: str = "<string>") -> list[str]:
    """Every CSS font size written as a number in Python ``source``'s strings."""
    return [f"{name}:{line}: {m.group(0)}" for line, text in _string_literals(source)
            for m in _FONT_SIZE.finditer(text)]


def test_the_font_size_scanner_finds_a_planted_size_and_leaves_the_theme_names_alone():
    planted = """note = '<div style="font-size:14px">'\ncss = f"a {{ font-size: 1.2em; }}"\n"""
    assert [h.split(": ", 1)[1] for h in font_size_literals(planted)] == [
        "font-size:14px", "font-size: 1.2em"]
    assert font_size_literals("""x = f'<div style="{TEXT};line-height:1.4">'\n""") == []
    assert font_size_literals("# font-size:14px in a comment is not code\n") == []


def test_every_html_text_size_comes_from_the_theme():
    files = sorted(p for p in APPS.rglob("*.py") if p != THEME)
    found = [hit for p in files
             for hit in font_size_literals(p.read_text(), str(p.relative_to(APPS.parent.parent)))]
    assert not found, ("CSS font sizes outside lessons_lib/apps/core/theme.py; use TEXT "
                       "(or TEXT_PX, BIG_TEXT) from there:\n  " + "\n  ".join(found))


def test_the_html_text_size_is_the_pages_floor():
    from lessons_lib.apps.core import theme
    from lessons_lib.apps.core.figure import MIN_TEXT_PX

    assert theme.TEXT_PX == MIN_TEXT_PX and theme.TEXT == f"font-size:{theme.TEXT_PX}px"


@pytest.mark.parametrize("table", ["PALETTE", "GREYS", "TINTS", "REDS"])
def test_the_theme_colours_are_valid_and_distinct(table):
    from matplotlib.colors import is_color_like

    from lessons_lib.apps.core import theme

    colours = getattr(theme, table)
    assert all(is_color_like(c) for c in colours.values()), colours
    assert len(set(map(str.upper, colours.values()))) == len(colours), colours


def test_bare_axes_hides_ticks_and_frame_or_keeps_a_grey_frame():
    from matplotlib.colors import to_hex
    from matplotlib.figure import Figure

    from lessons_lib.apps.core import PALETTE, bare_axes

    fig = Figure()
    plain, framed = fig.add_subplot(121), fig.add_subplot(122)
    bare_axes(plain)
    bare_axes(framed, frame=True)
    for ax in (plain, framed):
        assert not ax.get_xticks().size and not ax.get_yticks().size
        assert not ax.xaxis.get_visible() and not ax.yaxis.get_visible()
    assert not any(s.get_visible() for s in plain.spines.values())
    assert all(s.get_visible() and to_hex(s.get_edgecolor()) == PALETTE["grey"].lower()
               for s in framed.spines.values())


def test_bare_axes_switches_a_3d_axes_off_and_refuses_what_it_cannot_use():
    from matplotlib.figure import Figure

    from lessons_lib.apps.core import bare_axes

    fig = Figure()
    ax = fig.add_subplot(projection="3d")
    bare_axes(ax)
    assert not ax.axison
    with pytest.raises(ValueError, match="ax must be a matplotlib Axes"):
        bare_axes(fig)
    with pytest.raises(ValueError, match="frame must be True or False"):
        bare_axes(fig.add_subplot(222), frame="no")


def test_axes_are_hidden_by_bare_axes_alone():
    """The one helper: no hand-written set_axis_off() or emptied ticks outside it."""
    figure = APPS / "core" / "figure.py"
    pattern = re.compile(r"\.set_axis_off\(|\.set_[xy]ticks\(\[\]")
    found = [f"{p.relative_to(APPS.parent.parent)}:{n}: {line.strip()}"
             for p in sorted(APPS.rglob("*.py")) if p != figure
             for n, line in enumerate(p.read_text().splitlines(), 1) if pattern.search(line)]
    assert not found, "hide an axes with core.figure.bare_axes:\n  " + "\n  ".join(found)
