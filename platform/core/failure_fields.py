"""The API's texts of every background job (failure, stage), in the request's language."""

from __future__ import annotations

from rest_framework import serializers


class FailureTextFields(serializers.Serializer):
    """`error` and `error_fix` of a ClaimableJob, translated from the message keys the worker
    stored (core.stored_messages); the stored English for rows that have none."""

    error = serializers.CharField(
        source="shown_error", read_only=True, help_text="Why it failed, for people"
    )
    error_fix = serializers.CharField(
        source="shown_error_fix", read_only=True, help_text="What to do about it"
    )


class StageTextField(serializers.Serializer):
    """A ClaimableJob's `stage`, translated as its failure fields are."""

    stage = serializers.CharField(
        source="shown_stage", read_only=True, help_text="What it is doing now, for people"
    )
