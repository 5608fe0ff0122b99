"""Opening, verifying, hashing and thumbnailing one image.

Every image is decoded in full (a truncated file fails here, not during training). The pixel
count is checked from the header before decoding, and Pillow's own decompression-bomb guard stays
on and is turned from a warning into an error.
"""

from __future__ import annotations

import hashlib
import io
import os
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

import numpy as np
from PIL import Image, ImageOps, UnidentifiedImageError

from datastore.importing import messages as said
from datastore.importing.limits import ImportLimits
from datastore.importing.tree import place_file

# Extensions of images we import, and the Pillow format each must decode as.
SUPPORTED_FORMATS = {"JPEG": ".jpg", "PNG": ".png", "BMP": ".bmp", "WEBP": ".webp"}
IMAGE_EXTENSIONS = {".jpg", ".jpeg", ".png", ".bmp", ".webp"}
# Images we recognise but do not import; they get a clear "unsupported" message.
OTHER_IMAGE_EXTENSIONS = {".gif", ".tif", ".tiff", ".heic", ".heif", ".avif", ".ico", ".jp2"}
EXIF_ORIENTATION = 0x0112
IN_MEMORY_BYTES = 16 * 1024 * 1024
CONVERT_FIX = said.CONVERT_FIX()


def is_image_name(path: str) -> bool:
    return os.path.splitext(path)[1].lower() in IMAGE_EXTENSIONS | OTHER_IMAGE_EXTENSIONS


class ImageRejected(Exception):
    def __init__(self, code: str, reason: str, fix: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason
        self.fix = fix


@dataclass(frozen=True)
class ImageInfo:
    width: int
    height: int
    format: str
    extension: str
    size_bytes: int
    content_hash: str  # sha256 hex of the file's bytes
    perceptual_hash: str  # 128-bit difference hash, 32 hex digits


def _sniff(data: bytes) -> str:
    """What the first bytes of a file that is not an image look like, in words."""
    head = data[:16].lstrip()
    if not data:
        return said.EMPTY_FILE()
    if head[:1] == b"<":
        return said.HTML_FILE()
    if head[:2] == b"PK":
        return said.ZIP_FILE()
    if head[:4] == b"%PDF":
        return said.PDF_FILE()
    if all(32 <= b < 127 or b in (9, 10, 13) for b in data[:64]):
        return said.TEXT_FILE()
    return said.UNKNOWN_FILE()


def difference_hash(image: Image.Image) -> str:
    """128-bit dHash as 32 hex digits: which neighbour is brighter, across and down, on 9x9.

    Across and down together tell apart small images that 64 bits across alone do not (the
    8x8 digits of scikit-learn, for one).
    """
    pixels = np.asarray(image.convert("L").resize((9, 9), Image.Resampling.BILINEAR), np.int16)
    across = pixels[:8, 1:] > pixels[:8, :-1]
    down = pixels[1:, :8] > pixels[:-1, :8]
    return np.packbits(np.concatenate([across.ravel(), down.ravel()])).tobytes().hex()


def _open(handle: BinaryIO, limits: ImportLimits) -> Image.Image:
    """Reads the header only: nothing is decoded before the pixel count is known to be sane.

    No warning filters here: images are checked in threads, and `warnings.catch_warnings`
    swaps the one process-wide filter list, so two threads restoring each other's lists left
    every later warning of the process raised as an error. Pillow's guard raises by itself past
    twice its MAX_IMAGE_PIXELS, and the pixel limit below, lower than Pillow's, refuses the rest.
    """
    try:
        image = Image.open(handle)
    except Image.DecompressionBombError as exc:
        raise ImageRejected(
            "image_too_large",
            said.DECOMPRESSION_BOMB(error=str(exc)),
            said.RESIZE_FIX(),
        ) from exc
    except UnidentifiedImageError as exc:
        handle.seek(0)
        raise ImageRejected(
            "not_an_image",
            _sniff(handle.read(64)),
            said.NOT_AN_IMAGE_FIX(),
        ) from exc
    width, height = image.size
    if width * height > limits.max_image_pixels:
        raise ImageRejected(
            "image_too_large",
            said.TOO_MANY_PIXELS(width=width, height=height, limit=f"{limits.max_image_pixels:,}"),
            said.RESIZE_FIX(),
        )
    if image.format not in SUPPORTED_FORMATS:
        raise ImageRejected(
            "unsupported_format",
            said.UNSUPPORTED_FORMAT(format=image.format),
            CONVERT_FIX,
        )
    return image


def _sha256(handle: BinaryIO) -> str:
    handle.seek(0)
    return hashlib.file_digest(handle, "sha256").hexdigest()  # in chunks from a file


def _decode(image: Image.Image, thumbnail_side: int) -> Image.Image:
    if image.format == "JPEG":
        # Decode big JPEGs at a reduced scale: every byte is still read, so truncation still fails.
        image.draft("RGB", (thumbnail_side * 2, thumbnail_side * 2))
    try:
        image.load()  # a truncated or damaged file raises (no warning filters: see _open)
    except (OSError, SyntaxError, ValueError) as exc:
        raise ImageRejected(
            "image_corrupt",
            said.CORRUPT(error=str(exc)),
            said.CORRUPT_FIX(),
        ) from exc
    return image


def _thumbnail(image: Image.Image, side: int, target: Path) -> None:
    thumb = ImageOps.exif_transpose(image) if image.format == "JPEG" else image
    thumb = thumb.copy() if thumb is image else thumb
    thumb.thumbnail((side, side), Image.Resampling.BILINEAR, reducing_gap=2.0)
    if thumb.mode not in ("RGB", "L"):
        background = Image.new("RGB", thumb.size, (255, 255, 255))
        rgba = thumb.convert("RGBA")
        background.paste(rgba, mask=rgba.getchannel("A"))
        thumb = background
    thumb.save(target, "JPEG", quality=80)


def inspect_image(source: Path, target: Path, thumbnail: Path, limits: ImportLimits) -> ImageInfo:
    """Verify `source`, place it at `target` and write its thumbnail; raise ImageRejected."""
    size = source.stat().st_size
    if size > limits.max_upload_bytes:
        raise ImageRejected(
            "file_too_large",
            said.FILE_TOO_LARGE(size=f"{size:,}", limit=f"{limits.max_upload_bytes:,}"),
            said.RECOMPRESS_FIX(),
        )
    # Small files are read once into memory; big ones are read from disk as they are needed.
    with io.BytesIO(source.read_bytes()) if size <= IN_MEMORY_BYTES else open(source, "rb") as f:
        info = _describe(_open(f, limits), f, size, thumbnail, limits)
    place_file(source, target)
    return info


def _describe(
    image: Image.Image, handle: BinaryIO, size: int, thumbnail: Path, limits: ImportLimits
) -> ImageInfo:
    width, height = image.size
    if image.format == "JPEG" and image.getexif().get(EXIF_ORIENTATION, 1) in (5, 6, 7, 8):
        width, height = height, width  # browsers show it rotated; labels use the shown size
    if min(width, height) < limits.min_image_side:
        raise ImageRejected(
            "image_too_small",
            said.TOO_SMALL(width=width, height=height, side=limits.min_image_side),
            said.TOO_SMALL_FIX(),
        )
    image_format = image.format or ""
    decoded = _decode(image, limits.thumbnail_side)
    info = ImageInfo(
        width=width,
        height=height,
        format=image_format,
        extension=SUPPORTED_FORMATS[image_format],
        size_bytes=size,
        content_hash=_sha256(handle),
        perceptual_hash=difference_hash(decoded),
    )
    _thumbnail(decoded, limits.thumbnail_side, thumbnail)
    return info
