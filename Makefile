# mockstack — everything a fresh machine needs is done by these targets.
#   make serve   build (release) and run the server on PORT (default 8080)
#   make install put the release binary in PREFIX/bin (default /usr/local) and the shipped
#                fixtures in PREFIX/share/mockstack, where the binary finds them
#   make test    build and run the whole test suite, the examples' and the README quick start's
#   make bench   side-by-side benchmark against nginx, then a client package's build and test costs (see Benchmarks/README.md)
#   make bench-sse   Server Events to 1,000 subscribers: latency, memory, idle CPU (make bench runs it)
#   make bench-parsers   1 MiB vs 16 MiB hostile bodies for each parser: time must grow linearly
#   make container-smoke   the Docker image's contents, assembled and run without Docker
#   make fuzz    libFuzzer on the parsers, FUZZ_SECONDS (600) each (Fuzz/)
#   make soak    1,000 connections held, then SOAK_MINUTES (10) of mixed load with faults
#   make hostile the requests that once crashed, stalled or bloated the server, with the loop watched

SWIFT        ?= swift
PORT         ?= 8080
PREFIX       ?= /usr/local
HOST         ?= 127.0.0.1
SERVE_ARGS   ?=
# Parallel test workers; the suites start real servers on port 0, so they do not collide.
TEST_WORKERS ?= 2
# Release builds on Linux: the Swift runtime linked in, a fixed-address executable exporting no
# symbols, functions laid out in the order a server runs them. Scripts/release-flags.sh holds
# the flags and why, for this file and the Dockerfile alike.
RELEASE_LINK_FLAGS := $(shell . Scripts/release-flags.sh && echo "$$RELEASE_LINK_FLAGS")
RELEASE_FLAGS ?= -c release $(if $(filter Linux,$(shell uname -s)),$(RELEASE_LINK_FLAGS),)

# The client-library example: its own package, depending on this one by path.
EXAMPLE      ?= Examples/ClientLibrary
# The REST-wrapper example (a plain URLSession API wrapper, tested against a recorded app).
REST_EXAMPLE ?= Examples/RESTClient

.PHONY: all deps build release serve install test test-example test-readme bench bench-client-tests bench-fanout bench-sse bench-parsers soak hostile container-smoke fuzz clean

all: build

## deps: install the C libraries mockstack links (libevent-dev, libmimalloc-dev, libssl-dev) when missing;
## make test also installs headless Chromium for the control page's test, Debian's tsc
## (node-typescript) for the generated TypeScript DTOs, and the Python clients (websockets,
## python-socketio 5 and servicestack in .venv; python-socketio 4.6 in .venv-eio3) for the
## end-to-end tests (Scripts/ensure-python-clients.sh).
deps:
	@Scripts/ensure-system-libraries.sh

build: deps
	$(SWIFT) build

## release: the server alone (--product): the package's other executables are test tools, and
## statically linked, spawn-probe's FoundationNetworking would want libcurl's development files.
release: deps
	@. Scripts/release-flags.sh && Scripts/build-checked.sh $(SWIFT) build $(RELEASE_FLAGS) --product mockstack

## serve: the shell execs the server, so make's own child is mockstack. Ctrl-C (SIGINT to the
## process group) and SIGTERM to make (which make passes on to its children) stop it; a SIGINT
## to make's PID alone does not, since make passes SIGINT on to no one (README.md, CLI reference).
serve: release
	exec "$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)/mockstack" serve --host $(HOST) --port $(PORT) $(SERVE_ARGS)

## install: mockstack on PATH (PREFIX/bin), the shipped apps beside it in PREFIX/share/mockstack/Fixtures,
## which a bare `mockstack serve` loads. DESTDIR is prepended for packaging.
install: release
	install -d "$(DESTDIR)$(PREFIX)/bin" "$(DESTDIR)$(PREFIX)/share/mockstack"
	install -m 755 "$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)/mockstack" "$(DESTDIR)$(PREFIX)/bin/mockstack"
	rm -rf "$(DESTDIR)$(PREFIX)/share/mockstack/Fixtures"
	cp -R Fixtures "$(DESTDIR)$(PREFIX)/share/mockstack/Fixtures"
	@echo "mockstack: installed $(PREFIX)/bin/mockstack (fixtures in $(PREFIX)/share/mockstack/Fixtures)"

## test: a warning in our own sources fails the build, as does any failing test; then the
## client-library example and the README's test quick start build and pass their own tests,
## so neither can rot. First, cheap checks: every docs/ citation names a section that exists,
## every public declaration of the testing product has a doc comment, docs/architecture.md's
## layer table matches Package.swift, no line of Swift is wider than 120 columns, no two paths
## differ only by case (one path on a Mac's disk), and every Linux-only call is guarded.
test:
	@python3 Scripts/check-path-case.py
	@python3 Scripts/check-portability.py
	@python3 Scripts/check-doc-citations.py
	@python3 Scripts/check-public-docs.py
	@python3 Scripts/check-layers.py
	@python3 Scripts/check-line-width.py
	@Scripts/ensure-system-libraries.sh --test
	@Scripts/ensure-python-clients.sh
	@Scripts/build-checked.sh $(SWIFT) build --build-tests
	MOCKSTACK_BIN="$$($(SWIFT) build --show-bin-path)/mockstack" \
	MOCKSTACK_PYTHON="$(CURDIR)/.venv/bin/python" MOCKSTACK_PYTHON_EIO3="$(CURDIR)/.venv-eio3/bin/python" \
	MOCKSTACK_REQUIRE_PYTHON_CLIENTS=1 MOCKSTACK_REQUIRE_TSC=1 MOCKSTACK_REQUIRE_NODE=1 MOCKSTACK_REQUIRE_JAVAC=1 MOCKSTACK_REQUIRE_PHP=1 \
		$(SWIFT) test --skip-build --parallel --num-workers $(TEST_WORKERS)
	@$(MAKE) --no-print-directory test-example
	@$(MAKE) --no-print-directory test-readme

## test-example: the examples spawn the mockstack their own build made (no MOCKSTACK_BIN). The
## REST-wrapper example builds in the client-library example's build folder, reusing the
## mockstack modules built there, as test-readme does.
test-example: deps
	cd $(EXAMPLE) && ../../Scripts/build-checked.sh $(SWIFT) build --build-tests
	cd $(EXAMPLE) && env -u MOCKSTACK_BIN $(SWIFT) test --skip-build
	cd $(REST_EXAMPLE) && ../../Scripts/build-checked.sh $(SWIFT) build --build-tests --scratch-path "$(CURDIR)/$(EXAMPLE)/.build"
	cd $(REST_EXAMPLE) && env -u MOCKSTACK_BIN $(SWIFT) test --skip-build --scratch-path "$(CURDIR)/$(EXAMPLE)/.build"

## test-readme: README.md's quick-start blocks (Package.swift and the two test files) written
## into a package made by `swift package init`, built and tested (Scripts/readme-quickstart.py).
## It builds in the example's build folder, reusing the mockstack modules built there (make test
## runs test-example first): ~15 s instead of another 3-minute build of the server.
test-readme: deps
	SWIFT=$(SWIFT) python3 Scripts/readme-quickstart.py --scratch-path "$(CURDIR)/$(EXAMPLE)/.build"

## container-smoke: about 5 minutes the first time (a release build in a copy of the build
## context, debootstrap), about 20 s after; needs root (sudo) and Debian's package mirror.
container-smoke: deps
	Scripts/container-smoke

## fuzz: the eight libFuzzer targets of Fuzz/ (its own package, built with -sanitize=fuzzer,address),
## FUZZ_SECONDS each (600), FUZZ_JOBS at a time (2); fails on any crash.
fuzz: deps
	Scripts/fuzz.sh

bench: release
	Benchmarks/bench.sh

## bench-client-tests: a client package's first build (with and without the mockstack product)
## and what each of its tests pays for a server (Benchmarks/client-tests.py); make bench runs it too.
bench-client-tests: deps
	python3 Benchmarks/client-tests.py

## bench-fanout: a Feathers service event fanned out to 1,000 WebSocket clients: latency to the
## last client, delivery rate, memory a client costs (Benchmarks/realtime-fanout.py); make bench runs it too.
bench-fanout: release
	python3 Benchmarks/realtime-fanout.py --mockstack "$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)/mockstack"

## bench-sse: a ServiceStack Server Events message to a channel of 1,000 subscribers: latency to the
## last one, memory a subscriber costs, the server's CPU while they idle and while they heartbeat
## (Benchmarks/sse-fanout.py); make bench runs it too.
bench-sse: release
	python3 Benchmarks/sse-fanout.py --mockstack "$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)/mockstack"

## bench-parsers: each request-body parser on 1 MiB and 16 MiB hostile bodies; fails when the
## larger takes more than 40 times as long (Benchmarks/parsers.py).
bench-parsers: release
	python3 Benchmarks/parsers.py --mockstack "$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)/mockstack"

## soak: the release build under 1,000 held connections, then a mixed workload across every
## shipped app at 64 connections with faults, slow and resetting clients (Benchmarks/soak.py);
## fails on any failed request, a stall, RSS growth over 10%, or a crash.
soak: release
	python3 Benchmarks/soak.py --mockstack "$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)/mockstack" --fixtures Fixtures

## hostile: the red teams' findings replayed against the release build while a probe times the
## event loop (Benchmarks/hostile.py, a few minutes); fails on a wrong answer, a stall over
## 250 ms, an attacking client's RSS growth, descriptors left held or a busy idle --watch.
hostile: release
	python3 Benchmarks/hostile.py --mockstack "$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)/mockstack" --fixtures Fixtures

clean:
	rm -rf .build .build-container $(EXAMPLE)/.build Fuzz/.build Fuzz/.work
