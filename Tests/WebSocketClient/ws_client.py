"""Drives mockstack's WebSocket layer with PyPI's `websockets` client (Tests/MockStackWebSocketTests).

Usage: ws_client.py PORT SCENARIO. Prints one JSON object: what the client saw, for the Swift
test to compare exactly. Each scenario runs with a time limit, so a stall fails instead of hanging.
"""
import asyncio
import json
import sys
import urllib.request

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed


async def echo(base):
    async with connect(base + "/echo") as ws:
        await ws.send("hello, wörld")
        text = await ws.recv()
        await ws.send(bytes([0, 1, 255]))
        binary = await ws.recv()
        big = "x" * 100_000
        await ws.send(big)
        echoed_big = await ws.recv()
        return {"text": text, "binary": list(binary), "bigEchoed": echoed_big == big}


async def fragmented(base):
    async with connect(base + "/echo") as ws:
        # An iterable is sent as one message in fragments, one frame each.
        await ws.send(["frag", "men", "ted ✓"])
        text = await ws.recv()
        await ws.send([b"\x01\x02", b"\x03"])
        binary = await ws.recv()
        return {"text": text, "binary": list(binary)}


async def ping(base):
    async with connect(base + "/echo", ping_interval=None) as ws:
        waiter = await ws.ping(b"are you there")
        await asyncio.wait_for(waiter, 5)
        return {"pong": True}


async def client_close(base):
    ws = await connect(base + "/echo")
    await ws.close(code=4001, reason="client done")
    await ws.wait_closed()
    sent, received = ws.protocol.close_sent, ws.protocol.close_rcvd
    return {"sentCode": sent.code, "receivedCode": received.code, "receivedReason": received.reason}


async def server_close(base):
    async with connect(base + "/echo") as ws:
        await ws.send("close-me")
        try:
            await ws.recv()
            return {"error": "no close"}
        except ConnectionClosed as closed:
            return {"code": closed.rcvd.code, "reason": closed.rcvd.reason, "echoedCode": closed.sent.code}


async def too_big(base):
    async with connect(base + "/small") as ws:
        await ws.send("y" * 2000)
        try:
            await ws.recv()
            return {"error": "no close"}
        except ConnectionClosed as closed:
            return {"code": closed.rcvd.code, "reason": closed.rcvd.reason}


async def broadcast(base):
    """Two sockets hear what a REST request on another connection (maybe another loop) sends them."""
    async with connect(base + "/echo") as first, connect(base + "/echo") as second:
        for ws in (first, second):  # each is registered once its echo comes back
            await ws.send("ready")
            await ws.recv()
        http = base.replace("ws://", "http://")
        status = await asyncio.to_thread(lambda: urllib.request.urlopen(http + "/broadcast?text=news", timeout=5).status)
        return {"status": status, "first": await first.recv(), "second": await second.recv()}


SCENARIOS = {f.__name__: f for f in (echo, fragmented, ping, client_close, server_close, too_big, broadcast)}


async def main():
    port, scenario = sys.argv[1], sys.argv[2]
    result = await asyncio.wait_for(SCENARIOS[scenario](f"ws://127.0.0.1:{port}"), 10)
    print(json.dumps(result, sort_keys=True, ensure_ascii=False))


asyncio.run(main())
