"""The learner's language: English or Korean, from gettext catalogues (Babel).

Every string a learner reads in an app (a control's label, a panel sentence, a verdict) is
written in English in the code and passed through :func:`_` (or :func:`ngettext`); the
Korean is in ``lessons_lib/locale/ko/LC_MESSAGES/lessons.po``. ``make locale`` (run by
``make setup`` and by Binder's postBuild) compiles it to ``lessons.mo`` beside it; where the
``.mo`` is missing (a fresh checkout), the ``.po`` is compiled in memory on first use.

The language is the notebook's: a notebook under a folder named ``ko`` (``notebooks/ko/``,
or the working copy's ``my-lessons/ko/``) is Korean. Jupyter starts a notebook's kernel in
the notebook's folder, in JupyterLab and in Voila alike, so the language comes from the
kernel's working directory; the Korean and English notebooks keep equal code cells (no
``set_language`` call in one of them). :func:`set_language` overrides it (tests, a script),
and so does the ``LESSONS_LANG`` environment variable.

Strings declared before the language is known (a control's label at class level) are
marked with :func:`N_` and translated where they are shown.
"""

from __future__ import annotations

import gettext
import io
import numbers
import os
import re
import unicodedata
from functools import cache
from pathlib import Path

#: The languages the lessons are written in; the first is the code's own.
LANGUAGES = ("en", "ko")
#: The gettext domain: ``locale/<lang>/LC_MESSAGES/lessons.po``.
DOMAIN = "lessons"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
#: The folder name that makes a notebook Korean.
KOREAN_FOLDER = "ko"

_chosen: str | None = None


def _check(lang) -> str:
    if not isinstance(lang, str) or lang not in LANGUAGES:
        raise ValueError(f"language must be one of {', '.join(LANGUAGES)}, got {lang!r:.40}")
    return lang


def set_language(lang: str | None) -> None:
    """Show the apps in ``lang`` ("en" or "ko") from now on; None: the notebook's folder
    decides again (see the module's note)."""
    global _chosen
    _chosen = None if lang is None else _check(lang)


def language() -> str:
    """The language in force: :func:`set_language`'s, else ``LESSONS_LANG``, else "ko" when
    the kernel runs in a folder named ``ko`` (a Korean notebook's), else "en"."""
    if _chosen is not None:
        return _chosen
    env = os.environ.get("LESSONS_LANG", "")
    if env in LANGUAGES:
        return env
    try:
        folder = os.path.basename(os.getcwd())   # every _() asks: no pathlib here (5x)
    except OSError:                  # the working directory was removed
        return LANGUAGES[0]
    return "ko" if folder == KOREAN_FOLDER else LANGUAGES[0]


def compile_catalogue(lang: str) -> bytes:
    """The ``.mo`` bytes of ``lang``'s ``.po`` (Babel), fuzzy entries left out."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    if _check(lang) == LANGUAGES[0]:
        raise ValueError(f"{lang} is the code's own language: it has no catalogue")
    with open(LOCALE_DIR / _check(lang) / "LC_MESSAGES" / f"{DOMAIN}.po", "rb") as f:
        catalog = read_po(f, locale=lang, domain=DOMAIN)
    out = io.BytesIO()
    write_mo(out, catalog)
    return out.getvalue()


def translations(lang: str) -> gettext.NullTranslations:
    """The catalogue of ``lang``: the compiled ``.mo`` when there is one, else the ``.po``
    compiled in memory; English is the code's own text."""
    return _translations(_check(lang))


@cache
def _translations(lang: str) -> gettext.NullTranslations:
    if lang == LANGUAGES[0]:
        return gettext.NullTranslations()
    mo = LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"
    po = mo.with_suffix(".po")
    if mo.is_file() and mo.stat().st_mtime >= po.stat().st_mtime:
        with open(mo, "rb") as f:
            return gettext.GNUTranslations(f)
    return gettext.GNUTranslations(io.BytesIO(compile_catalogue(lang)))


def _(message: str) -> str:
    """``message`` in the learner's language (anything but a non-empty text as it is)."""
    if not isinstance(message, str):
        raise ValueError(f"_() translates a text, not {type(message).__name__}")
    if not message:
        return message
    return translations(language()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form for ``n``, in the learner's language."""
    if not (isinstance(singular, str) and isinstance(plural, str)):
        raise ValueError("ngettext() chooses between two texts")
    if isinstance(n, bool) or not isinstance(n, numbers.Integral):
        raise ValueError(f"ngettext() counts with an integer, not {type(n).__name__}")
    return translations(language()).ngettext(singular, plural, int(n))


def N_(message: str) -> str:
    """Mark ``message`` for the catalogue without translating it yet (it is translated with
    :func:`_` where it is shown)."""
    if not isinstance(message, str):
        raise ValueError(f"N_() marks a text, not {type(message).__name__}")
    return message


def is_korean() -> bool:
    return language() == "ko"


class _Columns(str):
    """A text whose format width counts columns of a monospaced printout: a Hangul syllable
    takes two (East Asian wide), so "{ring:15s}" lines up in Korean as it does in English."""

    def __format__(self, spec: str) -> str:
        match = re.fullmatch(r"(.?[<>^])?(\d+)(s?)", spec)
        if match is None:
            return str.__format__(str(self), spec)
        wide = sum(unicodedata.east_asian_width(ch) in "WF" for ch in self)
        width = max(int(match.group(2)) - wide, 0)
        return str.__format__(str(self), f"{match.group(1) or ''}{width}{match.group(3)}")


def _word(value):
    """A value as ``words`` shows it: a text or a truth value in the learner's language."""
    if isinstance(value, bool):
        value = str(value)
    return _Columns(_(value)) if isinstance(value, str) else value


def words(template: str, /, *args, **kwargs) -> str:
    """``template`` in the learner's language, filled in with :meth:`str.format`. The
    values that are texts (a ring's name, "row 1") and truth values are translated too, so
    a lesson's code cell prints the same sentence in English or Korean with the same code."""
    if not isinstance(template, str):
        raise ValueError(f"words() fills in a text, not {type(template).__name__}")
    try:
        return _(template).format(*map(_word, args),
                                  **{k: _word(v) for k, v in kwargs.items()})
    except (IndexError, KeyError, ValueError, TypeError, AttributeError, OverflowError) as exc:
        raise ValueError(f"cannot fill in {template[:40]!r}: {exc}"[:200]) from None


def say(template: str, /, *args, **kwargs) -> None:
    """Print :func:`words` (what a lesson's code cells use instead of ``print``)."""
    print(words(template, *args, **kwargs))


__all__ = ["DOMAIN", "KOREAN_FOLDER", "LANGUAGES", "LOCALE_DIR", "N_", "_",
           "compile_catalogue", "is_korean", "language", "ngettext", "say", "set_language",
           "translations", "words"]
