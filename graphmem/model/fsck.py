"""What `fsck` reports: each check of a space, and its problems."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Check:
    name: str
    problems: tuple[str, ...] = ()
    fails: bool = True

    @property
    def ok(self) -> bool:
        return not self.problems

    def __str__(self) -> str:
        if self.ok:
            return f"ok    {self.name}"
        mark = "FAIL" if self.fails else "warn"
        return "\n".join([f"{mark}  {self.name}: {len(self.problems)} problem(s)",
                          *(f"      {p}" for p in self.problems)])


@dataclass(frozen=True)
class Report:
    space: str
    checks: tuple[Check, ...]

    @property
    def ok(self) -> bool:
        return all(c.ok or not c.fails for c in self.checks)

    def check(self, name: str) -> Check:
        return next(c for c in self.checks if c.name == name)

    def __str__(self) -> str:
        return "\n".join([f"space {self.space}:", *(str(c) for c in self.checks)])
