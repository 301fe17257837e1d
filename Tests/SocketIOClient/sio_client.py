"""Drives mockstack's Feathers apps over Socket.IO with PyPI's python-socketio (Tests/MockStackTests,
FeathersRealtimeTests): release 5 (Engine.IO 4) against the v5 app, release 4.6 (Engine.IO 3) against
the v4 app, each from its own virtual environment.

Usage: sio_client.py ORIGIN SOCKETIO_PATH SCENARIO [TRANSPORTS]. Prints one JSON object: what the
client saw, for the Swift test to compare exactly. Every wait has a time limit, so a stall fails
instead of hanging.
"""
import json
import sys
import threading
import time
import urllib.request

import socketio

TIMEOUT = 5


class Client:
    """A python-socketio client that records the service events it hears."""

    def __init__(self, origin, path, transports, headers=None):
        self.sio = socketio.Client(reconnection=False)
        self.events = []
        self.arrived = threading.Condition()
        for event in ("people created", "people patched", "people removed", "messages created"):
            self.sio.on(event, self._recorder(event))
        self.sio.connect(origin, socketio_path=path, transports=transports, headers=headers or {})

    def _recorder(self, event):
        def record(data):
            with self.arrived:
                self.events.append([event, data])
                self.arrived.notify_all()
        return record

    def call(self, *args):
        """A service call; the acknowledgement's arguments as a list."""
        answer = self.sio.call(args[0], args[1:], timeout=TIMEOUT)
        return list(answer) if isinstance(answer, tuple) else [answer]

    def wait_for_events(self, count):
        with self.arrived:
            self.arrived.wait_for(lambda: len(self.events) >= count, TIMEOUT)
            return list(self.events)

    def close(self):
        self.sio.disconnect()


def rest(origin, method, path, body=None, token=None):
    request = urllib.request.Request(origin + path, method=method, data=json.dumps(body).encode() if body is not None else None)
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", "Bearer " + token)
    with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
        return response.status, json.loads(response.read() or b"null")



LOGIN = {"strategy": "local", "email": "test@example.com", "password": "secret"}


def stamped(value):
    """A message with its `createdAt` (milliseconds the server stamped) read as "now" when it is within a minute of this
    client's clock, so the output compares exactly."""
    if isinstance(value, list):
        return [stamped(item) for item in value]
    if isinstance(value, dict):
        created = value.get("createdAt")
        if isinstance(created, int) and abs(created - time.time() * 1000) < 60_000:
            return {**value, "createdAt": "now"}
        return {key: stamped(item) for key, item in value.items()}
    return value


def methods(origin, path, transports):
    """Every method on `people`, and the errors the socket answers before and in a method."""
    client = Client(origin, path, transports)
    try:
        return {
            "transport": client.sio.transport(),
            "create": client.call("create", "people", {"name": "Ada", "age": 36}, {}),
            "find": client.call("find", "people", {"age": {"$gt": 20}}),
            "get": client.call("get", "people", 0, {}),
            "update": client.call("update", "people", 0, {"name": "Ada L.", "age": 37}, {}),
            "patch": client.call("patch", "people", 0, {"age": 38}, {}),
            "remove": client.call("remove", "people", 0, {}),
            "missing": client.call("get", "people", 999),
            "unknownService": client.call("find", "nope", {}),
            "notAllowed": client.call("find", "authentication", {}),
            "tooManyArguments": client.call("find", "people", {}, 1),
            "protected": client.call("find", "messages", {}),
        }
    finally:
        client.close()


def channels(origin, path, transports):
    """Events reach signed-in connections only, from socket and REST calls alike, until logout."""
    anonymous = Client(origin, path, transports)
    member = Client(origin, path, transports)
    try:
        signed_in = member.call("create", "authentication", LOGIN, {})
        bo = anonymous.call("create", "people", {"name": "Bo"}, {})[1]
        status, _ = rest(origin, "PATCH", "/feathers/people/%d" % bo["id"], {"age": 4})
        heard = member.wait_for_events(2)
        member.call("create", "messages", {"text": "hi"}, {})
        heard = member.wait_for_events(3)
        logout = member.call("remove", "authentication", None, {})
        anonymous.call("remove", "people", bo["id"], {})
        # An acknowledged call after the remove: any event from it would have arrived first.
        after = member.call("find", "people", {})
        return {
            "signedIn": sorted(signed_in[1].keys()),
            "restStatus": status,
            "memberHeard": stamped(heard),
            "anonymousHeard": anonymous.events,
            "loggedOut": logout[0] is None,
            "afterLogout": member.events[len(heard):],
            "findAfterLogout": after,
        }
    finally:
        anonymous.close()
        member.close()


def handshake_token(origin, path, transports):
    """A token in the handshake's Authorization header signs the connection in; a bad one is refused."""
    _, login = rest(origin, "POST", "/feathers/authentication", LOGIN)
    client = Client(origin, path, transports, headers={"Authorization": "Bearer " + login["accessToken"]})
    try:
        created = stamped(client.call("create", "messages", {"text": "with a header"}, {}))
    finally:
        client.close()
    try:
        Client(origin, path, transports, headers={"Authorization": "Bearer not-a-token"})
        refused = None
    except socketio.exceptions.ConnectionError as error:
        refused = str(error)
    return {"created": created, "refused": refused}


def legacy(origin, path, transports):
    """Feathers 4's socket API over Engine.IO 3: authenticate, path::method, events, logout."""
    client = Client(origin, path, transports)
    try:
        authenticated = client.call("authenticate", LOGIN)
        created = client.call("people::create", {"name": "Cy"}, {})
        found = client.call("people::find", {})
        heard = client.wait_for_events(1)
        standard = client.call("get", "people", 0)
        return {
            "transport": client.sio.transport(),
            "authenticated": sorted(authenticated[1].keys()),
            "created": created,
            "found": found,
            "heard": heard,
            "standard": standard,
        }
    finally:
        client.close()


def refused(origin, path, transports):
    """A client the app does not speak to: the connection error it reports."""
    try:
        Client(origin, path, transports)
        return {"error": None}
    except socketio.exceptions.ConnectionError as error:
        return {"error": str(error)}


def sessions(origin, path, transports):
    """A mockstack session's sockets see that session's records and events only."""
    inside = Client(origin, "__session/alpha/" + path, transports)
    outside = Client(origin, path, transports)
    try:
        outside.call("create", "authentication", LOGIN, {})
        created = inside.call("create", "people", {"name": "In alpha"}, {})
        found_outside = outside.call("find", "people", {})
        found_inside = inside.call("find", "people", {})
        return {"created": created, "outside": found_outside, "inside": found_inside, "outsideHeard": outside.events}
    finally:
        inside.close()
        outside.close()


def control(origin, path, transports):
    """The control plane's view of the sockets: listed, an event pushed, events held, one dropped."""
    member = Client(origin, path, transports)
    guest = Client(origin, path, transports)
    try:
        member.call("create", "authentication", LOGIN, {})
        heard = threading.Event()
        member.sio.on("announcement", lambda *args: (member.events.append(["announcement", list(args)]), heard.set()))
        _, listed = rest(origin, "GET", "/__mockstack/sockets")
        _, pushed = rest(origin, "POST", "/__mockstack/events", {"app": "feathers", "event": "announcement", "arguments": ["hi", 1], "to": "authenticated"})
        heard.wait(TIMEOUT)
        _, delayed = rest(origin, "PUT", "/__mockstack/events/delay", {"app": "feathers", "ms": 200})
        guest_id = [s for s in listed["sockets"] if not s["signedIn"]][0]["id"]
        gone = threading.Event()
        guest.sio.on("disconnect", lambda *args: gone.set())
        dropped, _ = rest(origin, "DELETE", "/__mockstack/sockets/" + guest_id)
        gone.wait(TIMEOUT)
        _, after = rest(origin, "GET", "/__mockstack/sockets")
        _, calls = rest(origin, "GET", "/__mockstack/sockets/activity?kind=call")
        _, events = rest(origin, "GET", "/__mockstack/sockets/activity?kind=event")
        return {
            "listed": sorted([s["app"], s["signedIn"], s["channels"], s["transport"], s["protocol"]] for s in listed["sockets"]),
            "delays": listed["eventDelayMs"],
            "pushed": pushed,
            "memberHeard": member.events,
            "delayed": delayed,
            "dropped": dropped,
            "guestConnected": guest.sio.connected,
            "remaining": len(after["sockets"]),
            "journaledCalls": [[c["name"], c["answer"][0] is None] for c in calls["activity"]],
            "journaledEvents": [[e["name"], e["data"], e["recipients"]] for e in events["activity"]],
        }
    finally:
        member.close()
        guest.close()


def own_records(origin, path, transports):
    """The v5 app's users, as its generated query resolver restricts them: a signed-in socket reaches its own record only."""
    rest(origin, "POST", "/feathers/users", {"email": "own@example.com", "password": "pw"})
    client = Client(origin, path, transports)
    try:
        client.call("create", "authentication", {"strategy": "local", "email": "own@example.com", "password": "pw"}, {})
        return {
            "found": client.call("find", "users", {}),
            "own": client.call("get", "users", 1, {}),
            "other": client.call("get", "users", 0, {}),
            "otherPatch": client.call("patch", "users", 0, {"email": "taken@example.com"}, {}),
        }
    finally:
        client.close()


def data_schemas(origin, path, transports):
    """The v5 app's data schemas hold over the socket: Ajv's refusal in the acknowledgement, nothing stored."""
    client = Client(origin, path, transports)
    try:
        client.call("create", "authentication", LOGIN, {})
        return {
            "message": client.call("create", "messages", {"text": 123}, {}),
            "person": client.call("create", "people", {"name": "A", "age": "51"}, {}),
            "people": client.call("find", "people", {}),
        }
    finally:
        client.close()


SCENARIOS = {"data_schemas": data_schemas, "own_records": own_records, "control": control, "sessions": sessions, "methods": methods, "channels": channels, "handshake_token": handshake_token, "legacy": legacy, "refused": refused}

if __name__ == "__main__":
    origin, path, scenario = sys.argv[1], sys.argv[2], sys.argv[3]
    transports = sys.argv[4].split(",") if len(sys.argv) > 4 else ["polling", "websocket"]
    print(json.dumps(SCENARIOS[scenario](origin, path, transports), sort_keys=True))
