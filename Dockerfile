# First draft (issue 2); issue 8 finishes it (static stdlib check, HEALTHCHECK, container smoke test).
# jwt-kit 5 (MockStackAuth) declares swift-tools-version 6.2.
FROM swift:6.2-bookworm AS build
RUN apt-get update && apt-get install -y --no-install-recommends libevent-dev libmimalloc-dev pkg-config && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY Package.swift ./
COPY Sources ./Sources
RUN swift build -c release --static-swift-stdlib -Xlinker -no-pie --product mockstack

FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends libevent-2.1-7 libevent-pthreads-2.1-7 libmimalloc2.0 \
    && rm -rf /var/lib/apt/lists/* && useradd --system --uid 10001 mockstack
COPY --from=build /src/.build/release/mockstack /usr/local/bin/mockstack
COPY Fixtures /usr/local/share/mockstack/Fixtures
USER mockstack
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s CMD ["mockstack", "health", "--url", "http://127.0.0.1:8080"]
ENTRYPOINT ["mockstack"]
CMD ["serve", "--host", "0.0.0.0", "--port", "8080"]
