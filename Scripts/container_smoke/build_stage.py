"""Reproduces the Dockerfile's build stage on this machine, which runs the same Debian release
and Swift version as the stage's image: the stage's COPYs assemble a build context folder (with
.dockerignore applied), its `apt-get install` packages must be installed here, and its
`swift build` runs in that folder. What the stage does beyond that is refused."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
from pathlib import Path, PurePosixPath

from .dockerfile import DockerIgnore, DockerfileError, Instruction, Stage, apt_installs, shell_commands
from .files import sync_file, sync_tree
from .report import step


class BuildStage:
    def __init__(self, stage: Stage, context: Path, workspace: Path):
        self.stage = stage
        self.context = context
        self.root = workspace / "build-stage"        # stands for the stage's "/"
        self.ignore = DockerIgnore.load(context)
        self.workdir = PurePosixPath("/")
        self.copied: set[Path] = set()               # every file the COPYs put in the stage
        self.installed: list[str] = []               # every package its apt-get installs

    def host_path(self, image_path: str) -> Path:
        """Where a path of the stage's file system lives here."""
        absolute = self.workdir / image_path if not image_path.startswith("/") else PurePosixPath(image_path)
        return self.root / str(absolute).lstrip("/")

    def run(self) -> None:
        self._check_image()
        for instruction in self.stage.instructions:
            if instruction.keyword == "WORKDIR":
                self.workdir = self.workdir / instruction.arguments
                self.host_path(".").mkdir(parents=True, exist_ok=True)
            elif instruction.keyword == "COPY":
                self._copy(instruction)
            elif instruction.keyword == "RUN":
                self._run(instruction)
            else:
                raise DockerfileError(instruction.line, f"the smoke test cannot reproduce {instruction.keyword} in the build stage")

    def _check_image(self) -> None:
        match = re.fullmatch(r"swift:(\d+\.\d+)(?:\.\d+)?-(\w+)", self.stage.image)
        if not match:
            raise SystemExit(f"the build stage's image '{self.stage.image}' is not an official swift:<version>-<debian release> image")
        version, release = match.groups()
        output = subprocess.run(["swift", "--version"], capture_output=True, text=True, check=True)
        local = re.search(r"Swift version (\d+\.\d+)", output.stdout + output.stderr)
        codename = _os_release().get("VERSION_CODENAME", "?")
        if not local or local.group(1) != version or codename != release:
            raise SystemExit(
                f"the build stage runs Swift {version} on Debian {release}; this machine has Swift "
                f"{local.group(1) if local else '?'} on {codename}, so its build would not be the image's")
        step(f"build stage: {self.stage.image} matches this machine (Swift {version}, Debian {release})")

    def _copy(self, instruction: Instruction) -> None:
        flags, _ = instruction.flags_and_rest()
        if flags:
            raise DockerfileError(instruction.line, "the smoke test reproduces only plain COPY in the build stage")
        *sources, destination = instruction.words()
        target = self.host_path(destination)
        for source in sources:
            origin = self.context / source
            if not origin.exists():
                raise DockerfileError(instruction.line, f"COPY source '{source}' does not exist")
            if self.ignore.excludes(source):
                raise DockerfileError(instruction.line, f"COPY source '{source}' is excluded by .dockerignore")
            if origin.is_dir():
                self.copied |= sync_tree(origin, target, self.ignore, source)
            else:
                landing = target / origin.name if destination.endswith("/") else target
                sync_file(origin, landing)
                self.copied.add(landing)

    def _run(self, instruction: Instruction) -> None:
        sourced: list[str] = []                      # the line's `. FILE`s, in order
        for words in shell_commands(instruction.arguments):
            packages = apt_installs(words)
            if words[:2] == ["apt-get", "update"] or words == ["rm", "-rf", "/var/lib/apt/lists/*"]:
                continue
            if packages is not None:
                self.installed += packages
                ensure_host_packages(packages)
            elif len(words) == 2 and words[0] == ".":
                if not self.host_path(words[1]).is_file():
                    raise DockerfileError(instruction.line, f"'. {words[1]}': no such file in the stage (COPY it first)")
                sourced.append(words[1])
            elif words[:2] == ["swift", "build"]:
                self._swift_build(self._expanded(words, sourced), self._environment(sourced))
            else:
                raise DockerfileError(instruction.line, f"the smoke test cannot reproduce '{' '.join(words)}' in the build stage")

    def _expanded(self, words: list[str], sourced: list[str]) -> list[str]:
        """The command's words as the stage's shell would run them after the line's `. FILE`s
        (Scripts/release-flags.sh): `$NAME` words expanded and split by sh itself."""
        if not sourced:
            return words
        command = " ".join(word if word.startswith("$") else shlex.quote(word) for word in words)
        script = "".join(f". ./{shlex.quote(name)} && " for name in sourced) + f'printf "%s\\n" {command}'
        result = subprocess.run(["sh", "-c", script], cwd=self.host_path("."), capture_output=True, text=True, check=True)
        return result.stdout.splitlines()

    def _environment(self, sourced: list[str]) -> dict[str, str]:
        """The environment the stage's shell has after the line's `. FILE`s: what they export
        (Scripts/release-flags.sh's PKG_CONFIG_PATH) reaches the build."""
        if not sourced:
            return dict(os.environ)
        script = "".join(f". ./{shlex.quote(name)} && " for name in sourced) + "env -0"
        result = subprocess.run(["sh", "-c", script], cwd=self.host_path("."), capture_output=True, check=True)
        return dict(entry.split("=", 1) for entry in result.stdout.decode().split("\0") if "=" in entry)

    def _swift_build(self, words: list[str], environment: dict[str, str]) -> None:
        """Runs the stage's build here; a compiler warning in mockstack's own files fails it."""
        folder = self.host_path(".")
        self._check_system_libraries(words)
        self._remove_uncopied(keep=folder / ".build")
        step(f"build stage: {' '.join(words)}  (in {folder})")
        process = subprocess.Popen(words, cwd=folder, env=environment, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                   text=True)
        warnings: list[str] = []
        assert process.stdout is not None
        for line in process.stdout:
            print(line, end="", flush=True)
            if re.match(rf"({re.escape(str(folder))}/)?(Sources|Plugins|Tests)/[^:]+:\d+:\d+: warning:", line):
                warnings.append(line.strip())
        if process.wait() != 0:
            raise SystemExit(f"the build stage's swift build failed with status {process.returncode}")
        if warnings:
            raise SystemExit("the build stage's swift build warned about mockstack's own files:\n" + "\n".join(warnings))
        step("build stage: built with no warnings in mockstack's own files")


    def _check_system_libraries(self, command: list[str]) -> None:
        """This machine has every library already, so the build passing here proves nothing about
        the stage's apt-get line: check it against the manifest's own list instead (each system
        library's apt provider, and pkg-config for those found through it)."""
        manifest = self.host_path("Package.swift").read_text()
        needed = {name for group in re.findall(r"\.apt\(\[([^\]]*)\]\)", manifest) for name in re.findall(r'"([^"]+)"', group)}
        if "pkgConfig:" in manifest:
            needed.add("pkg-config")
        missing = sorted(needed - set(self.installed))
        if missing:
            raise SystemExit(f"the build stage installs {', '.join(self.installed) or 'nothing'} before "
                             f"'{' '.join(command)}', but Package.swift needs {', '.join(missing)} too")
        step(f"build stage: installs every system library Package.swift names ({', '.join(sorted(needed))})")

    def _remove_uncopied(self, keep: Path) -> None:
        """The stage holds only what its COPYs put there: a file a removed COPY once brought (or
        a Package.resolved an earlier build wrote) goes, as it would not be in Docker's stage.
        The build folder stays, so the build is incremental."""
        for folder, folders, files in os.walk(self.root, topdown=True):
            here = Path(folder)
            folders[:] = [name for name in folders if here / name != keep]
            for name in files:
                if here / name not in self.copied:
                    (here / name).unlink()
        for folder, _, _ in sorted(os.walk(self.root), key=lambda entry: -len(entry[0])):
            if Path(folder) != self.root and not any(Path(folder).iterdir()):
                Path(folder).rmdir()


def ensure_host_packages(packages: list[str]) -> None:
    """The build stage's packages, installed here too (the host build uses them the same way)."""
    missing = [name for name in packages if not _installed(name)]
    if missing:
        step(f"build stage: apt-get install {' '.join(missing)}")
        subprocess.run(["apt-get", "install", "-y", "-qq", "--no-install-recommends", *missing], check=True,
                       env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"})
    step(f"build stage: packages present here: {' '.join(packages)}")


def _installed(package: str) -> bool:
    result = subprocess.run(["dpkg-query", "-W", "-f=${Status}", package], capture_output=True, text=True)
    return result.returncode == 0 and result.stdout.endswith("installed")


def _os_release() -> dict[str, str]:
    values: dict[str, str] = {}
    for line in Path("/etc/os-release").read_text().splitlines():
        key, _, value = line.partition("=")
        values[key] = value.strip('"')
    return values
