#!/usr/bin/python3
"""Watches an inspector's events as a page does, with the standard library only:
prints "open" once the first message came, then "closed CODE REASON" when the
server closes the WebSocket, and exits 0 (1 if the connection ends without a close).

    watch_events.py http://127.0.0.1:PORT/?token=TOKEN
"""
import base64
import os
import socket
import struct
import sys
from urllib.parse import urlsplit

url = urlsplit(sys.argv[1])
connection = socket.create_connection((url.hostname, url.port), timeout=60)
key = base64.b64encode(os.urandom(16)).decode()
connection.sendall((f"GET /events?{url.query} HTTP/1.1\r\nHost: {url.hostname}:{url.port}\r\n"
                    f"Origin: http://{url.hostname}:{url.port}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
                    f"Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: {key}\r\n\r\n").encode())
buffer = b""
while b"\r\n\r\n" not in buffer:
    chunk = connection.recv(65536)
    if not chunk:
        sys.exit("the server closed before answering the handshake")
    buffer += chunk
head, buffer = buffer.split(b"\r\n\r\n", 1)
if b" 101 " not in head.split(b"\r\n")[0]:
    sys.exit("not let in: " + head.decode(errors="replace"))


def take(count):
    global buffer
    while len(buffer) < count:
        chunk = connection.recv(65536)
        if not chunk:
            print("ended without a close", flush=True)
            sys.exit(1)
        buffer += chunk
    taken, buffer = buffer[:count], buffer[count:]
    return taken


said_open = False
while True:
    first, second = take(2)
    opcode, length = first & 0x0F, second & 0x7F
    if length == 126:
        length = struct.unpack(">H", take(2))[0]
    elif length == 127:
        length = struct.unpack(">Q", take(8))[0]
    payload = take(length)
    if opcode == 8:
        code = struct.unpack(">H", payload[:2])[0] if len(payload) >= 2 else 0
        print(f"closed {code} {payload[2:].decode()}", flush=True)
        sys.exit(0)
    if opcode == 1 and not said_open:
        said_open = True
        print("open", flush=True)
