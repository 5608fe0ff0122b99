"""What an unexpected error may tell the person who started the work.

Job failures are shown on pages and in API answers to workspace members, who should learn
what went wrong, but not where the server keeps its files: an `OSError` names the full path.
"""

from __future__ import annotations

import re

# An absolute POSIX path with at least one folder ("/srv/sampan/var/media/x.zip"), not the path
# part of a URL ("http://host/a/b") and not a fraction ("3/4"): a path starts after a space,
# a quote or a bracket, or at the start of the text.
_ABSOLUTE_PATH = re.compile(r"(?<![\w.:/\\-])/(?:[^\s'\"/:()<>\[\]]+/)+([^\s'\"/:()<>\[\]]*)")


def without_paths(text: str) -> str:
    """``text`` with every absolute path cut to its last part ("…/x.zip")."""
    return _ABSOLUTE_PATH.sub(lambda match: f"…/{match.group(1)}", text)


def describe_unexpected(error: BaseException) -> str:
    """``"KindOfError: message"``, without server paths, for a job's failure reason."""
    message = str(error)
    return without_paths(f"{type(error).__name__}: {message}" if message else type(error).__name__)
