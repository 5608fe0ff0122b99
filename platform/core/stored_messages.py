"""Texts that workers store in English, translated when they are shown.

A worker writes a job's failure reason, a log line or an import problem long before anyone
reads it, and does not know the reader's language. So it stores two things: the English text
(what old rows, logs and admins read), and beside it the message's msgid and parameters. A page
or an API answer renders the msgid in the request's language with the same parameters.

    UNREADABLE = Message("The image “%(name)s” could not be read: %(cause)s.")
    job.mark_failed(UNREADABLE(name="cat.jpg", cause="truncated"))   # stores both
    translated(job.error, job.said.get("error"))   # "无法读取图片“cat.jpg”：truncated。"

A parameter may itself be a `Said` (translated too), or a `Joined` run of texts, some of them
`Said`s, joined by a separator that reads the same in every language (an epoch's numbers).
`in_language` renders a `Said` in the active language at once (a request-time answer).

Every `Message` is declared at import time in a module under `platform/` (so makemessages
finds its msgid) and registered here; `MESSAGES` is what the catalog test checks. A stored key
is used only when its msgid is still declared and its English rendering is the stored text:
a row written before this existed, or whose text was changed by code that did not know about
the key, shows its stored English instead of a stale translation.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext

from core.cjk_spacing import filled

MESSAGES: dict[str, Message] = {}
Params = dict[str, Any]


class Said(str):
    """English text that remembers the msgid and parameters it was made from. It is a `str`, so
    it goes anywhere text goes; `said_json` keeps what it remembers."""

    msgid: str
    params: Params

    def __new__(cls, msgid: str, params: Params) -> Said:
        text = super().__new__(cls, msgid % params if params else msgid)
        text.msgid, text.params = msgid, params
        return text

    def __reduce__(self) -> tuple[type[Said], tuple[str, Params]]:
        return (Said, (self.msgid, self.params))  # copies and pickles keep the key

    def to_json(self) -> dict[str, Any]:
        return {"msgid": self.msgid, "params": {k: _param_json(v) for k, v in self.params.items()}}

    def cleaned(self, clean: Callable[[str], str]) -> Said:
        """The same message with `clean` applied to every text parameter (server paths cut)."""
        params = {k: _cleaned(v, clean) for k, v in self.params.items()}
        return Said(self.msgid, params)


class Joined(str):
    """Texts joined by a separator that reads the same in every language (" · " between an
    epoch's numbers), as one message parameter: each part that is a `Said` is translated."""

    separator: str
    parts: tuple[str, ...]

    def __new__(cls, separator: str, parts: list[str] | tuple[str, ...]) -> Joined:
        text = super().__new__(cls, separator.join(parts))
        text.separator, text.parts = separator, tuple(parts)
        return text

    def __reduce__(self) -> tuple[type[Joined], tuple[str, tuple[str, ...]]]:
        return (Joined, (self.separator, self.parts))

    def to_json(self) -> dict[str, Any]:
        return {"joined": self.separator, "parts": [_param_json(p) for p in self.parts]}


class Message:
    """A text workers store, declared once. Calling it with the msgid's parameters gives the
    English `Said`; the msgid is marked with gettext_noop by being a `Message(...)` literal."""

    def __init__(self, msgid: str) -> None:
        self.msgid = msgid
        MESSAGES[msgid] = self

    def __call__(self, **params: Any) -> Said:
        return Said(self.msgid, params)

    def __repr__(self) -> str:
        return f"Message({self.msgid!r})"


def _param_json(value: Any) -> Any:
    if isinstance(value, Said | Joined):
        return value.to_json()
    if isinstance(value, str | int | float | bool) or value is None:
        return value
    return str(value)


def _cleaned(value: Any, clean: Callable[[str], str]) -> Any:
    if isinstance(value, Said):
        return value.cleaned(clean)
    if isinstance(value, Joined):
        return Joined(value.separator, [_cleaned(p, clean) for p in value.parts])
    return clean(value) if isinstance(value, str) else value


def said_json(text: str) -> dict[str, Any]:
    """What to store beside `text`: its msgid and parameters, or {} for plain text."""
    return text.to_json() if isinstance(text, Said) else {}


def from_json(value: Any) -> Any:
    """The `Said` or `Joined` that `to_json` gave (a message carried across a process), or
    `value` itself for a plain parameter."""
    if _is_said(value):
        params = {k: from_json(v) for k, v in (value.get("params") or {}).items()}
        return Said(value["msgid"], params)
    if _is_joined(value):
        return Joined(value["joined"], [from_json(p) for p in value["parts"]])
    return value


def said_of(error: BaseException) -> str:
    """An exception's message, as the `Said` it was raised with where it was raised with one
    (a message parameter then translates too)."""
    first = error.args[0] if len(error.args) == 1 else None
    return first if isinstance(first, Said) else str(error)


def _is_said(value: Any) -> bool:
    return isinstance(value, dict) and isinstance(value.get("msgid"), str)


def _is_joined(value: Any) -> bool:
    return (
        isinstance(value, dict)
        and isinstance(value.get("joined"), str)
        and isinstance(value.get("parts"), list)
    )


def _render_param(value: Any, lookup: Callable[[str], str], spaced: bool) -> Any:
    """A stored parameter rendered; None when a message in it is no longer declared."""
    if _is_said(value):
        return _render(value, lookup, spaced)
    if _is_joined(value):
        parts = [_render_param(part, lookup, spaced) for part in value["parts"]]
        return None if None in parts else value["joined"].join(str(p) for p in parts)
    return value


def _render(said: dict[str, Any], lookup: Callable[[str], str], spaced: bool) -> str | None:
    """`said` rendered with `lookup`'s texts; `spaced` puts a space where a parameter meets
    Chinese and Latin (core.cjk_spacing), never in the English that stored text is checked
    against."""
    msgid = said["msgid"]
    if msgid not in MESSAGES:
        return None
    params = {}
    for name, value in (said.get("params") or {}).items():
        params[name] = _render_param(value, lookup, spaced)
        if params[name] is None:
            return None
    try:
        if not params:
            return lookup(msgid)
        return filled(lookup(msgid), params) if spaced else lookup(msgid) % params
    except (KeyError, TypeError, ValueError):  # a translation that lost a placeholder
        return None


def in_language(text: str) -> str:
    """A text made now (a `Said`, or plain text) in the active language."""
    return translated(text, said_json(text))


def translated(text: str, said: Any) -> str:
    """`text` in the active language when `said` (what `said_json` stored) still describes it;
    otherwise `text` itself, as stored."""
    if not _is_said(said) or _render(said, str, spaced=False) != text:
        return text
    return _render(said, gettext, spaced=True) or text
