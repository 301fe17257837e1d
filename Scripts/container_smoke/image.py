"""The image the runtime stage describes: where its file system is, and how a container of it
starts (user, working folder, environment, ports, health check, entry point and command)."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path

# What `docker run` starts a container with when the image sets no PATH of its own.
DEFAULT_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"


@dataclass
class ImageConfig:
    rootfs: str
    user: str = "root"
    workdir: str = "/"
    environment: dict[str, str] = field(default_factory=lambda: {"PATH": DEFAULT_PATH})
    exposed: list[str] = field(default_factory=list)
    volumes: list[str] = field(default_factory=list)
    healthcheck: list[str] = field(default_factory=list)
    healthcheck_timeout: float = 30.0       # Docker's default --timeout
    entrypoint: list[str] = field(default_factory=list)
    command: list[str] = field(default_factory=list)
    apt_packages: list[str] = field(default_factory=list)
    # Context folders copied in, by source: {"Fixtures": "/usr/local/share/mockstack/Fixtures"}.
    copied: dict[str, str] = field(default_factory=dict)

    def save(self, path: Path) -> None:
        path.write_text(json.dumps(asdict(self), indent=2))

    @classmethod
    def load(cls, path: Path) -> "ImageConfig":
        return cls(**json.loads(path.read_text()))


class Account:
    """The image's USER, looked up in the image's own /etc/passwd and /etc/group."""

    def __init__(self, config: ImageConfig):
        rootfs = Path(config.rootfs)
        name, _, group = config.user.partition(":")
        entry = _lookup(rootfs / "etc/passwd", name)
        if entry is None:
            raise SystemExit(f"USER {config.user}: no such user in the image's /etc/passwd")
        self.name = entry[0]
        self.uid = int(entry[2])
        self.gid = int(entry[3]) if not group else int(_lookup(rootfs / "etc/group", group)[2])
        self.home = entry[5]
        self.groups = [int(line[2]) for line in _entries(rootfs / "etc/group") if self.name in line[3].split(",")]

    def userspec(self) -> list[str]:
        groups = ",".join(str(gid) for gid in [self.gid, *self.groups])
        return [f"--userspec={self.uid}:{self.gid}", f"--groups={groups}"]


def in_workdir(workdir: str, command: list[str]) -> list[str]:
    """A command that starts in `workdir` inside the image (chroot itself starts in /)."""
    if workdir == "/":
        return command
    return ["/bin/sh", "-c", 'cd "$0" && exec "$@"', workdir, *command]


def _entries(path: Path) -> list[list[str]]:
    return [line.split(":") for line in path.read_text().splitlines() if line and not line.startswith("#")]


def _lookup(path: Path, name: str) -> list[str] | None:
    for entry in _entries(path):
        if entry[0] == name or entry[2] == name:
            return entry
    return None
