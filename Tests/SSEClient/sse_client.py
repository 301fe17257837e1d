"""Drives the `test` app's ServiceStack Server Events with PyPI's sseclient-py over a streamed
`requests` response (Tests/MockStackTests/ServerEventsClientTests.swift).

Usage: sse_client.py ORIGIN SCENARIO. ORIGIN is the app's base URL (http://127.0.0.1:PORT/test).
Prints one JSON object, keys sorted: what the clients saw, for the Swift test to compare exactly.
Every wait has a time limit, so a stall fails instead of hanging.
"""
import json
import re
import socket
import sys
import threading

import requests
import sseclient

TIMEOUT = 15
SUBSCRIPTION_ID = re.compile(r"^[A-Za-z0-9]{20}$")


class Subscriber:
    """One `/event-stream`, read on a thread of its own; `cmd.onConnect` is awaited here."""

    def __init__(self, origin, query):
        self.origin = origin
        self.response = requests.get(origin + "/event-stream" + query, stream=True, timeout=TIMEOUT)
        self.events = []
        self.ended = False
        self.changed = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()
        first = self.wait_for(1)[0]
        self.first_id = first.id
        self.connect = json.loads(first.data.split(" ", 1)[1])
        self.id = self.connect["id"]

    def _read(self):
        try:
            for event in sseclient.SSEClient(self.response).events():
                with self.changed:
                    self.events.append(event)
                    self.changed.notify_all()
        except requests.RequestException:
            pass
        with self.changed:
            self.ended = True
            self.changed.notify_all()

    def wait_for(self, count):
        """The first `count` events, or every one there was if the stream ended or time ran out."""
        with self.changed:
            self.changed.wait_for(lambda: len(self.events) >= count or self.ended, TIMEOUT)
            return list(self.events[:count]) if len(self.events) >= count else list(self.events)

    def wait_for_end(self):
        with self.changed:
            return self.changed.wait_for(lambda: self.ended, TIMEOUT)

    def selectors(self, count):
        """The selectors of the first `count` events, after the connect event."""
        return [event.data.split(" ", 1)[0] for event in self.wait_for(count)[1:]]

    def body(self, index):
        return json.loads(self.events[index].data.split(" ", 1)[1])

    def post(self, url):
        return requests.post(url, timeout=TIMEOUT)

    def close(self):
        # Closing a streamed response waits for its reader; ending the socket first frees it,
        # as a client that goes away does.
        connection = self.response.raw.connection
        if connection is not None:
            connection.sock.shutdown(socket.SHUT_RDWR)
            self.wait_for_end()
        self.response.close()


def call(origin, operation, body):
    """A service call on the predefined route: its status and its body (JSON or nothing)."""
    response = requests.post(origin + "/api/" + operation, json=body, timeout=TIMEOUT)
    return response.status_code, response.json() if response.content else None


def connect(origin):
    """The first event's fields: the meta, the id's shape and the URLs relative to the app."""
    client = Subscriber(origin, "?channels=home,news")
    try:
        fields = dict(client.connect)
        fields["id"] = bool(SUBSCRIPTION_ID.match(fields["id"]))
        for key in ("unRegisterUrl", "heartbeatUrl", "updateSubscriberUrl"):
            fields[key] = fields[key].replace(origin, "ORIGIN").replace(client.id, "ID")
        fields["createdAt"] = fields["createdAt"].isdigit()
        fields["profileUrl"] = fields["profileUrl"].startswith("data:image/svg+xml,")
        return {"eventId": client.first_id, "fields": fields}
    finally:
        client.close()


def join_leave(origin):
    """Two clients in `home`: each hears the joins after its own; the one staying hears the leave."""
    first = Subscriber(origin, "?channels=home")
    second = Subscriber(origin, "?channel=home")
    try:
        second_heard = second.selectors(2)
        first_heard = first.selectors(3)
        unregistered = second.post(second.connect["unRegisterUrl"])
        ended = second.wait_for_end()
        first_heard_after = first.selectors(4)
        return {
            "firstHeard": first_heard_after,
            "joinedNames": [first.body(1)["displayName"], first.body(2)["displayName"]],
            "leaverName": first.body(3)["displayName"],
            "secondEnded": ended,
            "secondHeard": second_heard,
            "secondHeardAfter": [event.data.split(" ", 1)[0] for event in second.events[1:]],
            "unregistered": [unregistered.status_code, unregistered.json()["displayName"]],
            "firstHeardBefore": first_heard,
        }
    finally:
        first.close()
        second.close()


def chat(origin):
    """A chat from one subscriber reaches both, and a raw message arrives as a JSON string."""
    first = Subscriber(origin, "?channels=home")
    second = Subscriber(origin, "?channels=home")
    try:
        first.wait_for(3)
        second.wait_for(2)
        status, answer = call(origin, "PostChatToChannel", {
            "from": first.id, "channel": "home", "message": "hi <all>", "selector": "cmd.chat"})
        raw_status, _ = call(origin, "PostRawToChannel", {
            "from": first.id, "channel": "home", "message": "plain text", "selector": "cmd.raw"})
        first_events = first.wait_for(5)[3:]
        second_events = second.wait_for(4)[2:]
        answer["fromUserId"] = answer["fromUserId"] == first.connect["userId"]
        return {
            "answer": [status, answer],
            "raw": raw_status,
            "firstFrames": [event.data for event in first_events],
            "secondFrames": [event.data for event in second_events],
        }
    finally:
        first.close()
        second.close()


def heartbeat_update_reset(origin):
    """A heartbeat is answered and heard; an update adds a channel while connected; after a reset
    the heartbeat is unknown."""
    client = Subscriber(origin, "?channels=home")
    try:
        client.wait_for(2)
        beat = client.post(client.connect["heartbeatUrl"])
        heard_beat = client.selectors(3)[-1]
        update_status, update = call(origin, "UpdateEventSubscriber", {
            "id": client.id, "subscribeChannels": ["news"]})
        updates = client.selectors(5)[-2:]
        call(origin, "PostChatToChannel", {
            "from": client.id, "channel": "news", "message": "fresh", "selector": "cmd.chat"})
        news = client.selectors(6)[-1]
        reset_status, _ = call(origin, "ResetServerEvents", {})
        after_reset = client.post(client.connect["heartbeatUrl"])
        return {
            "beat": [beat.status_code, beat.text],
            "heardBeat": heard_beat,
            "update": [update_status, update],
            "updates": updates,
            "updatedChannels": client.body(4)["channels"],
            "news": news,
            "reset": reset_status,
            "afterReset": [after_reset.status_code, after_reset.reason.replace(client.id, "ID"), after_reset.text],
        }
    finally:
        client.close()


def jwt(origin):
    """A JWT in `?ss-tok=` subscribes as its user."""
    _, created = call(origin, "CreateJwt", {"userAuthId": "7", "userName": "ann", "displayName": "Ann"})
    client = Subscriber(origin, "?channels=home&ss-tok=" + created["token"])
    try:
        meta = client.connect
        return {key: meta[key] for key in ("userId", "displayName", "isAuthenticated", "channels")}
    finally:
        client.close()


SCENARIOS = {
    "connect": connect,
    "join_leave": join_leave,
    "chat": chat,
    "heartbeat_update_reset": heartbeat_update_reset,
    "jwt": jwt,
}

if __name__ == "__main__":
    print(json.dumps(SCENARIOS[sys.argv[2]](sys.argv[1]), sort_keys=True))
