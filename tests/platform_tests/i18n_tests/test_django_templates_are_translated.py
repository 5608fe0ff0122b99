"""Every user-facing text of every template sits inside a translate tag."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.test import SimpleTestCase

from tests.platform_tests.i18n_tests.untranslated_text import untranslated

TEMPLATES = Path(settings.TEMPLATES[0]["DIRS"][0])


class TemplatesAreTranslatedTests(SimpleTestCase):
    def test_every_template_has_its_text_in_translate_tags(self) -> None:
        paths = sorted(TEMPLATES.rglob("*.html"))
        self.assertGreater(len(paths), 30)
        problems = [
            f"{path.relative_to(TEMPLATES)}:{found.line}: {found.text}"
            for path in paths
            for found in untranslated(path.read_text(encoding="utf-8"))
        ]
        self.assertEqual(problems, [], "\n" + "\n".join(problems))

    def test_it_finds_an_untranslated_text_node(self) -> None:
        found = untranslated('{% load i18n %}<p>{% translate "Hello" %}</p>\n<p>Goodbye</p>')
        self.assertEqual([(f.line, f.text) for f in found], [(2, "Goodbye")])

    def test_it_finds_untranslated_text_between_template_tags(self) -> None:
        source = "{% block title %}Log in{% endblock %}{% if a %}{{ a }} more{% endif %}"
        self.assertEqual([f.text for f in untranslated(source)], ["Log in", "more"])

    def test_it_finds_an_untranslated_default_of_a_variable(self) -> None:
        source = '{{ a|default:"nobody" }} {{ b|default:_("someone") }} {{ c|default:"—" }}'
        self.assertEqual([f.text for f in untranslated(source)], ["nobody"])

    def test_it_finds_untranslated_attributes_people_read(self) -> None:
        source = (
            '<input title="Pick one" placeholder="e.g. cats" aria-label="{{ n }} images">'
            '<img alt="Logo"><input type="submit" value="Send"><button value="cancel"></button>'
        )
        found = [f.text for f in untranslated(source)]
        self.assertEqual(found, ["Pick one", "e.g. cats", "{{ n }} images", "Logo", "Send"])

    def test_it_leaves_translated_text_code_and_data_alone(self) -> None:
        source = (
            '{% load i18n %}<p title="{% translate "Tip" %}">{% blocktranslate with n=n %}'
            "{{ n }} images{% endblocktranslate %}</p>{# a note #}"
            "{% comment %}Docs here{% endcomment %}<script>let words = 1;</script>"
            "<style>body{color:red}</style><pre>curl -F image=@a.jpg</pre>"
            '<!-- an HTML comment --><td class="name">{{ sample.name }}</td><b>Sampan</b> 0.50 —'
        )
        self.assertEqual(untranslated(source), [])
