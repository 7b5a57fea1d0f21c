"""A push service on loopback for the Web Push tests: it takes the server's POSTs as
a browser vendor's push service would, checks their VAPID signature and decrypts
their payload with the keys of a subscription the test made (as a browser would).

Nothing here trusts the server: the JWT is checked against the public key the server
publishes (``GET /api/push/key``), with the audience this service's own origin, and
the payload is decrypted with http-ece (RFC 8188/8291), the receiving side of what
pywebpush encrypts.
"""

from __future__ import annotations

import base64
import json
import os
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def b64url(data: bytes) -> str:
    """base64url without padding, as Web Push writes keys."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    """The bytes of base64url text, padded or not."""
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Device:
    """A browser's push subscription: its endpoint on the service, and its keys."""

    endpoint: str
    key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    auth: bytes = field(default_factory=lambda: os.urandom(16))

    def subscription(self, lang: str = "en") -> dict[str, Any]:
        """The body of ``POST /api/push/subscribe`` (``PushSubscription.toJSON()``)."""
        public = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {
            "endpoint": self.endpoint,
            "keys": {"p256dh": b64url(public), "auth": b64url(self.auth)},
            "expirationTime": None,
            "lang": lang,
        }


@dataclass
class Received:
    """One POST the service took: its path, headers and body."""

    path: str
    headers: dict[str, str]
    body: bytes


class PushService:
    """The service: ``with PushService() as push:``; ``push.device(name)`` makes a
    subscription on it; ``push.gone`` holds the paths answered 410 Gone,
    ``push.status`` others, ``push.held`` those that wait for ``push.release``."""

    def __init__(self) -> None:
        self.received: list[Received] = []
        self.gone: set[str] = set()
        self.status: dict[str, int] = {}
        """Paths answered with another status than 201 (a failing push service)."""
        self.held: set[str] = set()
        """Paths answered only once :attr:`release` is set (a slow push service)."""
        self.release = threading.Event()
        self.lock = threading.Lock()
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                size = int(self.headers.get("content-length") or 0)
                body = self.rfile.read(size)
                with service.lock:
                    service.received.append(
                        Received(self.path, {k.lower(): v for k, v in self.headers.items()}, body)
                    )
                if self.path in service.held:
                    service.release.wait(30)  # bounded: a stuck test still ends
                status = service.status.get(self.path, 410 if self.path in service.gone else 201)
                self.send_response(status)
                self.send_header("content-length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> PushService:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release.set()
        self.server.shutdown()
        self.server.server_close()

    def device(self, name: str) -> Device:
        """A new subscription whose messages come to ``/push/<name>``."""
        return Device(f"{self.origin}/push/{name}")

    def path(self, device: Device) -> str:
        """The path the device's messages come to."""
        return device.endpoint.removeprefix(self.origin)

    def to(self, device: Device) -> list[Received]:
        """What came for ``device`` so far."""
        path = device.endpoint.removeprefix(self.origin)
        with self.lock:
            return [r for r in self.received if r.path == path]


def verify(received: Received, server_key: str, origin: str) -> dict[str, Any]:
    """Check the VAPID ``Authorization`` of a push request (RFC 8292: ``vapid t=JWT,
    k=key``, the JWT signed ES256 by ``server_key``, its audience ``origin``, not
    expired, with a contact); the JWT's claims."""
    scheme, _, params = received.headers["authorization"].partition(" ")
    assert scheme == "vapid", received.headers["authorization"]
    fields = dict(p.strip().split("=", 1) for p in params.split(","))
    assert fields["k"] == server_key
    head, claims, signature = fields["t"].split(".")
    assert json.loads(unb64url(head)) == {"typ": "JWT", "alg": "ES256"}
    raw = unb64url(signature)
    assert len(raw) == 64
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(server_key))
    public.verify(der, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))  # raises if forged
    payload: dict[str, Any] = json.loads(unb64url(claims))
    assert payload["aud"] == origin
    assert time.time() < payload["exp"] <= time.time() + 24 * 3600
    assert payload["sub"].startswith(("mailto:", "https://"))
    return payload


def decrypt(received: Received, device: Device) -> dict[str, Any]:
    """The payload of a push request, decrypted with the device's keys (aes128gcm)."""
    assert received.headers["content-encoding"] == "aes128gcm"
    assert int(received.headers["ttl"]) > 0
    plain = http_ece.decrypt(
        received.body, private_key=device.key, auth_secret=device.auth, version="aes128gcm"
    )
    data: dict[str, Any] = json.loads(plain)
    return data
