"""The API's failure fields of every background job, in the request's language."""

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
