"""A byte relay on loopback that records each connection's two directions
to DIR/<n>.c2s and DIR/<n>.s2c, for counting the messages independently of
the tap. Usage: recorder.py LISTEN_PORT UPSTREAM_PORT DIR

One thread, relaying in the order the kernel reports the sockets ready and
connecting upstream as each client connects: a thread per direction could
let a POST sent just after a GET reach the server first, and a server that
sends its request on the GET stream would then drop it, a failure that is
the recorder's and not the tap's."""
import os
import selectors
import signal
import socket
import sys

listen, upstream, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
os.makedirs(out, exist_ok=True)
# What one side may have waiting to be written before its peer is no longer
# read: far above what a session sends, a bound all the same.
MAX_PENDING = 1 << 20


class End:
    """One socket of a relayed pair: what it received is recorded and
    queued on its peer."""

    def __init__(self, sock, path):
        sock.setblocking(False)
        self.sock, self.record = sock, open(path, "wb", buffering=0)
        self.peer, self.pending, self.reading, self.closed = None, bytearray(), True, False

    def events(self):
        wanted = 0
        if self.reading and len(self.peer.pending) < MAX_PENDING:
            wanted |= selectors.EVENT_READ
        if self.pending:
            wanted |= selectors.EVENT_WRITE
        return wanted


selector = selectors.DefaultSelector()


def update(end):
    if end.closed:
        return
    wanted = end.events()
    registered = end.sock in selector.get_map()
    if wanted and registered:
        selector.modify(end.sock, wanted, end)
    elif wanted:
        selector.register(end.sock, wanted, end)
    elif registered:
        selector.unregister(end.sock)
    if not wanted and not end.reading and not end.peer.reading and not end.peer.pending:
        for side in (end, end.peer):
            if side.sock in selector.get_map():
                selector.unregister(side.sock)
            side.sock.close()
            side.record.close()
            side.closed = True


def readable(end):
    try:
        data = end.sock.recv(65536)
    except BlockingIOError:
        return
    except OSError:
        data = b""
    if data:
        end.record.write(data)
        end.peer.pending += data
    else:
        end.reading = False
    writable(end.peer)


def writable(end):
    if end.pending:
        try:
            sent = end.sock.send(end.pending)
            del end.pending[:sent]
        except BlockingIOError:
            pass
        except OSError:
            end.pending.clear()
            end.reading = False
    if not end.pending and not end.peer.reading:
        # Its peer has finished: pass the end of its bytes on.
        try:
            end.sock.shutdown(socket.SHUT_WR)
        except OSError:
            pass
    update(end)
    update(end.peer)


server = socket.socket()
server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
server.bind(("127.0.0.1", listen))
server.listen(256)
selector.register(server, selectors.EVENT_READ, None)
# Stopped with SIGINT by the driver: leave without a traceback.
signal.signal(signal.SIGINT, lambda *_: os._exit(0))
n = 0
while True:
    for key, mask in selector.select():
        if key.data is None:
            client, _ = server.accept()
            n += 1
            up = socket.create_connection(("127.0.0.1", upstream))
            a, b = End(client, os.path.join(out, f"{n}.c2s")), End(up, os.path.join(out, f"{n}.s2c"))
            a.peer, b.peer = b, a
            update(a)
            update(b)
            continue
        end = key.data
        if end.closed:
            continue
        if mask & selectors.EVENT_READ:
            readable(end)
        if not end.closed and mask & selectors.EVENT_WRITE:
            writable(end)
