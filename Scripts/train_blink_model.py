#!/usr/bin/env python3
"""Trains the learned blink decision that Facewatch runs next to its blink state machine
(Sources/Expressions/BlinkEpisodes.swift, LearnedBlinks.swift), measures it leave-one-person-out,
and writes its coefficients and a parity fixture.

The decision is of the kind Scripts/blink_learned.py explored on the real-face corpus (Corpus/README.md):
small gradient-boosted trees over the shape of each eye-narrowing episode (Soukupova & Cech 2016's
EAR-window idea, made frame-rate free), on candidates found causally, frame by frame, the way the
daemon sees them (a logistic regression on the same features added more false blinks than it
found blinks, leave-one-person-out). `Stream` below is the reference that the Swift code mirrors step for step:

1. Per tracked frame, each eye's open level O is the 90th percentile (linear interpolation) of that
   eye's EAR over the frames in [t-2 s, t-0.25 s); with fewer than 8 such frames the frame has no
   ratio. r = mean(EAR_l, EAR_r) / mean(O_l, O_r); r_l = EAR_l / O_l; r_r = EAR_r / O_r.
2. A run is a stretch of consecutive frames with a ratio below RUN_LIMIT (0.925); it closes at the
   first frame without (or at or above), when the face is lost, a frame comes more than MAX_GAP after
   the last, or the run has lasted MAX_RUN seconds. In a closed run, a candidate is a frame with
   r < LIMIT (0.85) and no lower r within two frames of it (nor an equal one in the two before it);
   deepest first, its episode is the frames around it with r < (1 + r_min)/2 not taken by a deeper
   one (so a double blink gives two episodes).
3. A candidate is decided on the first frame at or after t_min + 0.3 s (or when the face is lost):
   features are r_l and r_r at t_min + 0.05 k s, k = -6..6 (linear interpolation over the kept
   history, the ends held), the depth 1 - min of r, r_l, r_r over the episode, and its duration
   (first frame to the frame after the last), and the mean r over the 0.3 s before the episode.
   p = logistic(initial + rate * the sum of the trees' leaves), the trees compared on the features
   as 32-bit floats, as scikit-learn does.
4. The daemon reports a blink for a candidate with p >= threshold whose depth (1 - min r) stands
   out of the landmarks' jitter — more than JITTER_FACTOR (6) x the median of (|dr_l| + |dr_r|)/2
   between consecutive frames with a ratio over the second before the episode — and that overlaps
   no blink, wink or eyes-closed interval of the state machine: the learned decision adds the
   blinks the state machine missed and leaves its winks, closures and timing alone. Nor is a
   candidate a blink when the yaw moved more than 12 degrees over its frames and the 0.1 s on
   either side (within what the history holds at the decision): the state machine's own rule for
   turns, which it applies itself to blinks made while turning. (The jitter
   test is the state machine's, stricter: on the corpus every factor up to 6 keeps the same
   blinks, 8 loses one; a printed photo turned by hand, a head turn and eyes narrowed in a smile
   on the bundled recordings give trees' blinks at depths 3.6-5.1 x their jitter.)

Labels (as in blink_learned.py, `w/c-neg`): the candidate each truth blink is assigned to is 1;
candidates over `unsure` are left out; the rest, winks and closures included, are 0.

Evaluation: leave-one-person-out over the corpus recordings with truth (close-up and webcam), the
threshold chosen by an inner leave-one-person-out on the other persons; scored with
Scripts/blink_peers.py's score() against the state machine alone. Then the model is fitted on all
persons, its threshold chosen on the all-data LOPO out-of-fold probabilities, and written.

Usage:
  nice python3 Scripts/train_blink_model.py [--facewatch .build/release/facewatch] [--write]
  --write: writes Sources/Expressions/BlinkModel+Coefficients.swift and the parity fixture
           Tests/Fixtures/expressions/learned-blinks.json (from Recordings/real/FIXTURE).
Needs: numpy, scikit-learn; the corpus (Scripts/real-corpus) and a release build.
"""
import argparse
import contextlib
import hashlib
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import blink_learned as bl  # noqa: E402
import blink_peers as bp  # noqa: E402

ROOT = bp.ROOT
OPEN_PCT, OPEN_BACK, OPEN_GAP, OPEN_MIN = 0.9, 2.0, 0.25, 8
LIMIT, RUN_LIMIT = 0.85, 0.925
MAX_RUN, MAX_GAP, HISTORY = 2.0, 0.5, 3.0
MAX_YAW = 45  # BlinkSettings.maxYaw: beyond it the face counts as lost, as for the state machine
STEP, HALF = 0.05, 6
LEVEL_BEFORE = 0.3
JITTER_WINDOW, JITTER_FACTOR = 1.0, 6
TURN_MARGIN, MAX_YAW_CHANGE = 0.1, 12  # BlinkSettings.maxYawChange
LOOK_AHEAD = STEP * HALF
NAMES = ([f"win_l_{k:+d}" for k in range(-HALF, HALF + 1)] + [f"win_r_{k:+d}" for k in range(-HALF, HALF + 1)]
         + ["depth", "depth_l", "depth_r", "duration", "level_before"])
TREES, DEPTH, RATE = 100, 2, 0.1
THRESHOLDS = [round(0.05 * i, 2) for i in range(1, 20)]
FIXTURE = "clm-cap13"
SWIFT_OUT = os.path.join(ROOT, "Sources", "Expressions", "BlinkModel+Coefficients.swift")
FIXTURE_OUT = os.path.join(ROOT, "Tests", "Fixtures", "expressions", "learned-blinks.json")


def percentile(values, q):
    """numpy's default (linear) percentile of a list."""
    v = sorted(values)
    pos = q * (len(v) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(v) - 1)
    return v[lo] + (v[hi] - v[lo]) * (pos - lo)


def interpolate(ts, xs, at):
    """x at time `at` by linear interpolation over (ts, xs) (ascending ts), the ends held."""
    if at <= ts[0]:
        return xs[0]
    if at >= ts[-1]:
        return xs[-1]
    lo, hi = 0, len(ts) - 1
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if ts[mid] <= at:
            lo = mid
        else:
            hi = mid
    if ts[hi] == ts[lo]:
        return xs[lo]
    return xs[lo] + (xs[hi] - xs[lo]) * (at - ts[lo]) / (ts[hi] - ts[lo])


class Stream:
    """The causal candidate search of one face (mirrored by Swift's BlinkEpisodes)."""

    def __init__(self):
        self.reset()

    def reset(self):
        self.frames = []      # dicts: seq, t, el, er, r, rl, rr (r None: no ratio)
        self.run = None       # seq of the run's first frame
        self.pending = []     # candidates waiting for their look-ahead
        self.seq = 0

    def _at(self, seq):
        return self.frames[seq - self.frames[0]["seq"]]

    def frame(self, t, el, er, yaw):
        """One tracked frame; returns the candidates decided on it (dicts with features). A frame
        whose t is not after the last one's is ignored."""
        out = []
        if self.frames and t <= self.frames[-1]["t"]:
            return out
        if self.frames and t - self.frames[-1]["t"] > MAX_GAP:
            out += self.lost()
        ol = [f["el"] for f in self.frames if t - OPEN_BACK <= f["t"] < t - OPEN_GAP]
        orr = [f["er"] for f in self.frames if t - OPEN_BACK <= f["t"] < t - OPEN_GAP]
        r = rl = rr = None
        if len(ol) >= OPEN_MIN:
            o_l, o_r = percentile(ol, OPEN_PCT), percentile(orr, OPEN_PCT)
            r = (el + er) / 2 / ((o_l + o_r) / 2)
            rl, rr = el / o_l, er / o_r
        self.frames.append(dict(seq=self.seq, t=t, el=el, er=er, r=r, rl=rl, rr=rr, yaw=yaw))
        self.seq += 1
        if r is not None and r < RUN_LIMIT:
            if self.run is None:
                self.run = self.frames[-1]["seq"]
            elif t - self._at(self.run)["t"] >= MAX_RUN:
                self._close(self.frames[-1]["seq"])
        elif self.run is not None:
            self._close(self.frames[-1]["seq"] - 1)
        while self.frames[0]["t"] < t - HISTORY:
            self.frames.pop(0)
        out += self._decide(lambda c: c["t_min"] + LOOK_AHEAD <= t)
        return out

    def lost(self):
        """The face was lost: closes the run, decides every candidate with what there is, forgets."""
        if self.run is not None:
            self._close(self.frames[-1]["seq"])
        out = self._decide(lambda c: True)
        seq = self.seq
        self.reset()
        self.seq = seq
        return out

    def _close(self, last):
        first = self.run
        self.run = None
        seqs = list(range(first, last + 1))
        r = {s: self._at(s)["r"] for s in seqs}
        minima = []
        for s in seqs:
            if r[s] >= LIMIT:
                continue
            near = [r[j] for j in range(s - 2, s + 3) if j != s and first <= j <= last]
            left = [r[j] for j in range(s - 2, s) if first <= j <= last]
            if any(v < r[s] for v in near) or any(v == r[s] for v in left):
                continue
            minima.append(s)
        taken = set()
        for s in sorted(minima, key=lambda j: (r[j], j)):
            if s in taken:
                continue
            half = (1 + r[s]) / 2
            a = s
            while a - 1 >= first and r[a - 1] < half and a - 1 not in taken:
                a -= 1
            b = s
            while b + 1 <= last and r[b + 1] < half and b + 1 not in taken:
                b += 1
            taken.update(range(a, b + 1))
            self.pending.append(dict(first=a, last=b, min=s, t_min=self._at(s)["t"]))

    def _decide(self, ready):
        out = []
        keep = []
        for c in sorted(self.pending, key=lambda c: c["min"]):
            if ready(c):
                out.append(self._features(c))
            else:
                keep.append(c)
        self.pending = keep
        return out

    def _features(self, c):
        fr = [f for f in self.frames if f["r"] is not None]
        ts = [f["t"] for f in fr]
        x = []
        for key in ("rl", "rr"):
            xs = [f[key] for f in fr]
            x += [interpolate(ts, xs, c["t_min"] + STEP * k) for k in range(-HALF, HALF + 1)]
        ep = [self._at(s) for s in range(c["first"], c["last"] + 1)]
        x += [1 - min(f["r"] for f in ep), 1 - min(f["rl"] for f in ep), 1 - min(f["rr"] for f in ep)]
        start = ep[0]["t"]
        after = c["last"] + 1
        if after - self.frames[0]["seq"] < len(self.frames):
            end = self._at(after)["t"]
        elif c["last"] - 1 >= self.frames[0]["seq"]:
            end = ep[-1]["t"] + (ep[-1]["t"] - self._at(c["last"] - 1)["t"])
        else:
            end = ep[-1]["t"] + 0.04
        x.append(end - start)
        before = [f["r"] for f in self.frames if start - LEVEL_BEFORE <= f["t"] < start and f["r"] is not None]
        x.append(sum(before) / len(before) if before else 1.0)
        prior = [f for f in fr if start - JITTER_WINDOW <= f["t"] < start]
        changes = sorted((abs(b["rl"] - a["rl"]) + abs(b["rr"] - a["rr"])) / 2 for a, b in zip(prior, prior[1:]))
        n = len(changes)
        jitter = 0.0 if n == 0 else changes[n // 2] if n % 2 else (changes[n // 2 - 1] + changes[n // 2]) / 2
        around = [f["yaw"] for f in self.frames if start - TURN_MARGIN <= f["t"] <= end + TURN_MARGIN]
        turn = max(around) - min(around)
        return dict(start=start, end=end, t_min=c["t_min"], min=c["min"], x=x, jitter=jitter, turn=turn,
                    steady=x[2 * (2 * HALF + 1)] > JITTER_FACTOR * jitter and turn <= MAX_YAW_CHANGE)


def extract(rec, binary, config, out_dir):
    """The per-frame EARs and yaw (NaN without a face) and the state machine's eye events of one
    recording, from `facewatch replay --frames` with the learned decision off; cached."""
    path = os.path.join(out_dir, "series", rec["name"] + ".json")
    key = {"recording": bp.fingerprint(rec["path"]), "binary_sha256": bp.sha256(binary), "v": 3}
    if os.path.exists(path):
        data = bp.load_json(path)
        if data.get("key") == key:
            return data
    n = len(bp.read_index(rec["path"]))
    data = {"key": key, "t": [None] * n, "ear_left": [None] * n, "ear_right": [None] * n, "yaw": [None] * n,
            "events": []}
    proc = subprocess.run([binary, "replay", rec["path"], "--frames", "--no-nose", "--config", config],
                          capture_output=True, text=True, check=True)
    for line in proc.stdout.splitlines():
        e = json.loads(line)
        if e["type"] == "frame" and 0 <= e["frame"] < n:
            i = e["frame"]
            data["t"][i] = e["t"]
            if e.get("faces"):
                f = e["faces"][0]
                data["ear_left"][i], data["ear_right"][i] = f["ear_left"], f["ear_right"]
                data["yaw"][i] = (f.get("pose") or {}).get("yaw")
        elif e["type"] in bp.EYE_TYPES and "start" in e and e.get("state", "end") == "end":
            data["events"].append({"type": e["type"], "start": e["start"], "end": e["start"] + e["duration_ms"] / 1000.0})
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump(data, f, separators=(",", ":"))
    return data


def arrays(data):
    a = {k: np.array([np.nan if v is None else v for v in data[k]], float)
         for k in ("t", "ear_left", "ear_right", "yaw")}
    a["events"] = data["events"]
    return a


def stream_candidates(frames):
    """Runs the stream over (t, EAR left, EAR right, yaw) frames, as the daemon does (a frame
    without a face, None or NaN, or turned beyond MAX_YAW counts as lost); returns the decided
    candidates."""
    s = Stream()
    out = []
    for t, el, er, yaw in frames:
        if el is None or er is None or np.isnan(el) or np.isnan(er) or not abs(yaw) <= MAX_YAW:
            out += s.lost()
        else:
            out += s.frame(float(t), float(el), float(er), float(yaw))
    out += s.lost()
    return out


def series_candidates(a):
    """The decided candidates of a recording's cached series."""
    return stream_candidates(zip(a["t"], a["ear_left"], a["ear_right"], a["yaw"]))


class Data:
    """Every candidate of every recording: X, labels (w/c as negatives), recording, person, spans."""

    def __init__(self, recs, series):
        rows, ys, rec_of, spans = [], [], [], []
        self.info = []
        self.missed = 0
        for k, rec in enumerate(recs):
            cands = series_candidates(arrays(series[rec["name"]]))
            cs = [(c["start"], c["end"]) for c in cands]
            assigned, missed = bl.assign(cs, rec["truth"])
            self.missed += missed
            for j, (c, span) in enumerate(zip(cands, cs)):
                rows.append(c["x"])
                self.info.append(c)
                ys.append(bl.label(j, span, assigned, rec["truth"], True))
                rec_of.append(k)
                spans.append(span)
        self.X = np.array(rows, float)
        self.y = np.array(ys)
        self.rec = np.array(rec_of)
        self.person = np.array([recs[k]["person"] for k in rec_of])
        self.spans = spans


def make_model():
    from sklearn.ensemble import GradientBoostingClassifier
    return GradientBoostingClassifier(n_estimators=TREES, max_depth=DEPTH, learning_rate=RATE, subsample=0.8,
                                      random_state=0)


def eye_events(series_rec):
    return [(e["start"], e["end"]) for e in series_rec["events"]]


def reported(recs, series, data, prob, k, thr):
    """The blinks the daemon reports on recording k: the state machine's, plus candidates with
    p >= thr that overlap none of its blinks, winks or closures."""
    events = series[recs[k]["name"]]["events"]
    shipped = [(e["start"], e["end"]) for e in events if e["type"] == "blink"]
    if prob is None:
        return shipped
    eyes = eye_events(series[recs[k]["name"]])
    added = [data.spans[i] for i in np.where(data.rec == k)[0]
             if prob[i] >= thr and not any(bp.matches(data.spans[i], e, 0) for e in eyes) and data.info[i]["steady"]]
    return sorted(shipped + added)



def total(recs, series, data, prob, ks, thr):
    s = bp.Score()
    for k in ks:
        s += bp.score(reported(recs, series, data, prob, k, thr), recs[k]["truth"])
    return s


def choose(recs, series, data, prob, ks):
    best = None
    for th in THRESHOLDS:
        s = total(recs, series, data, prob, ks, th)
        key = (-round(s.f1, 6), s.lookalike, abs(th - 0.5))
        if best is None or key < best[0]:
            best = (key, th)
    return best[1]


def lopo(recs, series, data):
    persons = sorted(set(r["person"] for r in recs))
    trainable = data.y >= 0
    fits = {}

    def fit_without(excluded):
        key = frozenset(excluded)
        if key not in fits:
            sel = trainable & ~np.isin(data.person, list(excluded))
            fits[key] = make_model().fit(data.X[sel], data.y[sel])
        return fits[key]

    prob = np.full(len(data.y), np.nan)
    chosen = {}
    for p in persons:
        inner = np.full(len(data.y), np.nan)
        for q in persons:
            if q != p:
                sel = data.person == q
                inner[sel] = fit_without({p, q}).predict_proba(data.X[sel])[:, 1]
        chosen[p] = choose(recs, series, data, inner, [k for k, r in enumerate(recs) if r["person"] != p])
        sel = data.person == p
        prob[sel] = fit_without({p}).predict_proba(data.X[sel])[:, 1]
    return prob, chosen


def short(s):
    return f"{bp.fmt(s.f1)} ({s.tp}/{s.fp}/{s.fn})"


def swift_list(values, kind):
    items = [repr(float(v)) if kind == "Double" else str(int(v)) for v in values]
    lines, line = [], "            "
    for item in items:
        if len(line) + len(item) + 2 > 110:
            lines.append(line.rstrip())
            line = "            "
        line += item + ", "
    lines.append(line.rstrip().rstrip(","))
    return "[\n" + "\n".join(lines) + "\n        ]"


def write_swift(model, threshold, recs, persons, n_truth, sources_sha):
    """The fitted trees as BlinkModel's node arrays (sklearn's tree_ arrays, concatenated; a leaf
    has feature -1 and child indices -1; children are indices into the concatenated arrays)."""
    feature, split, left, right, value, roots = [], [], [], [], [], []
    for est in model.estimators_[:, 0]:
        tree = est.tree_
        base = len(feature)
        roots.append(base)
        for n in range(tree.node_count):
            leaf = tree.children_left[n] == -1
            feature.append(-1 if leaf else tree.feature[n])
            split.append(0.0 if leaf else tree.threshold[n])
            left.append(-1 if leaf else base + tree.children_left[n])
            right.append(-1 if leaf else base + tree.children_right[n])
            value.append(tree.value[n][0][0] if leaf else 0.0)
    initial = float(model._raw_predict_init(np.zeros((1, len(NAMES))))[0, 0])
    text = f"""// Generated by Scripts/train_blink_model.py --write; do not edit.
//
// Trained on the real-face corpus (Corpus/sources.json, sha256 {sources_sha[:16]}…): {len(recs)} recordings
// of {len(persons)} people, close-up and at webcam distance, {n_truth} blinks annotated by eye (Corpus/truth/,
// Recordings/real/*/truth.json). Gradient-boosted trees (scikit-learn GradientBoostingClassifier:
// {TREES} trees of depth {DEPTH}, learning rate {RATE}, subsample 0.8, random_state 0); the threshold was
// chosen on leave-one-person-out probabilities.

extension BlinkModel {{
    /// The model `LearnedBlinks` uses by default.
    public static let standard = BlinkModel(
        initial: {initial!r},
        learningRate: {RATE!r},
        roots: {swift_list(roots, "Int")},
        feature: {swift_list(feature, "Int")},
        split: {swift_list(split, "Double")},
        left: {swift_list(left, "Int")},
        right: {swift_list(right, "Int")},
        value: {swift_list(value, "Double")},
        threshold: {threshold!r})
}}
"""
    with open(SWIFT_OUT, "w") as f:
        f.write(text)


def write_fixture(binary, config, model, threshold):
    path = os.path.join(ROOT, "Recordings", "real", FIXTURE)
    proc = subprocess.run([binary, "replay", path, "--frames", "--no-nose", "--config", config],
                          capture_output=True, text=True, check=True)
    frames = []
    for line in proc.stdout.splitlines():
        e = json.loads(line)
        if e["type"] == "frame":
            faces = e.get("faces") or []
            f = faces[0] if faces else None
            frames.append([e["t"], f["ear_left"], f["ear_right"], f["pose"]["yaw"]] if f else [e["t"], None, None, None])
    cands = stream_candidates(frames)
    p = model.predict_proba(np.array([c["x"] for c in cands]))[:, 1] if cands else []
    fixture = {
        "recording": os.path.relpath(path, ROOT),
        "made_by": "Scripts/train_blink_model.py --write (the Python reference of BlinkEpisodes and LearnedBlinks)",
        "frames": frames,
        "candidates": [dict(start=c["start"], end=c["end"], t_min=c["t_min"], features=c["x"], p=float(pi),
                            jitter=c["jitter"], turn=c["turn"], blink=bool(pi >= threshold and c["steady"]))
                       for c, pi in zip(cands, p)],
    }
    os.makedirs(os.path.dirname(FIXTURE_OUT), exist_ok=True)
    with open(FIXTURE_OUT, "w") as f:
        json.dump(fixture, f, indent=0)
    print(f"fixture: {len(frames)} frames, {len(cands)} candidates -> {os.path.relpath(FIXTURE_OUT, ROOT)}")


@contextlib.contextmanager
def without_learned(facewatch):
    """A private copy of the facewatch binary (the cache key is its hash, and a rebuild during a
    run must not change it) and a config.json with the learned decision off: the candidates are
    read from the state machine's own events. Both are removed afterwards."""
    tmp = tempfile.mkdtemp(prefix="blink-model-")
    try:
        binary = os.path.join(tmp, "facewatch")
        shutil.copy2(facewatch, binary)
        config = os.path.join(tmp, "config.json")
        with open(config, "w") as f:
            json.dump({"blink": {"learned": False}}, f)
        yield binary, config
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--facewatch", default=os.path.join(ROOT, ".build", "release", "facewatch"))
    ap.add_argument("--out", default=os.path.join(ROOT, "Corpus", "build", "blink-model"))
    ap.add_argument("--write", action="store_true")
    opts = ap.parse_args()
    recs, _ = bp.corpus()
    with without_learned(opts.facewatch) as (binary, config):
        series = {r["name"]: extract(r, binary, config, opts.out) for r in recs}
        data = Data(recs, series)
        persons = sorted(set(r["person"] for r in recs))
        n_truth = sum(len(bp.truth_intervals(r["truth"], "events", ("blink",))) for r in recs)
        print(f"{len(recs)} recordings, {len(persons)} persons, {n_truth} truth blinks; {len(data.y)} candidates "
              f"({(data.y == 1).sum()} blink, {(data.y == 0).sum()} not, {(data.y < 0).sum()} unsure); "
              f"{data.missed} truth blinks without a candidate")
        prob, chosen = lopo(recs, series, data)
        rows = [("state machine alone", None, {}), ("state machine + learned (LOPO)", prob, chosen)]
        for label, pr, ch in rows:
            per = [bp.score(reported(recs, series, data, pr, k, ch.get(r["person"], 0.5)), r["truth"])
                   for k, r in enumerate(recs)]
            g = bl.group_scores(recs, per)
            print(f"{label:34} all {short(g['all'])}  close-up {short(g['close-up'])}  webcam {short(g['webcam'])}"
                  f"  look-alike FP {g['all'].lookalike}  duration p95 {bp.ms_summary(g['all'].duration_errors)}")
        cells = []
        for p in persons:
            sc, sm = bp.Score(), bp.Score()
            for k, r in enumerate(recs):
                if r["person"] == p:
                    sc += bp.score(reported(recs, series, data, prob, k, chosen[p]), r["truth"])
                    sm += bp.score(reported(recs, series, data, None, k, 0), r["truth"])
            cells.append(f"{p} {short(sm)} -> {short(sc)}")
        print("per person, state machine -> with the learned decision (held out):\n  " + "\n  ".join(cells))
        print("thresholds chosen per fold:", sorted(set(chosen.values())))
        if opts.write:
            trainable = data.y >= 0
            model = make_model().fit(data.X[trainable], data.y[trainable])
            threshold = choose(recs, series, data, prob, range(len(recs)))
            with open(os.path.join(ROOT, "Corpus", "sources.json"), "rb") as f:
                sources_sha = hashlib.sha256(f.read()).hexdigest()
            write_swift(model, threshold, recs, persons, n_truth, sources_sha)
            print(f"model: threshold {threshold} -> {os.path.relpath(SWIFT_OUT, ROOT)}")
            write_fixture(binary, config, model, threshold)


if __name__ == "__main__":
    main()
