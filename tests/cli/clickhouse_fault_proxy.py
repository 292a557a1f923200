#!/usr/bin/env python3
"""clickhouse_fault_proxy.py - a misbehaving HTTP hop on loopback in front of
a real clickhouse-server, for the tests/cli/clickhouse_faults.sh case.

  clickhouse_fault_proxy.py UPSTREAM_PORT MODE PORT_FILE [MATCH [LIFE_S]]

Listens on 127.0.0.1 on a port the kernel picks (written to PORT_FILE once it
listens).  Each request is read whole and sent to the server on
127.0.0.1:UPSTREAM_PORT; the server's answer is read whole, then written back
with "Connection: close".  Requests whose query text (URL or body) contains
MATCH (default: every request) get the fault of MODE instead of the answer:

  pass            the answer as the server gave it (Content-Length framing)
  cut-headers     status and headers (chunked), then the connection closes
  bare-headers    status and headers with neither Content-Length nor
                  chunked framing, then the connection closes
  cut-chunked     chunked, the first half of the body, no terminating chunk
  bare-half       no framing, the first half of the body, then close
  silent          read the request, never answer
  endless         200, chunked, zero bytes without end

Every wait and loop ends by LIFE_S seconds (default 60) after the start; the
process then exits by itself.  Standard library only.
"""
import http.client
import os
import socketserver
import sys
import threading
import time
import urllib.parse

UPSTREAM = int(sys.argv[1])
MODE = sys.argv[2]
PORT_FILE = sys.argv[3]
MATCH = sys.argv[4] if len(sys.argv) > 4 else ""
LIFE = float(sys.argv[5]) if len(sys.argv) > 5 else 60.0
DEADLINE = time.monotonic() + LIFE
MODES = ("pass", "cut-headers", "bare-headers", "cut-chunked", "bare-half", "silent", "endless")


def read_request(f):
    """(request line, headers as a list of (name, value), body) or None."""
    line = f.readline(65536)
    if not line:
        return None
    headers = []
    while True:
        h = f.readline(65536)
        if h in (b"\r\n", b"\n", b""):
            break
        name, _, value = h.decode("latin-1").partition(":")
        headers.append((name.strip(), value.strip()))
    lower = {k.lower(): v for k, v in headers}
    body = b""
    if "content-length" in lower:
        body = f.read(int(lower["content-length"]))
    elif "chunked" in lower.get("transfer-encoding", "").lower():
        parts = []
        while True:
            size = int(f.readline(1024).split(b";")[0].strip() or b"0", 16)
            if size == 0:
                while f.readline(1024) not in (b"\r\n", b"\n", b""):
                    pass
                break
            parts.append(f.read(size))
            f.readline(1024)
        body = b"".join(parts)
    return line.decode("latin-1"), headers, body


def forward(target, headers, body):
    """The server's (status, reason, headers, body) for this request."""
    keep = {k: v for k, v in headers
            if k.lower() not in ("host", "content-length", "transfer-encoding",
                                 "connection", "expect")}
    conn = http.client.HTTPConnection("127.0.0.1", UPSTREAM, timeout=max(1.0, DEADLINE - time.monotonic()))
    conn.request("POST", target, body=body, headers=keep)
    r = conn.getresponse()
    data = r.read()
    hdrs = [(k, v) for k, v in r.getheaders()
            if k.lower() not in ("content-length", "transfer-encoding", "connection", "keep-alive")]
    conn.close()
    return r.status, r.reason, hdrs, data


def head(status, reason, hdrs, framing):
    lines = ["HTTP/1.1 %d %s" % (status, reason)] + ["%s: %s" % kv for kv in hdrs]
    lines += framing + ["Connection: close", "", ""]
    return "\r\n".join(lines).encode("latin-1")


def endless(sock):
    sock.sendall(head(200, "OK", [("Content-Type", "application/octet-stream")],
                      ["Transfer-Encoding: chunked"]))
    block = b"%x\r\n" % (1 << 20) + bytes(1 << 20) + b"\r\n"
    while time.monotonic() < DEADLINE:
        sock.sendall(block)


class Handler(socketserver.StreamRequestHandler):
    def handle(self):
        self.request.settimeout(max(0.1, DEADLINE - time.monotonic()))
        try:
            req = read_request(self.rfile)
            if req is None:
                return
            line, headers, body = req
            target = line.split(" ")[1]
            text = urllib.parse.unquote_plus(target) + body[:65536].decode("latin-1")
            fault = MODE if MATCH in text else "pass"
            if fault == "silent":
                while time.monotonic() < DEADLINE:
                    time.sleep(0.05)
                return
            if fault == "endless":
                endless(self.request)
                return
            status, reason, hdrs, data = forward(target, headers, body)
            if fault == "pass" or status != 200:
                out = head(status, reason, hdrs, ["Content-Length: %d" % len(data)]) + data
            elif fault == "cut-headers":
                out = head(status, reason, hdrs, ["Transfer-Encoding: chunked"])
            elif fault == "bare-headers":
                out = head(status, reason, hdrs, [])
            elif fault == "cut-chunked":
                half = data[:len(data) // 2]
                out = head(status, reason, hdrs, ["Transfer-Encoding: chunked"]) + \
                    (b"%x\r\n" % len(half) + half + b"\r\n" if half else b"")
            else:  # bare-half
                out = head(status, reason, hdrs, []) + data[:len(data) // 2]
            self.request.sendall(out)
        except (OSError, http.client.HTTPException):
            pass  # the client went away, or the server did: the case reports it


class Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


def main():
    if MODE not in MODES:
        sys.exit("mode must be one of " + ", ".join(MODES))
    srv = Server(("127.0.0.1", 0), Handler)
    srv.timeout = 0.2
    with open(PORT_FILE + ".tmp", "w") as f:
        f.write("%d\n" % srv.server_address[1])
    os.replace(PORT_FILE + ".tmp", PORT_FILE)
    threading.Thread(target=srv.serve_forever, args=(0.2,), daemon=True).start()
    while time.monotonic() < DEADLINE:
        time.sleep(0.2)
    srv.shutdown()


if __name__ == "__main__":
    main()
