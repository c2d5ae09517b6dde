"""The look of every lesson: colours, line widths, marker sizes and font sizes, in one place.

A view or a figure takes its colours and sizes from here by name, and an HTML panel its
colours and text size, never as a literal (``tests/test_theme.py`` fails on a colour literal
or a CSS font size anywhere else in ``lessons_lib/apps``). Each entry says where it is
used; a new lesson reuses an entry whose role fits before it adds one. Plain data:
importing it pulls in nothing.
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

#: HTML text of every panel, note, question and control (the page's floor, which presenter
#: mode zooms to 20 px; ``core/figure.py``'s ``MIN_TEXT_PX``), and as a declaration for a
#: ``style`` attribute: ``f'<div style="{TEXT}">'``.
TEXT_PX = 14
TEXT = f"font-size:{TEXT_PX}px"
#: A readout read from the back of a room: lesson 3's term readouts.
BIG_TEXT = "font-size:16px"

#: Base font size of a figure, in points (16 px on the page): axis labels, figure text.
FONT_SIZE = 10
#: The smallest text any figure may use: 9 pt is 14.5 px at 116 dpi (tick labels, legends,
#: notes on a plot).
MIN_FONT_SIZE = 9
#: Axes titles (matplotlib's ``axes.titlesize``): lesson 2's pace figure, lesson 3's sweep.
TITLE_SIZE = 11
#: Labels drawn on a map: lesson 4's portal numbers (9.5 pt is 15 px at 116 dpi).
LABEL_SIZE = 9.5

#: Line widths in points, thinnest first (also marker edge widths, ``mew``).
LINE = {
    "hair": 0.5,      # edges of faces and boxes: lesson 1's aircraft, lesson 4's number boxes
    "fine": 0.6,      # mesh and grid lines: lesson 4's floor and cells, lesson 2's back rings
    "faint": 0.7,     # lesson 2: the faint segments between the aeroplanes' trails
    "rule": 0.8,      # zero lines, road edges, leaders, the small car's outline
    "light": 0.9,     # lesson 2's sphere: front rings and the turn's axis
    "thin": 1.0,      # centre lines, end-of-run lines, portals, thin marker edges
    "cursor": 1.2,    # time cursors, the current speed, lesson 4's push ticks and apex edge
    "up": 1.3,        # lesson 2: each method's up vector, on the front of the sphere
    "trace": 1.4,     # a car's path, lesson 3's term lines, the far target line
    "outline": 1.5,   # marker edges of starts and knobs, lesson 3's car on the slope
    "line": 1.6,      # a plot's main line, ghosts, arrows, the gimbal's axes and gizmo
    "strong": 1.8,    # the speed sweep's lines, the slerp path, lesson 4's clear checks
    "bold": 2.0,      # curves, the nlerp path, the close target line, "x" marks
    "arrow": 2.2,     # arrows and the 4D arc, lesson 4's pushed path
    "heavy": 2.4,     # lesson 4's funnel edges and crossing ring, lesson 1's missing axis
    "bar": 2.5,       # lesson 3's scale bar and the slope view's tangent and normal
    "path": 2.6,      # lesson 4's corners, crossing ray, shrunk portals; lesson 1's inner arrow
    "route": 2.8,     # lesson 4's shortest and string-pulled paths
    "thick": 3.0,     # lesson 3's steering line and offset arrow, lesson 1's stand
    "pointer": 3.2,   # lesson 1: the middle ring's turn arrow
    "wide": 3.4,      # lesson 2's Euler path, lesson 3's target line outline (close-up)
    "stroke": 4.0,    # lesson 3's term figure: the outline under a term's arrow
    "ring": 4.5,      # lesson 1's outer ring (each ring inside 0.6 thinner), stuck lines
    "band": 6.0,      # lesson 4: the portal being tested
    "beam": 7.0,      # lesson 3's slope view: the right vector; lesson 1's outer arrow
}

#: Marker sizes in points, smallest first.
MARKER = {
    "dust": 3.0,      # the speed sweep's points, lesson 2's slerp beads on the 4D circle
    "grain": 3.2,     # lesson 2: beads every 0.1 of t on the sphere
    "bead": 3.5,      # lesson 2: nlerp beads on the 4D chord and circle
    "seed": 4.0,      # lesson 2's static pace figure
    "small": 5.0,     # portal ends, path corners, the nose, up vectors
    "dot": 6.0,       # the whole map's progress and target dots, lesson 3's worst point
    "mark": 7.0,      # "x" and start marks, the phase portrait's now, the chord's now
    "point": 8.0,     # lesson 2's noses now, lesson 3's term progress, lesson 4's pulled path
    "spot": 9.0,      # the close-up's progress and target dots, lesson 4's clearance ring
    "knob": 11.0,     # draggable knobs and targets, lesson 4's goal
    "circle": 12.0,   # lesson 4: the ring around the portal end that crossed
    "start": 13.0,    # lesson 4's start, the grid's goal
    "end": 14.0,      # lesson 3: the end of an open road
    "big": 15.0,      # lesson 4: the grid's start, the narrow mark and stuck marks
    "apex": 26.0,     # lesson 4: the funnel's apex star, around the start
}
