"""A byte relay on loopback that records each connection's two directions
to DIR/<n>.c2s and DIR/<n>.s2c, for counting the messages independently of
the tap. Usage: recorder.py LISTEN_PORT UPSTREAM_PORT DIR"""
import os
import signal
import socket
import sys
import threading

listen, upstream, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
os.makedirs(out, exist_ok=True)


def pipe(src, dst, path):
    with open(path, "wb") as record:
        while True:
            try:
                data = src.recv(65536)
            except OSError:
                data = b""
            if not data:
                try:
                    dst.shutdown(socket.SHUT_WR)
                except OSError:
                    pass
                return
            record.write(data)
            record.flush()
            dst.sendall(data)


server = socket.socket()
server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
server.bind(("127.0.0.1", listen))
server.listen(256)
# Stopped with SIGINT by the driver: leave without a traceback.
signal.signal(signal.SIGINT, lambda *_: os._exit(0))
n = 0
while True:
    client, _ = server.accept()
    n += 1
    up = socket.create_connection(("127.0.0.1", upstream))
    for a, b, name in ((client, up, "c2s"), (up, client, "s2c")):
        threading.Thread(target=pipe, args=(a, b, os.path.join(out, f"{n}.{name}")), daemon=True).start()
