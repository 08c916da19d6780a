#!/usr/bin/env python3
"""A TCP proxy on loopback that delays every byte, for bench/store-scale.sh:
a PostgreSQL server "a round trip away" without leaving the machine.

    proxy.py LISTEN_PORT TARGET_PORT RTT_MS

Each direction holds what it reads for RTT_MS / 2 before passing it on, in
order, so a request and its answer take RTT_MS more than they would. Prints
"ready" once it listens.
"""
import asyncio
import sys
import time


async def pump(reader, writer, delay_s):
    queue = asyncio.Queue()

    async def deliver():
        while True:
            due, data = await queue.get()
            if data is None:
                break
            wait = due - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            writer.write(data)
            await writer.drain()
        writer.close()

    sender = asyncio.ensure_future(deliver())
    try:
        while True:
            data = await reader.read(65536)
            if not data:
                break
            queue.put_nowait((time.monotonic() + delay_s, data))
    finally:
        queue.put_nowait((0, None))
        await sender


async def main():
    listen, target, rtt_ms = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
    delay_s = rtt_ms / 2000.0

    async def handle(client_r, client_w):
        server_r, server_w = await asyncio.open_connection("127.0.0.1", target)
        await asyncio.gather(
            pump(client_r, server_w, delay_s), pump(server_r, client_w, delay_s), return_exceptions=True
        )

    server = await asyncio.start_server(handle, "127.0.0.1", listen)
    print("ready", flush=True)
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    asyncio.run(main())
