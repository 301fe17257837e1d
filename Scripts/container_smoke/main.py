"""`make container-smoke`: builds the Docker image's contents without Docker and checks them.

Everything it does is read from the Dockerfile, so the image and this test cannot drift:
1. the build stage's `swift build` runs here, in a folder holding exactly what its COPYs copy;
2. the runtime stage's file system is assembled in a folder: debootstrap for its Debian base,
   its RUN lines inside it with chroot, its COPYs;
3. the binary's shared libraries all resolve inside it, and each package the Dockerfile
   installs provides one of them (nothing extra ships), or a file the binary opens at run time
   (libcurl4's libcurl.so.4, ca-certificates' trust store: checks.OPENED_AT_RUN_TIME);
4. in a network and mount namespace of its own, ENTRYPOINT + CMD run as PID 1 as the USER;
   the HEALTHCHECK command passes, a server started in it hits the load-cache record the build
   warmed, every app answers, SIGTERM stops it cleanly; then again
   with user fixtures mounted at /fixtures as the README shows.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from .build_stage import BuildStage
from .checks import (check_admin_token, check_apps, check_every_address, check_linked_libraries, check_load_cache_hit, check_shipped_behaviour, check_user,
                     check_version, wait_until_healthy)
from .container import Container
from .dockerfile import DockerfileError, parse_dockerfile
from .report import CheckFailed, expect, fail, step
from .image import ImageConfig
from .runtime_stage import RuntimeStage

ROOT = Path(__file__).resolve().parents[2]
WORKSPACE = ROOT / ".build-container"
EXAMPLE = ROOT / "Examples" / "ClientLibrary"


def main() -> None:
    if len(sys.argv) == 3 and sys.argv[1] == "--run-container":
        run_container(ImageConfig.load(Path(sys.argv[2])))
        return
    if os.geteuid() != 0:
        fail("debootstrap, chroot and namespaces need root: run Scripts/container-smoke, which uses sudo")
    try:
        config = assemble()
        check_linked_libraries(config)
    except (CheckFailed, DockerfileError) as error:
        fail(str(error))
    config_path = WORKSPACE / "image.json"
    config.save(config_path)
    # The container gets its own network (only loopback, port 8080 free whatever this machine
    # runs) and its own mounts (volumes and /proc vanish with it), as under Docker.
    result = subprocess.run(["unshare", "--net", "--mount", "--", sys.executable, "-m", "container_smoke",
                             "--run-container", str(config_path)], cwd=ROOT / "Scripts")
    if result.returncode != 0:
        raise SystemExit(result.returncode)
    step("container-smoke passed")


def assemble() -> ImageConfig:
    if shutil.which("debootstrap") is None:
        step("installing debootstrap")
        subprocess.run(["apt-get", "install", "-y", "-qq", "--no-install-recommends", "debootstrap"], check=True,
                       env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"})
    WORKSPACE.mkdir(exist_ok=True)
    stages = parse_dockerfile(ROOT / "Dockerfile")
    built: dict[str, BuildStage] = {}
    for index, stage in enumerate(stages[:-1]):
        builder = BuildStage(stage, ROOT, WORKSPACE)
        builder.run()
        built[stage.name or str(index)] = builder
    return RuntimeStage(stages[-1], built, ROOT, WORKSPACE).assemble()


def run_container(config: ImageConfig) -> None:
    subprocess.run(["ip", "link", "set", "lo", "up"], check=True)
    port = config.exposed[0].split("/")[0]
    base = f"http://127.0.0.1:{port}"
    try:
        if "Fixtures" not in config.copied:
            fail("the Dockerfile does not COPY Fixtures into the image")
        shipped = Path(config.rootfs) / config.copied["Fixtures"].lstrip("/")
        with running(Container(config)) as container:
            seconds = wait_until_healthy(container)
            step(f"healthy {seconds:.2f} s after start")
            check_user(container)
            check_version(container, ROOT / "CHANGELOG.md")
            check_load_cache_hit(container)
            check_every_address(port)
            token = check_admin_token(container, base)
            served = check_apps(base, shipped, token)
            check_shipped_behaviour(base, served)
            check_example_attached(base, token)
            status = container.stop()
            expect(status == 0, f"SIGTERM to PID 1 stops it with status 0 (got {status})")

        user_fixtures = write_user_fixtures(ROOT / "Fixtures" / "example")
        volume = {"/fixtures": user_fixtures}
        chosen = {"MOCKSTACK_FIXTURES": "/fixtures", "MOCKSTACK_ADMIN_TOKEN": "smoke-test-token"}
        with running(Container(config, environment=chosen, volumes=volume)) as container:
            wait_until_healthy(container)
            check_apps(base, user_fixtures, chosen["MOCKSTACK_ADMIN_TOKEN"])
            expect(container.stop() == 0, "SIGTERM stops the volume run with status 0")
    except CheckFailed as error:
        fail(str(error))


def check_example_attached(base: str, token: str) -> None:
    """The client library's tests (built by Scripts/container-smoke), pointed at the container as a
    CI service container would be, with its control plane's token."""
    environment = {key: value for key, value in os.environ.items() if key != "MOCKSTACK_BIN"}
    result = subprocess.run(["swift", "test", "--skip-build"], cwd=EXAMPLE, capture_output=True, text=True,
                            env={**environment, "MOCKSTACK_URL": base, "MOCKSTACK_ADMIN_TOKEN": token})
    summary = [line.strip() for line in result.stdout.splitlines() if line.strip().startswith("Executed")]
    expect(result.returncode == 0, f"Examples/ClientLibrary's tests pass with MOCKSTACK_URL={base}: "
                                   f"{summary[-1] if summary else result.stdout[-2000:] + result.stderr[-2000:]}")


class running:
    """Starts a container for a `with` block and always stops it (printing its output on failure)."""

    def __init__(self, container: Container):
        self.container = container

    def __enter__(self) -> Container:
        self.container.start()
        return self.container

    def __exit__(self, kind, error, trace) -> None:
        if self.container.process is not None:
            self.container.stop()
        if kind is not None:
            print(f"--- container output ---\n{self.container.output()}", file=sys.stderr)


def write_user_fixtures(template: Path) -> Path:
    """A user's own fixtures folder, as `-v ./fixtures:/fixtures` would mount: one app, `shop`,
    made from the shipped example with its name and mount changed."""
    folder = WORKSPACE / "user-fixtures"
    shutil.rmtree(folder, ignore_errors=True)
    shutil.copytree(template, folder / "shop")
    manifest = json.loads((folder / "shop/app.json").read_text())
    manifest["name"], manifest["mount"] = "shop", "/shop"
    (folder / "shop/app.json").write_text(json.dumps(manifest, indent=2))
    return folder
