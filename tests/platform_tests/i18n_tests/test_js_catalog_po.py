"""The zh-Hans catalog of the page scripts (locale/zh_Hans/LC_MESSAGES/djangojs.po) is complete
and in step with the scripts. Regenerate it after changing a script's text with

    manage.py makemessages -d djangojs -l zh_Hans --ignore=.venv --ignore=node_modules \
        --ignore=static/vendor
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.core.management import call_command

from tests.platform_tests.i18n_tests.catalogs import JS_PO, REPO_ROOT, entries

PLACEHOLDERS = re.compile(r"%\(\w+\)s|%\{[^}]*\}")
needs_gettext = pytest.mark.skipif(
    shutil.which("xgettext") is None or shutil.which("msgfmt") is None,
    reason="GNU gettext is missing (apt-get install gettext; make test installs it)",
)


def test_every_message_has_a_translation() -> None:
    found = entries(JS_PO)
    assert len(found) > 150
    untranslated = [e.msgid for e in found if not all(e.translations)]
    fuzzy = [e.msgid for e in found if e.fuzzy]
    assert untranslated == [] and fuzzy == []


def test_chinese_has_one_plural_form() -> None:
    assert "Plural-Forms: nplurals=1; plural=0;" in JS_PO.read_text(encoding="utf-8")
    plurals = [e for e in entries(JS_PO) if e.plural is not None]
    assert plurals and all(len(e.translations) == 1 for e in plurals)


def test_translations_keep_every_placeholder() -> None:
    # interpolate() fills %(name)s, Plotly fills %{y:.3f}: one lost or misspelt in a
    # translation would show as the raw placeholder, or lose the number.
    wrong = []
    for entry in entries(JS_PO):
        expected = sorted(PLACEHOLDERS.findall(entry.msgid))
        wrong += [
            (entry.msgid, t)
            for t in entry.translations
            if sorted(PLACEHOLDERS.findall(t)) != expected
        ]
    assert wrong == []


def test_the_translations_are_chinese() -> None:
    same = [e.msgid for e in entries(JS_PO) if e.translations[0] == e.msgid]
    # Metric names and formulas that Chinese writes as English does.
    assert set(same) <= {"Micro F1 @ %(threshold)s", "Macro F1 @ %(threshold)s"}


@needs_gettext
def test_it_compiles() -> None:
    subprocess.run(["msgfmt", "--check", "-o", "/dev/null", str(JS_PO)], check=True)


@needs_gettext
def test_it_is_in_step_with_the_scripts(tmp_path: Path, settings, monkeypatch) -> None:
    # makemessages over a copy of the scripts, into an empty locale folder: the messages it
    # finds are exactly the catalog's.
    shutil.copytree(
        REPO_ROOT / "static", tmp_path / "static", ignore=shutil.ignore_patterns("vendor")
    )
    (tmp_path / "locale").mkdir()
    settings.LOCALE_PATHS = [tmp_path / "locale"]
    monkeypatch.chdir(tmp_path)
    call_command("makemessages", domain="djangojs", locale=["zh_Hans"], verbosity=0)
    fresh = entries(tmp_path / "locale" / "zh_Hans" / "LC_MESSAGES" / "djangojs.po")
    committed = entries(JS_PO)
    assert len(fresh) > 150
    assert {(e.msgid, e.plural) for e in fresh} == {(e.msgid, e.plural) for e in committed}
