"""The zoo page describes every model in the reader's language: each architecture's
description and each ready model's (worded in its manifest) has a zh-Hans entry (issue 23)."""

from __future__ import annotations

import re

from django.test import SimpleTestCase
from django.utils import translation

from modelzoo.catalog import ARCHITECTURES
from modelzoo.services.listing import READY_DESCRIPTIONS, describe, describe_ready
from modelzoo.services.ready import ready_models

CJK = re.compile(r"[\u4e00-\u9fff]")


class DescriptionTranslationTests(SimpleTestCase):
    def test_every_architecture_is_described_in_chinese(self) -> None:
        with translation.override("zh-hans"):
            for arch in ARCHITECTURES:
                with self.subTest(arch=arch.key):
                    self.assertRegex(str(describe(arch)["description"]), CJK)
        with translation.override("en"):
            self.assertNotRegex(str(describe(ARCHITECTURES[0])["description"]), CJK)

    def test_every_ready_model_is_described_in_chinese(self) -> None:
        for ready in ready_models().values():
            with self.subTest(ready=ready.key):
                self.assertIn(ready.description, READY_DESCRIPTIONS)
                with translation.override("zh-hans"):
                    self.assertRegex(describe_ready(ready)["description"], CJK)
                with translation.override("en"):
                    self.assertEqual(describe_ready(ready)["description"], ready.description)
