#!/usr/bin/env python3
"""A webhook receiver for the checks and benchmarks (docs/subscriptions.md, decision 0083).

Listens on 127.0.0.1, checks each POST's ConsentLedger-Signature with a subscription's secret (the
--secret-file holds one per line) exactly as docs/subscriptions.md's Python does, and appends one JSON line per delivery it takes to
--out: {"id", "subscription", "position", "kind", "t", "receivedAt", "duplicate"}, flushed at once. A bad signature
is answered 400 and counted in --out as {"badSignature": true}. What it answers can be changed while
it runs by writing --mode-file: "ok" (200), a status such as "500", or "slow:SECONDS" (200 after the
pause).

Usage: webhook_receiver.py --port N --secret-file F --out F [--mode-file F]
"""
import argparse
import hashlib
import hmac
import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def verify_consent_ledger_signature(header: str, body: bytes, secret: str) -> bool:
    parts = dict(p.split("=", 1) for p in header.split(",") if "=" in p)
    t, given = parts.get("t", ""), parts.get("v1", "")
    if not t.isdigit() or abs(time.time() - int(t)) > 300:
        return False
    expected = hmac.new(secret.encode(), t.encode() + b"." + body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, given)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--secret-file", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--mode-file")
    args = parser.parse_args()
    lock = threading.Lock()
    seen: set = set()
    out = open(args.out, "a", buffering=1)

    def mode() -> str:
        if args.mode_file and os.path.exists(args.mode_file):
            return open(args.mode_file).read().strip() or "ok"
        return "ok"

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *_: object) -> None:
            pass

        def answer(self, status: int) -> None:
            self.send_response(status)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            secrets = [line.strip() for line in open(args.secret_file) if line.strip()]
            signature = self.headers.get("ConsentLedger-Signature", "")
            if not any(verify_consent_ledger_signature(signature, body, secret) for secret in secrets):
                with lock:
                    out.write(json.dumps({"badSignature": True}) + "\n")
                self.answer(400)
                return
            now = mode()
            if now.startswith("slow:"):
                time.sleep(float(now[5:]))
            elif now != "ok":
                self.answer(int(now))
                return
            item = json.loads(body)
            t = int(dict(p.split("=", 1) for p in self.headers["ConsentLedger-Signature"].split(","))["t"])
            with lock:
                key = (item["subscription"], item["id"])
                duplicate = key in seen
                seen.add(key)
                out.write(json.dumps({"id": item["id"], "subscription": item["subscription"], "position": item["position"],
                                      "kind": item["kind"], "t": t,
                                      "receivedAt": time.time(), "duplicate": duplicate}) + "\n")
            self.answer(200)

    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    print(f"webhook receiver on 127.0.0.1:{args.port}", file=sys.stderr, flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
