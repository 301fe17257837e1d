"""Runs the assembled image the way `docker run` would, minus Docker: the entry point plus the
command as the image's user, chrooted into its file system, as PID 1 of a new PID namespace
with its own /proc, with the image's environment, and with volumes bind-mounted. The caller is
already inside a private network and mount namespace (see main.py), so ports and mounts end
with it."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

from .image import Account, ImageConfig, in_workdir


class Container:
    def __init__(self, config: ImageConfig, environment: dict[str, str] | None = None,
                 volumes: dict[str, Path] | None = None):
        self.config = config
        self.rootfs = Path(config.rootfs)
        self.account = Account(config)
        self.environment = {**config.environment, "HOME": self.account.home, "HOSTNAME": "mockstack-smoke",
                            **(environment or {})}
        self.volumes = volumes or {}
        self.process: subprocess.Popen[bytes] | None = None
        self.log = Path(config.rootfs).parent / "container.log"

    def start(self) -> None:
        for inside, outside in self.volumes.items():
            mount_point = self.rootfs / inside.lstrip("/")
            mount_point.mkdir(parents=True, exist_ok=True)
            subprocess.run(["mount", "--bind", "-o", "ro", str(outside), str(mount_point)], check=True)
        command = self.config.entrypoint + self.config.command
        self.process = subprocess.Popen(
            ["unshare", "--pid", "--fork", f"--mount-proc={self.rootfs / 'proc'}", "--kill-child",
             "chroot", *self.account.userspec(), str(self.rootfs), *in_workdir(self.config.workdir, command)],
            env=self.environment, stdout=self.log.open("wb"), stderr=subprocess.STDOUT)

    def exec(self, command: list[str], timeout: float = 10) -> subprocess.CompletedProcess[str]:
        """`docker exec`: a command in the container's mount and PID namespaces (so it sees its
        /proc, which Swift reads its arguments from), in its file system, as its user, with its
        environment."""
        return subprocess.run(["nsenter", f"--target={self.init_pid()}", "--mount", "--pid", "--",
                               "chroot", *self.account.userspec(), str(self.rootfs), *command],
                              env=self.environment, capture_output=True, text=True, timeout=timeout)

    def init_pid(self) -> int:
        """The host's pid for the container's PID 1 (unshare's only child)."""
        assert self.process is not None
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            children = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children").read_text().split()
            if children:
                return int(children[0])
            time.sleep(0.02)
        raise SystemExit("the container's PID 1 did not start")

    def stop(self, timeout: float = 10) -> int | None:
        """`docker stop`: SIGTERM to PID 1, then, after `timeout` seconds, SIGKILL. The exit status,
        or None when it had to be killed."""
        if self.process is None:
            return None
        status: int | None = None
        try:
            os.kill(self.init_pid(), signal.SIGTERM)
            status = self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        except (SystemExit, FileNotFoundError, ProcessLookupError):
            status = self.process.wait(timeout=timeout)
        finally:
            for inside in self.volumes:
                subprocess.run(["umount", str(self.rootfs / inside.lstrip("/"))], check=False)
            self.process = None
        return status

    def output(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""
