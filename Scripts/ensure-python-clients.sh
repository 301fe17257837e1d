#!/usr/bin/env bash
# make test: the Python clients the end-to-end tests drive mockstack with (issue 24: the
# WebSocket layer against PyPI's `websockets`), in a virtual environment of the project's own,
# .venv/, pinned by Tests/WebSocketClient/requirements.txt. Quick when they are already there.
# The tests find .venv/bin/python (or MOCKSTACK_PYTHON); without it they skip, unless
# MOCKSTACK_REQUIRE_PYTHON_CLIENTS=1 (as make test sets) makes that a failure.
set -euo pipefail

cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"
REQUIREMENTS=Tests/WebSocketClient/requirements.txt

if ! command -v "$PYTHON" >/dev/null 2>&1; then
  echo "mockstack: $PYTHON is not installed; the WebSocket tests need Python 3.9 or later (apt-get install python3 python3-venv)." >&2
  exit 1
fi
if [ ! -x .venv/bin/python ]; then
  echo "mockstack: creating .venv for the tests' Python clients" >&2
  if ! "$PYTHON" -m venv .venv; then
    rm -rf .venv
    echo "mockstack: '$PYTHON -m venv' failed; on Debian/Ubuntu install python3-venv, then run make test again." >&2
    exit 1
  fi
fi
# Nothing to do when the pinned version is the one installed.
pinned="$(sed -n 's/^websockets==//p' "$REQUIREMENTS")"
if .venv/bin/python -c "import sys, websockets; sys.exit(websockets.__version__ != '$pinned')" 2>/dev/null; then
  exit 0
fi
if ! .venv/bin/python -m pip install --quiet --disable-pip-version-check -r "$REQUIREMENTS"; then
  echo "mockstack: installing $REQUIREMENTS into .venv failed; see pip's messages above." >&2
  exit 1
fi
