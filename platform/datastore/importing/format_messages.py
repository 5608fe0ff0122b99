"""What the format readers, the archive checks and format detection tell people about an
upload's files, stored in English with their keys and shown in the reader's language
(core.stored_messages). The whole upload's and one image's messages are in `messages`."""

from __future__ import annotations

from django.utils.translation import gettext_noop

from core.stored_messages import Message

# Where in a file a problem is (a problem's `where`).
AT_LINE = Message(gettext_noop("line %(number)s"))
AT_LINE_COLUMN = Message(gettext_noop("line %(line)s, column %(column)s"))
AT_CELL = Message(gettext_noop("%(where)s, column '%(column)s'"))
IN_ARCHIVE = Message(gettext_noop("in %(archive)s"))
AT_CLASS = Message(gettext_noop("class '%(name)s'"))
AT_CLASS_COUNTS = Message(gettext_noop("class counts"))

# Which format was found (an import's format note), and the format's place.
FOUND_PPOCR_LABEL = Message(gettext_noop("Found PPOCRLabel labels in %(file)s."))
FOUND_REC_GT = Message(gettext_noop("Found a recognition list in %(file)s."))
FOUND_ICDAR = Message(gettext_noop("Found %(count)s ICDAR 2015 files, such as %(file)s."))
FOUND_FLAT = Message(gettext_noop("Found images without labels."))
FOUND_COCO = Message(gettext_noop("Found COCO annotations in %(file)s."))
FOUND_VOC = Message(gettext_noop("Found %(count)s Pascal VOC XML files, such as %(file)s."))
FOUND_YOLO = Message(gettext_noop("Found %(count)s YOLO label files, such as %(file)s."))
FOUND_LIST_FILES = Message(gettext_noop("Found PaddleX/PaddleClas list files: %(files)s."))
FOUND_CSV = Message(gettext_noop("Found CSV labels in %(file)s."))
FOUND_CLASS_FOLDERS = Message(gettext_noop("Found images sorted into one folder per class."))
NOT_FOR_OCR = Message(gettext_noop("%(format)s labels cannot be imported into an OCR dataset."))
ONLY_FOR_OCR = Message(
    gettext_noop("%(format)s labels cannot be imported into a dataset of this task type.")
)
NOT_FOR_DETECTION = Message(
    gettext_noop("%(format)s labels cannot be imported into an object detection dataset.")
)
NOT_FOR_CLASSIFICATION = Message(
    gettext_noop("%(format)s labels cannot be imported into a classification dataset.")
)
WRONG_TASK_FIX = Message(
    gettext_noop(
        "Create a dataset of the matching task type, or import as 'Flat images' to bring in the "
        "images without their labels."
    )
)
NO_LABEL_FILES = Message(gettext_noop("No %(format)s label files were found in the upload."))
NO_LABEL_FILES_FIX = Message(
    gettext_noop(
        "Check the format you chose, or choose 'Flat images' to import the images without labels."
    )
)

# Archives and the files in them (safezip, sources, tree).
TOO_MANY_ENTRIES = Message(
    gettext_noop("The archive holds %(count)s entries; the limit is %(limit)s.")
)
SPLIT_UPLOAD_FIX = Message(gettext_noop("Split the dataset into several smaller uploads."))
ENCRYPTED = Message(
    gettext_noop(
        "The archive '%(archive)s' is encrypted (entry '%(entry)s' needs a password); Sampan "
        "cannot read encrypted zips."
    )
)
ENCRYPTED_FIX = Message(gettext_noop("Re-create the zip without a password."))
SYMLINK = Message(
    gettext_noop(
        "The archive entry '%(entry)s' is a symbolic link. Links could point anywhere on the "
        "server, so archives holding them are refused."
    )
)
SYMLINK_FIX = Message(
    gettext_noop("Zip the real files instead of links (for `zip`, leave out the -y option).")
)
ENTRY_RATIO = Message(
    gettext_noop(
        "The archive entry '%(entry)s' expands %(ratio)s times (the limit is %(limit)s): this "
        "is how zip bombs are built."
    )
)
OVERALL_RATIO = Message(
    gettext_noop(
        "The archive expands %(ratio)s times overall (the limit is %(limit)s): this is how zip "
        "bombs are built."
    )
)
REZIP_FIX = Message(
    gettext_noop("Re-create the zip with a standard zip tool from the dataset folder itself.")
)
EXPANDS_TOO_MUCH = Message(
    gettext_noop("The archive expands to more than %(mib)s MiB, the most one import may unpack.")
)
NOT_A_ZIP = Message(gettext_noop("'%(archive)s' is not a readable zip file (%(error)s)."))
NOT_A_ZIP_FIX = Message(gettext_noop("Check that the upload finished, then re-create the zip."))
ENTRY_UNPACKABLE = Message(
    gettext_noop("The archive entry '%(entry)s' could not be unpacked (%(error)s).")
)
UPLOAD_TOO_LARGE = Message(
    gettext_noop(
        "'%(name)s' is %(size)s bytes, over the %(limit)s-byte upload limit (MAX_UPLOAD_BYTES)."
    )
)
UPLOAD_TOO_LARGE_FIX = Message(
    gettext_noop(
        "Split the dataset into smaller zips, or ask an administrator to raise MAX_UPLOAD_BYTES."
    )
)
UNSAFE_ENTRY = Message(
    gettext_noop("The archive entry %(problem)s Nothing from this upload was imported.")
)
UNSAFE_ENTRY_FIX = Message(
    gettext_noop(
        "Re-create the zip from inside the dataset folder so that every entry has a plain "
        "relative path."
    )
)
ABSOLUTE_PATH = Message(gettext_noop("'%(name)s' is an absolute path"))
CLIMBS_OUT = Message(gettext_noop("'%(name)s' climbs out of its folder with '..'"))
EMPTY_NAME = Message(gettext_noop("the name is empty"))
CONTROL_CHARACTER = Message(
    gettext_noop("the name contains the invisible control character U+%(code)s")
)
NAME_PART_TOO_LONG = Message(gettext_noop("a part of the name is longer than 255 bytes"))
LEFT_OUT_BECAUSE = Message(gettext_noop("This file was left out because %(problem)s."))
RENAME_FIX = Message(gettext_noop("Rename the file using visible characters only."))
SAME_PATH = Message(gettext_noop("Two uploaded files have this same path; the later one was kept."))
SAME_PATH_FIX = Message(gettext_noop("Upload each file once, or put copies in different folders."))
EXPANDS_PAST_SIZE = Message(
    gettext_noop(
        "'%(path)s' expands to more than its stated size; the archive is damaged or built to "
        "exhaust the disk."
    )
)
STANDARD_ZIP_FIX = Message(gettext_noop("Re-create the zip with a standard zip tool."))
LABEL_FILE_TOO_LARGE = Message(
    gettext_noop(
        "The label file is %(size)s bytes, over the %(limit)s bytes a label file may have."
    )
)
LABEL_FILE_TOO_LARGE_FIX = Message(
    gettext_noop(
        "Split the labels into several smaller files (one per split, for example), or ask an "
        "administrator to raise the label file limit (MAX_LABEL_FILE_BYTES)."
    )
)

# JSON label files (jsonfile).
JSON_TOO_DEEP = Message(
    gettext_noop(
        "The JSON file is nested more than %(limit)s levels deep; label files never need that "
        "many, and reading them could exhaust the server."
    )
)
CHECK_LABEL_FILE_FIX = Message(
    gettext_noop(
        "Check that this is the label file you meant to upload, or re-export it from the "
        "labeling tool."
    )
)
JSON_INVALID = Message(
    gettext_noop("The file is not valid JSON: %(error)s at line %(line)s, column %(column)s.")
)
JSON_INVALID_FIX = Message(
    gettext_noop("Fix the JSON (a missing comma or bracket is the usual cause) and upload again.")
)
JSON_HUGE_NUMBER = Message(gettext_noop("The file holds a number of more than %(digits)s digits."))

# Images without labels (base, folders).
UNLABELED = Message(
    gettext_noop("No label file mentions this image, so it was imported without labels.")
)
UNLABELED_FIX = Message(
    gettext_noop("Label it in the browser, or add it to the label file and import again.")
)
NOT_IN_CLASS_FOLDER = Message(
    gettext_noop("This image is not inside a class folder, so it was imported without a label.")
)
NOT_IN_CLASS_FOLDER_FIX = Message(
    gettext_noop("Move it into the folder named after its class, or label it in the browser.")
)
NOT_FINITE = Message(gettext_noop("%(text)s is not a finite number"))

# PaddleX / PaddleClas list files (listfile).
NOT_A_LIST_LINE = Message(
    gettext_noop("The line '%(line)s' is not an image path followed by a label.")
)
NOT_A_LIST_LINE_FIX = Message(
    gettext_noop("Write each line as `path/to/image.jpg label`, separated by a space.")
)
LINE_NAMES_MISSING = Message(gettext_noop("The line names '%(name)s', which is not in the upload."))
LINE_NAMES_MISSING_FIX = Message(gettext_noop("Upload the image too, or remove the line."))
LABEL_UNUSABLE = Message(gettext_noop("The label '%(label)s' cannot be used: %(cause)s."))
LABEL_UNUSABLE_FIX = Message(gettext_noop("Add the class to %(file)s or fix the label."))
CLASS_NOT_LISTED = Message(gettext_noop("class '%(name)s' is not in the labels file"))
CLASS_INDEX_OUTSIDE = Message(gettext_noop("class index %(index)s is outside 0..%(last)s"))

# OCR label files (ocr).
NOT_UTF8 = Message(
    gettext_noop("This line is not UTF-8 text (an undecodable byte at column %(column)s).")
)
NOT_UTF8_FIX = Message(
    gettext_noop(
        "Save the file as UTF-8 (PPOCRLabel and PaddleOCR read UTF-8 only) and upload it again."
    )
)
LINE_UNREADABLE = Message(gettext_noop("This line cannot be read: %(problem)s."))
LINE_UNREADABLE_FIX = Message(
    gettext_noop("Fix the line (a path, a tab, then the labels) and upload again.")
)
FILE_FIX = Message(gettext_noop("Fix the file and upload again."))
OCR_IMAGE_MISSING = Message(gettext_noop("The image '%(name)s' is not in the upload."))
OCR_IMAGE_MISSING_FIX = Message(
    gettext_noop(
        "Upload the image with the label file (keeping the folders the file names), or remove "
        "its line."
    )
)
ICDAR_IMAGE_MISSING = Message(
    gettext_noop("No image named '%(stem)s' (.jpg, .png, ...) is in the upload for this file.")
)
ICDAR_IMAGE_MISSING_FIX = Message(
    gettext_noop("Upload each image with its gt_ file (gt_img_1.txt labels img_1.jpg).")
)
POINT_OUTSIDE = Message(
    gettext_noop(
        "The text line '%(text)s' has the point (%(x)s, %(y)s) outside the "
        "%(width)sx%(height)s image."
    )
)
TEXT_TOO_LONG = Message(
    gettext_noop("The text has %(length)s characters; a text line may have at most %(limit)s.")
)
TEXT_TOO_LONG_FIX = Message(gettext_noop("Split the line into shorter lines."))

# COCO JSON (coco).
NOT_A_LIST = Message(gettext_noop("`%(key)s` is a %(type)s, not a list."))
NOT_A_LIST_FIX = Message(gettext_noop("Write `%(key)s` as a list of objects, as COCO does."))
CATEGORY_MALFORMED = Message(gettext_noop("A category lacks its `id` (a number) or its `name`."))
CATEGORY_MALFORMED_FIX = Message(gettext_noop("Give every category an `id` and a `name`."))
IMAGE_ENTRY_MALFORMED = Message(
    gettext_noop("An image entry lacks its `id` (a number) or its `file_name`.")
)
IMAGE_ENTRY_MALFORMED_FIX = Message(gettext_noop("Give every image an `id` and a `file_name`."))
LISTED_IMAGE_MISSING = Message(
    gettext_noop("The image '%(name)s' is listed but is not in the upload.")
)
LISTED_IMAGE_MISSING_FIX = Message(gettext_noop("Upload the image too, or remove its entry."))
ANNOTATION_NOT_OBJECT = Message(gettext_noop("An annotation is not a JSON object."))
ANNOTATION_NOT_OBJECT_FIX = Message(
    gettext_noop("Write each annotation as an object with image_id, category_id and bbox.")
)
CATEGORY_UNKNOWN = Message(gettext_noop("The category_id %(id)s is not among the categories."))
CATEGORY_UNKNOWN_FIX = Message(
    gettext_noop("Add the category, or fix the annotation's category_id.")
)
BBOX_NOT_FOUR = Message(gettext_noop("it must be a list of four numbers [x, y, width, height]"))
BBOX_UNREADABLE = Message(gettext_noop("The bbox %(bbox)s cannot be read: %(cause)s."))
BBOX_FIX = Message(gettext_noop("Write bbox as [x, y, width, height] in pixels."))

# Pascal VOC XML (voc).
XML_DOCTYPE = Message(
    gettext_noop(
        "The XML declares a DOCTYPE or entities, which annotation files never need and which "
        "can be used to attack the server."
    )
)
XML_DOCTYPE_FIX = Message(gettext_noop("Remove the <!DOCTYPE ...> block from the file."))
XML_UNREADABLE = Message(gettext_noop("The XML cannot be read: %(error)s."))
XML_UNREADABLE_FIX = Message(gettext_noop("Fix the XML (often an unclosed tag) or re-export it."))
OBJECT_NO_NAME = Message(gettext_noop("An object has no <name>."))
OBJECT_NO_NAME_FIX = Message(gettext_noop("Give each <object> a <name> with its class."))
CORNER_NOT_A_NUMBER = Message(gettext_noop("The box's <%(tag)s> is %(text)s, not a number."))
CORNER_FIX = Message(gettext_noop("Write box corners as numbers of pixels."))
VOC_IMAGE_MISSING = Message(
    gettext_noop("The image '%(name)s' this file describes is not in the upload.")
)
VOC_IMAGE_MISSING_FIX = Message(gettext_noop("Upload the image too, or remove the XML file."))

# YOLO txt (yolo).
YAML_TOO_DEEP = Message(gettext_noop("it is nested too deeply"))
YAML_VALUE = Message(gettext_noop("a value in it cannot be converted (%(error)s)"))
YAML_UNREADABLE = Message(gettext_noop("The YAML cannot be read: %(problem)s."))
YAML_UNREADABLE_FIX = Message(gettext_noop("Fix the YAML, or list class names in classes.txt."))
YAML_NAMES_NOT_PLAIN = Message(gettext_noop("The class names under `names:` must be plain text."))
YAML_NAMES_NOT_PLAIN_FIX = Message(
    gettext_noop("Write `names:` as a list of class names, or list them in classes.txt.")
)
NO_CLASS_NAMES = Message(
    gettext_noop(
        "No classes.txt, obj.names or data.yaml was found, so classes are named by their numbers."
    )
)
NO_CLASS_NAMES_FIX = Message(gettext_noop("Add a classes.txt with one class name per line."))
YOLO_IMAGE_MISSING = Message(gettext_noop("No image with this label file's name is in the upload."))
YOLO_IMAGE_MISSING_FIX = Message(
    gettext_noop(
        "Upload the image beside it (or in the matching images/ folder), or remove the label file."
    )
)
FIELD_COUNT = Message(gettext_noop("it has %(count)s fields instead of 5"))
YOLO_LINE_UNREADABLE = Message(gettext_noop("The line '%(line)s' cannot be read: %(cause)s."))
YOLO_LINE_FIX = Message(
    gettext_noop(
        "Write each line as `class cx cy w h`, with the box centre and size as fractions of the "
        "image (0 to 1)."
    )
)
YOLO_CLASS_OUTSIDE = Message(
    gettext_noop("Class %(index)s is not among the %(count)s classes in the class-names file.")
)
YOLO_CLASS_FIX = Message(gettext_noop("Fix the class number, or add the class to classes.txt."))

# CSV (csvfile).
CSV_NO_IMAGE_COLUMN = Message(
    gettext_noop("The CSV has no column for the image file name; its columns are: %(columns)s.")
)
CSV_NO_LABEL_COLUMN = Message(
    gettext_noop("The CSV has no column for the label; its columns are: %(columns)s.")
)
NO_COLUMNS = Message(gettext_noop("(none)"))
AND_MORE_COLUMNS = Message(gettext_noop("%(columns)s and %(count)s more"))
CSV_COLUMNS_FIX = Message(
    gettext_noop(
        "Name the columns `filename` and `label` (and optionally `split`, and "
        "`xmin,ymin,xmax,ymax` for boxes)."
    )
)
CSV_UNREADABLE = Message(gettext_noop("The CSV cannot be read at line %(line)s: %(error)s."))
CSV_QUOTES_FIX = Message(
    gettext_noop(
        "Check the quotes around that line: a quote that is opened and never closed makes the "
        "rest of the file one cell."
    )
)
ROW_FIELD_COUNT = Message(
    gettext_noop("This row has %(count)s fields but the header has %(header)s.")
)
ROW_FIELD_COUNT_FIX = Message(
    gettext_noop("Quote fields that contain commas, and give every row the header's columns.")
)
ROW_NAMES_MISSING = Message(gettext_noop("The row names '%(name)s', which is not in the upload."))
ROW_NAMES_MISSING_FIX = Message(gettext_noop("Upload the image too, or remove the row."))
COORDINATE_NOT_A_NUMBER = Message(gettext_noop("A box coordinate is not a number (%(error)s)."))
COORDINATE_FIX = Message(gettext_noop("Write box coordinates as plain numbers of pixels."))
BOX_ROW_ONE_CLASS = Message(gettext_noop("A box row needs exactly one class."))
BOX_ROW_ONE_CLASS_FIX = Message(
    gettext_noop("Write one row per box, with its class in the label column.")
)
