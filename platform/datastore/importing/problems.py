"""Validation problems: where, what and how to fix it, in plain language."""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, field
from enum import StrEnum
from typing import Any

from core.stored_messages import said_json, translated
from datastore.importing import messages as said

SAME_PROBLEM_LIMIT = 100  # problems of one code kept per file; the rest are counted
SHOWN_FIELDS = ("reason", "fix", "where")  # the fields stored with their message keys


class Severity(StrEnum):
    ERROR = "error"  # the file or label was left out of the import
    WARNING = "warning"  # imported, but worth a look
    INFO = "info"


@dataclass(frozen=True)
class Problem:
    code: str
    severity: Severity
    file: str  # path inside the upload, "" for problems of the whole dataset
    where: str  # line, field or element inside the file, "" when the whole file is at fault
    reason: str
    fix: str

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = asdict(self)
        data["severity"] = str(self.severity)
        keys = {name: said_json(getattr(self, name)) for name in SHOWN_FIELDS}
        if any(keys.values()):  # the keys the report page translates with (shown_problem)
            data["said"] = {name: key for name, key in keys.items() if key}
        return data


def shown_problem(problem: dict[str, Any]) -> dict[str, Any]:
    """A stored problem (`Problem.to_json`) as people read it: reason, fix and where in the
    active language where their keys were stored, without the keys."""
    keys = problem.get("said") or {}
    shown = {name: value for name, value in problem.items() if name != "said"}
    for name in SHOWN_FIELDS:
        if name in shown:
            shown[name] = translated(shown[name], keys.get(name))
    return shown


class ImportRejected(Exception):
    """The whole upload is refused (hostile archive, wrong format for the task type...)."""

    def __init__(self, reason: str, fix: str, file: str = "", report: Report | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.fix = fix
        self.file = file
        self.report = report  # every problem found, when there were several (kept on the job)


@dataclass
class Report:
    """Problems in the order found. At most SAME_PROBLEM_LIMIT of one code are kept per file and
    the rest only counted, so a label file with a million bad lines cannot fill the memory (or
    the job's report) with a million messages."""

    problems: list[Problem] = field(default_factory=list)
    left_out: Counter[tuple[str, str, Severity]] = field(default_factory=Counter)
    kept: Counter[tuple[str, str]] = field(default_factory=Counter)  # by (file, code)

    def _keep(self, problem: Problem) -> None:
        key = (problem.file, problem.code)
        if self.kept[key] < SAME_PROBLEM_LIMIT:
            self.kept[key] += 1
            self.problems.append(problem)
        else:
            self.left_out[(problem.file, problem.code, problem.severity)] += 1

    def add(
        self,
        code: str,
        severity: Severity,
        file: str,
        reason: str,
        fix: str,
        where: str = "",
    ) -> Problem:
        problem = Problem(code, severity, file, where, reason, fix)
        self._keep(problem)
        return problem

    def error(self, code: str, file: str, reason: str, fix: str, where: str = "") -> Problem:
        return self.add(code, Severity.ERROR, file, reason, fix, where)

    def warning(self, code: str, file: str, reason: str, fix: str, where: str = "") -> Problem:
        return self.add(code, Severity.WARNING, file, reason, fix, where)

    def extend(self, other: Report) -> None:
        for problem in other.problems:
            self._keep(problem)
        self.left_out.update(other.left_out)

    def by_file(self) -> dict[str, list[Problem]]:
        grouped: dict[str, list[Problem]] = {}
        for problem in self.problems:
            grouped.setdefault(problem.file, []).append(problem)
        return grouped

    def counts(self) -> dict[str, int]:
        counts = Counter(str(p.severity) for p in self.problems)
        for (_, _, severity), count in self.left_out.items():
            counts[str(severity)] += count
        return dict(counts)

    def _summaries(self) -> list[Problem]:
        return [
            Problem(
                code,
                severity,
                file,
                "",
                said.LEFT_OUT(count=f"{count:,}"),
                said.LEFT_OUT_FIX(),
            )
            for (file, code, severity), count in self.left_out.items()
        ]

    def to_json(self) -> dict[str, object]:
        by_code = Counter(p.code for p in self.problems)
        for (_, code, _), count in self.left_out.items():
            by_code[code] += count
        return {
            "counts": self.counts(),
            "by_code": dict(by_code),
            "problems": [p.to_json() for p in self.problems + self._summaries()],
        }
