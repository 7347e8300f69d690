#!/usr/bin/env python3
"""`anvilrt serve`'s door through real HTTP (STYLE.md habit 19, docs/serve.md): every refusal the server
promises, each by a request that would succeed without the one thing wrong with it.

usage: serve_security.py ANVILRT CORPUS_ARCHIVE WORK_DIR
"""
import hashlib
import http.client
import json
import os
import pathlib
import shutil
import socket
import sys

sys.path.insert(0, os.path.dirname(__file__))
from serve_support import Checks, Served, stop_signal, under_wine  # noqa: E402

check = Checks()


def request(served, method, path, body=None, headers=None, host=None):
    """One request on a fresh connection, with the headers given exactly (Host included)."""
    connection = http.client.HTTPConnection("127.0.0.1", served.port, timeout=30)
    connection.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
    connection.putheader("Host", host if host is not None else f"127.0.0.1:{served.port}")
    for name, value in (headers or {}).items():
        connection.putheader(name, value)
    data = body.encode() if isinstance(body, str) else body
    if data is not None:
        connection.putheader("Content-Length", str(len(data)))
    connection.endheaders(data)
    response = connection.getresponse()
    result = response.status, dict(response.getheaders()), response.read()
    connection.close()
    return result


def listening_addresses(port):
    """The local addresses of the sockets listening on `port` (from /proc/net/tcp and tcp6)."""
    found = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        if not os.path.exists(table):
            continue
        for line in open(table).read().splitlines()[1:]:
            fields = line.split()
            address, hex_port = fields[1].split(":")
            if int(hex_port, 16) == port and fields[3] == "0A":  # 0A: LISTEN
                found.append(address)
    return found


def main():
    anvilrt, archive, work = sys.argv[1], sys.argv[2], pathlib.Path(sys.argv[3])
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    source = work / "input.forge"
    shutil.copyfile(archive, source)
    before = hashlib.sha256(source.read_bytes()).hexdigest()
    patch_out = work / "saved.json"
    with Served(anvilrt, str(source), "--patch-out", str(patch_out)) as served:
        good = {"X-Anvilrt-Token": served.token}
        json_headers = {**good, "Content-Type": "application/json"}
        check("the URL names 127.0.0.1 and a 128-bit hex token",
              served.host == "127.0.0.1" and len(served.token) == 32 and int(served.token, 16) >= 0)

        check("the URL carries the token in its fragment (which no browser sends), not its query",
              served.url.endswith(f"/#token={served.token}") and "?" not in served.url, served.url)

        status, headers, page = request(served, "GET", "/")
        check("the page itself, without a token: 200 (its files hold nothing of the input)", status == 200, status)
        check("no cookie is set (a cookie for 127.0.0.1 goes to every port of 127.0.0.1)",
              "Set-Cookie" not in headers and b"Set-Cookie" not in page, headers)
        check("the page's script keeps the token in sessionStorage and sends it as a header",
              all(word in request(served, "GET", "/editor.js")[2] for word in (b"sessionStorage", b"X-Anvilrt-Token")))
        csp = headers.get("Content-Security-Policy", "")
        check("a Content-Security-Policy allowing only the page's own scripts",
              "default-src 'none'" in csp and "script-src 'self'" in csp and "unsafe-inline" not in csp, csp)
        check("X-Content-Type-Options: nosniff", headers.get("X-Content-Type-Options") == "nosniff")
        check("Cache-Control: no-store", headers.get("Cache-Control") == "no-store")
        check("Referrer-Policy: no-referrer (the token never leaves as a Referer)",
              headers.get("Referrer-Policy") == "no-referrer")
        status, _, _ = request(served, "GET", "/api/info", headers=good)
        check("the token as the header X-Anvilrt-Token opens the API", status == 200, status)

        for path in ("/api/info", "/api/search?q=0x", "/nothing.js"):
            status, _, _ = request(served, "GET", path)
            check(f"no token: GET {path} is 403", status == 403, status)
        status, _, _ = request(served, "POST", "/api/check", '{"patch": []}', {"Content-Type": "application/json"})
        check("no token: POST /api/check is 403", status == 403, status)
        wrong = "0" * 32 if served.token != "0" * 32 else "1" * 32
        status, _, _ = request(served, "GET", f"/api/info?token={served.token}")
        check("the token in the query: 403 (a header only, never in a URL the logs keep)", status == 403, status)
        status, _, _ = request(served, "GET", "/api/info", headers={"X-Anvilrt-Token": wrong})
        check("wrong token in the header: 403", status == 403, status)
        status, _, _ = request(served, "GET", "/api/info", headers={"X-Anvilrt-Token": served.token[:-1]})
        check("a truncated token in the header: 403", status == 403, status)
        for name in ("anvilrt_token", f"anvilrt_token_{served.port}"):
            status, _, _ = request(served, "GET", "/api/info", headers={"Cookie": f"{name}={served.token}"})
            check(f"the token in a cookie ({name}): 403, cookies open nothing", status == 403, status)
        status, _, _ = request(served, "GET", "/", host=f"evil.example:{served.port}")
        check("the page itself under another Host: 403 (no DNS rebinding)", status == 403, status)

        for host in (f"evil.example:{served.port}", "127.0.0.1", f"127.0.0.1:{served.port + 1}", f"localhost.evil:{served.port}", ""):
            status, _, _ = request(served, "GET", "/api/info", headers=good, host=host)
            check(f"Host {host!r}: 403 (no DNS rebinding)", status == 403, status)
        status, _, _ = request(served, "GET", "/api/info", headers=good, host=f"localhost:{served.port}")
        check("Host localhost:PORT: 200", status == 200, status)
        for origin in ("http://evil.example", f"http://127.0.0.1:{served.port + 1}", "null", f"https://127.0.0.1:{served.port}"):
            status, _, _ = request(served, "POST", "/api/check", '{"patch": []}', {**json_headers, "Origin": origin})
            check(f"Origin {origin!r}: 403", status == 403, status)
        status, _, _ = request(served, "POST", "/api/check", '{"patch": []}',
                               {**json_headers, "Origin": f"http://127.0.0.1:{served.port}"})
        check("the server's own Origin: 200", status == 200, status)
        status, _, _ = request(served, "POST", "/api/check", '{"patch": []}', {**good, "Content-Type": "text/plain"})
        check("a body that is not application/json (a cross-site form's): 415", status == 415, status)

        big = '{"patch": [], "pad": "' + "x" * (2 << 20) + '"}'
        status, _, _ = request(served, "POST", "/api/check", big, json_headers)
        check("a 2 MiB body: 413", status == 413, status)
        deep = '{"patch": [' + "[" * 200 + "]" * 200 + "]}"
        status, _, body = request(served, "POST", "/api/check", deep, json_headers)
        check("JSON nested 200 deep: 400", status == 400 and b"deeper" in body, (status, body))
        deeper = '{"patch": [' + "[" * 100000 + "]" * 100000 + "]}"
        status, _, body = request(served, "POST", "/api/check", deeper, json_headers)
        check("JSON nested 100,000 deep: 400, the server still up", status == 400, (status, body[:80]))

        # No route takes a path: the page's files by exact name, outputs only a file name in the folder.
        for path in ("/../../../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/..%2f..%2fetc%2fpasswd",
                     "/input.forge", "/api/../input.forge", "//etc/passwd"):
            status, _, body = request(served, "GET", path, headers=good)
            check(f"GET {path}: no file read", status in (400, 403, 404) and b"root:" not in body
                  and not body.startswith(b"scimitar"), (status, body[:40]))
        outside = work.parent / "serve_security_outside.forge"
        for name in ("../serve_security_outside.forge", str(outside), "sub/dir.forge", "..", ".hidden", "a\\b",
                     "input.forge", "", "x\n.forge"):
            status, _, body = request(served, "POST", "/api/write", json.dumps({"patch": [], "name": name}), json_headers)
            check(f"write a copy named {name!r}: refused", status in (400, 409), (status, body))
        check("nothing written outside the folder", not outside.exists())
        status, _, body = request(served, "POST", "/api/object",
                                  json.dumps({"datafile": 0, "key": "../../etc/passwd", "patch": []}), json_headers)
        check("an object key that is a path: 404", status == 404, (status, body))
        status, _, body = request(served, "POST", "/api/save",
                                  json.dumps({"patch": [], "path": str(outside), "name": str(outside)}), json_headers)
        check("save writes --patch-out only, whatever the body names",
              status == 200 and patch_out.exists() and not outside.exists(), (status, body))

        status, _, body = request(served, "POST", "/api/write", json.dumps({"patch": [], "name": "copy.forge"}), json_headers)
        check("write a copy by file name: 200", status == 200 and (work / "copy.forge").exists(), (status, body))
        status, _, body = request(served, "POST", "/api/write", json.dumps({"patch": [], "name": "copy.forge"}), json_headers)
        check("write a copy over an existing file unconfirmed: 409", status == 409, (status, body))
        status, _, body = request(served, "POST", "/api/write",
                                  json.dumps({"patch": [], "name": "copy.forge", "replace": True}), json_headers)
        check("write a copy over an existing file confirmed: 200", status == 200, (status, body))
        (work / "link.forge").symlink_to(source)
        status, _, body = request(served, "POST", "/api/write",
                                  json.dumps({"patch": [], "name": "link.forge", "replace": True}), json_headers)
        check("write a copy onto a symbolic link (to the input): refused", status == 400, (status, body))

        # Clients that hang up (a reset) before their answer is written: the server must not die of it.
        for _ in range(40):
            s = socket.create_connection(("127.0.0.1", served.port))
            s.sendall(f"GET /editor.js HTTP/1.1\r\nHost: 127.0.0.1:{served.port}\r\nX-Anvilrt-Token: {served.token}\r\n\r\n".encode())
            s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
            s.close()
        check("clients that reset their connection: the server lives on", served.process.poll() is None)
        # A send to a peer already gone raises SIGPIPE (cpp-httplib sends without MSG_NOSIGNAL): ignored.
        # Windows has no SIGPIPE (the send fails, WSAECONNRESET): the resets above are its whole test there.
        if under_wine():
            print("skip SIGPIPE ignored: Windows has no SIGPIPE (/proc would show Wine's own process)")
        else:
            ignored = next(int(line.split()[1], 16) for line in open(f"/proc/{served.process.pid}/status")
                           if line.startswith("SigIgn:"))
            check("SIGPIPE ignored (a tab closed mid-answer does not kill the server)", ignored & (1 << (13 - 1)) != 0)

        addresses = listening_addresses(served.port)
        check("listening on 127.0.0.1 only", addresses == ["0100007F"], addresses)
        status, _, _ = request(served, "GET", "/api/info", headers=good)
        check("still answering after all that", status == 200, status)
        code = served.stop()
        check(f"{stop_signal().name}: exit 0", code == 0, code)
    check("the input is never written", hashlib.sha256(source.read_bytes()).hexdigest() == before)
    return check.summary()


if __name__ == "__main__":
    sys.exit(main())
