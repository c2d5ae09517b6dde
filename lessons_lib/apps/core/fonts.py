"""Hangul in figures: NanumGothic, shipped by the koreanize-matplotlib package.

koreanize-matplotlib is a dependency for its font file only: importing it would set
matplotlib's global settings for every figure of the kernel, English ones too. Its folder
is found without importing it (``importlib.util.find_spec``), the font registered with
matplotlib's font manager, and named only where the language is Korean
(:func:`language_rc`, used by :func:`~.figure.make_figure`, :func:`~.figure.rc_context`
and around every app's ``build``). The family list keeps DejaVu Sans first, so Latin
letters, digits and signs look as in English; Hangul falls back to NanumGothic.
"""

from __future__ import annotations

import importlib.util
from functools import cache
from pathlib import Path

from ...i18n import is_korean

#: The package that ships the font, and the file in it.
FONT_PACKAGE = "koreanize_matplotlib"
FONT_FILE = "fonts/NanumGothic.ttf"
#: its bold, for bold labels (the same family name)
BOLD_FILE = "fonts/NanumGothicBold.ttf"
#: matplotlib's own sans-serif, first, so that English glyphs are unchanged.
LATIN_FAMILY = "DejaVu Sans"


def hangul_font_path(bold: bool = False) -> Path:
    """The bundled NanumGothic's file, or its bold (a ValueError when the package is not
    installed)."""
    if not isinstance(bold, bool):
        raise ValueError(f"bold is True or False, not {type(bold).__name__}")
    spec = importlib.util.find_spec(FONT_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise ValueError(f"no Hangul font: install the {FONT_PACKAGE.replace('_', '-')} "
                         "package (a dependency of lessons_lib)")
    path = Path(next(iter(spec.submodule_search_locations))) / (BOLD_FILE if bold else FONT_FILE)
    if not path.is_file():
        raise ValueError(f"{path} is missing: reinstall {FONT_PACKAGE.replace('_', '-')}")
    return path


@cache
def hangul_family() -> str:
    """Register the Hangul font with matplotlib (once) and return its family name.

    The bold file's own tables give weight 600, so a bold label (700) found it only with a
    "Failed to find font weight bold" warning on every draw; it is the family's Bold face,
    and is registered as weight 700 (before the regular one, whose ``addfont`` clears the
    font manager's look-up cache for both)."""
    import dataclasses

    from matplotlib import font_manager
    from matplotlib.ft2font import FT2Font

    path, bold = hangul_font_path(), hangul_font_path(bold=True)
    entry = font_manager.ttfFontProperty(FT2Font(str(bold)))
    font_manager.fontManager.ttflist.append(dataclasses.replace(entry, weight=700))
    font_manager.fontManager.addfont(str(path))
    return font_manager.FontProperties(fname=str(path)).get_name()


def language_rc() -> dict:
    """matplotlib settings for the learner's language: none in English; in Korean the
    family list with NanumGothic after DejaVu Sans."""
    if not is_korean():
        return {}
    return {"font.family": [LATIN_FAMILY, hangul_family()]}


__all__ = ["hangul_family", "hangul_font_path", "language_rc"]
