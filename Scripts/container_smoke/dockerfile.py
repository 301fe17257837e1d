"""Reads a Dockerfile into stages of instructions, and a .dockerignore into a matcher.

Only what the container smoke test needs: line continuations, comments, JSON (exec) and shell
forms, `FROM … AS name`, and flags such as `COPY --from=build` or `HEALTHCHECK --interval=10s`.
Anything the smoke test cannot reproduce is refused by its caller, not silently skipped.
"""

from __future__ import annotations

import json
import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Instruction:
    keyword: str            # upper case: FROM, RUN, COPY, …
    arguments: str          # the text after the keyword, continuations joined
    line: int               # where it starts in the Dockerfile, for messages

    def flags_and_rest(self) -> tuple[dict[str, str], str]:
        """Leading `--name=value` flags, and the text after them."""
        flags: dict[str, str] = {}
        rest = self.arguments
        while True:
            match = re.match(r"--([a-z-]+)=(\S+)\s+", rest)
            if not match:
                return flags, rest
            flags[match.group(1)] = match.group(2)
            rest = rest[match.end():]

    def command(self) -> list[str]:
        """The argument as an exec-form list; shell form becomes `/bin/sh -c …`, as Docker runs it."""
        _, rest = self.flags_and_rest()
        if rest.startswith("CMD "):           # HEALTHCHECK's own CMD keyword
            rest = rest[4:].lstrip()
        if rest.startswith("["):
            value = json.loads(rest)
            if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
                raise DockerfileError(self.line, f"{self.keyword} wants a JSON array of strings")
            return value
        return ["/bin/sh", "-c", rest]

    def words(self) -> list[str]:
        _, rest = self.flags_and_rest()
        return shlex.split(rest)


@dataclass
class Stage:
    image: str
    name: str | None
    instructions: list[Instruction] = field(default_factory=list)

    def all(self, keyword: str) -> list[Instruction]:
        return [item for item in self.instructions if item.keyword == keyword]

    def last(self, keyword: str) -> Instruction | None:
        found = self.all(keyword)
        return found[-1] if found else None


def shell_commands(script: str) -> list[list[str]]:
    """The `&&`-joined commands of a shell-form RUN line, each split into words."""
    return [shlex.split(command) for command in script.split("&&")]


def apt_installs(words: list[str]) -> list[str] | None:
    """The packages of an `apt-get install …` command; None for any other command."""
    if words[:2] != ["apt-get", "install"]:
        return None
    return [word for word in words[2:] if not word.startswith("-")]


class DockerfileError(Exception):
    def __init__(self, line: int, message: str):
        super().__init__(f"Dockerfile:{line}: {message}")


def parse_dockerfile(path: Path) -> list[Stage]:
    """The stages, in order; the last is the image that ships."""
    stages: list[Stage] = []
    pending = ""
    start = 0
    for number, raw in enumerate(path.read_text().splitlines(), start=1):
        stripped = raw.strip()
        if not pending and (not stripped or stripped.startswith("#")):
            continue
        if pending and stripped.startswith("#"):
            continue                       # a comment inside a continued instruction
        if not pending:
            start = number
        if stripped.endswith("\\"):
            pending += stripped[:-1].rstrip() + " "
            continue
        text = pending + stripped
        pending = ""
        keyword, _, arguments = text.partition(" ")
        instruction = Instruction(keyword.upper(), arguments.strip(), start)
        if instruction.keyword == "FROM":
            words = instruction.arguments.split()
            name = words[2] if len(words) == 3 and words[1].upper() == "AS" else None
            if len(words) not in (1, 3) or (len(words) == 3 and name is None):
                raise DockerfileError(start, "FROM wants 'image' or 'image AS name'")
            stages.append(Stage(image=words[0], name=name))
        elif not stages:
            raise DockerfileError(start, f"{instruction.keyword} before the first FROM")
        else:
            stages[-1].instructions.append(instruction)
    if pending:
        raise DockerfileError(start, "the last instruction ends with a line continuation")
    return stages


class DockerIgnore:
    """Docker's .dockerignore rules: patterns relative to the context, `*` and `?` within one
    path segment, `**` across any number, a leading `!` re-includes, and the last pattern that
    matches the path or a folder above it decides."""

    def __init__(self, patterns: list[tuple[bool, re.Pattern[str]]]):
        self.patterns = patterns

    @classmethod
    def load(cls, context: Path) -> "DockerIgnore":
        path = context / ".dockerignore"
        patterns: list[tuple[bool, re.Pattern[str]]] = []
        if path.exists():
            for line in path.read_text().splitlines():
                line = line.strip()
                if not line or line.startswith("#"):
                    continue
                include = line.startswith("!")
                pattern = line[1:] if include else line
                pattern = pattern.strip("/")
                if pattern:
                    patterns.append((include, re.compile(cls._regex(pattern))))
        return cls(patterns)

    @staticmethod
    def _regex(pattern: str) -> str:
        out = ""
        index = 0
        while index < len(pattern):
            if pattern.startswith("**/", index):
                out += "(?:.*/)?"
                index += 3
            elif pattern.startswith("**", index):
                out += ".*"
                index += 2
            elif pattern[index] == "*":
                out += "[^/]*"
                index += 1
            elif pattern[index] == "?":
                out += "[^/]"
                index += 1
            else:
                out += re.escape(pattern[index])
                index += 1
        return out + r"\Z"

    def excludes(self, relative: str) -> bool:
        """Docker's rule: a pattern matches a path when it matches the path or a folder above
        it, and the last pattern that matches decides."""
        parts = relative.strip("/").split("/")
        prefixes = ["/".join(parts[:depth]) for depth in range(1, len(parts) + 1)]
        excluded = False
        for include, regex in self.patterns:
            if any(regex.match(prefix) for prefix in prefixes):
                excluded = not include
        return excluded
