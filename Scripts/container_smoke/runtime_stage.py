"""Assembles the Dockerfile's last stage as a root file system in a folder, without Docker:
its Debian base from Debian's own packages (debootstrap, minbase), its RUN lines run inside it
with chroot, its COPYs from the build stage and the context, and its run-time settings (user,
environment, ports, health check, entry point, command) kept for the container run."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path, PurePosixPath

from .build_stage import BuildStage
from .dockerfile import DockerIgnore, DockerfileError, Instruction, Stage, apt_installs, shell_commands
from .files import own_by_root, sync_file, sync_tree
from .image import Account, ImageConfig, in_workdir
from .report import step

MIRROR = os.environ.get("MOCKSTACK_DEBIAN_MIRROR") or "http://deb.debian.org/debian"


class RuntimeStage:
    def __init__(self, stage: Stage, stages: dict[str, BuildStage], context: Path, workspace: Path):
        self.stage = stage
        self.stages = stages
        self.context = context
        self.workspace = workspace
        self.ignore = DockerIgnore.load(context)
        self.rootfs = workspace / "rootfs"
        self.config = ImageConfig(rootfs=str(self.rootfs))

    def assemble(self) -> ImageConfig:
        self._base()
        for instruction in self.stage.instructions:
            handler = getattr(self, f"_{instruction.keyword.lower()}", None)
            if handler is None:
                raise DockerfileError(instruction.line, f"the smoke test cannot reproduce {instruction.keyword}")
            handler(instruction)
        return self.config

    # The base image: debootstrap once per release, then a fresh copy for every run.
    def _base(self) -> None:
        match = re.fullmatch(r"debian:(\w+)(-slim)?", self.stage.image)
        if not match:
            raise SystemExit(f"the runtime stage's image '{self.stage.image}' is not debian:<release>[-slim]")
        release = match.group(1)
        base = self.workspace / f"debootstrap-{release}-minbase"
        if not (base / "etc/debian_version").exists():
            shutil.rmtree(base, ignore_errors=True)
            step(f"runtime stage: debootstrap --variant=minbase {release} from {MIRROR} (once; cached in {base})")
            subprocess.run(["debootstrap", "--variant=minbase", release, str(base), MIRROR], check=True,
                           stdout=subprocess.DEVNULL)
        shutil.rmtree(self.rootfs, ignore_errors=True)
        subprocess.run(["cp", "-a", str(base), str(self.rootfs)], check=True)
        step(f"runtime stage: {self.stage.image} as a fresh copy of the {release} minbase tree")

    def _run(self, instruction: Instruction) -> None:
        """As Docker runs it: as the current USER, in the current WORKDIR, with the ENV so far, and
        with a /proc of its own (mockstack reads its arguments there)."""
        # Docker's build containers get the host's DNS; apt-get needs it.
        shutil.copy("/etc/resolv.conf", self.rootfs / "etc/resolv.conf")
        if not instruction.arguments.startswith("["):
            self.config.apt_packages += [package for words in shell_commands(instruction.arguments)
                                         for package in apt_installs(words) or []]
        step(f"runtime stage: RUN {instruction.arguments}")
        account = Account(self.config)
        subprocess.run(["unshare", "--pid", "--fork", f"--mount-proc={self.rootfs / 'proc'}", "--kill-child",
                        "chroot", *account.userspec(), str(self.rootfs), *in_workdir(self.config.workdir, instruction.command())],
                       check=True, env={**self.config.environment, "HOME": account.home}, stdout=subprocess.DEVNULL)

    def _copy(self, instruction: Instruction) -> None:
        flags, _ = instruction.flags_and_rest()
        unknown = set(flags) - {"from"}
        if unknown:
            raise DockerfileError(instruction.line, f"the smoke test cannot reproduce COPY --{', --'.join(sorted(unknown))}")
        *sources, destination = instruction.words()
        target = self.rootfs / str(PurePosixPath(self.config.workdir) / destination).lstrip("/")
        for source in sources:
            if "from" in flags:
                stage = self.stages.get(flags["from"])
                if stage is None:
                    raise DockerfileError(instruction.line, f"no stage named '{flags['from']}'")
                origin = stage.host_path("/" + source.lstrip("/"))   # relative to that stage's root, not its WORKDIR
            else:
                if self.ignore.excludes(source):
                    raise DockerfileError(instruction.line, f"COPY source '{source}' is excluded by .dockerignore")
                origin = self.context / source
                self.config.copied[str(PurePosixPath(source))] = str(PurePosixPath(self.config.workdir) / destination)
            if not origin.exists():
                raise DockerfileError(instruction.line, f"COPY source '{source}' does not exist (looked at {origin})")
            step(f"runtime stage: COPY {source} → {destination}")
            if origin.is_dir():
                copied = sync_tree(origin, target, None if "from" in flags else self.ignore, source)
            else:
                landing = target / origin.name if destination.endswith("/") else target
                sync_file(origin, landing)
                copied = {landing}
            own_by_root(self.rootfs, copied)

    def _env(self, instruction: Instruction) -> None:
        for word in instruction.words():
            key, equals, value = word.partition("=")
            if not equals:
                raise DockerfileError(instruction.line, "ENV wants key=value pairs")
            self.config.environment[key] = value

    def _workdir(self, instruction: Instruction) -> None:
        self.config.workdir = str(PurePosixPath(self.config.workdir) / instruction.arguments)
        (self.rootfs / self.config.workdir.lstrip("/")).mkdir(parents=True, exist_ok=True)

    def _user(self, instruction: Instruction) -> None:
        self.config.user = instruction.arguments

    def _expose(self, instruction: Instruction) -> None:
        self.config.exposed += instruction.words()

    def _volume(self, instruction: Instruction) -> None:
        self.config.volumes += instruction.command() if instruction.arguments.startswith("[") else instruction.words()

    def _healthcheck(self, instruction: Instruction) -> None:
        flags, _ = instruction.flags_and_rest()
        self.config.healthcheck = instruction.command()
        if "timeout" in flags:
            self.config.healthcheck_timeout = _seconds(flags["timeout"], instruction)

    def _entrypoint(self, instruction: Instruction) -> None:
        self.config.entrypoint = instruction.command()

    def _cmd(self, instruction: Instruction) -> None:
        self.config.command = instruction.command()

    def _label(self, instruction: Instruction) -> None:
        pass


def _seconds(text: str, instruction: Instruction) -> float:
    units = {"ms": 0.001, "s": 1, "m": 60, "h": 3600}
    match = re.fullmatch(r"(\d+(?:\.\d+)?)(ms|s|m|h)", text)
    if not match:
        raise DockerfileError(instruction.line, f"'{text}' is not a duration such as 3s")
    return float(match.group(1)) * units[match.group(2)]
