"""The report page's test-split section: members get the button that evaluates the model on
the version's test split, viewers see the section without it, a version with no test images
says so, and outsiders get 404 for the page."""

from __future__ import annotations

from tests.platform_tests.training_tests.base import TrainingTestCase, make_job, run_now
from training.demo.digits import digits_version

BUTTON = 'id="run-test"'


class TestSplitSectionTests(TrainingTestCase):
    @classmethod
    def setUpTestData(cls) -> None:
        super().setUpTestData()
        held = digits_version(
            cls.workspace, cls.alice, per_class=5, name="With test", val=0.2, test=0.2
        )
        job, _ = make_job(workspace=cls.workspace, user=cls.alice, version=held)
        cls.with_test = run_now(job)
        job, _ = make_job(workspace=cls.workspace, user=cls.alice, version=cls.version)
        cls.without_test = run_now(job)

    def page(self, user, job) -> str:
        self.client.force_login(user)
        response = self.client.get(f"/jobs/{job.pk}/report/")
        self.assertEqual(response.status_code, 200)
        return response.content.decode()

    def test_members_get_the_button(self) -> None:
        for user in (self.alice, self.bob):
            html = self.page(user, self.with_test)
            self.assertIn("<h2>Test split</h2>", html)
            self.assertIn(BUTTON, html)
            self.assertIn("The version's 10 test images", html)
            self.assertIn("test_split.js", html)

    def test_viewers_see_the_section_without_the_button(self) -> None:
        html = self.page(self.vera, self.with_test)
        self.assertIn("<h2>Test split</h2>", html)
        self.assertNotIn(BUTTON, html)

    def test_a_version_without_test_images_says_so(self) -> None:
        html = self.page(self.bob, self.without_test)
        self.assertIn("This version has no test images.", html)
        self.assertNotIn(BUTTON, html)

    def test_outsiders_get_404(self) -> None:
        self.client.force_login(self.charlie)
        self.assertEqual(self.client.get(f"/jobs/{self.with_test.pk}/report/").status_code, 404)
