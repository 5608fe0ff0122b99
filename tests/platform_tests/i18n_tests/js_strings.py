"""Finds the user-facing string literals of a page script that no gettext call wraps.

A small JavaScript tokenizer (strings, template literals with their ``${}`` parts, comments,
regular expressions) and two rules over its tokens:

- a literal in a place whose text people read: assigned to ``textContent``, ``title``,
  ``placeholder`` and the like; the value of a ``title``, ``text``, ``name``, ``aria-label``
  (...) property; a child of ``el()`` or ``replace()``; the message of ``confirm()``,
  ``new Error()`` and the pages' own status helpers;
- anywhere else, a literal that reads as English (a capitalised word, or two words), unless
  it sits where only code reads it: a property key, a comparison, a CSS class, a selector, an
  element id, a URL, a header or event name.

It errs towards flagging; what it flags wrongly goes in the allow-list beside the test, with a
reason. It is not a JavaScript parser: it is exact enough for these scripts, which keep one
statement per line or end their statements with semicolons.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

TRANSLATING = {"gettext", "ngettext", "pgettext", "npgettext", "gettext_noop"}
# Assigning one of these puts text on the page.
TEXT_PROPERTIES = {"textContent", "innerText", "title", "placeholder", "alt", "ariaLabel", "label"}
# Object properties whose values people read: element attributes, Plotly titles, legend
# names and hover templates, and the error shape the pages show.
TEXT_KEYS = set(
    "title text name label placeholder aria-label alt hovertemplate error error_fix "
    "ticktext".split()
)
# Properties only code reads.
CODE_KEYS = set(
    "class type mode href src id colorscale color shape symbol hoverinfo hoveron arrangement "
    "orientation textposition fill format method split operation legendgroup meta tickformat "
    "side overlaying rangemode dash yaxis xref yref block inline month day hour minute filename "
    "autorange value download role".split()
)
# Calls whose arguments people read: the position of the first, which the rest follow too
# (children), except for the ONLY_FIRST calls, whose one message is the first.
TEXT_CALL_ARGUMENTS = {
    "el": 2,  # el(tag, attributes, ...children)
    "replace": 1,  # replace(node, ...children)
    "append": 0,
    "prepend": 0,
    "replaceChildren": 0,
    "confirm": 0,
    "alert": 0,
    "prompt": 0,
    "Error": 0,
    "fillText": 0,
    "say": 0,
    "refuse": 0,
    "fail": 0,
    "onStatus": 0,
    "layout": 0,
    "score": 0,
    "axis": 0,
    "figure": 1,
    "thumbnails": 1,
    "drawClasses": 1,
}
ONLY_FIRST = {
    "confirm",
    "alert",
    "prompt",
    "Error",
    "fillText",
    "say",
    "refuse",
    "fail",
    "onStatus",
    "score",
    "axis",
}


@dataclass
class Token:
    kind: str  # "string", "template", "name", "punct", "number", "regex"
    text: str  # a literal's static text (template parts joined by spaces); else the token
    line: int


@dataclass
class Literal:
    text: str
    line: int
    translated: bool
    sink: bool
    code: bool  # where only code reads it


@dataclass
class _Frame:
    opener: str  # "(", "[", "{", "${"
    call: str | None = None  # the called name, for "("
    method: bool = False  # called as .name(
    argument: int = 0
    key: str | None = None  # for "{": the property whose value is being read
    expecting_key: bool = True
    sink: bool = False  # everything inside reads as text (an assignment's value, say)
    start: int = 0


PUNCT = re.compile(
    r"=>|===|!==|==|!=|<=|>=|&&|\|\||\?\?|\?\.|\.\.\.|\*\*|[-+*/%=<>!&|^~?:;,.(){}\[\]]"
)
REGEX_BEFORE = set("(,=:[!&|?{};+-*%<>~^") | {
    "=>",
    "===",
    "!==",
    "==",
    "!=",
    "&&",
    "||",
    "??",
    "return",
    "typeof",
}


def tokenize(source: str) -> list[Token]:
    tokens: list[Token] = []
    i, line, n = 0, 1, len(source)

    def previous() -> str:
        return tokens[-1].text if tokens and tokens[-1].kind in ("punct", "name") else ""

    while i < n:
        c = source[i]
        if c == "\n":
            line += 1
            i += 1
        elif c.isspace():
            i += 1
        elif source.startswith("//", i):
            i = source.find("\n", i) if "\n" in source[i:] else n
        elif source.startswith("/*", i):
            end = source.index("*/", i) + 2
            line += source.count("\n", i, end)
            i = end
        elif c in "\"'":
            j = i + 1
            while source[j] != c:
                j += 2 if source[j] == "\\" else 1
            tokens.append(Token("string", source[i + 1 : j], line))
            i = j + 1
        elif c == "`":
            i, line = _template(source, i, line, tokens)
        elif c == "/" and (not tokens or previous() in REGEX_BEFORE):
            j, in_class = i + 1, False
            while in_class or source[j] != "/":
                if source[j] == "\\":
                    j += 1
                elif source[j] == "[":
                    in_class = True
                elif source[j] == "]":
                    in_class = False
                j += 1
            j += 1
            while j < n and source[j].isalpha():
                j += 1
            tokens.append(Token("regex", source[i:j], line))
            i = j
        elif c.isalpha() or c in "_$":
            m = re.compile(r"[\w$]+").match(source, i)
            tokens.append(Token("name", m.group(), line))
            i = m.end()
        elif c.isdigit():
            m = re.compile(r"[\d_.xXa-fA-FeEn]+").match(source, i)
            tokens.append(Token("number", m.group(), line))
            i = m.end()
        else:
            m = PUNCT.match(source, i)
            tokens.append(Token("punct", m.group(), line))
            i = m.end()
    return tokens


def _template(source: str, i: int, line: int, tokens: list[Token]) -> tuple[int, int]:
    """Appends a template literal as a "template" token, then its ${} parts as tokens inside
    "${" ... "}" brackets; returns the position after it."""
    j, parts, static, start = i + 1, [], [], line
    while source[j] != "`":
        if source[j] == "\\":
            static.append(source[j : j + 2])
            j += 2
        elif source.startswith("${", j):
            depth, k = 1, j + 2
            while depth:
                if source[k] == "{":
                    depth += 1
                elif source[k] == "}":
                    depth -= 1
                elif source[k] in "\"'`":
                    quote = source[k]
                    k += 1
                    while source[k] != quote:
                        k += 2 if source[k] == "\\" else 1
                k += 1
            parts.append(source[j + 2 : k - 1])
            static.append(" ")
            j = k
        else:
            if source[j] == "\n":
                line += 1
            static.append(source[j])
            j += 1
    tokens.append(Token("template", "".join(static), start))
    for part in parts:
        tokens.append(Token("punct", "${", start))
        for inner in tokenize(part):
            inner.line += start - 1
            tokens.append(inner)
        tokens.append(Token("punct", "}", start))
    return j + 1, line


def reads_as_text(text: str) -> bool:
    """Whether a literal's static text has words in it (not just punctuation, numbers, units
    or Plotly's %{placeholders} and <extra> tags)."""
    bare = re.sub(r"%\{[^}]*\}|<[^>]*>|%\(\w+\)s", " ", text)
    return re.search(r"[A-Za-z]{2,}", bare) is not None


def reads_as_english(text: str) -> bool:
    bare = re.sub(r"%\{[^}]*\}|<[^>]*>", " ", text)
    return bool(re.search(r"\b[A-Z][a-z]{2,}|\b[A-Za-z]{2,} [A-Za-z]{2,}\b", bare))


CODE_CALLS = set(
    "$ api request getElementById querySelector querySelectorAll closest matches "
    "addEventListener removeEventListener dispatchEvent CustomEvent setRequestHeader getItem "
    "setItem removeItem get set has toggle add remove contains createElement setAttribute "
    "getAttribute removeAttribute startsWith endsWith includes split join replace test match "
    "open getContext newPlot react purge downloadImage on append escape URL URLSearchParams "
    "toLocaleString setProperty indexOf find focus".split()
)


def literals(source: str) -> list[Literal]:
    tokens = tokenize(source)
    found: list[Literal] = []
    stack: list[_Frame] = [_Frame("{", expecting_key=False)]
    assign_sink_depth: int | None = None
    for index, token in enumerate(tokens):
        before = tokens[index - 1] if index else None
        after = tokens[index + 1] if index + 1 < len(tokens) else None
        top = stack[-1]
        if token.kind == "punct":
            if token.text in ("(", "[", "{", "${"):
                frame = _Frame(token.text, start=index)
                if token.text == "(" and before is not None and before.kind == "name":
                    frame.call = before.text
                    frame.method = index >= 2 and tokens[index - 2].text in (".", "?.")
                if token.text == "{":
                    frame.expecting_key = before is None or before.text not in (")", "=>")
                if (
                    token.text == "["
                    and before is not None
                    and (before.kind == "name" or before.text in (")", "]"))
                ):
                    frame.call = "[]"  # an index: options.headers["Content-Type"]
                stack.append(frame)
            elif token.text in (")", "]", "}") and len(stack) > 1:
                stack.pop()
                if assign_sink_depth is not None and len(stack) <= assign_sink_depth:
                    assign_sink_depth = None
            elif token.text == ",":
                top.argument += 1
                top.key = None
                top.expecting_key = top.opener == "{"
                if assign_sink_depth is not None and len(stack) == assign_sink_depth:
                    assign_sink_depth = None
            elif token.text == ";":
                assign_sink_depth = None
            elif (
                token.text == ":" and top.opener == "{" and top.expecting_key and before is not None
            ):
                top.key = before.text
                top.expecting_key = False
            elif token.text == "=" and before is not None and before.text in TEXT_PROPERTIES:
                if index >= 2 and tokens[index - 2].text in (".", "?."):  # node.title = ...
                    assign_sink_depth = len(stack)
            continue
        if token.kind not in ("string", "template"):
            continue
        if top.opener == "{" and top.expecting_key and after is not None and after.text == ":":
            continue  # a property key
        frames = stack[1:]
        translated = any(f.call in TRANSLATING for f in frames)
        sink = assign_sink_depth is not None
        code = False
        # The innermost frame that decides: skip "(" groups and "${" parts, which pass through.
        for frame in reversed(frames):
            if frame.opener == "(" and frame.call is None or frame.opener == "${":
                continue
            if frame.opener == "{":
                if frame.key in TEXT_KEYS:
                    sink = True
                elif frame.key in CODE_KEYS:
                    code = True
                break
            if frame.opener == "(":
                position = TEXT_CALL_ARGUMENTS.get(frame.call)
                if position is not None and not (
                    frame.method and frame.call in CODE_CALLS - {"append"}
                ):
                    if frame.call in ONLY_FIRST:
                        sink = sink or frame.argument == 0
                    else:
                        sink = sink or frame.argument >= position
                    code = not sink
                elif frame.call in CODE_CALLS or frame.method:
                    code = True
                break
            if frame.opener == "[":
                if frame.call == "[]":
                    code = True
                    break
                continue
        if frame_is_form_field(stack, after):
            code = True
        comparison = {"===", "!==", "==", "!="}
        if (before is not None and before.text in comparison) or (
            after is not None and after.text in comparison
        ):
            code = True
        if (
            before is not None
            and before.text == "="
            and index >= 2
            and tokens[index - 2].text in ("className", "font")
        ):
            code = True
        found.append(Literal(token.text, token.line, translated, sink, code))
    return found


def frame_is_form_field(stack: list[_Frame], after: Token | None) -> bool:
    """formData.append("image", blob): the field's name, not an element's child text."""
    top = stack[-1]
    return (
        top.call == "append"
        and top.method
        and top.argument == 0
        and after is not None
        and after.text == ","
    )


def untranslated(source: str) -> list[Literal]:
    """The literals of `source` that people read and no gettext call wraps."""
    return [
        lit
        for lit in literals(source)
        if not lit.translated
        and reads_as_text(lit.text)
        and not lit.code
        and (lit.sink or reads_as_english(lit.text))
    ]
