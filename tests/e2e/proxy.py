"""A tiny reverse proxy for the tests: serves an app under a path prefix.

It listens on a port of its own, strips ``prefix`` from each request's path and
passes the request on to the server (``yatzy serve --root-path PREFIX``), as nginx's
``location /yatzy/ { proxy_pass http://127.0.0.1:8000/; }`` does.  HTTP/1.1
keep-alive requests are rewritten one by one (headers, then a ``Content-Length``
body); a WebSocket upgrade is rewritten and then piped both ways unchanged.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Iterator

from tests.e2e.support import free_port


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    with contextlib.suppress(ConnectionError, asyncio.IncompleteReadError):
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    with contextlib.suppress(ConnectionError, OSError):
        writer.close()


async def _requests(
    prefix: str, client: asyncio.StreamReader, upstream: asyncio.StreamWriter
) -> None:
    """Forward the client's requests with the prefix taken off their paths."""
    with contextlib.suppress(ConnectionError, asyncio.IncompleteReadError):
        while True:
            head = await client.readuntil(b"\r\n\r\n")
            line, _, rest = head.partition(b"\r\n")
            method, target, version = line.split(b" ", 2)
            if target.startswith(prefix.encode()):
                target = target[len(prefix) :] or b"/"
                if not target.startswith(b"/"):
                    target = b"/" + target
            else:
                target = b"/__outside_the_prefix__" + target
            upstream.write(b" ".join((method, target, version)) + b"\r\n" + rest)
            headers = rest.lower()
            length = 0
            for header in headers.split(b"\r\n"):
                if header.startswith(b"content-length:"):
                    length = int(header.split(b":", 1)[1])
            if length:
                upstream.write(await client.readexactly(length))
            await upstream.drain()
            if b"upgrade: websocket" in headers:
                await _pipe(client, upstream)
                return
    with contextlib.suppress(ConnectionError, OSError):
        upstream.close()


@contextlib.contextmanager
def prefix_proxy(target_port: int, prefix: str) -> Iterator[str]:
    """Run the proxy in a thread; yields its base URL (with the prefix)."""
    port = free_port()
    loop = asyncio.new_event_loop()
    ready = threading.Event()

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", target_port)
        await asyncio.gather(_requests(prefix, reader, up_writer), _pipe(up_reader, writer))

    servers: list[asyncio.Server] = []

    async def serve() -> None:
        servers.append(await asyncio.start_server(handle, "127.0.0.1", port))
        ready.set()

    async def shut() -> None:
        servers[0].close()
        tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def run() -> None:
        asyncio.set_event_loop(loop)
        loop.run_until_complete(serve())
        loop.run_forever()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    assert ready.wait(10), "the proxy did not start listening within 10 s"
    try:
        yield f"http://127.0.0.1:{port}{prefix}"
    finally:
        asyncio.run_coroutine_threadsafe(shut(), loop).result(10)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        loop.close()
