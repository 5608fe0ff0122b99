"""What an import tells people about their upload: the reasons and fixes of its problems and
failures, stored in English with their keys and shown in the reader's language
(core.stored_messages)."""

from __future__ import annotations

from django.utils.translation import gettext_noop

from core.stored_messages import Message

# What an import or a label export is doing (datastore.services).
UNPACKING = Message(gettext_noop("Unpacking the upload"))
CHECKING_IMAGES = Message(gettext_noop("Checking images"))
SAVING_SAMPLES = Message(gettext_noop("Saving samples"))
WRITING_ARCHIVE = Message(gettext_noop("Writing the archive"))

# The whole upload.
NO_FILES = Message(gettext_noop("The upload holds no files: the zip or folder is empty."))
NO_IMAGES_ONE = Message(
    gettext_noop("The upload holds no images: 1 file (%(shown)s), and it is not an image.")
)
NO_IMAGES = Message(
    gettext_noop("The upload holds no images: %(count)s files (%(shown)s), none of them an image.")
)
NO_IMAGES_FIX = Message(
    gettext_noop(
        "Upload JPEG, PNG, BMP or WebP images, or a zip or folder of them with their labels."
    )
)
IGNORED_FILE = Message(
    gettext_noop("This file is neither an image nor a label file, so it was skipped.")
)
IGNORED_FILE_FIX = Message(gettext_noop("Nothing to do, unless it should have been an image."))
DUPLICATE = Message(gettext_noop("This image is an exact copy of '%(original)s'."))
DUPLICATE_FIX = Message(
    gettext_noop(
        "Delete one of the copies; copies in both training and validation make results look "
        "better than they are."
    )
)
NEAR_DUPLICATE = Message(gettext_noop("This image looks almost the same as '%(original)s'."))
NEAR_DUPLICATE_FIX = Message(
    gettext_noop("Check both in the gallery and delete one if they show the same thing.")
)
ALREADY_IMPORTED = Message(
    gettext_noop(
        "The dataset already holds this exact image (as '%(original)s'), so it was skipped."
    )
)
NOTHING_TO_DO = Message(gettext_noop("Nothing to do."))
CLASS_NAME_TOO_LONG = Message(
    gettext_noop(
        "The class name '%(name)s' has %(length)s characters; a class name may have at most "
        "%(limit)s."
    )
)
CLASS_NAME_TOO_LONG_FIX = Message(
    gettext_noop(
        "Shorten the class names in the labels (or the class folder names) and upload again."
    )
)
OCR_REFUSED = Message(
    gettext_noop(
        "%(count)s problem(s) in the upload, such as: %(file)s%(where)s: %(reason)s Nothing "
        "was imported."
    )
)
OCR_REFUSED_FIX = Message(
    gettext_noop("Fix every problem listed in the import report and upload again.")
)
LEFT_OUT = Message(
    gettext_noop("%(count)s more problems like the ones above were left out of this report.")
)
LEFT_OUT_FIX = Message(
    gettext_noop("Fix the ones shown first: the others are most likely the same mistake.")
)
IN_FILE = Message(gettext_noop("%(file)s: %(reason)s"))
IN_PARENTHESES = Message(gettext_noop(" (%(where)s)"))
CHOSEN_FORMAT = Message(gettext_noop("Format chosen by you: %(format)s."))
TOO_MANY_LABELS = Message(
    gettext_noop(
        "The image has %(count)s labels (%(labels)s) but the dataset is single-label, so it "
        "was imported without a label."
    )
)
TOO_MANY_LABELS_FIX = Message(
    gettext_noop("Keep one label per image, or use a multi-label dataset.")
)
UNEXPECTED = Message(gettext_noop("The import failed unexpectedly (%(error)s)."))
EXPORT_FAILED = Message(gettext_noop("The export failed (%(error)s)."))
UNEXPECTED_FIX = Message(
    gettext_noop("Try again; if it fails again, send this message to your administrator.")
)

# One image (datastore.importing.images).
EMPTY_FILE = Message(gettext_noop("The file is empty."))
HTML_FILE = Message(gettext_noop("The file holds text that looks like HTML or XML, not an image."))
ZIP_FILE = Message(gettext_noop("The file is a zip archive renamed to look like an image."))
PDF_FILE = Message(gettext_noop("The file is a PDF document, not an image."))
TEXT_FILE = Message(gettext_noop("The file holds plain text, not an image."))
UNKNOWN_FILE = Message(gettext_noop("The file's content is not a known image format."))
NOT_AN_IMAGE_FIX = Message(gettext_noop("Remove the file or replace it with the real image."))
DECOMPRESSION_BOMB = Message(
    gettext_noop(
        "The image declares an enormous pixel count (%(error)s); decoding it could exhaust the "
        "server's memory (a 'decompression bomb')."
    )
)
TOO_MANY_PIXELS = Message(
    gettext_noop(
        "The image is %(width)sx%(height)s pixels, more than the %(limit)s pixels an image may "
        "have; decoding it could exhaust the server's memory."
    )
)
RESIZE_FIX = Message(gettext_noop("Resize the image to a normal resolution before uploading."))
UNSUPPORTED_FORMAT = Message(
    gettext_noop("%(format)s images are not supported; Sampan imports JPEG, PNG, BMP and WebP.")
)
CONVERT_FIX = Message(
    gettext_noop("Convert the image to PNG or JPEG (for example with `mogrify -format png`).")
)
CORRUPT = Message(
    gettext_noop("The image could not be decoded: it is damaged or cut short (%(error)s).")
)
CORRUPT_FIX = Message(
    gettext_noop(
        "Re-export or re-download the image; if it opens in a viewer, save it again as PNG."
    )
)
FILE_TOO_LARGE = Message(gettext_noop("The file is %(size)s bytes, over the %(limit)s-byte limit."))
RECOMPRESS_FIX = Message(gettext_noop("Resize or recompress the image."))
TOO_SMALL = Message(
    gettext_noop(
        "The image is only %(width)sx%(height)s pixels; images need at least %(side)s pixels "
        "on each side to be useful for training."
    )
)
TOO_SMALL_FIX = Message(
    gettext_noop("Remove the image, or upscale it if it really is meant to be this small.")
)

# What the checks of a dataset's labels find (datastore.importing.checks).
BOX_NO_AREA = Message(
    gettext_noop("The '%(label)s' box has no area (from %(x0)s,%(y0)s to %(x1)s,%(y1)s).")
)
BOX_NO_AREA_FIX = Message(
    gettext_noop(
        "Delete the box or redraw it; a box's right and bottom edges must lie past its left and "
        "top edges."
    )
)
BOX_OUTSIDE = Message(
    gettext_noop("The '%(label)s' box lies entirely outside the %(width)sx%(height)s image.")
)
BOX_OUTSIDE_FIX = Message(
    gettext_noop("Check that the labels belong to this image and use pixel coordinates.")
)
BOX_OUTSIDE_NORMALIZED_FIX = Message(
    gettext_noop(
        "Check that the labels belong to this image and use pixel coordinates as fractions of "
        "the image size."
    )
)
BOX_CLIPPED = Message(
    gettext_noop(
        "The '%(label)s' box (%(x0)s,%(y0)s)-(%(x1)s,%(y1)s) reaches past the edge of the "
        "%(width)sx%(height)s image; it was clipped to the image."
    )
)
BOX_CLIPPED_FIX = Message(gettext_noop("Check the box in the labeling page."))
CLASS_EMPTY = Message(
    gettext_noop(
        "The class '%(name)s' has no labeled samples; models rarely learn a class from fewer "
        "than %(minimum)s."
    )
)
CLASS_ONE = Message(
    gettext_noop(
        "The class '%(name)s' has only 1 labeled sample; models rarely learn a class from "
        "fewer than %(minimum)s."
    )
)
CLASS_TOO_FEW = Message(
    gettext_noop(
        "The class '%(name)s' has only %(count)s labeled samples; models rarely learn a class "
        "from fewer than %(minimum)s."
    )
)
CLASS_TOO_FEW_FIX = Message(
    gettext_noop("Add more images of '%(name)s', or merge it into a related class.")
)
IMBALANCED = Message(
    gettext_noop(
        "The classes are imbalanced: '%(largest)s' has %(most)s samples but '%(smallest)s' has "
        "%(fewest)s (%(ratio)s times fewer)."
    )
)
IMBALANCED_FIX = Message(
    gettext_noop(
        "Add images of the rare classes, or use class weights or oversampling when training."
    )
)
