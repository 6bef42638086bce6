#!/usr/bin/env python3
"""A fault-injecting HTTP/1.1 proxy for the deploy tests, in front of moto's S3 server on loopback.

    faulty_s3_proxy.py --port P --upstream 127.0.0.1:M --seed S --stats FILE [--refuse-after N]
                       [--slowdown F] [--drop F] [--lost F] [--cut F] [--delay F] [--stall F]
                       [--stall-seconds T]

Each request is read whole (request line, headers, Content-Length body; connections are kept
alive), then one fault is drawn for it from random.Random(SEED) in arrival order:

  slowdown  answered 503 with S3's own SlowDown XML error; not forwarded
  drop      the connection closed without a reply; not forwarded
  lost      forwarded (the store acts on it), then the connection closed without a reply
  cut       forwarded, the reply's status line and headers (Content-Length as the store sent it, or
            64 for an empty body) sent with half the body, or for HEAD half the headers, then closed
  stall     nothing for --stall-seconds (longer than the client's timeout), then closed; not forwarded
  delay     forwarded after 50 to 300 ms

With --refuse-after N, every request after the first N is dropped (a store that went away).
After every request the counts are written to FILE as JSON: requests, forwarded, failed (every
request that got no good reply), and one count per fault.
"""

import argparse
import asyncio
import json
import os
import random

SLOWDOWN_BODY = (
    b'<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>SlowDown</Code>'
    b"<Message>Please reduce your request rate.</Message><RequestId>FAULTY</RequestId></Error>"
)
FAULTS = ["slowdown", "drop", "lost", "cut", "stall", "delay"]


class Proxy:
    def __init__(self, options):
        self.options = options
        self.random = random.Random(options.seed)
        self.counts = {"requests": 0, "forwarded": 0, "failed": 0, "refused": 0}
        self.counts.update({fault: 0 for fault in FAULTS})

    def draw(self):
        """The fault for the next request, or None: drawn in arrival order from the seeded generator."""
        self.counts["requests"] += 1
        if self.options.refuse_after is not None and self.counts["requests"] > self.options.refuse_after:
            return "refused"
        roll = self.random.random()
        for fault in FAULTS:
            share = getattr(self.options, fault)
            if roll < share:
                return fault
            roll -= share
        return None

    def record(self, fault):
        if fault is not None:
            self.counts[fault] += 1
            if fault != "delay":
                self.counts["failed"] += 1
        path = self.options.stats
        with open(path + ".tmp", "w") as out:
            json.dump(self.counts, out)
        os.replace(path + ".tmp", path)

    async def forward(self, head, body):
        """Sends one request to the store on a fresh connection; returns (status line, headers, body)."""
        host, port = self.options.upstream.rsplit(":", 1)
        reader, writer = await asyncio.open_connection(host, int(port))
        lines = head.split(b"\r\n")
        kept = [line for line in lines[1:] if not line.lower().startswith(b"connection:")]
        writer.write(b"\r\n".join([lines[0]] + kept + [b"Connection: close", b"", b""]) + body)
        await writer.drain()
        answer = await reader.read()
        writer.close()
        reply_head, _, reply_body = answer.partition(b"\r\n\r\n")
        reply_lines = reply_head.split(b"\r\n")
        headers = [
            line
            for line in reply_lines[1:]
            if line.split(b":", 1)[0].strip().lower() not in (b"connection", b"transfer-encoding", b"keep-alive")
        ]
        return reply_lines[0], headers, reply_body

    async def serve(self, reader, writer):
        try:
            while True:
                try:
                    head = await reader.readuntil(b"\r\n\r\n")
                except (asyncio.IncompleteReadError, ConnectionError):
                    return
                head = head[:-4]
                length = 0
                for line in head.split(b"\r\n")[1:]:
                    name, _, value = line.partition(b":")
                    if name.strip().lower() == b"content-length":
                        length = int(value.strip())
                body = await reader.readexactly(length) if length else b""
                method = head.split(b" ", 1)[0]
                fault = self.draw()
                self.record(fault)
                if fault in ("drop", "refused"):
                    return
                if fault == "stall":
                    await asyncio.sleep(self.options.stall_seconds)
                    return
                if fault == "slowdown":
                    writer.write(
                        b"HTTP/1.1 503 Slow Down\r\nContent-Type: application/xml\r\n"
                        + b"Content-Length: %d\r\n\r\n" % len(SLOWDOWN_BODY)
                        + SLOWDOWN_BODY
                    )
                    await writer.drain()
                    continue
                if fault == "delay":
                    await asyncio.sleep(self.random.uniform(0.05, 0.3))
                status, headers, reply_body = await self.forward(head, body)
                self.counts["forwarded"] += 1
                self.record(None)
                if fault == "lost":
                    return
                status = b"HTTP/1.1 " + status.split(b" ", 1)[1]
                if method != b"HEAD":
                    headers = [line for line in headers if not line.lower().startswith(b"content-length:")]
                    headers.append(b"Content-Length: %d" % len(reply_body))
                if fault == "cut":
                    whole = b"\r\n".join([status] + headers + [b"", b""])
                    if method == b"HEAD":  # no body to cut: the headers stop halfway
                        writer.write(whole[: len(whole) // 2])
                    else:
                        if not reply_body:  # a length promised, nothing sent
                            headers = [line for line in headers if not line.lower().startswith(b"content-length:")]
                            whole = b"\r\n".join([status] + headers + [b"Content-Length: 64", b"", b""])
                        writer.write(whole + reply_body[: len(reply_body) // 2])
                    await writer.drain()
                    return
                writer.write(b"\r\n".join([status] + headers + [b"", b""]) + (b"" if method == b"HEAD" else reply_body))
                await writer.drain()
        finally:
            writer.close()


async def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--upstream", required=True)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--stats", required=True)
    parser.add_argument("--refuse-after", type=int)
    parser.add_argument("--stall-seconds", type=float, default=2.0)
    for fault in FAULTS:
        parser.add_argument("--" + fault, type=float, default=0.0)
    options = parser.parse_args()
    proxy = Proxy(options)
    proxy.record(None)
    server = await asyncio.start_server(proxy.serve, "127.0.0.1", options.port)
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    asyncio.run(main())
