"""The look of every lesson: colours, line widths, marker sizes and font sizes, in one place.

A view, a figure or an HTML panel takes its colours and sizes from here by name, never as a
literal (``tests/test_theme.py`` fails on a colour literal anywhere else in
``lessons_lib/apps``). Each entry says where it is used; a new lesson reuses an entry whose
role fits before it adds one. Plain data: importing it pulls in nothing.
"""

from __future__ import annotations

#: Okabe & Ito's colours, distinguishable with every common colour-vision deficiency; every
#: lesson draws with them (and "grey" and "light" for what is not data).
PALETTE = {
    "black": "#000000",
    "orange": "#E69F00",
    "sky": "#56B4E9",
    "green": "#009E73",
    "yellow": "#F0E442",
    "blue": "#0072B2",
    "vermillion": "#D55E00",
    "purple": "#CC79A7",
    "grey": "#8C8C8C",
    "light": "#E8E8E8",
}

#: Greys, darkest first.
GREYS = {
    "ink": "#222222",          # lesson 4's portal numbers
    "dark": "#333333",         # lesson 3: "end" of an open road; lesson 4: start/goal step
    "edge": "#404040",         # lesson 1's aircraft face edges
    "note": "#444444",         # HTML: secondary text in panels; lesson 1's matrix brackets
    "shrunk": "#4A4A4A",       # lesson 4's portals shrunk by the agent's radius
    "top": "#505050",          # lesson 1's aircraft, top of the fuselage
    "label": "#555555",        # quiet figure text: lesson 2's labels, lesson 3's notes
    "wall": "#5A5A5A",         # lesson 4's walls
    "off": "#6E6E6E",          # HTML: a switched-off steering term, struck through
    "rim": "#777777",          # lesson 4's portal-number boxes
    "portal": "#9A9A9A",       # lesson 4's portals
    "body": "#B0B0B0",         # lesson 1's aircraft body
    "agent edge": "#BBBBBB",   # lesson 4's floor eroded by the agent's radius, its edges
    "floor edge": "#C8C8C8",   # lesson 4's navmesh polygon edges
    "pale": "#D0D0D0",         # lesson 1's wings; lesson 4's grid cell lines
    "mesh": "#D8D8D8",         # lesson 4's static curve figure, navmesh edges
    "eroded": "#D9D9D9",       # lesson 4's floor when it is eroded by the agent's radius
    "floor": "#F4F4F4",        # lesson 4's walkable floor
    "paper": "#FAFAFA",        # lesson 3's close-up background
    "white": "#FFFFFF",        # marker edges, label boxes, the agent's floor
}

#: Light tints behind data.
TINTS = {
    "corridor": "#D6ECFA",       # lesson 4's corridor of navmesh polygons
    "corridor edge": "#A9CBE3",  # its edges
}

#: Reds outside the palette, each apart from its vermillion.
REDS = {
    "warning": "#A50F15",      # lesson 4: the ray to a portal end that crossed (dark red)
    "world right": "#C0182A",  # lesson 3's slope view: the right vector from world up
}

#: Base font size of a figure, in points (16 px on the page): axis labels, figure text.
FONT_SIZE = 10
#: The smallest text any figure may use: 9 pt is 14.5 px at 116 dpi (tick labels, legends,
#: notes on a plot).
MIN_FONT_SIZE = 9
#: Axes titles (matplotlib's ``axes.titlesize``): lesson 2's pace figure, lesson 3's sweep.
TITLE_SIZE = 11
#: Labels drawn on a map: lesson 4's portal numbers (9.5 pt is 15 px at 116 dpi).
LABEL_SIZE = 9.5
