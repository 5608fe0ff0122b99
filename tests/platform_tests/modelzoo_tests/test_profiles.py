"""Parameters and FLOPs are measured with framework.summary/flops once, then cached."""

from __future__ import annotations

from unittest import mock

from django.test import TestCase

from modelzoo.catalog import ARCHITECTURES, head_keys
from modelzoo.models import ArchitectureProfile
from modelzoo.services.profiles import measure_pending, profiles_by_key


class ProfileTests(TestCase):
    def test_a_first_look_creates_pending_profiles_and_queues_one_measurement(self) -> None:
        with (
            mock.patch("modelzoo.services.profiles.enqueue") as enqueue,
            self.captureOnCommitCallbacks(execute=True),
        ):
            profiles = profiles_by_key()
            profiles_by_key()
        self.assertEqual(set(profiles), {a.key for a in ARCHITECTURES})
        self.assertTrue(all(p.status == "pending" for p in profiles.values()))
        enqueue.assert_called_once_with("modelzoo.profile_architectures")

    def test_it_measures_pending_profiles_with_the_framework(self) -> None:
        for key in ("lenet", "mlp"):
            ArchitectureProfile.objects.create(architecture=key)
        self.assertEqual(measure_pending(), 2)
        lenet = ArchitectureProfile.objects.get(architecture="lenet")
        self.assertEqual((lenet.status, lenet.params), ("ready", 61610))
        self.assertEqual(lenet.input_shape, [1, 28, 28])
        self.assertEqual(lenet.flops, 347_560)  # as paddle.flops counts LeNet
        self.assertEqual(measure_pending(), 0)  # cached: nothing measured twice

    def test_a_profile_that_cannot_be_measured_says_why(self) -> None:
        ArchitectureProfile.objects.create(architecture="lenet")
        with mock.patch("modelzoo.services.profiles.measure", side_effect=RuntimeError("boom")):
            measure_pending()
        profile = ArchitectureProfile.objects.get(architecture="lenet")
        self.assertEqual((profile.status, profile.error), ("failed", "RuntimeError: boom"))

    def test_head_keys_are_found_by_comparing_head_sizes(self) -> None:
        self.assertEqual(head_keys("lenet"), {"fc.2.weight", "fc.2.bias"})
        self.assertEqual(head_keys("mlp"), {"5.weight", "5.bias"})
