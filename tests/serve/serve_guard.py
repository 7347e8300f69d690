#!/usr/bin/env python3
"""`anvilrt serve` against other programs on the machine (issue 51; docs/serve.md, the threat model), through
real sockets: clients that send their headers slowly do not starve it and do not hold up its stop; a stop
answers the request already let in; a body is taken only with its Content-Length, at most 1 MiB, as it is;
header fields are bounded; a refused request closes its connection, so that its body is never read as a
request; the port is the server's alone.

Timing: every wait has a generous limit (a busy machine, Wine), and what is measured is printed; the only
times asserted are limits far from what the server takes (a good request answered within 10 s while 40
slow clients are connected, where the server without its guard never answered; an exit within 15 s of the
stop, where it took 45 s).

usage: serve_guard.py ANVILRT CORPUS_ARCHIVE WORK_DIR
"""
import json
import os
import pathlib
import re
import shutil
import socket
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(__file__))
from serve_support import Checks, Served, default_signals, stop_signal, under_wine  # noqa: E402

check = Checks()


def connect(served):
    return socket.create_connection(("127.0.0.1", served.port), timeout=30)


def head(served, method, path, token=None, extra=()):
    lines = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{served.port}"]
    if token:
        lines.append(f"X-Anvilrt-Token: {token}")
    lines.extend(extra)
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def read_to_end(sock, limit=30):
    """Everything the server sends until it closes the connection (or `limit` seconds)."""
    sock.settimeout(limit)
    data = b""
    try:
        while True:
            part = sock.recv(65536)
            if not part:
                return data, True
            data += part
    except (socket.timeout, ConnectionResetError):
        return data, False


def statuses(data):
    """The status codes of the answers in `data` (a 100 Continue counted too; an answer's status line follows
    the body before it directly)."""
    return [int(code) for code in re.findall(rb"HTTP/1\.1 (\d{3}) ", data)]


def one_exchange(served, payload, limit=30):
    with connect(served) as s:
        s.sendall(payload)
        return read_to_end(s, limit)


def timed_info(served):
    """GET /api/info with the token on a fresh connection: (status, seconds)."""
    start = time.monotonic()
    with connect(served) as s:
        s.settimeout(10)
        s.sendall(head(served, "GET", "/api/info", served.token, ["Connection: close"]))
        try:
            data, _ = read_to_end(s, 10)
        except OSError:
            data = b""
    found = statuses(data)
    return (found[0] if found else None), time.monotonic() - start


def slow_clients(served, count):
    """`count` connections that send a request's head a byte a second and never end it."""
    sockets = [connect(served) for _ in range(count)]
    for s in sockets:
        s.sendall(f"GET /api/info HTTP/1.1\r\nHost: 127.0.0.1:{served.port}\r\n".encode())
    stop = threading.Event()

    def trickle():
        while not stop.wait(1.0):
            for s in sockets:
                try:
                    s.send(b"x")
                except OSError:
                    pass
    thread = threading.Thread(target=trickle, daemon=True)
    thread.start()
    return sockets, stop


def slow_loris(anvilrt, archive):
    with Served(anvilrt, archive) as served:
        sockets, stop = slow_clients(served, 40)
        status, seconds = timed_info(served)
        print(f"     a request among 40 slow clients answered in {seconds:.3f} s")
        check("40 clients sending their headers a byte a second: a good request is still answered (within 10 s)",
              status == 200, (status, seconds))
        # The head's time limit: a slow client's connection ends (its answer 400) instead of holding on.
        start = time.monotonic()
        data, closed = read_to_end(sockets[-1], 40)
        print(f"     a slow client's connection closed after {time.monotonic() - start:.1f} s more")
        check("a client that never ends its headers is answered and closed (the head's time limit)",
              closed and statuses(data)[:1] in ([400], []), (data[:60], closed))
        stop.set()
        for s in sockets:
            s.close()
        # Stopping with slow clients connected: it does not wait for them.
        sockets, stop = slow_clients(served, 12)
        time.sleep(0.5)  # let them connect and start (not a check)
        start = time.monotonic()
        code = served.stop()
        seconds = time.monotonic() - start
        print(f"     {stop_signal().name} with 12 slow clients connected: exit after {seconds:.2f} s")
        check(f"{stop_signal().name} with 12 slow clients connected: exit 0 within 15 s", code == 0 and seconds < 15,
              (code, seconds))
        stop.set()
        for s in sockets:
            s.close()


def stop_answers_the_request_let_in(anvilrt, archive):
    with Served(anvilrt, archive) as served:
        body = json.dumps({"patch": []}).encode()
        s = connect(served)
        s.sendall(head(served, "POST", "/api/check", served.token,
                       ["Content-Type: application/json", f"Content-Length: {len(body)}", "Expect: 100-continue"]))
        s.settimeout(30)
        got = s.recv(4096)
        check("Expect: 100-continue with the token: 100 Continue (the request is let in)",
              statuses(got) == [100], got[:60])
        served.process.send_signal(stop_signal())
        # The stop has begun once the port no longer takes connections.
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", served.port), timeout=2).close()
                time.sleep(0.05)
            except OSError:
                break
        s.sendall(body)
        data, _ = read_to_end(s, 30)
        s.close()
        check(f"{stop_signal().name} while a request's body is under way: it is answered (200)",
              statuses(data)[:1] == [200] and b'"ok":true' in data, data[:120])
        code = served.process.wait(timeout=30)
        check(f"then exit 0", code == 0, code)


def framing(served):
    good = served.token
    json_type = "Content-Type: application/json"
    status = statuses(one_exchange(served, head(served, "POST", "/api/check", good, [
        json_type, "Transfer-Encoding: chunked"]) + b"2\r\n[]\r\n0\r\n\r\n")[0])
    check("a chunked body: 411 (a body only with its Content-Length)", status[:1] == [411], status)
    chunk = b"x" * 65536
    big = b"".join(b"%x\r\n" % len(chunk) + chunk + b"\r\n" for _ in range(32)) + b"0\r\n\r\n"
    data, closed = one_exchange(served, head(served, "POST", "/api/check", good, [
        json_type, "Transfer-Encoding: chunked"]) + big)
    check("a 2 MiB chunked body: 411, never read as a body, the connection closed",
          statuses(data) == [411] and closed, (data[:60], closed))
    with connect(served) as s:
        s.sendall(head(served, "POST", "/api/check", good, [json_type, "Connection: close"]) + b'{"patch": []}')
        s.shutdown(socket.SHUT_WR)
        data, _ = read_to_end(s)
    check("a body without a length (until the client closes): 411", statuses(data) == [411], data[:60])
    body = b'{"patch": []}'
    data, _ = one_exchange(served, head(served, "POST", "/api/check", good, [
        json_type, "Content-Encoding: gzip", f"Content-Length: {len(body)}"]) + body)
    check("Content-Encoding: gzip: 415", statuses(data) == [415], data[:60])
    data, _ = one_exchange(served, head(served, "POST", "/api/check", good, [
        json_type, f"Content-Length: {len(body)}", f"Content-Length: {len(body)}"]) + body)
    check("two Content-Length fields: 400", statuses(data) == [400], data[:60])
    data, _ = one_exchange(served, head(served, "POST", "/api/check", good, [
        json_type, f"Content-Length: {len(body)}, {len(body)}"]) + body)
    check("a Content-Length that is not a number: 400", statuses(data) == [400], data[:60])
    data, _ = one_exchange(served, head(served, "GET", "/api/info", good, [f"X-Field-{i}: {i}" for i in range(150)]))
    check("150 header fields: 431", statuses(data) == [431], data[:60])
    data, closed = one_exchange(served, head(served, "GET", "/api/info", good, [f"X-Long: {'y' * 8000}"] * 6))
    check("48 KB of headers (over the head's 32 KiB): refused (400) and closed", statuses(data) == [400] and closed,
          (data[:60], closed))
    status, _ = timed_info(served)
    check("a good request after all that: 200", status == 200, status)


def refused_requests_close(served):
    smuggled = head(served, "GET", "/api/info", served.token)
    data, closed = one_exchange(served, head(served, "POST", "/api/check", None, [
        "Content-Type: application/json", f"Content-Length: {len(smuggled)}"]) + smuggled)
    check("a refused POST (no token) whose body is a request with the token: one answer, 403, and closed",
          statuses(data) == [403] and closed, (statuses(data), closed))
    data, closed = one_exchange(served, head(served, "GET", "/api/info", served.token, [
        f"Content-Length: {len(smuggled)}"]) + smuggled)
    check("a GET with a body holding a request: one answer, 400, and closed", statuses(data) == [400] and closed,
          (statuses(data), closed))
    data, closed = one_exchange(served, head(served, "POST", "/api/check", None, [
        "Content-Type: application/json", "Content-Length: 13", "Expect: 100-continue"]))
    check("Expect: 100-continue without the token: 403 and never 100 Continue", statuses(data) == [403] and closed,
          (statuses(data), closed))
    with connect(served) as s:
        s.sendall(head(served, "GET", "/api/info", served.token) * 2 + head(served, "GET", "/api/info", None))
        data, closed = read_to_end(s)
    check("on one connection: two good requests answered, then the refused third closes it",
          statuses(data) == [200, 200, 403] and closed, (statuses(data), closed))


def exclusive_port(anvilrt, archive):
    with Served(anvilrt, archive) as served:
        second = subprocess.run([anvilrt, "serve", archive, "--port", str(served.port)], capture_output=True,
                                text=True, timeout=60, preexec_fn=default_signals)
        lines = second.stderr.splitlines()
        check("a second server on the same port: exit 2, one line saying it cannot listen there",
              second.returncode == 2 and len(lines) == 1 and f"cannot listen on 127.0.0.1:{served.port}" in lines[0]
              and not second.stdout, (second.returncode, second.stderr, second.stdout))
        if hasattr(socket, "SO_REUSEPORT"):
            probe = socket.socket()
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
            try:
                probe.bind(("127.0.0.1", served.port))
                probe.listen()
                shared = True
            except OSError:
                shared = False
            probe.close()
            check("a socket asking SO_REUSEPORT cannot listen on the server's port", not shared)
        status, _ = timed_info(served)
        check("the first server still answers", status == 200, status)


def main():
    anvilrt, archive, work = sys.argv[1], sys.argv[2], pathlib.Path(sys.argv[3])
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    source = work / "input.forge"
    shutil.copyfile(archive, source)
    slow_loris(anvilrt, str(source))
    stop_answers_the_request_let_in(anvilrt, str(source))
    with Served(anvilrt, str(source)) as served:
        framing(served)
        refused_requests_close(served)
        check("the server lives on", served.process.poll() is None)
    exclusive_port(anvilrt, str(source))
    return check.summary()


if __name__ == "__main__":
    sys.exit(main())
