"""Helpers shared by the Python integration stages (Tests/Browser, Tests/MQTT)."""
import signal
import socket
import subprocess


def check(condition, what):
    """Prints the assertion; ends the stage with status 1 when it failed."""
    print(("ok   " if condition else "FAIL ") + what, flush=True)
    if not condition:
        raise SystemExit(1)


def free_port():
    """A free TCP port on loopback."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def stop_all(processes, seconds=10):
    """SIGTERM to every process still running, then waits (bounded), then SIGKILL."""
    for process in processes:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
    for process in processes:
        try:
            process.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            process.kill()
