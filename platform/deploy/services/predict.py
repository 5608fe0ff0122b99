"""Answering a predict request: read the images (multipart files or base64 JSON, one or a
batch), run the deployment's model, and shape the JSON answer. Every refusal is a `Refusal`
with the HTTP status and a message that says what to change."""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from rest_framework.request import Request

from core.parsers import parse_json
from core.stored_messages import in_language, said_of
from deploy.conf import knob
from deploy.models import Deployment
from deploy.services import serving
from framework.inference.packaged_model import ImageError

IMAGE_FIELDS = ("image", "images")


class Refusal(Exception):
    def __init__(self, message: str, status: int = 400, code: str = "invalid") -> None:
        super().__init__(message)
        self.status, self.code = status, code


@dataclass
class PredictInput:
    images: list[bytes]
    top_k: int | None
    threshold: float | None
    class_thresholds: dict[str, float]


def check_size(request: Request) -> None:
    """413 before the body is read when it is declared larger than the limit."""
    limit = knob("DEPLOY_MAX_REQUEST_BYTES")
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        raise Refusal(_("The Content-Length header is not a number.")) from None
    if length > limit:
        raise Refusal(
            _(
                "The request is %(length)s bytes; the limit is %(limit)s. Send fewer or smaller "
                "images per request."
            )
            % {"length": f"{length:,}", "limit": f"{limit:,}"},
            status=413,
            code="too_large",
        )


def read_input(request: Request) -> PredictInput:
    check_size(request)
    media = request.content_type.split(";")[0].strip().lower()
    if media == "multipart/form-data":
        images = [f.read() for name in IMAGE_FIELDS for f in request.FILES.getlist(name)]
        fields: Any = request.POST
    elif media == "application/json":
        fields = request.data if isinstance(request.data, dict) else {}
        if not isinstance(request.data, dict):
            raise Refusal(_('Send a JSON object: {"image": "<base64>"} or {"images": [...]}.'))
        images = _decode_base64(fields)
    else:
        raise Refusal(
            _(
                "Content type %(media)s is not accepted: send multipart/form-data with image "
                "files, or application/json with base64 images."
            )
            % {"media": media or "none"},
            status=415,
            code="unsupported_media_type",
        )
    if not images:
        raise Refusal(
            _("No image: send files in 'image' (multipart) or base64 in 'image'/'images'.")
        )
    limit = knob("DEPLOY_MAX_BATCH")
    if len(images) > limit:
        raise Refusal(
            _("%(count)s images in one request; the limit is %(limit)s. Split the batch.")
            % {"count": len(images), "limit": limit},
            status=413,
            code="too_many_images",
        )
    return PredictInput(
        images,
        _top_k(fields.get("top_k")),
        _threshold(fields.get("threshold")),
        _class_thresholds(fields.get("class_thresholds")),
    )


def _decode_base64(data: dict[str, Any]) -> list[bytes]:
    items = data.get("images", data.get("image"))
    if items is None:
        return []
    if isinstance(items, str):
        items = [items]
    if not isinstance(items, list) or not all(isinstance(i, str) for i in items):
        raise Refusal(_("'images' must be a list of base64 strings ('image': one string)."))
    decoded = []
    for position, item in enumerate(items):
        text = item.split(",", 1)[1] if item.startswith("data:") else item  # a data: URL
        try:
            decoded.append(base64.b64decode(text, validate=True))
        except (binascii.Error, ValueError):
            message = _("Image %(position)s is not valid base64.") % {"position": position}
            raise Refusal(message, code="bad_image") from None
    return decoded


def _top_k(value: Any) -> int | None:
    if value in (None, ""):
        return None
    try:
        top_k = int(value)
    except (TypeError, ValueError):
        raise Refusal(_("top_k must be a whole number.")) from None
    if not 1 <= top_k <= Deployment.MAX_TOP_K:
        raise Refusal(_("top_k must be from 1 to %(most)s.") % {"most": Deployment.MAX_TOP_K})
    return top_k


def _threshold(value: Any) -> float | None:
    if value in (None, ""):
        return None
    try:
        threshold = float(value)
    except (TypeError, ValueError):
        raise Refusal(_("threshold must be a number from 0 to 1.")) from None
    if not 0.0 <= threshold <= 1.0:
        raise Refusal(_("threshold must be a number from 0 to 1."))
    return threshold


def _class_thresholds(value: Any) -> dict[str, float]:
    """{class name: confidence}: a JSON object, or its text (a multipart field)."""
    if value in (None, ""):
        return {}
    if isinstance(value, str):
        try:
            value = parse_json(value)
        except ValueError:
            raise Refusal(_('class_thresholds must be a JSON object like {"cat": 0.9}.')) from None
    if not isinstance(value, dict):
        raise Refusal(_('class_thresholds must be a JSON object like {"cat": 0.9}.'))
    for name, threshold in value.items():
        if isinstance(threshold, bool) or not isinstance(threshold, int | float):
            raise Refusal(
                _("The threshold of '%(name)s' in class_thresholds must be a number.")
                % {"name": name}
            )
        if not 0.0 <= threshold <= 1.0:
            raise Refusal(
                _("The threshold of '%(name)s' in class_thresholds must be from 0 to 1.")
                % {"name": name}
            )
    return {str(name): float(threshold) for name, threshold in value.items()}


def predict(
    deployment: Deployment, given: PredictInput, timings: dict[str, float] | None = None
) -> dict[str, Any]:
    """The answer for `given`, by the model this process serves for `deployment`; `timings`
    receives where the time went (see PackagedModel.predict)."""
    try:
        served = serving.serve(deployment)
    except serving.ModelUnavailable as error:
        message = in_language(said_of(error))
        raise Refusal(message, status=503, code="model_unavailable") from error
    threshold = given.threshold if given.threshold is not None else deployment.threshold
    class_thresholds = {**deployment.class_thresholds, **given.class_thresholds}
    unknown = sorted(set(given.class_thresholds) - set(served.model.meta.class_names))
    if unknown:
        raise Refusal(
            _("class_thresholds names classes the model does not have: %(unknown)s.")
            % {"unknown": unknown}
        )
    top_k = given.top_k or deployment.top_k
    try:
        predictions = served.model.predict(
            given.images,
            top_k=top_k,
            threshold=threshold,
            class_thresholds=class_thresholds,
            max_pixels=knob("DEPLOY_MAX_PIXELS"),
            timings=timings,
        )
    except ImageError as error:
        raise Refusal(f"{str(error)[0].upper()}{str(error)[1:]}.", code="bad_image") from error
    return {
        "deployment": deployment.pk,
        "model": served.info,
        "threshold": threshold,
        "class_thresholds": class_thresholds,
        "top_k": top_k,
        "predictions": predictions,
    }
