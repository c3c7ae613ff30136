"""A byte relay between a stdio client and a stdio server that records the
two directions to DIR/c2s and DIR/s2c, for counting the messages
independently of the tap. Usage: stdio_recorder.py DIR COMMAND [ARGS...]
(SIGTERM and SIGINT are passed on to the server; its status is ours)."""
import os
import signal
import subprocess
import sys
import threading

out, command = sys.argv[1], sys.argv[2:]
os.makedirs(out, exist_ok=True)
server = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
for number in (signal.SIGTERM, signal.SIGINT):
    signal.signal(number, lambda n, _: server.send_signal(n))


def pipe(src, dst, path):
    with open(path, "wb") as record:
        while True:
            data = os.read(src.fileno(), 65536)
            if not data:
                break
            record.write(data)
            record.flush()
            try:
                dst.write(data)
                dst.flush()
            except (BrokenPipeError, ValueError):
                break
    try:
        dst.close()
    except OSError:
        pass


to_server = threading.Thread(target=pipe, args=(sys.stdin.buffer, server.stdin, os.path.join(out, "c2s")), daemon=True)
to_server.start()
pipe(server.stdout, sys.stdout.buffer, os.path.join(out, "s2c"))
sys.exit(server.wait() % 256)
