#!/usr/bin/env bash
# Makes sure libevent's headers and pkg-config file are installed (Debian/Ubuntu: libevent-dev),
# installing them with apt-get when they are missing. Says plainly what to do when it cannot.
set -euo pipefail

if pkg-config --exists libevent 2>/dev/null && pkg-config --exists libevent_pthreads 2>/dev/null; then
  exit 0
fi

echo "mockstack: libevent-dev is missing; installing it with apt-get" >&2
if ! command -v apt-get >/dev/null 2>&1; then
  echo "mockstack: apt-get is not available. Install libevent 2.1 with its headers and pkg-config file" >&2
  echo "           (Debian/Ubuntu: libevent-dev, Homebrew: libevent), then run make again." >&2
  exit 1
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    sudo="sudo"
  else
    echo "mockstack: installing libevent-dev needs root; run 'apt-get install -y libevent-dev pkg-config' as root." >&2
    exit 1
  fi
fi

export DEBIAN_FRONTEND=noninteractive
# A fresh machine has no package lists yet; refresh them once when the package is unknown.
if ! apt-cache show libevent-dev >/dev/null 2>&1; then
  $sudo apt-get update -qq
fi
if ! $sudo apt-get install -y -qq --no-install-recommends libevent-dev pkg-config >/dev/null; then
  echo "mockstack: 'apt-get install libevent-dev pkg-config' failed; see the messages above." >&2
  exit 1
fi

if ! pkg-config --exists libevent libevent_pthreads; then
  echo "mockstack: libevent-dev was installed but pkg-config still cannot find libevent." >&2
  exit 1
fi
echo "mockstack: libevent $(pkg-config --modversion libevent) installed" >&2
