"""Publishes a replay's events to a private mosquitto broker (Tests/MQTT/run calls this).

Usage: broker_check.py FACEWATCH RECORDING OUT. Prints one line per assertion; exits 1 on the
first failure. Every wait is bounded; every process it starts is stopped.
"""
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "StageSupport"))
from stage import check, free_port, stop_all  # noqa: E402

binary, recording, out = sys.argv[1:4]
processes = []
work = tempfile.mkdtemp(prefix="facewatch-mqtt-")
os.chmod(work, 0o777)  # mosquitto started as root runs as its own user and saves its database here


def start_broker(port):
    config = os.path.join(work, "mosquitto.conf")
    with open(config, "w") as f:
        f.write(f"listener {port} 127.0.0.1\nallow_anonymous true\npersistence true\n"
                f"persistence_location {work}/\nautosave_interval 1\nlog_dest stderr\n")
    broker = subprocess.Popen(["mosquitto", "-c", config], stderr=open(os.path.join(out, "mqtt-broker.log"), "ab"))
    processes.append(broker)
    for _ in range(100):
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return broker
        time.sleep(0.05)
    check(False, "the broker listens")


def stop(process):
    process.send_signal(signal.SIGTERM)
    process.wait(timeout=10)


def lines(path):
    with open(path, "rb") as f:
        return [line.rstrip(b"\n") for line in f if line.strip()]


def subscribe(port, topic, name):
    # A persistent session (-c, QoS 1): what arrives while the broker restarts is kept for it.
    path = os.path.join(out, name)
    sub = subprocess.Popen(["mosquitto_sub", "-h", "127.0.0.1", "-p", str(port), "-t", topic, "-q", "1",
                            "-c", "-i", "facewatch-test-" + name.split(".")[0]], stdout=open(path, "wb"))
    processes.append(sub)
    time.sleep(0.5)
    return sub, path


def wait_for(path, count, seconds):
    deadline = time.time() + seconds
    while time.time() < deadline and len(set(lines(path))) < count:
        time.sleep(0.1)
    return lines(path)


def main():
    port = free_port()
    broker = start_broker(port)
    check(True, f"a private mosquitto listens on 127.0.0.1:{port}")

    # 1. A broker restart in the middle of a replay played in real time, twice over (12 s).
    sub, received_path = subscribe(port, "facewatch/restart", "mqtt-received.jsonl")
    events_path = os.path.join(out, "mqtt-events.jsonl")
    replay = subprocess.Popen([binary, "replay", recording, "--speed", "1", "--loop", "2",
                               "--mqtt", f"mqtt://127.0.0.1:{port}/facewatch/restart", "--mqtt-qos", "1"],
                              stdout=open(events_path, "wb"), stderr=open(os.path.join(out, "mqtt-replay.log"), "wb"))
    processes.append(replay)
    time.sleep(4)
    stop(broker)
    check(True, "broker stopped 4 s into the replay")
    time.sleep(2.5)
    broker = start_broker(port)
    check(True, "broker restarted after 2.5 s")
    check(replay.wait(timeout=60) == 0, "the replay ends normally")
    sent = lines(events_path)
    received = wait_for(received_path, len(set(sent)), 20)
    missing = [line for line in sent if line not in set(received)]
    check(len(sent) > 300, f"the replay wrote {len(sent)} events on standard output")
    check(not missing, f"every event reached mosquitto_sub across the restart ({len(set(received))} distinct of {len(sent)}; "
          f"{len(received) - len(set(received))} QoS 1 duplicates)")
    check([line for line in dict.fromkeys(received)] == list(dict.fromkeys(sent)), "in order")
    stats = [json.loads(line) for line in sent if b'"type":"stats"' in line]
    check(stats and all(s.get("mqtt_lost") == 0 for s in stats), "stats report mqtt_lost 0")
    stop(sub)

    # 2. Past the queue bound: the broker is away for the first 3.5 s, 25 events may wait, the rest are
    #    dropped and counted in stats. The subscriber's persistent session is made first, so the
    #    broker keeps what arrives for it while it is away.
    sub, bounded_path = subscribe(port, "facewatch/bounded", "mqtt-bounded-received.jsonl")
    stop(sub)
    stop(broker)
    replay_path = os.path.join(out, "mqtt-bounded.jsonl")
    replay = subprocess.Popen([binary, "replay", recording, "--speed", "1",
                               "--mqtt", f"mqtt://127.0.0.1:{port}/facewatch/bounded", "--mqtt-queue", "25"],
                              stdout=open(replay_path, "wb"), stderr=open(os.path.join(out, "mqtt-bounded.log"), "wb"))
    processes.append(replay)
    time.sleep(3.5)
    broker = start_broker(port)
    check(True, "broker started 3.5 s into the second replay")
    check(replay.wait(timeout=60) == 0, "the bounded replay ends normally")
    sub, bounded_path = subscribe(port, "facewatch/bounded", "mqtt-bounded-received.jsonl")
    sent = lines(replay_path)
    last_stats = [json.loads(line) for line in sent if b'"type":"stats"' in line][-1]
    # The last stats line counts the losses before it; if the queue was still full when it was
    # written, it was dropped too. The exit warning on standard error has the final count.
    with open(os.path.join(out, "mqtt-bounded.log")) as f:
        final = re.search(r"mqtt: (\d+) events dropped", f.read())
    lost = int(final.group(1)) if final else 0
    check(last_stats.get("mqtt_lost", -1) in (lost, lost - 1),
          f"stats report the losses: mqtt_lost {last_stats.get('mqtt_lost')} in the last stats, {lost} at exit")
    received = set(wait_for(bounded_path, len(sent) - lost, 15))
    check(lost > 0, f"events past the bound of 25 are counted: {lost} lost")
    check(len(received) + lost == len(sent),
          f"received ({len(received)}) + lost ({lost}) = written ({len(sent)}): nothing below the bound was lost")
    stop(sub)
    stop(broker)


try:
    main()
finally:
    stop_all(processes)
    subprocess.run(["rm", "-rf", work])
