"""The labeling page picks its editor from the task type and hands it its configuration."""

from __future__ import annotations

import json

from django.urls import reverse

from datastore.models import Dataset
from tests.platform_tests.datastore_tests.base import DatastoreTestCase


class LabelPageTests(DatastoreTestCase):
    def config(self, response: object) -> dict:
        text = response.content.decode()
        start = text.index('id="labeling-config" type="application/json">') + 45
        return json.loads(text[start : text.index("</script>", start)])

    def test_classification_page(self) -> None:
        dataset = self.make_dataset(Dataset.TaskType.MULTI_LABEL)
        self.import_digits(dataset, labels=(0, 1), per_class=2)
        self.client.force_login(self.bob)
        response = self.client.get(reverse("labeling:label", args=[dataset.pk]), {"sample": "3"})
        self.assertTemplateUsed(response, "labeling/classify.html")
        config = self.config(response)
        self.assertEqual([c["name"] for c in config["classes"]], ["0", "1"])
        self.assertEqual(
            (config["multiLabel"], config["start"], config["canEdit"]), (True, 3, True)
        )
        self.assertContains(response, "4 of 4 labeled")

    def test_detection_page_lists_its_shortcuts(self) -> None:
        dataset = self.make_dataset(Dataset.TaskType.DETECTION)
        self.client.force_login(self.vera)
        response = self.client.get(reverse("labeling:label", args=[dataset.pk]))
        self.assertTemplateUsed(response, "labeling/detect.html")
        self.assertFalse(self.config(response)["canEdit"])
        for shortcut in (
            "draw a box",
            "copy the boxes of the previous image",
            "undo / redo",
            "zoom",
            "pan",
        ):
            self.assertContains(response, shortcut)
