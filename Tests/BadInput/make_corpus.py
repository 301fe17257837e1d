#!/usr/bin/env python3
"""Writes Tests/BadInput/corpus.json: malformed and hostile requests, each with the answer the
emulated server gives it (BadInputTests replays them over raw sockets).

Each entry: {"name", "request": [segment, …], "status": [allowed statuses], "format"}.
A segment is a string whose characters are bytes (U+0000–U+00FF, so invalid UTF-8 can be
written down), or [segment or segments, times] for them repeated (large requests stay small here).
"format" names whose error shape the body must have: "plain" (mockstack's own, the transport's
and the control plane's `{"status","error","message"}`), "servicestack" (`responseStatus`),
"feathers" (`{"name","message","code","className"}`), or "empty" (no body: ServiceStack's 401 for an
[Authenticate] operation and its 404 for a path outside it, as its spec says).

`bounded` entries are hostile but, on the real servers, not errors (Feathers clamps a huge
$limit to paginate.max; AutoQuery clamps take to MaxLimit); they must answer 200 within
`maxItems` records and are not counted as bad input. The framing rules are the transport's
request parser's (Sources/MockStackCore/HTTP1): obs-fold, a NUL in a header value, a chunk size
written `0x5` and a target with bytes outside ASCII are 400s; an HTTP version other than 1.0 and
1.1 is a 505 (the protocol's own answer), and the connection closes after each.

Run it after changing the cases: `python3 Tests/BadInput/make_corpus.py`.
"""

import json
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = []
BOUNDED = []


def latin(data: bytes) -> str:
    return data.decode("latin-1")


RUN = re.compile(r"(.{1,96}?)\1{15,}", re.DOTALL)


def squeezed(text: str) -> list:
    """`text` as segments, each long run of a repeated unit written [unit, times]."""
    if len(text) < 1024:
        return [text]
    segments, at = [], 0
    for run in RUN.finditer(text):
        if run.start() > at:
            segments.append(text[at:run.start()])
        unit = run.group(1)
        segments.append([unit, len(run.group(0)) // len(unit)])
        at = run.start() + len(unit) * (len(run.group(0)) // len(unit))
    if at < len(text):
        segments.append(text[at:])
    return segments


def add(name, request, status, fmt):
    segments = []
    for part in request:
        if isinstance(part, bytes):
            segments += squeezed(latin(part))
        else:
            segments.append([latin(part[0]), part[1]] if len(part[0]) < 1024 else [squeezed(latin(part[0])), part[1]])
    CORPUS.append({"name": name, "request": segments, "status": sorted(set(status)), "format": [fmt] if isinstance(fmt, str) else fmt})


def http(method: bytes, target: bytes, headers=(), body: bytes = b"", host=True):
    head = method + b" " + target + b" HTTP/1.1\r\n" + (b"Host: mockstack\r\n" if host else b"")
    for name, value in headers:
        head += name + b": " + value + b"\r\n"
    if body and not any(name.lower() in (b"content-length", b"transfer-encoding") for name, _ in headers):
        head += b"Content-Length: " + str(len(body)).encode() + b"\r\n"
    return head + b"\r\n" + body


JSON = (b"Content-Type", b"application/json")
FORM = (b"Content-Type", b"application/x-www-form-urlencoded")
TARGETS = [b"/test/api/Hello?name=x", b"/feathers/people", b"/techstacks/api/GetTechnology?slug=redis",
           b"/example/hello", b"/ai/api/SpeechToText", b"/__mockstack/health"]
APP_FORMATS = {"test": "servicestack", "feathers": "feathers", "techstacks": "servicestack", "example": "plain",
               "ai": "servicestack", "__mockstack": "plain"}

# ---- Framing: answered by the transport before any app, in mockstack's own format --------------
# (ASP.NET Core and Node also answer these in their HTTP layer, never in the app's format.)
bad_request_lines = [
    b"GARBAGE", b"GET", b"GET /", b"GET  / HTTP/1.1", b"GET / HTTP/1.1 extra", b"GET / HTTP/9.9", b"GET / HTTP/1",
    b"GET / HTTP/1.x", b"GET / http/1.1", b"GET / HTTPS/1.1", b"GET / HTTP/1.1.1", b"GET / HTTP/-1.1", b"\x00GET / HTTP/1.1",
    b"GET\t/\tHTTP/1.1", b"G\x00ET / HTTP/1.1", b"GET / HTTP/1.1\x00", b"GET / HTTP/\xff.1", b"\xff\xfe\xfd", b" GET / HTTP/1.1",
    b"GET / HTTP/01.1", b"GET / HTTP/1.01", b"GET / HTTP/2.0", b"GET / HTTP/3", b"FOO / HTTP/1.1", b"get / HTTP/1.1",
    b"GETT / HTTP/1.1", b"GET\x7f / HTTP/1.1", b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03",  # a TLS ClientHello
    b"PRI * HTTP/2.0", b"GET / HTTP/1.1 HTTP/1.1", b"/ GET HTTP/1.1", b"HTTP/1.1 GET /", b"GET%20/%20HTTP/1.1",
]
for index, line in enumerate(bad_request_lines):
    # An unknown method reaches the router, which has nothing mounted at `/`: a 404 in the same
    # format; a version the server does not speak is a 505.
    add(f"request line {index}: {line[:24]!r}", [line + b"\r\nHost: x\r\n\r\n"], [400, 404, 405, 505], "plain")

for target in TARGETS:
    app = target.split(b"/")[1].decode()
    malformed_headers = [
        (b"no colon", [b"Host x"]),
        (b"empty name", [b": value"]),
        (b"bare CR in value", [b"X-A: a\rb"]),
        (b"space before the colon", [b"X-A : b"]),
    ]
    for label, lines in malformed_headers:
        request = b"GET " + target + b" HTTP/1.1\r\nHost: x\r\n" + b"\r\n".join(lines) + b"\r\n\r\n"
        add(f"{app}: header {label.decode()}", [request], [400], "plain")
    lengths = [b"abc", b"-1", b"+5", b"5 5", b"0x10", b"99999999999999999999999", b"1e3", b"", b" ", b"5,5"]
    for value in lengths:
        add(f"{app}: Content-Length {value!r}",
            [b"POST " + target + b" HTTP/1.1\r\nHost: x\r\nContent-Length: " + value + b"\r\n\r\nhello"], [400, 413], "plain")
    add(f"{app}: Content-Length beside Transfer-Encoding",
        [b"POST " + target + b" HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n"], [400], "plain")
    for coding in [b"gzip", b"gzip, chunked", b"chunked, gzip", b"identity", b"\xff"]:
        add(f"{app}: Transfer-Encoding {coding!r}",
            [b"POST " + target + b" HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: " + coding + b"\r\n\r\n5\r\nhello\r\n0\r\n\r\n"], [400], "plain")
    add(f"{app}: two Transfer-Encoding headers",
        [b"POST " + target + b" HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n"],
        [400], "plain")
    smuggled = b"GET /smuggled HTTP/1.1\r\nHost: x\r\n\r\n"
    # A body on HEAD or TRACE means nothing (RFC 9110 §9.3.2, §9.3.8), and a client sending one
    # may mean it as the next request: refused, and the connection closed.
    for method in [b"HEAD", b"TRACE"]:
        add(f"{app}: {method.decode()} with a body",
            [method + b" " + target + b" HTTP/1.1\r\nHost: x\r\nContent-Length: " + str(len(smuggled)).encode() + b"\r\n\r\n" + smuggled],
            [400], "empty" if method == b"HEAD" else "plain")  # an answer to HEAD has no body
    # Any other method's body is read as its body, never as a request: the app answers the method
    # (a Feathers app as Node's parser does: below).
    if app != "feathers":
        add(f"{app}: FOO with a body",
            [b"FOO " + target + b" HTTP/1.1\r\nHost: x\r\nContent-Length: " + str(len(smuggled)).encode() + b"\r\n\r\n" + smuggled],
            [400, 401, 405], APP_FORMATS[app])
    add(f"{app}: two different Content-Lengths",
        [b"POST " + target + b" HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 3\r\n\r\nhello"], [400], "plain")
    add(f"{app}: Content-Length over the body limit",
        [b"POST " + target + b" HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 17000000\r\n\r\n{"], [413], "plain")
    for chunk in [b"zz", b"-1", b"ffffffffffffffffffff", b"5;\x00", b" ", b"g"]:
        add(f"{app}: chunk size {chunk!r}",
            [b"POST " + target + b" HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n" + chunk + b"\r\nhello\r\n0\r\n\r\n"],
            [400, 413], "plain")
    add(f"{app}: chunked body over the limit",
        [b"POST " + target + b" HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n", [b"100000\r\n" + b"a" * 0x100000 + b"\r\n", 17]],
        [413], "plain")
    for expect in [b"200-ok", b"100-continue-please", b"\xff"]:
        # Only a request with a body has anything to expect (evhttp, like RFC 9110 §10.1.1 allows, ignores it on others).
        add(f"{app}: Expect {expect!r}",
            [b"POST " + target + b" HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nExpect: " + expect + b"\r\n\r\n{}"], [417], "plain")
    add(f"{app}: one header over the head limit",
        [b"GET " + target + b" HTTP/1.1\r\nHost: x\r\nX-Big: ", [b"a", 40000], b"\r\n\r\n"], [431], "plain")
    add(f"{app}: 3,000 small headers",
        [b"GET " + target + b" HTTP/1.1\r\nHost: x\r\n", [b"X-Many: 1234567890\r\n", 3000], b"\r\n"], [431], "plain")
    add(f"{app}: request line over the head limit",
        [b"GET " + target + (b"&" if b"?" in target else b"?") + b"q=", [b"x", 40000], b" HTTP/1.1\r\nHost: x\r\n\r\n"], [431], "plain")
    add(f"{app}: duplicate Host with a huge value",
        [b"GET " + target + b" HTTP/1.1\r\nHost: x\r\nHost: ", [b"h", 33000], b"\r\n\r\n"], [431], "plain")

# ---- Sessions: ids that are not ids, in the control plane's format --------------------------------
for index, session in enumerate([b"", b"a%2Fb", b"%00", b"..", b"a" * 65, b"a b", b"%ff", b"a%20b", b"%2e%2e", b"\xff",
                                  b"a:b", b"a@b", b"a$b", b"a%3Bb", b"%E2%82%AC", b"a+b", b"a=b", b"(a)", b"a*b", b"[a]"]):
    add(f"session id {index}: {session[:16]!r}", [http(b"GET", b"/__session/" + session + b"/example/hello")], [400], "plain")

# ---- The static app and the control plane -----------------------------------------------------
for index, path in enumerate([b"/example/../../etc/passwd", b"/example/..%2f..%2fetc%2fpasswd", b"/example/%2e%2e/%2e%2e/etc/passwd",
                              b"/example/hello.json", b"/example/widgets/../app.json", b"/example/app.json", b"/example/%00",
                              b"/example/hello%00.json", b"/example/\xff", b"/example//hello/", b"/example/hello/..", b"/example/.",
                              b"/example/widgets%2F..%2Fapp.json", b"/example/....//....//etc/passwd", b"/example/%252e%252e/app.json"]):
    add(f"example path {index}: {path[:32]!r}", [http(b"GET", path)], [400, 404], "plain")
for method in [b"DELETE", b"PUT", b"PATCH", b"OPTIONS"]:
    add(f"example {method.decode()} on a GET route", [http(method, b"/example/hello")], [405], "plain")
for index, path in enumerate([b"/nothing", b"/", b"/%00", b"/\xff\xfe", b"/..", b"/../../etc/passwd", b"/%2e%2e/%2e%2e/etc/passwd",
                              b"/__mockstack/../etc/passwd", b"/__mockstack/nothing", b"/__mockstack/requests?limit=-1",
                              b"/__mockstack/requests?since=yesterday", b"/__mockstack/requests?colour=red", b"/__mockstack/requests?limit=abc"]):
    add(f"unmounted or control path {index}: {path[:32]!r}", [http(b"GET", path)], [400, 404], "plain")
stub_bodies = [b"{", b"[]", b'{"answer":{"bodyFile":"../etc/passwd"}}', b'{"answer":{"bodyFile":"/etc/passwd"}}',
               b'{"answer":{"bodyFile":"example/../../etc/passwd"}}', b'{"answer":{"bodyFile":"example/.hidden"}}',
               b'{"answer":{"bodyFile":"example\\\\hello.json"}}', b'{"answer":{"bodyFile":"example/hello.json\\u0000"}}',
               b'{"answer":{"status":99}}', b'{"answer":{"status":1e400}}', b'{"match":{"pathRegex":"(((("}}',
               b'{"match":{"method":"FETCH"}}', b'{"times":-1}', b'{"priority":"high"}', b'{"answer":{"delayMs":-5}}',
               b'{"answer":{"delayMs":999999999}}', b'{"answer":{"throttleBytesPerSecond":0}}', b'{"answer":{"fault":"explode"}}',
               b"\xff\xfe{}", b'{"match":' * 2000, b'[' * 100000]
for index, body in enumerate(stub_bodies):
    add(f"stub definition {index}: {body[:32]!r}", [http(b"POST", b"/__mockstack/stubs", [JSON], body)], [400], "plain")
for index, header in enumerate([(b"X-MockStack-Delay", b"soon"), (b"X-MockStack-Delay", b"-1"), (b"X-MockStack-Delay", b"99999999999"),
                                (b"X-MockStack-Delay", b"500-100"), (b"X-MockStack-Fault", b"explode"), (b"X-MockStack-Fault", b""),
                                (b"X-MockStack-Throttle", b"0"), (b"X-MockStack-Throttle", b"fast")]):
    add(f"fault header {index}: {header[0].decode()}: {header[1]!r}", [http(b"GET", b"/example/hello", [header])], [400], "plain")

# ---- ServiceStack: bodies, bindings and AutoQuery, in ServiceStack's format ------------------------
json_bombs = {
    "deep arrays": [[b"[", 100000], [b"]", 100000]],
    "deep objects": [[b'{"a":', 100000], b"1", [b"}", 100000]],
    "unclosed deep arrays": [[b"[", 200000]],
    "truncated": [b'{"name":"x'],
    "trailing garbage": [b'{"name":"x"} trailing'],
    "invalid UTF-8 in a string": [b'{"name":"\xff\xfe"}'],
    "overlong UTF-8": [b'{"name":"\xc0\xaf"}'],
    "lone surrogate escape": [b'{"name":"\\ud800"}'],
    "bad escape": [b'{"name":"\\x41"}'],
    "control character in a string": [b'{"name":"a\x01b"}'],
    "NaN": [b'{"name":NaN}'],
    "single quotes": [b"{'name':'x'}"],
    "unquoted key": [b'{name:"x"}'],
    "comment": [b'{/*c*/"name":"x"}'],
    "bare value": [b"tru"],
    "many commas": [b'{"name":"x",,,}'],
    "empty": [b""],
    "just a quote": [b'"'],
    "BOM then garbage": [b"\xef\xbb\xbf{x}"],
}
for label, body in json_bombs.items():
    size = sum(len(part) if isinstance(part, bytes) else len(part[0]) * part[1] for part in body)
    head = http(b"POST", b"/test/api/Hello", [JSON, (b"Content-Length", str(size).encode())])
    if label != "empty":  # no body at all is a request with no fields
        add(f"test Hello JSON {label}", [head] + body, [400], "servicestack")
    head = http(b"POST", b"/test/api/ThrowValidation", [JSON, (b"Content-Length", str(size).encode())])
    add(f"test ThrowValidation JSON {label}", [head] + body, [400], "servicestack")
    if label != "empty":  # an empty body to a GET-less POST is a plain request with no fields
        head = http(b"POST", b"/techstacks/api/FindTechnologies", [JSON, (b"Content-Length", str(size).encode())])
        add(f"techstacks FindTechnologies JSON {label}", [head] + body, [400], "servicestack")

typed_queries = [
    b"Age=abc", b"Age=1e999", b"Age=99999999999999999999", b"Age=%zz", b"Age=%ff", b"Age=--1", b"Age=1.5.5",
    b"Age={", b"Age=[1,2", b"Age=" + b"9" * 400,
]
for query in typed_queries:
    add(f"test ThrowValidation ?{query[:24]!r}", [http(b"GET", b"/test/api/ThrowValidation?" + query + b"&Required=r&Email=a@b.c")],
        [400], "servicestack")
autoquery = [
    b"take=99999999999999999999", b"take=abc", b"skip=abc", b"skip=99999999999999999999", b"take=%ff",
    b"ViewCountIn=1,x", b"ViewCountGreaterThan=abc", b"ViewCountGreaterThan=1e999", b"ViewCount=x", b"IdBetween=1",
    b"IdBetween=a,b", b"Ids=1,a", b"ViewCountIn=[1,", b"CreatedGreaterThan=not-a-date", b"Created=31/31/2020",
    b"Id=%00", b"Id={a:{a:{a:", b"Id=" + b"[" * 5000, b"ViewCountIn=" + b"1," * 5000 + b"x", b"ViewCountGreaterThan=--5",
]
for query in autoquery:
    add(f"techstacks FindTechnologies ?{query[:24]!r}", [http(b"GET", b"/techstacks/api/FindTechnologies?" + query)], [400], "servicestack")
for index, path in enumerate([b"/test/api/NoSuchOperation", b"/test/api/%00", b"/test/api/Hello%zz",
                              b"/test/api/..%2f..%2fetc%2fpasswd", b"/techstacks/api/NoSuch", b"/test/json/reply/NoSuch"]):
    add(f"servicestack unknown operation {index}: {path[:32]!r}", [http(b"GET", path)], [404, 405], "servicestack")
# Outside ServiceStack's own paths: the host's plain 404 with no body.
for index, path in enumerate([b"/test/types/../../etc/passwd", b"/test/types/%2e%2e%2f%2e%2e%2fetc%2fpasswd", b"/test/types/cobol",
                              b"/techstacks/types/..", b"/test/json/reply/../../../etc/passwd", b"/test/../../etc/passwd",
                              b"/test/%2e%2e/%2e%2e/etc/passwd", b"/techstacks/metadata/../../etc/passwd"]):
    add(f"servicestack unknown path {index}: {path[:32]!r}", [http(b"GET", path)], [404], "empty")
for index, (value) in enumerate([b"", b"x", b"Bearer", b"Bearer ", b"Basic", b"Basic !!!", b"Basic " + b"A" * 5000,
                                 b"Bearer a.b.c", b"Bearer " + b"x" * 8000, b"Bearer eyJhbGciOiJub25lIn0.e30.",
                                 b"Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.AAAA"]):
    # No usable credentials: 401 with no body; a bearer token that fails its checks: a TokenException.
    add(f"test TestAuth Authorization {index}", [http(b"GET", b"/test/api/TestAuth", [(b"Authorization", value)])], [400, 401],
        ["empty", "servicestack"])

boundary = b"----mockstack"
multipart = {
    "no boundary parameter": (b"multipart/form-data", b"--x\r\n\r\n--x--\r\n"),
    "empty boundary": (b"multipart/form-data; boundary=", b"--\r\n\r\n----\r\n"),
    "boundary not in body": (b"multipart/form-data; boundary=" + boundary, b"just bytes"),
    "no closing delimiter": (b"multipart/form-data; boundary=" + boundary,
                             b"--" + boundary + b"\r\nContent-Disposition: form-data; name=\"Audio\"; filename=\"a.wav\"\r\n\r\nRIFF"),
    "part without headers end": (b"multipart/form-data; boundary=" + boundary, b"--" + boundary + b"\r\nContent-Disposition: form-data"),
    "part header without colon": (b"multipart/form-data; boundary=" + boundary,
                                  b"--" + boundary + b"\r\nContent-Disposition form-data\r\n\r\nx\r\n--" + boundary + b"--\r\n"),
    "no Content-Disposition": (b"multipart/form-data; boundary=" + boundary,
                               b"--" + boundary + b"\r\nContent-Type: audio/wav\r\n\r\nx\r\n--" + boundary + b"--\r\n"),
    "boundary over 70 characters": (b"multipart/form-data; boundary=" + b"b" * 200,
                                    b"--" + b"b" * 200 + b"\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nx\r\n--" + b"b" * 200 + b"--\r\n"),
    "unterminated quoted boundary": (b'multipart/form-data; boundary="abc', b"--abc\r\n\r\n--abc--\r\n"),
    "only the closing delimiter": (b"multipart/form-data; boundary=" + boundary, b"--" + boundary + b"--\r\n"),
    "preamble only": (b"multipart/form-data; boundary=" + boundary, b"\r\n\r\n\r\n"),
    "name with invalid UTF-8": (b"multipart/form-data; boundary=" + boundary,
                                b"--" + boundary + b"\r\nContent-Disposition: form-data; name=\"\xff\"\r\n\r\nx\r\n--" + boundary + b"--\r\n"),
    "10,000 empty parts": (b"multipart/form-data; boundary=" + boundary,
                           (b"--" + boundary + b"\r\nContent-Disposition: form-data; name=\"p\"\r\n\r\n\r\n") * 10000 + b"--" + boundary + b"--\r\n"),
    "unknown charset": (b"multipart/form-data; boundary=" + boundary + b"; charset=ebcdic", b"--" + boundary + b"--\r\n"),
    "mixed, not form-data": (b"multipart/mixed; boundary=" + boundary, b"--" + boundary + b"--\r\n"),
}
for label, (content_type, body) in multipart.items():
    for app, path, auth in [("ai", b"/ai/api/SpeechToText", [(b"Authorization", b"Bearer ak-mockstack")]), ("test", b"/test/api/SpeechToText", [])]:
        add(f"{app} SpeechToText multipart {label}", [http(b"POST", path, [(b"Content-Type", content_type)] + auth, body)],
            [400], "servicestack")
add("ai SpeechToText without its API key", [http(b"POST", b"/ai/api/SpeechToText", [(b"Content-Type", b"multipart/form-data; boundary=x")],
                                                 b"--x--\r\n")], [401], "servicestack")
for label, body in [("form with bad percent-encoding in a number", b"Age=%zz&Required=r&Email=a@b.c"),
                    ("form with a number far too long", b"Age=" + b"1" * 300 + b"&Required=r&Email=a@b.c"),
                    ("form with a deep JSV value", b"Age=" + b"{a:" * 3000 + b"&Required=r&Email=a@b.c")]:
    add(f"test ThrowValidation {label}", [http(b"POST", b"/test/api/ThrowValidation", [FORM], body)], [400], "servicestack")

# ---- Feathers: bodies, queries and ids, in Feathers' format ----------------------------------------
# A method token Node's parser (llhttp) does not know is its bare 400 (no body) and the connection
# closed, a body and all; one it knows but Feathers does not map is the app's 405.
smuggled = b"GET /smuggled HTTP/1.1\r\nHost: x\r\n\r\n"
for method in [b"FOO", b"PUSH", b"get", b"DESCRIBE"]:
    add(f"feathers method {method.decode()} with a body",
        [method + b" /feathers/people HTTP/1.1\r\nHost: x\r\nContent-Length: " + str(len(smuggled)).encode() + b"\r\n\r\n" + smuggled],
        [400], "empty")
add("feathers method PURGE", [b"PURGE /feathers/people HTTP/1.1\r\nHost: x\r\n\r\n"], [405], "feathers")
for label, body in json_bombs.items():
    if label == "empty":
        continue
    size = sum(len(part) if isinstance(part, bytes) else len(part[0]) * part[1] for part in body)
    for service in [b"people", b"people-paginated"]:
        head = http(b"POST", b"/feathers/" + service, [JSON, (b"Content-Length", str(size).encode())])
        add(f"feathers {service.decode()} create JSON {label}", [head] + body, [400], "feathers")
    head = http(b"PATCH", b"/feathers/people-paginated/1", [JSON, (b"Content-Length", str(size).encode())])
    add(f"feathers people-paginated patch JSON {label}", [head] + body, [400, 404], "feathers")
feathers_queries = [
    b"$limit=-1", b"$limit=abc", b"$limit=1e999x", b"$skip=abc", b"colour=red", b"age[$gt]=abc", b"age[$in]=x",
    b"age[$nope]=1", b"$sort[age]=sideways", b"name[$regex]=.*", b"id[$gt]=" + b"9" * 400, b"$select=" + b"a," * 10000,
    b"a[b][c][d][e][f][g][h][i][j][k][l][m]=1", b"[" * 5000 + b"=1", b"age=" + b"%ff" * 10, b"name[" + b"[" * 3000 + b"]=1",
    b"age[$gt][$lt]=1", b"$or=1", b"$or[0][colour]=red", b"$and[0][age][$gt]=abc", b"created=maybe", b"age=1&age=abc",
    b"age[$in][" + b"9" * 30 + b"]=1",
    # Negative skips: the query schema wants $skip ≥ 0.
    b"$skip=-5", b"$skip=-99999999999", b"$limit=50&$skip=-1",
]
for query in feathers_queries:
    add(f"feathers people ?{query[:24]!r}", [http(b"GET", b"/feathers/people?" + query)], [400], "feathers")
    add(f"feathers people-paginated ?{query[:24]!r}", [http(b"GET", b"/feathers/people-paginated?" + query)], [400], "feathers")
for index, (method, path) in enumerate([(b"GET", b"/feathers/people/999999"), (b"GET", b"/feathers/people/abc"), (b"GET", b"/feathers/people/%00"),
                                        (b"PATCH", b"/feathers/people/999999"), (b"DELETE", b"/feathers/people/999999"),
                                        (b"PUT", b"/feathers/people/999999"), (b"GET", b"/feathers/nothing"), (b"GET", b"/feathers/people/1/extra"),
                                        (b"GET", b"/feathers/people/" + b"9" * 400), (b"GET", b"/feathers/%2e%2e/%2e%2e/etc/passwd"),
                                        (b"PUT", b"/feathers/people"), (b"PATCH", b"/feathers/people"), (b"DELETE", b"/feathers/people")]):
    body = b'{"name":"x"}' if method in (b"PATCH", b"PUT") else b""
    add(f"feathers {method.decode()} {path[:32]!r}", [http(method, path, [JSON] if body else [], body)], [400, 404, 405], "feathers")
for index, value in enumerate([b"", b"Bearer", b"Bearer x", b"Bearer a.b.c", b"Bearer eyJhbGciOiJub25lIn0.e30.", b"x" * 8000,
                               b"Basic dGVzdDp0ZXN0", b"Bearer " + b"e" * 20000]):
    add(f"feathers messages Authorization {index}", [http(b"GET", b"/feathers/messages", [(b"Authorization", value)])], [401], "feathers")
for index, body in enumerate([b'{"strategy":"local"}', b'{"strategy":"local","email":"test@example.com","password":"wrong"}',
                              b'{"strategy":"nope"}', b'{}', b'{"strategy":"jwt","accessToken":"a.b.c"}', b'{"strategy":' + b"[" * 3000,
                              b'{"strategy":"local","email":{"$ne":null},"password":{"$ne":null}}',
                              b'{"strategy":"local","email":"test@example.com","password":' + b'"x' * 1 + b"a" * 100000 + b'"}']):
    add(f"feathers authentication {index}", [http(b"POST", b"/feathers/authentication", [JSON], body)], [400, 401], "feathers")

# ---- Malformed in ways an older transport read past: refused now --------------------------------
for label, lines in [("NUL in a value", [b"X-A: a\x00b"]), ("a line of spaces (obs-fold)", [b"    "]),
                     ("a folded first line (obs-fold)", [b" folded", b"X-A: b"])]:
    add(f"example: header {label}", [b"GET /example/hello HTTP/1.1\r\nHost: x\r\n" + b"\r\n".join(lines) + b"\r\n\r\n"], [400], "plain")
add("example: chunk size 0x5", [b"POST /example/widgets HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0x5\r\nhello\r\n0\r\n\r\n"],
    [400], "plain")
# A request target is ASCII (RFC 9112 §3.2; clients percent-encode the rest).
for path in [b"/test/api/\xff", b"/test/\xff", b"/feathers/people/\xff"]:
    add(f"target with a byte outside ASCII {path!r}", [http(b"GET", path)], [400], "plain")

# ---- Bounded: hostile, yet not errors on the real servers ------------------------------------------
for query, most in [(b"$limit=99999999999999999999", 50), (b"$limit=1e9", 50), (b"$skip=99999999999999999999", 50)]:
    BOUNDED.append({"name": f"feathers people-paginated ?{latin(query)}", "request": [latin(http(b"GET", b"/feathers/people-paginated?" + query))],
                    "status": 200, "maxItems": most})
for query, most in [(b"take=2147483647", 1000), (b"take=100000", 1000), (b"skip=-5", 1000), (b"skip=2147483647", 0)]:
    BOUNDED.append({"name": f"techstacks FindTechnologies ?{latin(query)}",
                    "request": [latin(http(b"GET", b"/techstacks/api/FindTechnologies?" + query + b"&Fields=Id"))],
                    "status": 200, "maxItems": most})

with open(os.path.join(HERE, "corpus.json"), "w") as out:
    json.dump({"badInput": CORPUS, "bounded": BOUNDED}, out, indent=0, ensure_ascii=True)
    out.write("\n")
print(f"{len(CORPUS)} bad-input requests, {len(BOUNDED)} bounded → Tests/BadInput/corpus.json")
