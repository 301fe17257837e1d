# mockstack's image: a release build with the Swift runtime linked in, on Debian bookworm-slim
# with only the shared libraries that binary links.
#
#   docker build -t mockstack .
#   docker run --rm -p 8080:8080 -e MOCKSTACK_ADMIN_TOKEN=choose-one mockstack
#   docker run --rm -p 8080:8080 -v ./fixtures:/fixtures -e MOCKSTACK_FIXTURES=/fixtures mockstack
#
# It binds 0.0.0.0, so the control plane (/__mockstack/, health aside) wants the admin token:
# MOCKSTACK_ADMIN_TOKEN's, or one the server makes and logs at start-up.
#
# `make container-smoke` assembles this image's file system from this file, without Docker, and
# runs it (Scripts/container_smoke). It reproduces FROM, WORKDIR, COPY [--from], RUN, ENV, USER,
# EXPOSE, VOLUME, HEALTHCHECK, ENTRYPOINT and CMD; keep to those, and keep the build stage to
# apt-get install and swift build, or the smoke test refuses the file.

FROM swift:6.3-bookworm AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends libevent-dev libmimalloc-dev libssl-dev libcurl4-openssl-dev pkg-config \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY Package.swift ./
COPY Plugins ./Plugins
COPY Sources ./Sources
COPY Tests ./Tests
COPY Scripts/release-flags.sh ./Scripts/
COPY Scripts/static-archives ./Scripts/static-archives
# The same flags as `make release`, from the file both read (it says why the binary is not
# position-independent, exports no symbols, and what the link order is for).
RUN . Scripts/release-flags.sh && swift build -c release $RELEASE_LINK_FLAGS --product mockstack

FROM debian:bookworm-slim
# libevent's core (with its pthreads glue) and mimalloc: the binary's only shared libraries beyond
# libc and libgcc, which the base image has (libstdc++ is linked in). The smoke test checks this
# with ldd. libevent's OpenSSL support, libcurl4 and ca-certificates are not linked: `serve
# --https-port` opens the first (and the libssl it brings), `record` and `serve --proxy-unmatched`
# open libcurl when they start, and check https targets against the trust store.
RUN apt-get update \
 && apt-get install -y --no-install-recommends libevent-core-2.1-7 libevent-pthreads-2.1-7 libevent-openssl-2.1-7 \
    libmimalloc2.0 libcurl4 ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --uid 10001 --user-group --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin mockstack
COPY --from=build /src/.build/release/mockstack /usr/local/bin/mockstack
COPY Fixtures /usr/local/share/mockstack/Fixtures
# The load cache warmed for the shipped apps (docs/load-cache.md): `validate` checks them and
# records the bytes it checked, so `serve` skips the checks and builds the apps after it is ready. The
# server's user owns the folder, to write a fresh record when the fixtures differ. No record
# written fails the build rather than shipping a cold cache.
ENV MOCKSTACK_CACHE_DIR=/var/cache/mockstack
RUN mkdir -p /var/cache/mockstack \
 && mockstack validate /usr/local/share/mockstack/Fixtures \
 && ls /var/cache/mockstack/*.record >/dev/null \
 && chown -R mockstack:mockstack /var/cache/mockstack
USER mockstack
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --start-interval=1s CMD ["mockstack", "health", "--url", "http://127.0.0.1:8080"]
ENTRYPOINT ["mockstack"]
CMD ["serve", "--host", "0.0.0.0", "--port", "8080"]
