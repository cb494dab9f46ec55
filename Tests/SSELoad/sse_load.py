"""1,000 Server-Sent Events clients on one `facewatch serve` (Tests/SSELoad/run calls this).

Starts `serve --replay RECORDING --loop` on a free loopback port (the live pipeline, paced at
the recording's 30 fps), connects CLIENTS clients to /events at once, and reads every stream
for SECONDS seconds. Asserts:
  - every client gets the whole stream from where it joined: consecutive event ids, no gap;
  - every client keeps up: its last id is within a second's worth of events of the newest any
    client saw, and each got at least 90 % as many events as the stream carried meanwhile;
  - the pipeline drops no frame for it: the `stats` lines' `dropped` stays 0 (the clients run at
    a lower priority than the server, so that they do not take its processor time);
  - the server's memory is flat: resident memory at the end within 24 MB of its value once all
    clients are connected and streaming.
Usage: sse_load.py FACEWATCH RECORDING [CLIENTS] [SECONDS]
"""
import asyncio
import os
import re
import resource
import subprocess
import sys
import time
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "StageSupport"))
from stage import check, free_port, stop_all  # noqa: E402

ID = re.compile(rb"^id: (\d+)\r?$", re.MULTILINE)
DROPPED = re.compile(rb'"type":"stats".*?"dropped":(\d+)')

binary, recording = sys.argv[1], sys.argv[2]
clients = int(sys.argv[3]) if len(sys.argv) > 3 else 1000
seconds = float(sys.argv[4]) if len(sys.argv) > 4 else 20.0


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


class Client:
    def __init__(self):
        self.first = None
        self.last = None
        self.count = 0
        self.gaps = 0
        self.dropped = 0
        self.error = None

    async def run(self, port, until):
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
            await writer.drain()
            head = await reader.readuntil(b"\r\n\r\n")
            if b" 200 " not in head.split(b"\r\n", 1)[0]:
                self.error = head.split(b"\r\n", 1)[0].decode()
                return
            chunked = b"chunked" in head.lower()
            buffer = b""
            while time.monotonic() < until:
                try:
                    data = await asyncio.wait_for(reader.read(65536), timeout=max(0.05, until - time.monotonic()))
                except asyncio.TimeoutError:
                    break
                if not data:
                    self.error = "the server closed the stream"
                    break
                buffer += data
                # Messages end with a blank line: take the complete ones (chunk-size lines of
                # chunked encoding fall between messages and hold no "id:").
                end = buffer.rfind(b"\n\n")
                if end >= 0:
                    self.take(buffer[:end])
                    buffer = buffer[end + 2:]
            writer.close()
        except Exception as error:  # noqa: BLE001 - reported per client
            self.error = repr(error)

    def take(self, messages):
        """Counts the ids of complete messages (checking they follow on) and reads `dropped` from stats lines."""
        ids = [int(x) for x in ID.findall(messages)]
        for event_id in ids:
            if self.last is not None and event_id != self.last + 1:
                self.gaps += 1
            if self.first is None:
                self.first = event_id
            self.last = event_id
        self.count += len(ids)
        for dropped in DROPPED.findall(messages):
            self.dropped = max(self.dropped, int(dropped))


async def main():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, 4 * clients + 256)), hard))
    port = free_port()
    log = open("out/sse-load-serve.log", "w")
    process = subprocess.Popen([binary, "serve", "--replay", recording, "--loop", "--http", f"127.0.0.1:{port}"],
                               stdout=subprocess.DEVNULL, stderr=log)
    # The clients are the load, not what is measured: on a machine of two cores they must not take
    # the server's processor time, or the pipeline would drop frames for want of it.
    os.nice(10)
    try:
        base = f"http://127.0.0.1:{port}"
        for _ in range(200):
            try:
                urllib.request.urlopen(base + "/metrics", timeout=1).read()
                break
            except OSError:
                time.sleep(0.05)
        else:
            check(False, f"serve listens on {base}")
        started = time.monotonic()
        until = started + seconds
        crowd = [Client() for _ in range(clients)]
        tasks = [asyncio.create_task(c.run(port, until)) for c in crowd]
        await asyncio.sleep(min(5.0, seconds / 4))
        settled = rss_mb(process.pid)
        connected = sum(1 for c in crowd if c.first is not None)
        await asyncio.gather(*tasks)
        end = rss_mb(process.pid)
        check(process.poll() is None, "serve is still running")
        errors = [c.error for c in crowd if c.error]
        check(not errors, f"{clients} clients streamed without an error ({len(errors)} errors: {errors[:3]})")
        newest = max(c.last or 0 for c in crowd)
        counts = sorted(c.count for c in crowd)
        spread = newest - min(c.first or newest for c in crowd)
        rate = spread / max(seconds, 1e-9)
        print(f"     {connected} clients streaming {time.monotonic() - started:.1f} s after the start; newest id {newest}; "
              f"events per client min {counts[0]}, median {counts[len(counts) // 2]}, max {counts[-1]} "
              f"({rate:.0f} events/s); server resident {settled:.1f} MB once all streamed, {end:.1f} MB at the end",
              flush=True)
        check(all(c.gaps == 0 for c in crowd), "every client got consecutive event ids: nothing skipped")
        check(all(c.last is not None and newest - c.last <= max(rate, 40) for c in crowd),
              "every client is within a second of the newest event at the end")
        expected = [c for c in crowd if c.first is not None and c.last - c.first + 1 != c.count]
        check(not expected, "every client got every event from its first to its last")
        check(counts[0] >= 0.9 * (newest - max(c.first or 0 for c in crowd)),
              "every client got at least 90 % of the events sent while all streamed")
        dropped = max(c.dropped for c in crowd)
        check(dropped == 0, f"the pipeline dropped no frame (stats: dropped {dropped})")
        check(end - settled <= 24, f"server memory flat: {end - settled:+.1f} MB over the run")
    finally:
        stop_all([process])
        log.close()


asyncio.run(main())
