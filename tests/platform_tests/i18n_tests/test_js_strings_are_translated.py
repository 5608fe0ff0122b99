"""Every user-facing string literal in a page script goes through gettext or ngettext, so the
djangojs catalog can translate it (static/js/i18n.js; the scan is js_strings.py beside this)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.platform_tests.i18n_tests.js_strings import untranslated

REPO_ROOT = Path(__file__).resolve().parents[3]
SCRIPTS = sorted(
    path
    for path in (REPO_ROOT / "static").rglob("*.js")
    if "vendor" not in path.relative_to(REPO_ROOT).parts
)

# (script, literal): why it stays as it is.
ALLOWED = {
    (
        "static/js/dom.js",
        "el(): refusing the event-handler attribute  ",
    ): "a programming error, thrown for developers",
    (
        "static/js/dom.js",
        "el(): refusing srcdoc, which is HTML",
    ): "a programming error, thrown for developers",
    (
        "static/js/dom.js",
        "el(): style is an object of properties",
    ): "a programming error, thrown for developers",
    (
        "static/js/dom.js",
        "el(): refusing a javascript: URL in  ",
    ): "a programming error, thrown for developers",
    (
        "static/js/dom.js",
        "el(): scripts come from files, not data",
    ): "a programming error, thrown for developers",
    ("static/training/charts.js", "PNG"): "a file format's name, the same in every language",
    ("static/deploy/tryit.js", "p50 ms"): "a percentile and a unit, written so in Chinese too",
    ("static/deploy/tryit.js", "p95 ms"): "a percentile and a unit, written so in Chinese too",
    ("static/deploy/tryit.js", "ms"): "a unit, written so in Chinese too",
    ("static/deploy/tryit.js", "pasted.png"): "the file name a pasted image is uploaded under",
    ("static/deploy/tryit.js", "hide past domain"): "a Plotly option value, never shown",
    # chartOf's names are the charts' element ids and data-chart values; chartTitle
    # translates them for the title.
    ("static/training/scalars.js", "loss parts"): "a chart's key, translated by chartTitle",
    ("static/training/scalars.js", "learning rate"): "a chart's key, translated by chartTitle",
    (
        "static/training/scalars.js",
        "device memory (MiB)",
    ): "a chart's key, translated by chartTitle",
    ("static/training/scalars.js", "epoch time (s)"): "a chart's key, translated by chartTitle",
}


def test_it_finds_the_page_scripts() -> None:
    names = {path.relative_to(REPO_ROOT).as_posix() for path in SCRIPTS}
    assert {"static/deploy/tryit.js", "static/training/charts.js", "static/js/i18n.js"} <= names
    assert len(SCRIPTS) > 20


def test_every_user_facing_literal_is_wrapped() -> None:
    found = []
    for path in SCRIPTS:
        name = path.relative_to(REPO_ROOT).as_posix()
        for literal in untranslated(path.read_text()):
            if (name, literal.text) not in ALLOWED:
                found.append(f"{name}:{literal.line}: {literal.text!r}")
    assert found == [], "wrap these in gettext()/ngettext() (static/js/i18n.js):\n" + "\n".join(
        found
    )


def test_every_allowed_literal_is_still_there() -> None:
    # An allow-list entry whose string went away would silently allow it again later.
    present = set()
    for path in SCRIPTS:
        name = path.relative_to(REPO_ROOT).as_posix()
        present |= {(name, literal.text) for literal in untranslated(path.read_text())}
    assert set(ALLOWED) - present == set()


@pytest.mark.parametrize(
    "source",
    [
        'node.textContent = "Nothing chosen yet.";',
        'node.textContent = ok ? "" : "Connection lost";',
        'replace(box, el("p", {}, "No images."));',
        'el("button", { class: "link", title: "Delete box" }, "✕");',
        'el("input", { "aria-label": `Threshold for ${name}` });',
        "if (!window.confirm(`Cancel ${name}?`)) event.preventDefault();",
        'throw new Error("The connection was interrupted.");',
        'const layout = { title: { text: "Image sizes", font: { size: 14 } } };',
        'const layout = { xaxis: { range: [0, 1], title: "probability" } };',
        'const facts = [["Created", job.created_at]];',
        "say(`Now serving v${e.version}`);",
        'el("span", {}, `${count} found, ${total} true`);',
    ],
)
def test_it_flags_an_unwrapped_literal(source: str) -> None:
    assert len(untranslated(source)) == 1, untranslated(source)


@pytest.mark.parametrize(
    "source",
    [
        'node.textContent = gettext("Nothing chosen yet.");',
        'say(interpolate(gettext("Now serving v%(version)s"), { version }, true));',
        'el("p", { class: "muted small" }, ngettext("%(n)s image", "%(n)s images", n));',
        'if (job.status === "Running now") return;',
        'document.querySelectorAll(".recent-import[data-status=queued]");',
        'options.headers["Content-Type"] = "application/json";',
        'body.append("image", blob);',
        'const figure = el("figure", { class: "thumb wrong detection-thumb" });',
        'const re = /Not text, a regex/; const key = { "Content-Type": 1 };',
        "// A comment: Nothing here is a string.",
        'window.Plotly.react("pr-chart", traces, layout);',
    ],
)
def test_it_lets_translated_and_machine_literals_be(source: str) -> None:
    assert untranslated(source) == []
