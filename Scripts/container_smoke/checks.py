"""What the smoke test asks of the image (its binary links only what it installs) and of a running
container of it: the HEALTHCHECK command passes, PID 1 runs as the image's user and serves on
every address, and each app answers a real request."""

from __future__ import annotations

import json
import re
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

from .container import Container
from .image import ImageConfig
from .report import expect, fail


class Answer:
    def __init__(self, status: int, headers: dict[str, str], body: bytes):
        self.status = status
        self.headers = headers
        self.body = body

    def json(self):
        return json.loads(self.body)


def request(url: str, method: str = "GET", body: bytes | None = None, content_type: str | None = None,
            headers: dict[str, str] | None = None) -> Answer:
    call = urllib.request.Request(url, data=body, method=method, headers=headers or {})
    if content_type:
        call.add_header("Content-Type", content_type)
    try:
        with urllib.request.urlopen(call, timeout=5) as response:
            return Answer(response.status, {k.lower(): v for k, v in response.headers.items()}, response.read())
    except urllib.error.HTTPError as error:
        return Answer(error.code, {k.lower(): v for k, v in error.headers.items()}, error.read())


def wait_until_healthy(container: Container, timeout: float = 15) -> float:
    """Runs the image's HEALTHCHECK command until it exits 0, as Docker's health monitor would;
    returns the seconds it took from the container's start."""
    started = time.monotonic()
    last: subprocess.CompletedProcess[str] | None = None
    while time.monotonic() - started < timeout:
        if container.process is not None and container.process.poll() is not None:
            raise SystemExit(f"the container exited with {container.process.returncode}:\n{container.output()}")
        try:
            last = container.exec(container.config.healthcheck, timeout=container.config.healthcheck_timeout)
        except subprocess.TimeoutExpired:
            last = None                     # over HEALTHCHECK --timeout: a failed probe, as Docker counts it
            continue
        if last.returncode == 0:
            printed = last.stdout.strip()
            expect(printed == "healthy", f"HEALTHCHECK {' '.join(container.config.healthcheck)} exits 0 and prints "
                                         f"'healthy'{'' if printed == 'healthy' else f' (it printed {printed!r})'}")
            return time.monotonic() - started
        time.sleep(0.1)
    raise SystemExit(f"HEALTHCHECK never passed; last: {last}\ncontainer output:\n{container.output()}")


def check_user(container: Container) -> None:
    status = Path(f"/proc/{container.init_pid()}/status").read_text()
    uids = next(line for line in status.splitlines() if line.startswith("Uid:")).split()[1:]
    expect(all(int(uid) == container.account.uid for uid in uids) and container.account.uid != 0,
           f"PID 1 runs as USER {container.account.name} (uid {container.account.uid}), not root")


def check_version(container: Container, changelog: Path) -> None:
    """`docker run mockstack --version`: the CHANGELOG's newest release, with no commit, since a
    Docker build's context has no .git."""
    newest = next(line[3:].split()[0] for line in changelog.read_text().splitlines()
                  if line.startswith("## ") and line[3:4].isdigit())
    printed = container.exec(container.config.entrypoint + ["--version"]).stdout.strip()
    expect(printed == newest, f"{' '.join(container.config.entrypoint)} --version prints {newest!r}"
                              + ("" if printed == newest else f" (it printed {printed!r})"))


def check_load_cache_hit(container: Container) -> None:
    """The image ships a load-cache record (the Dockerfile's `mockstack validate` at build time):
    a server started in it replays that record rather than loading every fixture again. A second
    server, in the container as its user, with its environment, logs at debug level whether it hit,
    and stops at once (standard input an empty pipe, under --stop-on-stdin-eof)."""
    started = container.exec(["/bin/sh", "-c", ": | exec " + " ".join(container.config.entrypoint)
                              + " serve --port 0 --log-level debug --stop-on-stdin-eof"])
    note = next((line for line in started.stderr.splitlines() if "load cache:" in line), "no load cache line")
    expect(started.returncode == 0 and "load cache: hit" in note,
           f"a server started in the image hits the load-cache record built into it ({note.split('load cache: ')[-1][:120]})")


def check_every_address(port: str) -> None:
    """The CMD binds every address, so a published port reaches it: try one that is not loopback."""
    address = "192.0.2.10"                      # TEST-NET-1, added to this namespace's loopback only
    subprocess.run(["ip", "addr", "add", f"{address}/32", "dev", "lo"], check=True)
    answer = request(f"http://{address}:{port}/__mockstack/health")
    expect(answer.status == 200, f"the server answers on {address}:{port}, not only on 127.0.0.1")


TOKEN_LINE = re.compile(r"not loopback: the control plane requires an admin token, and none was given, so this one was made: ([0-9a-f]{32}) ")


def check_admin_token(container: Container, base: str) -> str:
    """Bound to 0.0.0.0 with no token given, the server makes one and says so in its log; the
    control plane refuses calls without it. Returns the token."""
    found = TOKEN_LINE.search(container.output())
    deadline = time.monotonic() + 3             # written just after the ready line
    while found is None and time.monotonic() < deadline:
        time.sleep(0.05)
        found = TOKEN_LINE.search(container.output())
    expect(found is not None, "bound to every address with no token given, the start-up log shows the control plane's token")
    token = found.group(1)
    refused = request(f"{base}/__mockstack/apps")
    expect(refused.status == 401 and refused.json().get("error") == "Unauthorized",
           f"GET /__mockstack/apps without the token → 401 (got {refused.status})")
    admitted = request(f"{base}/__mockstack/apps", headers={"X-MockStack-Admin-Token": token})
    expect(admitted.status == 200, f"GET /__mockstack/apps with the token → 200 (got {admitted.status})")
    return token


def check_apps(base: str, fixtures: Path, token: str) -> list[str]:
    """Every app folder in `fixtures` is mounted, and each one answers as its kind does."""
    listed = request(f"{base}/__mockstack/apps", headers={"X-MockStack-Admin-Token": token}).json()["apps"]
    served = sorted(app["name"] for app in listed)
    expected = sorted(folder.name for folder in fixtures.iterdir() if (folder / "app.json").exists())
    expect(served == expected, f"the apps served are the fixtures' apps: {', '.join(served)}")
    for app in listed:
        {"servicestack": _servicestack, "feathers": _feathers, "static": _static}[app["kind"]](base, app, fixtures / app["name"])
    return served


def _servicestack(base: str, app: dict, _: Path) -> None:
    answer = request(f"{base}{app['mount']}/types/metadata")
    operations = answer.json().get("operations", []) if answer.status == 200 else []
    expect(answer.status == 200 and answer.headers.get("content-type", "").startswith("application/json") and operations,
           f"{app['name']}: GET {app['mount']}/types/metadata → 200 JSON with {len(operations)} operations")


def _feathers(base: str, app: dict, _: Path) -> None:
    services = sorted({route["path"] for route in app["routes"] if ":" not in route["path"] and "GET" in route["methods"]})
    for path in services:
        answer = request(f"{base}{app['mount']}{path}")
        body = answer.json()
        fine = (answer.status == 200 and (isinstance(body, list) or "data" in body)) or \
               (answer.status == 401 and body.get("name") == "NotAuthenticated")
        expect(fine, f"{app['name']}: GET {app['mount']}{path} → {answer.status} {'a page of records' if answer.status == 200 else 'NotAuthenticated'}")


def _static(base: str, app: dict, folder: Path) -> None:
    manifest = json.loads((folder / "app.json").read_text())
    for route in manifest["routes"]:
        if route["method"] != "GET" or "{" in route["path"] or ":" in route["path"]:
            continue
        answer = request(f"{base}{app['mount']}{route['path']}")
        wanted = json.loads((folder / route["fixture"]).read_text())
        expect(answer.status == route.get("status", 200) and answer.json() == wanted,
               f"{app['name']}: GET {app['mount']}{route['path']} → {answer.status} with {route['fixture']}")


def check_shipped_behaviour(base: str, served: list[str]) -> None:
    """The README's quick-start answers, for the shipped apps the image serves."""
    if "test" in served:
        answer = request(f"{base}/test/api/Hello?name=World")
        expect(answer.status == 200 and answer.json() == {"result": "Hello, World!"},
               "test: GET /test/api/Hello?name=World → 200 {\"result\":\"Hello, World!\"}")
        answer = request(f"{base}/test/api/ThrowType", "PUT", b'{"type":"NotFound","message":"not here"}', "application/json")
        status = answer.json().get("responseStatus", {})
        expect(answer.status == 404 and status.get("errorCode") == "NotFound" and status.get("message") == "not here",
               "test: PUT /test/api/ThrowType NotFound → 404 errorCode NotFound")
    if "techstacks" in served:
        query = "vendorName=Google&take=3&orderByDesc=ViewCount&fields=Id,Name"
        body = request(f"{base}/techstacks/api/FindTechnologies?{query}").json()
        expect(body.get("total") == 23 and [row["id"] for row in body.get("results", [])] == [7, 18, 77],
               "techstacks: FindTechnologies by Google → total 23, ids 7, 18, 77")
    if "feathers" in served:
        form = urllib.parse.urlencode({"strategy": "local", "email": "test@example.com", "password": "secret"}).encode()
        answer = request(f"{base}/feathers/authentication", "POST", form, "application/x-www-form-urlencoded")
        expect(answer.status == 201 and answer.json().get("accessToken", "").startswith("eyJ"),
               "feathers: POST /feathers/authentication (local) → 201 with an accessToken")


# Packages the binary does not link but opens or reads at run time (`record`, `--proxy-unmatched`),
# each with the file that must then be found inside the image.
OPENED_AT_RUN_TIME = {
    "libcurl4": "libcurl.so.4",                                 # dlopen'd by the upstream client
    "libevent-openssl-2.1-7": "libevent_openssl-2.1.so.7",      # dlopen'd by serve --https-port
    "ca-certificates": "/etc/ssl/certs/ca-certificates.crt",    # libcurl's trust store for https
}


def check_linked_libraries(config: ImageConfig) -> None:
    """`ldd` inside the image: every library resolves, and every package the Dockerfile installs
    owns one of them (the image carries only what the binary links), or is one the binary opens
    at run time whose file the image holds."""
    program = resolve_in_image(config, config.entrypoint[0])
    listing = subprocess.run(["chroot", config.rootfs, "ldd", program], capture_output=True, text=True, check=True).stdout
    missing = [line.strip() for line in listing.splitlines() if "not found" in line]
    expect(not missing, f"ldd {program}: every shared library resolves inside the image")
    owners: set[str] = set()
    for line in listing.splitlines():
        if "=>" not in line:
            continue
        library = line.split("=>")[1].split("(")[0].strip()
        if not library:
            continue
        owner = subprocess.run(["chroot", config.rootfs, "dpkg", "-S", library], capture_output=True, text=True)
        if owner.returncode != 0:        # merged /usr: dpkg knows the path under /usr too, or not at all
            owner = subprocess.run(["chroot", config.rootfs, "dpkg", "-S", "/usr" + library], capture_output=True, text=True)
        owners |= {entry.split(":")[0] for entry in owner.stdout.splitlines()}
    opened = [package for package in config.apt_packages if package in OPENED_AT_RUN_TIME and package not in owners]
    cache = subprocess.run(["chroot", config.rootfs, "ldconfig", "-p"], capture_output=True, text=True, check=True).stdout
    for package in opened:
        wanted = OPENED_AT_RUN_TIME[package]
        found = (Path(config.rootfs) / wanted.lstrip("/")).exists() if wanted.startswith("/") else f"{wanted} " in cache
        expect(found, f"{package}: {wanted} is in the image (opened at run time, not linked)")
    unused = [package for package in config.apt_packages if package not in owners and package not in opened]
    expect(not unused, f"each package the Dockerfile installs provides a linked library "
                       f"({', '.join(config.apt_packages)})" + (f"; {', '.join(unused)} provides none" if unused else ""))


def resolve_in_image(config: ImageConfig, program: str) -> str:
    if program.startswith("/"):
        return program
    for folder in config.environment.get("PATH", "").split(":"):
        candidate = Path(config.rootfs) / folder.lstrip("/") / program
        if candidate.exists():
            return f"{folder}/{program}"
    fail(f"ENTRYPOINT {program} is not on the image's PATH")
    return program
