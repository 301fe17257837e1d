#!/usr/bin/env bash
# Makes sure the C libraries mockstack links are installed, installing what is missing with
# apt-get (Debian/Ubuntu), or on a Mac with Homebrew: libevent-dev (the HTTP transport), on
# Linux libmimalloc-dev (the allocator, see Benchmarks/LOG.md) and libssl-dev (libcrypto's
# digests, which a Mac takes from CryptoKit), and libsqlite3-dev (the AutoQuery differential test's
# reference database, through GRDB), libcurl4-openssl-dev (curl.h, for the upstream client's
# types and constants: libcurl itself is not linked, but opened when a request is first forwarded).
# With --test, also Debian's chromium, which the control
# page's test drives headless, Debian's node-typescript, whose tsc type-checks the generated
# TypeScript DTOs (Tests/MockStackTests/DTOClientTests.swift), and its nodejs, which runs the
# JavaScript ones, the JDK's javac, which compiles the
# generated Java DTOs, Debian's php-cli, which parses the PHP ones, and curl, a client of the HTTPS
# tests. libevent-dev brings libevent_openssl, which `serve --https-port` opens. Says plainly
# what to do when it cannot.
set -euo pipefail

missing=()
if [ "${1:-}" = "--test" ] && [ "$(uname -s)" = "Linux" ] && ! command -v chromium >/dev/null 2>&1 \
   && ! command -v chromium-browser >/dev/null 2>&1; then
  missing+=(chromium fonts-liberation)
fi
if [ "${1:-}" = "--test" ] && [ "$(uname -s)" = "Linux" ] && ! command -v tsc >/dev/null 2>&1; then
  missing+=(node-typescript)
fi
# node, which loads the generated JavaScript DTOs (the same tests); node-typescript depends on
# it, so this adds it only where a tsc came without Debian's node.
if [ "${1:-}" = "--test" ] && [ "$(uname -s)" = "Linux" ] && ! command -v node >/dev/null 2>&1 \
   && [ ! -x /usr/bin/node ]; then
  missing+=(nodejs)
fi
# The JDK's javac, which compiles the generated Java DTOs (Tests/MockStackTests/DTOClientTests.swift).
if [ "${1:-}" = "--test" ] && [ "$(uname -s)" = "Linux" ] && ! command -v javac >/dev/null 2>&1; then
  missing+=(default-jdk-headless)
fi
# Debian's PHP CLI, whose `php -l` parses the generated PHP DTOs (the same tests).
if [ "${1:-}" = "--test" ] && [ "$(uname -s)" = "Linux" ] && ! command -v php >/dev/null 2>&1; then
  missing+=(php-cli)
fi
# curl, the HTTPS tests' second client (Tests/CLITests), trusting only the CA a server made.
if [ "${1:-}" = "--test" ] && [ "$(uname -s)" = "Linux" ] && [ ! -x /usr/bin/curl ]; then
  missing+=(curl)
fi
if ! pkg-config --exists libevent libevent_pthreads 2>/dev/null; then
  missing+=(libevent-dev pkg-config)
fi
if [ "$(uname -s)" = "Linux" ] && [ ! -e /usr/include/mimalloc.h ] && [ ! -e /usr/local/include/mimalloc.h ]; then
  missing+=(libmimalloc-dev)
fi
if [ "$(uname -s)" = "Linux" ] && ! pkg-config --exists libcrypto 2>/dev/null; then
  missing+=(libssl-dev pkg-config)
fi
if [ "$(uname -s)" = "Linux" ] && [ ! -e /usr/include/sqlite3.h ] && [ ! -e /usr/local/include/sqlite3.h ]; then
  missing+=(libsqlite3-dev)
fi
# The upstream client (serve --proxy-unmatched, record) compiles against curl.h (CCurl).
if [ "$(uname -s)" = "Linux" ] && [ ! -e /usr/include/x86_64-linux-gnu/curl/curl.h ] && [ ! -e /usr/include/aarch64-linux-gnu/curl/curl.h ] \
   && [ ! -e /usr/include/curl/curl.h ]; then
  missing+=(libcurl4-openssl-dev)
fi
[ ${#missing[@]} -eq 0 ] && exit 0

# A Mac needs libevent and pkg-config alone (mimalloc, libcrypto, SQLite and curl are Linux's needs).
if [ "$(uname -s)" = "Darwin" ]; then
  if command -v brew >/dev/null 2>&1; then
    echo "mockstack: installing libevent and pkg-config with Homebrew" >&2
    brew install libevent pkg-config
    exit 0
  fi
  echo "mockstack: libevent is missing. Install Homebrew (https://brew.sh), then run" >&2
  echo "           'brew install libevent pkg-config' and make again." >&2
  exit 1
fi

echo "mockstack: installing ${missing[*]} with apt-get" >&2
if ! command -v apt-get >/dev/null 2>&1; then
  echo "mockstack: apt-get is not available. Install libevent 2.1 with its headers and pkg-config file" >&2
  echo "           (Homebrew: libevent) and, on Linux, mimalloc's and OpenSSL's headers, then run make again." >&2
  exit 1
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    sudo="sudo"
  else
    echo "mockstack: installing needs root; run 'apt-get install -y ${missing[*]}' as root." >&2
    exit 1
  fi
fi

export DEBIAN_FRONTEND=noninteractive
# A fresh machine has no package lists yet; refresh them once when a package is unknown.
for package in "${missing[@]}"; do
  if ! apt-cache show "$package" >/dev/null 2>&1; then
    $sudo apt-get update -qq
    break
  fi
done
if ! $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null; then
  echo "mockstack: 'apt-get install ${missing[*]}' failed; see the messages above." >&2
  exit 1
fi

if ! pkg-config --exists libevent libevent_pthreads; then
  echo "mockstack: libevent-dev was installed but pkg-config still cannot find libevent." >&2
  exit 1
fi
echo "mockstack: installed ${missing[*]}" >&2
