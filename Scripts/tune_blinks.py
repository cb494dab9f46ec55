#!/usr/bin/env python3
"""Leave-one-person-out tuning of the blink detector's settings on the real recordings.

A line-for-line Python mirror of Sources/Expressions/BlinkDetector.swift (episodes from either eye's
onset below close x open to both eyes above reopen x open or settled above deep x open; depth
below deep x open in both eyes for a blink/closure, in one eye for a wink; the open EAR is the
`q` percentile of the last `window` seconds of samples learned outside episodes) runs on the EAR
per frame that Facewatch itself measured (`facewatch replay --frames`), so only the state machine's
settings are searched, not the landmarks.

For each person (truth.json's `person`), the settings are chosen on the OTHER people's clips only
(best blink F1, then eyes_closed F1, minus events over negatives, then the p95 duration error), and
the held-out person is scored with them. The summed held-out counts are the leave-one-person-out
figures in docs/blinks.md. `--check` instead runs the Swift defaults on every clip and prints the events,
to compare with `facewatch eval` (they must agree).

Usage:
  swift build -c release
  for r in Recordings/real/*; do .build/release/facewatch replay $r --frames --no-nose > /tmp/$(basename $r).jsonl; done
  python3 Scripts/tune_blinks.py /tmp            # leave-one-person-out table
  python3 Scripts/tune_blinks.py /tmp --check    # the defaults, per clip
Needs numpy.
"""
import itertools
import json
import os
import sys

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REAL = os.path.join(ROOT, "Recordings", "real")
DEFAULTS = dict(fallback=0.3, window=2.0, q=0.9, warmup=1.0, close=0.75, deep=0.65, reopen=0.8, settle=0.2,
                mindur=0.0, maxdur=0.8, winkopen=0.7, winkmin=0.1, winkmax=1.0, maxyaw=45.0, maxyawchange=12.0,
                winkmaxyaw=20.0, turndeep=0.45)
GRID = dict(q=[0.5, 0.7, 0.9], window=[2.0, 4.0], close=[0.75, 0.8], deep=[0.6, 0.65, 0.7], reopen=[0.8, 0.85])
TYPES = ("blink", "eyes_closed", "wink")


def load(events_dir, clip):
    frames = []
    for line in open(os.path.join(events_dir, clip + ".jsonl")):
        o = json.loads(line)
        if o["type"] != "frame":
            continue
        if o["faces"]:
            f = o["faces"][0]
            frames.append((o["t"], f["ear_left"], f["ear_right"], f["pose"]["yaw"], True))
        else:
            frames.append((o["t"], 0.0, 0.0, 0.0, False))
    return frames, json.load(open(os.path.join(REAL, clip, "truth.json")))


class Eye:
    """EyeState + RunningPercentile: samples drop out only when a newer one is added."""

    def __init__(self, p):
        self.p, self.samples, self.ratio = p, [], 1.0

    def step(self, ear):
        p = self.p
        if not self.samples:
            self.open = p["fallback"]
        else:
            values = sorted(v for _, v in self.samples)
            learned = values[int(round(p["q"] * (len(values) - 1)))]
            span = self.samples[-1][0] - self.samples[0][0]
            self.open = learned if span >= p["warmup"] else min(p["fallback"], learned)
        self.ratio = ear / self.open

    def learn(self, ear, t, armed):
        if self.ratio >= (self.p["close"] if armed else self.p["deep"]):
            self.samples = [(s, v) for s, v in self.samples if s >= t - self.p["window"]] + [(t, ear)]

    def forget(self):
        self.samples, self.ratio = [], 1.0


def detect(frames, p):
    left, right = Eye(p), Eye(p)
    events, episode, armed, seen = [], None, False, None

    def suspend():
        """BlinkDetector.suspend: drop the episode (a reported closure ends where last seen), disarm."""
        nonlocal episode, armed
        if episode and episode["long"]:
            events.append(("eyes_closed", episode["start"], seen))
        episode, armed = None, False

    def half_depth(e, end):
        """BlinkDetector.halfDepthSpan: the frames below half the episode's depth."""
        frames = [(t, r) for t, r in e["trace"] if t < end]
        level = (1 + min(e["low_l"], e["low_r"])) / 2
        below = [k for k, (_, r) in enumerate(frames) if r < level]
        after = frames[below[-1] + 1][0] if below[-1] + 1 < len(frames) else end
        return frames[below[0]][0], after

    def finish(e, end):
        d = end - e["start"]
        deep_l, deep_r = e["low_l"] < p["deep"], e["low_r"] < p["deep"]
        if e["long"]:
            events.append(("eyes_closed", e["start"], end))
        elif e["turned"]:  # a closure while the head turned: only a deep one is a blink
            if e["low_l"] < p["turndeep"] and e["low_r"] < p["turndeep"] and p["mindur"] <= d <= p["maxdur"]:
                events.append(("blink",) + half_depth(e, end))
        elif deep_l and deep_r:
            if p["mindur"] <= d <= p["maxdur"]:
                events.append(("blink",) + half_depth(e, end))
        elif p["winkmin"] <= d <= p["winkmax"] and max(abs(e["yaw_lo"]), abs(e["yaw_hi"])) <= p["winkmaxyaw"]:
            if (deep_l and e["low_r"] > p["winkopen"]) or (deep_r and e["low_l"] > p["winkopen"]):
                events.append(("wink",) + half_depth(e, end))

    for t, ear_l, ear_r, yaw, tracked in frames:
        if not tracked or abs(yaw) > p["maxyaw"]:
            suspend()
            if not tracked:
                left.forget(); right.forget()
            continue
        seen = t
        left.step(ear_l); right.step(ear_r)
        reopened = left.ratio >= p["reopen"] and right.ratio >= p["reopen"]
        if episode is None and armed and min(left.ratio, right.ratio) < p["close"]:
            episode = dict(start=t, low_l=left.ratio, low_r=right.ratio, long=False, settled=None, trace=[],
                           yaw_lo=yaw, yaw_hi=yaw, turned=False)
        if episode is None:
            left.learn(ear_l, t, armed); right.learn(ear_r, t, armed)
            if not armed:
                armed = reopened
            continue
        e = episode
        e["yaw_lo"], e["yaw_hi"] = min(e["yaw_lo"], yaw), max(e["yaw_hi"], yaw)
        if e["yaw_hi"] - e["yaw_lo"] > p["maxyawchange"]:  # a turn: it ends a reported closure
            if e["long"]:
                suspend()
                continue
            e["turned"] = True
        e["low_l"] = min(e["low_l"], left.ratio); e["low_r"] = min(e["low_r"], right.ratio)
        e["trace"].append((t, min(left.ratio, right.ratio)))
        if reopened:
            finish(e, t); episode = None
            continue
        if left.ratio >= p["deep"] and right.ratio >= p["deep"]:
            e["settled"] = e["settled"] if e["settled"] is not None else t
            if t - e["settled"] >= p["settle"]:
                finish(e, e["settled"]); episode = None
                continue
        else:
            e["settled"] = None
        if e["low_l"] < p["deep"] and e["low_r"] < p["deep"] and not e["long"] and not e["turned"] \
                and t - e["start"] > p["maxdur"]:
            e["long"] = True
    if episode and episode["long"]:
        # end of stream: FrameProcessor.finish ends an open closure at the last frame
        events.append(("eyes_closed", episode["start"], seen))
    return events


def score(reported, truth, tolerance=0.25):
    """DetectionScore.score: each truth interval matches the earliest unused overlapping/near report."""
    reported = sorted(reported)
    used = [False] * len(reported)
    tp = fn = 0
    duration_errors = []
    for a, b in sorted(truth):
        k = next((i for i, (s, e) in enumerate(reported) if not used[i] and s <= b + tolerance and a <= e + tolerance), None)
        if k is None:
            fn += 1
        else:
            used[k] = True
            tp += 1
            duration_errors.append((reported[k][1] - reported[k][0]) - (b - a))
    return np.array([tp, used.count(False), fn]), duration_errors


def evaluate(data, clips, p):
    totals = {k: np.zeros(3, int) for k in TYPES}
    negative_hits, duration_errors = 0, []
    for clip in clips:
        frames, truth = data[clip]
        events = detect(frames, p)
        for k in TYPES:
            counts, errors = score([(s, e) for ty, s, e in events if ty == k],
                                   [(ev["start"], ev["end"]) for ev in truth["events"] if ev["type"] == k])
            totals[k] += counts
            if k == "blink":
                duration_errors += errors
        for n in truth.get("negatives", []):
            negative_hits += sum(1 for _, s, e in events if s <= n["end"] and n["start"] <= e)
    return totals, negative_hits, duration_errors


def f1(counts):
    tp, fp, fn = counts
    return 2 * tp / (2 * tp + fp + fn) if 2 * tp + fp + fn else 1.0


def choose(data, clips):
    best = None
    for values in itertools.product(*GRID.values()):
        p = dict(DEFAULTS, **dict(zip(GRID, values)))
        if not p["deep"] <= p["close"] < p["reopen"]:
            continue
        totals, hits, errors = evaluate(data, clips, p)
        key = (f1(totals["blink"]), f1(totals["eyes_closed"]) - 0.5 * hits, -np.percentile(np.abs(errors), 95) if errors else 0)
        if best is None or key > best[0]:
            best = (key, p)
    return best[1]


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    clips = sorted(c for c in os.listdir(REAL) if os.path.isdir(os.path.join(REAL, c)))
    data = {c: load(sys.argv[1], c) for c in clips}
    if "--check" in sys.argv:
        for c in clips:
            print(c, [(ty, round(s, 3), round(e - s, 3)) for ty, s, e in detect(data[c][0], DEFAULTS)])
        totals, hits, errors = evaluate(data, clips, DEFAULTS)
        print({k: v.tolist() for k, v in totals.items()}, "events over negatives:", hits)
        return
    people = {}
    for c in clips:
        people.setdefault(data[c][1]["person"], []).append(c)
    held = {k: np.zeros(3, int) for k in TYPES}
    hits_all, errors_all = 0, []
    for person, own in sorted(people.items()):
        p = choose(data, [c for c in clips if c not in own])
        totals, hits, errors = evaluate(data, own, p)
        print(f"{person}: settings from the others {{{', '.join(f'{k}: {p[k]}' for k in GRID)}}}; held out:",
              {k: v.tolist() for k, v in totals.items()}, "events over negatives:", hits, flush=True)
        for k in TYPES:
            held[k] += totals[k]
        hits_all += hits
        errors_all += errors
    print("leave-one-person-out (TP, FP, FN):", {k: (v.tolist(), round(f1(v), 3)) for k, v in held.items()},
          "events over negatives:", hits_all,
          "blink duration |error| mean/p95 ms: %.0f/%.0f" % (1000 * np.mean(np.abs(errors_all)), 1000 * np.percentile(np.abs(errors_all), 95)))


if __name__ == "__main__":
    main()
