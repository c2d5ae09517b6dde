"""The Korean notebooks: code cells equal to the English ones, the catalogue complete, and
every lesson-1 figure drawn in Korean without a missing glyph."""

from __future__ import annotations

import re
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from lessons_lib import i18n

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import sync_ko  # noqa: E402

sys.path.insert(0, str(ROOT / "tests"))
from latin import figure_problems, figure_texts  # noqa: E402

KOREAN = sorted((ROOT / "notebooks" / "ko").glob("*.ipynb"))


def test_there_are_korean_notebooks():
    assert {p.name for p in KOREAN} >= {"index.ipynb"}
    assert len(KOREAN) >= 2, "notebooks/ko holds the index and at least one lesson"


@pytest.mark.parametrize("path", KOREAN, ids=lambda p: p.name)
def test_code_cells_equal_the_english(path):
    assert sync_ko.differences(ROOT / "notebooks" / path.name, path) == ""


def test_check_fails_on_a_changed_code_cell(tmp_path):
    import nbformat

    (tmp_path / "ko").mkdir()
    lesson = next(p for p in KOREAN if p.name != "index.ipynb")
    nb = nbformat.read(lesson, as_version=4)
    nbformat.write(nb, tmp_path / lesson.name)
    code = next(c for c in nb.cells if c.cell_type == "code")
    code.source += "\nx = 1"
    nbformat.write(nb, tmp_path / "ko" / lesson.name)
    assert "differ" in sync_ko.differences(tmp_path / lesson.name, tmp_path / "ko" / lesson.name)
    assert sync_ko.sync(tmp_path / lesson.name, tmp_path / "ko" / lesson.name)
    assert sync_ko.differences(tmp_path / lesson.name, tmp_path / "ko" / lesson.name) == ""


def test_sync_tool_check_passes_on_the_repository():
    out = subprocess.run([sys.executable, str(ROOT / "tools" / "sync_ko.py"), "--check"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr


def _extracted() -> set[str]:
    keywords = {"_": None, "N_": None, "ngettext": (1, 2)}
    found = set()
    for _file, _line, message, _comments, _ctx in extract_from_dir(
            str(ROOT / "lessons_lib"), keywords=keywords):
        for m in message if isinstance(message, tuple) else (message,):
            found.add(m)
    return found


def test_every_marked_string_has_a_korean_translation():
    with open(i18n.LOCALE_DIR / "ko" / "LC_MESSAGES" / f"{i18n.DOMAIN}.po", "rb") as f:
        catalog = read_po(f)
    translated = {m.id for m in catalog if m.id and m.string and not m.fuzzy}
    missing = sorted(_extracted() - translated)
    assert not missing, f"{len(missing)} strings without Korean, e.g. {missing[:3]}"


def test_translations_keep_their_placeholders():

    with open(i18n.LOCALE_DIR / "ko" / "LC_MESSAGES" / f"{i18n.DOMAIN}.po", "rb") as f:
        catalog = read_po(f)
    for m in catalog:
        if m.id and m.string:
            assert set(re.findall(r"\{\w*\}", m.id)) == set(re.findall(r"\{\w*\}", m.string)), m.id


def test_language_from_the_notebook_folder(tmp_path, monkeypatch):
    monkeypatch.delenv("LESSONS_LANG", raising=False)
    i18n.set_language(None)
    (tmp_path / "ko").mkdir()
    monkeypatch.chdir(tmp_path / "ko")
    assert i18n.language() == "ko" and i18n._("Check") == "확인"
    monkeypatch.chdir(tmp_path)
    assert i18n.language() == "en" and i18n._("Check") == "Check"
    with pytest.raises(ValueError):
        i18n.set_language("fr")


def test_catalogue_compiles_in_memory_without_the_mo():
    import gettext
    import io

    t = gettext.GNUTranslations(io.BytesIO(i18n.compile_catalogue("ko")))
    assert t.gettext("Lock it") == "잠그기"


def test_lesson1_figures_in_korean_have_every_glyph(korean, caplog):
    from lessons_lib.apps import GimbalApp
    from lessons_lib.apps.gimbal import exercises

    figures = []
    caplog.set_level("WARNING", logger="matplotlib.font_manager")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        app = GimbalApp()
        app.lock_it()
        figures.append(app.fig)
        reach = exercises.ReachExercise()
        figures.append(reach.app.fig)
        for question in (exercises.zxy_lock_question(app.copy()),
                         exercises.lost_turn_question(app.copy())):
            question.show_button.click()
            figures.append(question.beside.fig)
        for fig in figures:
            fig.canvas.draw()
    assert not figure_problems(figures, caught, caplog.records), \
        figure_problems(figures, caught, caplog.records)[:5]
    texts = " ".join(t for fig in figures for t in figure_texts(fig))
    assert "요" in texts and "Y 위" in texts, texts[:200]


def test_english_figures_keep_matplotlibs_fonts():
    import matplotlib

    from lessons_lib.apps.core.fonts import language_rc

    i18n.set_language("en")
    try:
        assert language_rc() == {}
        assert "NanumGothic" not in str(matplotlib.rcParams["font.family"])
    finally:
        i18n.set_language(None)


def _notebook_templates() -> dict[str, str]:
    """The literal first argument of every say()/words() call in the English notebooks'
    code cells, by where it is (what a Korean page prints through the catalogue)."""
    import ast

    import nbformat

    found = {}
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        for i, cell in enumerate(nb.cells):
            if cell.cell_type != "code":
                continue
            source = "\n".join(line for line in cell.source.splitlines()
                               if not line.lstrip().startswith(("%", "!")))
            for node in ast.walk(ast.parse(source)):
                if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                        and node.func.id in ("say", "words") and node.args
                        and isinstance(node.args[0], ast.Constant)):
                    found[node.args[0].value] = f"{path.name} cell {i}"
    return found


def test_every_printed_sentence_of_the_notebooks_has_a_korean_translation():
    """A sentence a code cell prints with say() is Korean on the Korean page only if the
    catalogue has it; a template of placeholders, digits and signs alone needs none."""
    import re

    with open(i18n.LOCALE_DIR / "ko" / "LC_MESSAGES" / f"{i18n.DOMAIN}.po", "rb") as f:
        translated = {m.id for m in read_po(f) if m.id and m.string and not m.fuzzy}
    templates = _notebook_templates()
    assert templates, "no say() in the notebooks: this test checks nothing"
    missing = [f"{where}: {t!r}" for t, where in templates.items()
               if re.search(r"[A-Za-z]", re.sub(r"\{[^}]*\}", "", t)) and t not in translated]
    assert not missing, "\n".join(missing)


def test_words_translates_values_and_lines_up_hangul(korean):
    assert i18n.words("{} | {:5s}|", True, "yaw") == "예 | 요   |"
    assert i18n.words("{:>4}|", "pitch") == "피치|"
    with pytest.raises(ValueError):
        i18n.words("{missing}")
    i18n.set_language("en")
    assert i18n.words("{} | {:5s}|", True, "yaw") == "True | yaw  |"


def test_preset_menu_shows_korean_labels_and_keeps_the_names(korean):
    """A preset menu's labels are translated, its values stay the code's names (what
    apply_preset and the tests use); "(custom)" is Korean too."""
    sys.path.insert(0, str(ROOT / "tests" / "notebooks"))
    from wave_app import WaveApp

    app = WaveApp()
    labels = dict(app.preset.options)
    assert labels[i18n._("(custom)")] == app.custom_label == "(custom)"
    assert i18n._("(custom)") != "(custom)"
    assert app.preset.label == i18n._("(custom)") and app.preset.value == "(custom)"
    name = app.presets[0].name
    app.preset.value = name
    assert app.preset.value == name


def _msgids(po_text: str) -> list[str]:
    """Each entry's msgid (its continuation lines joined), in the order of the file."""
    ids, current = [], None
    for line in po_text.splitlines() + [""]:
        if line.startswith("msgid "):
            current = [line[6:]]
        elif current is not None and line.startswith('"'):
            current.append(line)
        elif current is not None:
            ids.append("".join(part.strip().strip('"') for part in current))
            current = None
    return ids


def test_no_msgid_is_written_twice():
    """Lessons append their entries and branches merge by union (.gitattributes): an entry
    two lessons both added must be kept once (Babel would keep one silently)."""
    import collections

    text = (i18n.LOCALE_DIR / "ko" / "LC_MESSAGES" / f"{i18n.DOMAIN}.po").read_text("utf-8")
    twice = [m for m, n in collections.Counter(_msgids(text)).items() if n > 1]
    assert not twice, twice[:5]
    assert _msgids('msgid "a"\nmsgstr "x"\n\nmsgid ""\n"a"\nmsgstr "y"\n') == ["a", "a"]


TYPED = [("-0.5", -0.5), ("\u22120.5", -0.5), ("\uff0d0.5", -0.5), ("1/2", 0.5),
         ("5.61 m", 5.61), ("30°", 30.0), ("1,5", 1.5), (".5", 0.5),
         ("30도", 30.0), ("5.61 미터", 5.61), ("18.9 퍼센트", 18.9), ("12.5초", 12.5)]


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_number_input_takes_the_same_forms_in_both_languages(lang):
    """A Korean learner types units in Korean (30도, 12.5초): the number is read the same in
    either language, and what is not a number is refused in the page's language."""
    from lessons_lib.apps.core.exercise import parse_number

    i18n.set_language(lang)
    try:
        assert [parse_number(typed) for typed, _ in TYPED] == pytest.approx(
            [value for _, value in TYPED])
        for bad in ("", "abc", "1/0", "도 30", "삼십"):
            with pytest.raises(ValueError) as refused:
                parse_number(bad)
            said = str(refused.value).replace(bad, "")     # the message may quote the input
            hangul = bool(re.search("[\uac00-\ud7a3]", said))
            assert hangul == (lang == "ko"), (bad, str(refused.value))
    finally:
        i18n.set_language(None)


def test_a_control_greyed_out_and_back_keeps_its_korean_tooltip(korean):
    """set_enabled put the English help back when a control came back (lesson 3's
    controller buttons), and None, which ipywidgets shows as "null"."""
    from lessons_lib.apps import SteeringApp

    app = SteeringApp()
    spec = app._specs["controller"]
    app.set_enabled("controller", False, "지금은 못 바꿉니다")
    assert app.controller.tooltip == "지금은 못 바꿉니다"
    app.set_enabled("controller", True)
    assert app.controller.tooltip == i18n._(spec.help) != spec.help
    app.set_enabled("speed", False)
    assert app.speed.tooltip == ""
