"""Validation problems: where, what and how to fix it, in plain language."""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, field
from enum import StrEnum


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

    def to_json(self) -> dict[str, str]:
        data = asdict(self)
        data["severity"] = str(self.severity)
        return data


class ImportRejected(Exception):
    """The whole upload is refused (hostile archive, wrong format for the task type...)."""

    def __init__(self, reason: str, fix: str, file: str = "") -> None:
        super().__init__(reason)
        self.reason = reason
        self.fix = fix
        self.file = file


@dataclass
class Report:
    problems: list[Problem] = field(default_factory=list)

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
        self.problems.append(problem)
        return problem

    def error(self, code: str, file: str, reason: str, fix: str, where: str = "") -> Problem:
        return self.add(code, Severity.ERROR, file, reason, fix, where)

    def warning(self, code: str, file: str, reason: str, fix: str, where: str = "") -> Problem:
        return self.add(code, Severity.WARNING, file, reason, fix, where)

    def extend(self, other: Report) -> None:
        self.problems.extend(other.problems)

    def by_file(self) -> dict[str, list[Problem]]:
        grouped: dict[str, list[Problem]] = {}
        for problem in self.problems:
            grouped.setdefault(problem.file, []).append(problem)
        return grouped

    def counts(self) -> dict[str, int]:
        return dict(Counter(str(p.severity) for p in self.problems))

    def to_json(self) -> dict[str, object]:
        return {
            "counts": self.counts(),
            "by_code": dict(Counter(p.code for p in self.problems)),
            "problems": [p.to_json() for p in self.problems],
        }
