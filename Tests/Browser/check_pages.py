"""Drives `facewatch serve` through headless chromium (Tests/Browser/run calls this).

Usage: check_pages.py FACEWATCH RECORDING OUT. Prints one line per assertion; exits 1 on the
first failure. Every wait is bounded; every process it starts is stopped.
"""
import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request

from prometheus_client.parser import text_string_to_metric_families
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "StageSupport"))
from stage import check, free_port, stop_all  # noqa: E402

binary, recording, out = sys.argv[1:4]
shots = os.path.join(out, "screenshots")
processes = []


def serve(*arguments, log):
    process = subprocess.Popen([binary, "serve", "--replay", recording, "--loop", *arguments],
                               stdout=open(os.path.join(out, log + ".jsonl"), "wb"),
                               stderr=open(os.path.join(out, log + ".log"), "wb"))
    processes.append(process)
    return process


def get(url, headers=None, timeout=5):
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def wait_until_up(base, headers=None):
    for _ in range(600):
        try:
            status, _ = get(base + "/metrics", headers)
            if status in (200, 401):
                return True
        except OSError:
            time.sleep(0.1)
    return False


def metrics(base):
    status, body = get(base + "/metrics")
    values = {}
    for family in text_string_to_metric_families(body.decode()):
        for sample in family.samples:
            key = sample.name + "".join(f'{{{k}="{v}"}}' for k, v in sorted(sample.labels.items()))
            values[key] = sample.value
    return status, values


def post(url, body):
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def main():
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    serve("--http", f"127.0.0.1:{port}", "--video", log="browser-serve")
    check(wait_until_up(base), f"serve listens on {base}")

    status, first = metrics(base)
    check(status == 200 and "facewatch_frames_captured_total" in first, "/metrics parses as Prometheus text")

    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--window-size=1280,860"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_page_load_timeout(30)
    try:
        driver.get(base + "/")
        lines = 0
        for _ in range(100):
            lines = len(driver.find_elements(By.CSS_SELECTOR, "#log div"))
            if lines >= 5:
                break
            time.sleep(0.1)
        check(lines >= 5, f"the live page's SSE log fills ({lines} lines)")
        width = 0
        for _ in range(100):
            width = driver.execute_script("return document.getElementById('video').naturalWidth")
            if width:
                break
            time.sleep(0.1)
        check(width == 640, f"the MJPEG image loads ({width} px wide)")
        ear = driver.find_element(By.ID, "ear-left").text
        check(ear.replace(".", "").isdigit(), f"the page shows the current EAR ({ear})")
        time.sleep(0.5)
        driver.save_screenshot(os.path.join(shots, "live-page.png"))

        # The check page: a two-step challenge on a looping replay. The replayed person blinks at
        # their own pace, not on the page's cues, so the check must fail and the page say why.
        driver.get(base + "/check?challenge=blink,blink&seed=3&step_timeout_s=6")
        driver.find_element(By.ID, "start").click()
        seen = []
        verdict = ""
        for _ in range(600):
            # One script reads both, so the page cannot change between the two reads.
            prompt, hint = (part.strip() for part in driver.execute_script(
                "return [document.getElementById('prompt').innerText, document.getElementById('hint').innerText]"))
            if not seen or seen[-1] != (prompt, hint):
                seen.append((prompt, hint))
            verdict = driver.find_element(By.ID, "verdict").text
            if verdict:
                break
            time.sleep(0.05)
        print("     prompts seen:", seen, "verdict:", verdict, flush=True)
        check(("Keep still, eyes open", "Step 1 of 2: blink each time you are told") in seen,
              "the check page shows the first step's prompt: keep still with the eyes open, blink each time you are told")
        check(verdict == "FAILED", "a replayed video fails the check on the page")
        hint = driver.find_element(By.ID, "hint").text
        check(hint.startswith("Because ") and any(w in hint for w in ("cues", "before")),
              f"the page says why it failed ({hint})")
        time.sleep(0.3)
        rings = driver.execute_script(
            "return [...document.querySelectorAll('.step')].map(s => s.classList.contains('done'))")
        check(rings == [False, False], f"no progress ring is marked done ({rings})")
        driver.save_screenshot(os.path.join(shots, "check-page.png"))
    finally:
        driver.quit()

    # The API beside the page: one check at a time, SSE resume, counters that move.
    status, started = post(base + "/checks", {"challenge": "smile,blink", "step_timeout_s": 30})
    check(status == 201 and started["state"] == "running", "POST /checks starts a check (201)")
    status, refused = post(base + "/checks", {"challenge": "blink"})
    check(status == 409 and refused.get("running") == started["id"], f"a second check is refused with 409: {refused['error']}")
    status, body = get(base + "/checks/" + started["id"])
    check(status == 200 and json.loads(body)["id"] == started["id"], "GET /checks/{id} returns its state")
    status, _ = get(base + "/checks/nope")
    check(status == 404, "an unknown check is 404")

    with urllib.request.urlopen(urllib.request.Request(base + "/events", headers={"Last-Event-ID": "0"}), timeout=5) as stream:
        ids = []
        while len(ids) < 3:
            line = stream.readline().decode()
            if line.startswith("id: "):
                ids.append(int(line[4:]))
    check(ids == [1, 2, 3], f"/events resumes after Last-Event-ID 0 with ids {ids}")

    _, second = metrics(base)
    captured = (first["facewatch_frames_captured_total"], second["facewatch_frames_captured_total"])
    check(captured[1] > captured[0], f"facewatch_frames_captured_total moves ({captured[0]:.0f} -> {captured[1]:.0f})")
    check(second['facewatch_events_total{type="blink"}'] > first['facewatch_events_total{type="blink"}'],
          "facewatch_events_total{type=blink} moves")
    check(second['facewatch_checks_total{verdict="fail"}'] >= 1, "facewatch_checks_total{verdict=fail} counts the failed check")
    check(second["facewatch_processing_seconds_count"] > 0, "the processing-time histogram has samples")

    # Access: a token on loopback is enforced; anything but loopback needs one.
    token_port = free_port()
    token_base = f"http://127.0.0.1:{token_port}"
    serve("--http", f"127.0.0.1:{token_port}", "--token", "s3cret", log="browser-token")
    check(wait_until_up(token_base), "serve with --token listens")
    check(get(token_base + "/metrics")[0] == 401, "without the token: 401")
    check(get(token_base + "/metrics", {"Authorization": "Bearer s3cret"})[0] == 200, "with the bearer token: 200")
    check(get(token_base + "/stream.mjpeg", {"Authorization": "Bearer s3cret"})[0] == 404, "video is off unless asked for: 404")
    refused = subprocess.run([binary, "serve", "--replay", recording, "--http", "192.0.2.1:8080"],
                             capture_output=True, timeout=60)
    check(refused.returncode != 0 and b"needs --token" in refused.stderr,
          "binding beyond loopback without a token refuses to start: " + refused.stderr.decode().strip().splitlines()[-1])


try:
    main()
finally:
    stop_all(processes, seconds=15)
