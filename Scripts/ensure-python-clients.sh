#!/usr/bin/env bash
# make test: the Python clients the end-to-end tests drive mockstack with, each set in a virtual
# environment of the project's own: .venv/ (PyPI's `websockets` for the WebSocket layer,
# python-socketio 5 for Feathers real-time; Tests/WebSocketClient/requirements.txt; and the
# `servicestack` client that calls mockstack with the generated Python DTOs;
# Tests/DTOClients/requirements.txt; and sseclient-py for ServiceStack Server Events;
# Tests/SSEClient/requirements.txt) and
# .venv-eio3/ (python-socketio 4.6, the Engine.IO 3 client, which cannot share one;
# Tests/SocketIOClient/requirements-eio3.txt). Quick when they are already there. The tests
# find .venv/bin/python and .venv-eio3/bin/python (or MOCKSTACK_PYTHON, MOCKSTACK_PYTHON_EIO3);
# without them they skip, unless MOCKSTACK_REQUIRE_PYTHON_CLIENTS=1 (as make test sets) makes
# that a failure.
set -euo pipefail

cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"

if ! command -v "$PYTHON" >/dev/null 2>&1; then
  echo "mockstack: $PYTHON is not installed; the end-to-end tests' clients need Python 3.9 or later (apt-get install python3 python3-venv)." >&2
  exit 1
fi

# ensure_venv DIR REQUIREMENTS...: DIR holds exactly what the REQUIREMENTS files pin. A copy of
# them inside DIR records what was installed, so an unchanged environment costs one comparison.
ensure_venv() {
  local venv="$1"
  shift
  local requirements
  requirements="$(cat "$@")"
  if [ -x "$venv/bin/python" ] && [ "$requirements" = "$(cat "$venv/.installed-requirements" 2>/dev/null)" ]; then
    return 0
  fi
  if [ ! -x "$venv/bin/python" ]; then
    echo "mockstack: creating $venv for the tests' Python clients" >&2
    if ! "$PYTHON" -m venv "$venv"; then
      rm -rf "$venv"
      echo "mockstack: '$PYTHON -m venv' failed; on Debian/Ubuntu install python3-venv, then run make test again." >&2
      exit 1
    fi
  fi
  if ! "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "${@/#/--requirement=}"; then
    echo "mockstack: installing $* into $venv failed; see pip's messages above." >&2
    exit 1
  fi
  printf '%s\n' "$requirements" > "$venv/.installed-requirements"
}

ensure_venv .venv Tests/WebSocketClient/requirements.txt Tests/DTOClients/requirements.txt Tests/SSEClient/requirements.txt
ensure_venv .venv-eio3 Tests/SocketIOClient/requirements-eio3.txt
