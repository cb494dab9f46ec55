#!/usr/bin/env python3
"""Prototype: a learned blink decision on Facewatch's per-frame eye signals, leave-one-person-out.

Question: does a small learned classifier over eye-narrowing episodes beat Facewatch's shipped
blink detector on the real-face corpus (Corpus/README.md) when every decision about a person is
made by a model and threshold that never saw that person?

Pipeline, per recording (close-up NAME and NAME-webcam, with truth; the corpus and the truth come
from Scripts/blink_peers.py's corpus(), and scoring is its score(): ±0.25 s, one-to-one; reports
over winks/closures neither TP nor FP; reports over `unsure` set aside):

1. Signals. `facewatch replay REC --frames --landmarks --no-nose` (a copy of the binary), faces[0]
   of every `frame` line: ear_left, ear_right, mar, smile, pose yaw/pitch/roll, the EAR close
   thresholds, the 68 landmarks; and Facewatch's own blink/wink/eyes_closed events. Cached in
   Corpus/build/proto/series/REC.json (keyed on frames.jsonl's sha1 and the binary's sha256).

2. Candidates (eye-narrowing episodes). Per eye, an open level O(t) = the 90th percentile of that
   eye's EAR over [t-2 s, t-0.25 s) (at a clip's start, with fewer than 8 frames there, over
   [t-2 s, t+2 s] without |dt| < 0.25 s); the ratio r = mean(EAR_l, EAR_r) / mean(O_l, O_r), and
   per eye r_l = EAR_l/O_l, r_r = EAR_r/O_r. A candidate is a local minimum of r (no lower value
   within ±2 frames) below LIMIT (0.85); its episode is the contiguous run of frames around it with
   r < (1 + r_min)/2 (half depth). Minima are taken deepest first and an episode stops at frames
   already taken by a deeper one (a minimum inside a deeper episode is dropped), so a double blink
   gives two episodes. Every Facewatch blink/wink/eyes_closed event that overlaps no episode is added as a candidate of
   its own span (minimum = the lowest r inside), so recall can only grow.

3. Features per candidate (FEATURES below lists them exactly): the ratio window (r_l and r_r at
   t_min + k*0.05 s, k = -6..6, linear interpolation in time: 26 values, Soukupova & Cech 2016's
   EAR-window idea made frame-rate free), depth of each eye, asymmetry, duration at half depth,
   closing/reopening speed, level before/after, absolute EAR and EAR/threshold at the minimum,
   head motion (pose ranges, pitch change, a similarity fit of the nose+jaw landmarks 0-16, 27-35
   from the frame before the episode to the frame after it and to the minimum: residual, scale,
   shift, rotation, all in inter-ocular units), brow-to-eye-corner distance change, MAR/smile,
   frame rate, missing faces; and (set `full+fw`) whether Facewatch reported a blink/wink/closure
   over the episode.
   Label: each truth blink is assigned to one candidate (of those overlapping it or within 0.1 s,
   the one with the most overlap, then the nearest centre): 1. Others: not trained on when over an
   `unsure` stretch; over a truth wink/eyes_closed either not trained on (default rows) or 0 (rows
   marked `w/c-neg`); else 0 (including a second candidate near an assigned blink).

4. Models: logistic regression (median imputation + standardisation + C=1, fitted inside each fold)
   and gradient boosted trees (sklearn GradientBoostingClassifier, depth 2, 100 trees, rate 0.1,
   subsample 0.8, median imputation). Leave-one-person-out: for held-out person P the model is
   fitted on the other persons' recordings (close-up and webcam); its decision threshold (and, for
   the combinations, the veto threshold) is chosen to maximise blink F1 over the other persons'
   recordings using out-of-fold probabilities from an inner leave-one-person-out over those
   persons only (fits on all persons but {P, Q}), so nothing about P touches P's decisions.
   Decisions: `alone` = candidates with p >= threshold, reported as their episode span;
   `shipped OR learned` = those, plus Facewatch's blinks that overlap none of them;
   `shipped AND veto` = Facewatch's blinks whose best overlapping candidate has p >= the veto
   threshold (when two or more candidates over one shipped blink pass, they are reported instead:
   this splits double blinks that Facewatch reports as one).

5. Report: stdout and Corpus/build/proto/report.md (overall / close-up / webcam, per person,
   look-alike false blinks, start/duration errors, next to Facewatch shipped), feature importances
   (standardised LR coefficients and GBT impurity importances, fitted on all data), and the recall
   ceiling of the candidates. With --write-model, a model that beats shipped under LOPO by >= 0.01
   F1 with no more look-alike false blinks is refitted on all data and written to
   Corpus/build/proto/model.json (the best such logistic-regression variant: weights, scaler,
   medians, threshold chosen on all-data LOPO out-of-fold probabilities, FEATURE_DOC).
   The nested LOPO compares 36 variants (2 models x 3 feature sets x 2 labelings x 3 decisions):
   picking the best of them on the same outer LOPO is itself slightly optimistic.

Usage:
  nice -n 15 python3 Scripts/blink_learned.py [--facewatch /tmp/fw-proto] [--sets window,full,full+fw]
                                              [--models lr,gbt] [--write-model] [--out Corpus/build/proto]
  --facewatch: the binary to run (default .build/release/facewatch, copied to a temporary file).
  First run extracts the 42 recordings (~2 min on 2 busy cores); the nested LOPO with both models
  and three feature sets takes a few minutes more.

Needs: python3 with numpy and scikit-learn (measured with scikit-learn 1.9.1, numpy 2.4.6).
"""
import argparse
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import blink_peers as bp  # noqa: E402

ROOT = bp.ROOT
OUT = os.path.join(ROOT, "Corpus", "build", "proto")
EXTRACTOR_VERSION = 1

LIMIT = 0.85            # candidate: local minimum of r below this
OPEN_PCT = 90           # open level: this percentile of the past window
OPEN_WINDOW = (2.0, 0.25)  # [t-2 s, t-0.25 s)
WINDOW_STEP, WINDOW_HALF = 0.05, 6  # ratio window: t_min + k*0.05 s, k = -6..6
LABEL_TOL = 0.1
NOSE_JAW = list(range(0, 17)) + list(range(27, 36))
THRESHOLD_GRID = [round(0.05 * i, 2) for i in range(1, 20)]


# ---------------------------------------------------------------------------------------------
# Extraction


def extract(rec, binary, binary_sha, out_dir):
    path = os.path.join(out_dir, "series", rec["name"] + ".json")
    key = {"version": EXTRACTOR_VERSION, "recording": bp.fingerprint(rec["path"]), "binary_sha256": binary_sha}
    if os.path.exists(path):
        data = bp.load_json(path)
        if data.get("key") == key:
            return data
    index = bp.read_index(rec["path"])
    n = len(index)
    cols = {k: [None] * n for k in ("ear_left", "ear_right", "mar", "smile", "yaw", "pitch", "roll",
                                    "thr_left", "thr_right", "landmarks")}
    events = []
    began = time.time()
    proc = subprocess.run([binary, "replay", rec["path"], "--frames", "--landmarks", "--no-nose"],
                          capture_output=True, text=True, check=True)
    for line in proc.stdout.splitlines():
        e = json.loads(line)
        if e["type"] == "frame":
            faces = e.get("faces") or []
            i = e["frame"]
            if not faces or not 0 <= i < n:
                continue
            f = faces[0]
            cols["ear_left"][i], cols["ear_right"][i] = f["ear_left"], f["ear_right"]
            cols["mar"][i], cols["smile"][i] = f.get("mar"), f.get("smile")
            pose = f.get("pose") or {}
            cols["yaw"][i], cols["pitch"][i], cols["roll"][i] = pose.get("yaw"), pose.get("pitch"), pose.get("roll")
            thr = f.get("thresholds") or {}
            cols["thr_left"][i], cols["thr_right"][i] = thr.get("ear_close_left"), thr.get("ear_close_right")
            cols["landmarks"][i] = f.get("landmarks")
        elif e["type"] in bp.EYE_TYPES and "start" in e and e.get("state", "end") == "end":
            events.append({"type": e["type"], "start": e["start"], "end": e["start"] + e["duration_ms"] / 1000.0})
    data = dict(cols, key=key, t=[e["t"] for e in index], events=events, seconds=round(time.time() - began, 2))
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump(data, f, separators=(",", ":"))
    print(f"  extracted {rec['name']:28} {n:5} frames in {data['seconds']:.1f} s", file=sys.stderr)
    return data


def arrays(data):
    """The cached series as numpy arrays (NaN where no face)."""
    a = {"t": np.asarray(data["t"], float)}
    for k in ("ear_left", "ear_right", "mar", "smile", "yaw", "pitch", "roll", "thr_left", "thr_right"):
        a[k] = np.array([np.nan if v is None else v for v in data[k]], float)
    n = len(a["t"])
    lm = np.full((n, 68, 2), np.nan)
    for i, v in enumerate(data["landmarks"]):
        if v is not None:
            lm[i] = np.asarray(v, float)
    a["lm"] = lm
    a["events"] = data["events"]
    return a


# ---------------------------------------------------------------------------------------------
# Candidates


def open_level(t, x):
    n = len(t)
    out = np.full(n, np.nan)
    lo = hi = 0
    back, gap = OPEN_WINDOW
    for i in range(n):
        while lo < n and t[lo] < t[i] - back:
            lo += 1
        while hi < n and t[hi] < t[i] - gap:
            hi += 1
        w = x[lo:hi]
        w = w[~np.isnan(w)]
        if len(w) < 8:
            sel = (np.abs(t - t[i]) <= back) & (np.abs(t - t[i]) >= gap) & ~np.isnan(x)
            w = x[sel]
        if len(w):
            out[i] = np.percentile(w, OPEN_PCT)
    return out


def interp(t, x, at):
    ok = ~np.isnan(x)
    if ok.sum() < 2:
        return np.full(len(at), np.nan)
    return np.interp(at, t[ok], x[ok])


def similarity_fit(a, b):
    """Similarity transform a -> b (least squares, Umeyama): residual RMS, scale, rotation (rad),
    shift; None when points are missing."""
    if np.isnan(a).any() or np.isnan(b).any():
        return None
    ma, mb = a.mean(0), b.mean(0)
    A, B = a - ma, b - mb
    za = A[:, 0] + 1j * A[:, 1]
    zb = B[:, 0] + 1j * B[:, 1]
    s = np.vdot(za, zb) / np.vdot(za, za)  # complex scale*rotation
    res = zb - s * za
    return float(np.sqrt(np.mean(np.abs(res) ** 2))), float(abs(s)), float(np.angle(s)), float(np.linalg.norm(mb - ma))


def interocular(lm):
    return float(np.linalg.norm(lm[36:42].mean(0) - lm[42:48].mean(0)))


def brow_eye(lm):
    """Brow centre to eye-corner midpoint distance, both eyes averaged, in inter-ocular units."""
    io = interocular(lm)
    d1 = np.linalg.norm(lm[17:22].mean(0) - (lm[36] + lm[39]) / 2)
    d2 = np.linalg.norm(lm[22:27].mean(0) - (lm[42] + lm[45]) / 2)
    return float((d1 + d2) / 2 / io) if io > 0 else np.nan


def candidates(a):
    """Episodes [(i0, i1, imin, source)] (i1 inclusive) and the per-frame ratios."""
    t = a["t"]
    ol, orr = open_level(t, a["ear_left"]), open_level(t, a["ear_right"])
    m = (a["ear_left"] + a["ear_right"]) / 2
    r = m / ((ol + orr) / 2)
    rl, rr = a["ear_left"] / ol, a["ear_right"] / orr
    n = len(t)
    eps = []
    for i in range(n):
        if np.isnan(r[i]) or r[i] >= LIMIT:
            continue
        nb = [r[j] for j in range(max(0, i - 2), min(n, i + 3)) if j != i and not np.isnan(r[j])]
        left = [r[j] for j in range(max(0, i - 2), i) if not np.isnan(r[j])]
        if any(v < r[i] for v in nb) or any(v == r[i] for v in left):
            continue
        eps.append(i)
    # Deepest minimum first; an episode runs while r < (1 + r_min)/2 and stops at a frame already
    # taken by a deeper episode; a minimum inside a deeper episode is dropped.
    taken = np.zeros(n, bool)
    merged = []
    for i in sorted(eps, key=lambda j: (r[j], j)):
        if taken[i]:
            continue
        half = (1 + r[i]) / 2
        i0 = i
        while i0 - 1 >= 0 and not np.isnan(r[i0 - 1]) and r[i0 - 1] < half and not taken[i0 - 1]:
            i0 -= 1
        i1 = i
        while i1 + 1 < n and not np.isnan(r[i1 + 1]) and r[i1 + 1] < half and not taken[i1 + 1]:
            i1 += 1
        taken[i0:i1 + 1] = True
        merged.append((i0, i1, i))
    out = [(i0, i1, im, "dip") for i0, i1, im in merged]
    # Facewatch events outside every episode.
    for ev in a["events"]:
        span = (ev["start"], ev["end"])
        if any(bp.matches(span, ep_span(t, c), 0) for c in out):
            continue
        idx = np.where((t >= ev["start"] - 1e-6) & (t < ev["end"] - 1e-6))[0]
        if len(idx) == 0:
            idx = np.array([int(np.argmin(np.abs(t - ev["start"])))])
        valid = [j for j in idx if not np.isnan(r[j])]
        im = min(valid, key=lambda j: r[j]) if valid else int(idx[0])
        out.append((int(idx[0]), int(idx[-1]), int(im), "fw"))
    out.sort()
    return out, r, rl, rr


def ep_span(t, c):
    i0, i1 = c[0], c[1]
    end = t[i1 + 1] if i1 + 1 < len(t) else t[i1] + (t[i1] - t[i1 - 1] if i1 > 0 else 0.04)
    return (float(t[i0]), float(end))


# ---------------------------------------------------------------------------------------------
# Features


WINDOW_NAMES = [f"win_{eye}_{k:+d}" for eye in ("l", "r") for k in range(-WINDOW_HALF, WINDOW_HALF + 1)]
SHAPE_NAMES = ["depth", "depth_l", "depth_r", "asym", "asym_rel", "dur_half", "frames_half", "dur_below_090",
               "close_speed", "open_speed", "level_before", "level_after", "level_change", "ear_min",
               "open_abs", "ear_min_over_thr", "missing"]
CONTEXT_NAMES = ["yaw_range", "pitch_range", "roll_range", "pitch_change_min", "pitch_change_end",
                 "fit_res_end", "fit_scale_end", "fit_rot_end", "fit_shift_end",
                 "fit_res_min", "fit_scale_min", "fit_shift_min", "brow_change",
                 "mar_max", "mar_change", "smile_max", "smile_change", "fps", "abs_yaw", "abs_pitch"]
FW_NAMES = ["fw_blink", "fw_wink", "fw_closed"]
ALL_NAMES = WINDOW_NAMES + SHAPE_NAMES + CONTEXT_NAMES + FW_NAMES
FEATURE_DOC = {
    "win_{l,r}_{k}": "per-eye ratio EAR/O (O: that eye's open level, 90th percentile of its EAR over "
                     "[t-2 s, t-0.25 s), or [t-2, t+2] without |dt| < 0.25 s when fewer than 8 frames) at "
                     "t_min + 0.05*k s, k = -6..6, linear interpolation over frames with a face",
    "depth, depth_l, depth_r": "1 - min over the episode of r (mean EAR / mean open level), r_l, r_r",
    "asym": "|depth_l - depth_r|", "asym_rel": "asym / max(depth_l, depth_r, 0.001)",
    "dur_half": "episode span (s): t of its first frame to t of the frame after its last",
    "frames_half": "frames in the episode",
    "dur_below_090": "t(frame after the last r < 0.9 run around t_min) - t(first of that run)",
    "close_speed": "(level_before - r_min) / max(t_min - start + 0.04, 0.02)",
    "open_speed": "(level_after - r_min) / max(end - t_min, 0.02)",
    "level_before, level_after": "mean r over [start-0.3 s, start), (end, end+0.3 s]",
    "level_change": "level_after - level_before",
    "ear_min": "mean EAR of both eyes at the minimum frame", "open_abs": "ear_min / r_min",
    "ear_min_over_thr": "ear_min / mean(thresholds.ear_close_left, ear_close_right) at the minimum",
    "missing": "frames without a face in the episode",
    "yaw_range, pitch_range, roll_range": "max-min of pose over [start-0.1, end+0.1]",
    "pitch_change_min": "pitch at minimum - mean pitch over [start-0.3, start)",
    "pitch_change_end": "mean pitch over (end, end+0.3] - mean pitch over [start-0.3, start)",
    "fit_*_end / fit_*_min": "similarity fit (least squares) of landmarks 0-16 and 27-35 from the last "
                             "frame with landmarks before the episode to the first after it (end) or to "
                             "the minimum (min): residual RMS / inter-ocular distance, |log scale|, "
                             "|rotation| (rad, end only), centroid shift / inter-ocular distance; "
                             "inter-ocular = distance of the means of points 36-41 and 42-47",
    "brow_change": "brow-eye distance at the minimum minus before the episode; brow-eye = mean over both "
                   "sides of |mean(17-21) - (p36+p39)/2| and |mean(22-26) - (p42+p45)/2|, / inter-ocular",
    "mar_max, smile_max": "max over the episode", "mar_change, smile_change": "max over the episode - "
                                                                              "mean over [start-0.3, start)",
    "fps": "1 / median frame interval of the recording", "abs_yaw, abs_pitch": "|pose| at the minimum",
    "fw_blink, fw_wink, fw_closed": "1 when a Facewatch blink / wink / eyes_closed event overlaps the "
                                    "episode, else 0",
}
SETS = {
    "window": WINDOW_NAMES + ["depth", "depth_l", "depth_r", "dur_half", "fps"],
    "full": WINDOW_NAMES + SHAPE_NAMES + CONTEXT_NAMES,
    "full+fw": ALL_NAMES,
}


def nanmean(x):
    x = np.asarray(x, float)
    x = x[~np.isnan(x)]
    return float(x.mean()) if len(x) else np.nan


def nanrange(x):
    x = np.asarray(x, float)
    x = x[~np.isnan(x)]
    return float(x.max() - x.min()) if len(x) else np.nan


def nanmax(x):
    x = np.asarray(x, float)
    x = x[~np.isnan(x)]
    return float(x.max()) if len(x) else np.nan


def last_valid(lm, i, step):
    """Index of the nearest frame from i going by `step` with landmarks (None if none)."""
    n = len(lm)
    while 0 <= i < n:
        if not np.isnan(lm[i, 0, 0]):
            return i
        i += step
    return None


def features(a, c, r, rl, rr):
    t = a["t"]
    n = len(t)
    i0, i1, im, _ = c
    s, e = ep_span(t, c)
    tm = t[im]
    f = {}
    at = tm + WINDOW_STEP * np.arange(-WINDOW_HALF, WINDOW_HALF + 1)
    for eye, x in (("l", rl), ("r", rr)):
        w = interp(t, x, at)
        for k, v in zip(range(-WINDOW_HALF, WINDOW_HALF + 1), w):
            f[f"win_{eye}_{k:+d}"] = float(v)
    seg = slice(i0, i1 + 1)
    f["depth"] = 1 - float(np.nanmin(r[seg])) if not np.isnan(r[seg]).all() else np.nan
    f["depth_l"] = 1 - float(np.nanmin(rl[seg])) if not np.isnan(rl[seg]).all() else np.nan
    f["depth_r"] = 1 - float(np.nanmin(rr[seg])) if not np.isnan(rr[seg]).all() else np.nan
    f["asym"] = abs(f["depth_l"] - f["depth_r"])
    f["asym_rel"] = f["asym"] / max(f["depth_l"], f["depth_r"], 1e-3)
    f["dur_half"] = e - s
    f["frames_half"] = i1 - i0 + 1
    # Duration below 0.9 around the minimum.
    j0 = im
    while j0 - 1 >= 0 and not np.isnan(r[j0 - 1]) and r[j0 - 1] < 0.9:
        j0 -= 1
    j1 = im
    while j1 + 1 < n and not np.isnan(r[j1 + 1]) and r[j1 + 1] < 0.9:
        j1 += 1
    f["dur_below_090"] = float(t[min(j1 + 1, n - 1)] - t[j0])
    before = (t >= s - 0.3) & (t < s)
    after = (t > e) & (t <= e + 0.3)
    lb, la = nanmean(r[before]), nanmean(r[after])
    rmin = 1 - f["depth"]
    f["close_speed"] = (lb - rmin) / max(tm - s + 0.04, 0.02) if not np.isnan(lb) else np.nan
    f["open_speed"] = (la - rmin) / max(e - tm, 0.02) if not np.isnan(la) else np.nan
    f["level_before"], f["level_after"] = lb, la
    f["level_change"] = la - lb
    ear = (a["ear_left"] + a["ear_right"]) / 2
    f["ear_min"] = float(ear[im])
    f["open_abs"] = float(ear[im] / r[im]) if r[im] and not np.isnan(r[im]) else np.nan
    thr = (a["thr_left"][im] + a["thr_right"][im]) / 2
    f["ear_min_over_thr"] = float(ear[im] / thr) if thr and not np.isnan(thr) else np.nan
    f["missing"] = int(np.isnan(r[seg]).sum())
    ext = (t >= s - 0.1) & (t <= e + 0.1)
    f["yaw_range"], f["pitch_range"], f["roll_range"] = (nanrange(a[k][ext]) for k in ("yaw", "pitch", "roll"))
    pb = nanmean(a["pitch"][before])
    f["pitch_change_min"] = float(a["pitch"][im] - pb)
    f["pitch_change_end"] = nanmean(a["pitch"][after]) - pb
    f["abs_yaw"], f["abs_pitch"] = abs(float(a["yaw"][im])), abs(float(a["pitch"][im]))
    lm = a["lm"]
    ib, ia = last_valid(lm, i0 - 1, -1), last_valid(lm, i1 + 1, 1)
    for tag, other in (("end", ia), ("min", im)):
        fit = None
        if ib is not None and other is not None and not np.isnan(lm[other, 0, 0]):
            fit = similarity_fit(lm[ib][NOSE_JAW], lm[other][NOSE_JAW])
        io = interocular(lm[ib]) if ib is not None else np.nan
        if fit is None or not io:
            f[f"fit_res_{tag}"], f[f"fit_scale_{tag}"], f[f"fit_shift_{tag}"] = np.nan, np.nan, np.nan
            if tag == "end":
                f["fit_rot_end"] = np.nan
        else:
            f[f"fit_res_{tag}"] = fit[0] / io
            f[f"fit_scale_{tag}"] = abs(math.log(fit[1])) if fit[1] > 0 else np.nan
            f[f"fit_shift_{tag}"] = fit[3] / io
            if tag == "end":
                f["fit_rot_end"] = abs(fit[2])
    if ib is not None and not np.isnan(lm[im, 0, 0]):
        f["brow_change"] = brow_eye(lm[im]) - brow_eye(lm[ib])
    else:
        f["brow_change"] = np.nan
    f["mar_max"] = nanmax(a["mar"][seg])
    f["mar_change"] = f["mar_max"] - nanmean(a["mar"][before])
    f["smile_max"] = nanmax(a["smile"][seg])
    f["smile_change"] = f["smile_max"] - nanmean(a["smile"][before])
    dt = np.diff(t)
    f["fps"] = float(1 / np.median(dt)) if len(dt) else np.nan
    for name, typ in (("fw_blink", "blink"), ("fw_wink", "wink"), ("fw_closed", "eyes_closed")):
        f[name] = float(any(ev["type"] == typ and bp.matches((ev["start"], ev["end"]), (s, e), 0)
                            for ev in a["events"]))
    return [f[k] for k in ALL_NAMES]


def classify(reported, truth):
    """bp.score()'s matching, itemised: (fp spans with 'look-alike' flag, fn truth spans)."""
    spans = bp.truth_spans(truth)
    reported = sorted(r for r in reported if bp.in_spans(r, spans))
    blinks = bp.truth_intervals(truth, "events", ("blink",))
    others = bp.truth_intervals(truth, "events", ("wink", "eyes_closed"))
    unsure = bp.truth_intervals(truth, "unsure", bp.EYE_TYPES)
    negatives = bp.truth_intervals(truth, "negatives", set(e["type"] for e in truth.get("negatives") or []))
    scored = [r for r in reported
              if any(bp.matches(t, r, bp.TOLERANCE) for t in blinks) or not any(bp.matches(u, r, 0) for u in unsure)]
    used = [False] * len(scored)
    fns = []
    for t in sorted(blinks):
        i = next((i for i, r in enumerate(scored) if not used[i] and bp.matches(r, t, bp.TOLERANCE)), None)
        if i is None:
            fns.append(t)
        else:
            used[i] = True
    fps = [(r, any(bp.matches(n, r, 0) for n in negatives)) for i, r in enumerate(scored)
           if not used[i] and not any(bp.matches(o, r, bp.TOLERANCE) for o in others)]
    return fps, fns


# ---------------------------------------------------------------------------------------------
# Models


def make_model(kind):
    from sklearn.ensemble import GradientBoostingClassifier
    from sklearn.impute import SimpleImputer
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    if kind == "lr":
        return make_pipeline(SimpleImputer(strategy="median"), StandardScaler(),
                             LogisticRegression(C=1.0, max_iter=5000))
    return make_pipeline(SimpleImputer(strategy="median"),
                         GradientBoostingClassifier(n_estimators=100, max_depth=2, learning_rate=0.1, subsample=0.8,
                                                    random_state=0))


def assign(spans, truth):
    """Which candidate each truth blink is learned from: among the candidates overlapping it or
    within LABEL_TOL, the one with the most overlap, then the nearest centre. Returns the set of
    assigned candidate indices and the number of truth blinks with no candidate."""
    chosen, missed = set(), 0
    for b in bp.truth_intervals(truth, "events", ("blink",)):
        near = [j for j, sp in enumerate(spans) if bp.matches(sp, b, LABEL_TOL)]
        if not near:
            missed += 1
            continue
        ov = lambda j: min(spans[j][1], b[1]) - max(spans[j][0], b[0])
        mid = lambda j: abs((spans[j][0] + spans[j][1]) / 2 - (b[0] + b[1]) / 2)
        best = max(near, key=lambda j: (ov(j), -mid(j)))
        if best in chosen:
            missed += 1  # one candidate over two truth blinks
        chosen.add(best)
    return chosen, missed


def label(j, span, assigned, truth, eye_events_negative):
    """1: the candidate a truth blink is assigned to; -1: not trained on (over `unsure`, and over a
    truth wink/eyes_closed unless eye_events_negative, when it is 0); else 0 (also a second
    candidate near an already assigned truth blink: reported, it would be a false blink)."""
    if j in assigned:
        return 1
    if any(bp.matches(span, o, LABEL_TOL) for o in bp.truth_intervals(truth, "unsure", bp.EYE_TYPES)):
        return -1
    if any(bp.matches(span, o, LABEL_TOL) for o in bp.truth_intervals(truth, "events", ("wink", "eyes_closed"))):
        return 0 if eye_events_negative else -1
    return 0


class Data:
    """All candidates: X (all features), y / y_eye, recording index, person, episode spans."""

    def __init__(self, recs, series):
        rows, ys, ys_eye, rec_of, spans = [], [], [], [], []
        self.ceiling_missed = 0
        for k, rec in enumerate(recs):
            a = arrays(series[rec["name"]])
            cands, r, rl, rr = candidates(a)
            t = a["t"]
            cs = [ep_span(t, c) for c in cands]
            assigned, missed = assign(cs, rec["truth"])
            self.ceiling_missed += missed
            for j, (c, span) in enumerate(zip(cands, cs)):
                rows.append(features(a, c, r, rl, rr))
                ys.append(label(j, span, assigned, rec["truth"], False))
                ys_eye.append(label(j, span, assigned, rec["truth"], True))
                rec_of.append(k)
                spans.append(span)
        self.X = np.array(rows, float)
        self.y = np.array(ys)          # winks/closures -1 (not trained on)
        self.y_eye = np.array(ys_eye)  # winks/closures 0 (trained on as not-blinks)
        self.rec = np.array(rec_of)
        self.person = np.array([recs[k]["person"] for k in rec_of])
        self.spans = spans


def decisions(recs, series, data, prob, k, mode, thr, veto=None):
    """Reported blink intervals of recording k (learned reports are episode spans)."""
    sel = np.where(data.rec == k)[0]
    shipped = [(ev["start"], ev["end"]) for ev in series[recs[k]["name"]]["events"] if ev["type"] == "blink"]
    if mode == "shipped":
        return shipped
    learned = merge([data.spans[i] for i in sel if prob[i] >= thr])
    if mode == "learned":
        return learned
    if mode == "or":
        # Learned positives, plus the shipped blinks that overlap none of them (so a shipped blink
        # spanning a double blink is replaced by the two learned episodes).
        return sorted(learned + [b for b in shipped if not any(bp.matches(b, s, 0) for s in learned)])
    if mode == "veto":
        # Shipped blinks whose best overlapping candidate has p >= veto (when two or more candidates
        # over one shipped blink pass, they are reported instead of it).
        out = []
        for b in shipped:
            ok = [data.spans[i] for i in sel if bp.matches(data.spans[i], b, 0) and prob[i] >= veto]
            if len(ok) >= 2:
                out += ok
            elif ok or not any(bp.matches(data.spans[i], b, 0) for i in sel):
                out.append(b)
        return merge(out)
    raise ValueError(mode)


def merge(spans):
    out = []
    for s in sorted(set(spans)):
        if out and s[0] < out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], s[1]))
        else:
            out.append(s)
    return out


def total_score(recs, series, data, prob, ks, mode, thr, veto=None):
    s = bp.Score()
    for k in ks:
        s += bp.score(decisions(recs, series, data, prob, k, mode, thr, veto), recs[k]["truth"])
    return s


def choose(recs, series, data, prob, ks, mode):
    """The threshold (mode learned/or) or veto threshold (mode veto) with the best F1 over recordings
    ks; ties: the one nearest 0.5."""
    best = None
    for th in THRESHOLD_GRID:
        if mode == "veto":
            s = total_score(recs, series, data, prob, ks, "veto", 0.5, th)
        else:
            s = total_score(recs, series, data, prob, ks, mode, th)
        key = (-round(s.f1, 6), s.lookalike, abs(th - 0.5))
        if best is None or key < best[0]:
            best = (key, th)
    return best[1]


def lopo(recs, series, data, kind, cols, eye_negative):
    """Nested leave-one-person-out: (held-out probabilities, {mode: {person: threshold}})."""
    persons = sorted(set(r["person"] for r in recs))
    X = data.X[:, cols]
    y = data.y_eye if eye_negative else data.y
    trainable = y >= 0
    fits = {}

    def fit_without(excluded):
        key = frozenset(excluded)
        if key not in fits:
            m = make_model(kind)
            sel = trainable & ~np.isin(data.person, list(excluded))
            m.fit(X[sel], y[sel])
            fits[key] = m
        return fits[key]

    prob = np.full(len(data.y), np.nan)
    chosen = {mode: {} for mode in ("learned", "or", "veto")}
    for p in persons:
        inner = np.full(len(data.y), np.nan)
        others = [q for q in persons if q != p]
        for q in others:
            m = fit_without({p, q})
            sel = data.person == q
            inner[sel] = m.predict_proba(X[sel])[:, 1]
        ks = [k for k, r in enumerate(recs) if r["person"] != p]
        for mode in chosen:
            chosen[mode][p] = choose(recs, series, data, inner, ks, mode)
        m = fit_without({p})
        sel = data.person == p
        prob[sel] = m.predict_proba(X[sel])[:, 1]
    return prob, chosen


# ---------------------------------------------------------------------------------------------
# Report


def group_scores(recs, per_rec):
    out = {}
    for label_, vs in (("all", ("close-up", "webcam")), ("close-up", ("close-up",)), ("webcam", ("webcam",))):
        s = bp.Score()
        for k, r in enumerate(recs):
            if r["variant"] in vs:
                s += per_rec[k]
        out[label_] = s
    return out


def short(s):
    return f"{bp.fmt(s.f1)} ({s.tp}/{s.fp}/{s.fn})"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--facewatch", default=os.path.join(ROOT, ".build", "release", "facewatch"))
    ap.add_argument("--sets", default="window,full,full+fw")
    ap.add_argument("--models", default="lr,gbt")
    ap.add_argument("--labels", default="excl,neg",
                    help="winks/closures in training: excl (left out), neg (as not-blinks); comma-separated")
    ap.add_argument("--out", default=OUT)
    ap.add_argument("--write-model", action="store_true")
    opts = ap.parse_args()
    import sklearn
    recs, skipped = bp.corpus()
    tmp = tempfile.mkdtemp(prefix="blink-learned-")
    try:
        binary = os.path.join(tmp, "facewatch")
        shutil.copy2(opts.facewatch, binary)
        sha = bp.sha256(binary)
        series = {r["name"]: extract(r, binary, sha, opts.out) for r in recs}
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    began = time.time()
    data = Data(recs, series)
    n_truth = sum(len(bp.truth_intervals(r["truth"], "events", ("blink",))) for r in recs)
    n_eye = int(((data.y < 0) & (data.y_eye == 0)).sum())
    print(f"{len(data.y)} candidates ({(data.y == 1).sum()} blink, {(data.y == 0).sum()} other, "
          f"{n_eye} wink/closure, {(data.y_eye < 0).sum()} unsure); {data.ceiling_missed} of {n_truth} truth "
          f"blinks have no candidate; features in {time.time() - began:.0f} s", file=sys.stderr)

    results, chosen_all, probs, decided = {}, {}, {}, {}
    shipped_dec = [decisions(recs, series, data, None, k, "shipped", 0) for k in range(len(recs))]
    results["facewatch shipped"] = [bp.score(d, r["truth"]) for d, r in zip(shipped_dec, recs)]
    decided["facewatch shipped"] = shipped_dec
    configs = []
    for lab in opts.labels.split(","):
        for set_name in opts.sets.split(","):
            for kind in opts.models.split(","):
                configs.append((kind, set_name, lab))
    for kind, set_name, lab in configs:
        cols = [ALL_NAMES.index(n) for n in SETS[set_name]]
        t0 = time.time()
        prob, chosen = lopo(recs, series, data, kind, cols, lab == "neg")
        tag = f"{kind} [{set_name}]" + (" w/c-neg" if lab == "neg" else "")
        probs[tag] = prob
        for mode in ("learned", "or", "veto"):
            v = tag + " " + {"learned": "alone", "or": "shipped OR learned", "veto": "shipped AND veto"}[mode]
            decs = []
            for k, r in enumerate(recs):
                th = chosen[mode][r["person"]]
                decs.append(decisions(recs, series, data, prob, k, mode, 0.5 if mode == "veto" else th, th))
            decided[v] = decs
            results[v] = [bp.score(d, r["truth"]) for d, r in zip(decs, recs)]
            chosen_all[v] = (chosen[mode], tag)
        print(f"  {tag} done in {time.time() - t0:.0f} s", file=sys.stderr)

    # Importances, fitted on all trainable data (winks/closures left out).
    imp_lines = []
    trainable = data.y >= 0
    for set_name in ("full+fw", "full"):
        if set_name not in opts.sets.split(","):
            continue
        cols = [ALL_NAMES.index(n) for n in SETS[set_name]]
        names = SETS[set_name]
        lr = make_model("lr").fit(data.X[trainable][:, cols], data.y[trainable])
        coef = lr[-1].coef_[0]
        gb = make_model("gbt").fit(data.X[trainable][:, cols], data.y[trainable])
        imp = gb[-1].feature_importances_
        imp_lines += ["", f"### Feature set `{set_name}` (fitted on all data, winks/closures left out)", "",
                      "| rank | LR: feature (standardised coefficient) | GBT: feature (impurity importance) |",
                      "|---|---|---|"]
        lo = np.argsort(-np.abs(coef))
        go = np.argsort(-imp)
        for rank in range(15):
            imp_lines.append(f"| {rank + 1} | {names[lo[rank]]} ({coef[lo[rank]]:+.2f}) | "
                             f"{names[go[rank]]} ({imp[go[rank]]:.3f}) |")

    out = ["# Learned blink decision on Facewatch's eye signals: leave-one-person-out", ""]
    persons = sorted(set(r["person"] for r in recs))
    out.append(f"{len(recs)} recordings ({len(persons)} persons), {n_truth} truth blinks; {len(data.y)} candidates "
               f"(label blink {(data.y == 1).sum()}, not a blink {(data.y == 0).sum()}, over a truth wink/closure "
               f"{n_eye}, over `unsure` {(data.y_eye < 0).sum()}); truth blinks with no candidate at all: "
               f"{data.ceiling_missed}. Scored with Scripts/blink_peers.py's score() (±0.25 s one-to-one; reports "
               f"over winks/closures neither TP nor FP, column `on w/c`). Every learned row is leave-one-person-out, "
               f"its threshold chosen by an inner leave-one-person-out on the other persons only. `w/c-neg`: "
               f"trained with winks/closures as not-blinks (else left out of training). "
               f"scikit-learn {sklearn.__version__}, numpy {np.__version__}.")
    out += ["", "## Overall (close-up + webcam), close-up, webcam", "",
            "| variant | all: F1 (TP/FP/FN) | close-up | webcam | FP on look-alikes (all reports on them) | "
            "on w/c | start err ms median/p95 (signed) | duration err ms median/p95 (signed) |",
            "|---|---|---|---|---|---|---|---|"]
    for v, per in results.items():
        g = group_scores(recs, per)
        sc = g["all"]
        out.append(f"| {v} | **{short(sc)}** | {short(g['close-up'])} | {short(g['webcam'])} | "
                   f"{sc.lookalike} ({sc.over_negatives}) | {sc.eye_events} | {bp.ms_summary(sc.start_errors)} | "
                   f"{bp.ms_summary(sc.duration_errors)} |")
    ranked = sorted((v for v in results if v != "facewatch shipped"),
                    key=lambda v: (-round(group_scores(recs, results[v])["all"].f1, 4),
                                   group_scores(recs, results[v])["all"].lookalike))
    alone = [v for v in ranked if v.endswith(" alone")][:1]
    show = ["facewatch shipped"] + ranked[:3] + [v for v in alone if v not in ranked[:3]]
    out += ["", "## Per person: F1 (TP/FP/FN), close-up · webcam", "",
            "| person | " + " | ".join(show) + " |", "|---|" + "---|" * len(show)]
    for p in persons:
        cells = []
        for v in show:
            parts = []
            for vv in ("close-up", "webcam"):
                sc = bp.Score()
                for k, r in enumerate(recs):
                    if r["person"] == p and r["variant"] == vv:
                        sc += results[v][k]
                parts.append(short(sc) if sc.recordings else "–")
            cells.append(" · ".join(parts))
        out.append(f"| {p} | " + " | ".join(cells) + " |")
    out += ["", "## Thresholds chosen per held-out person (inner LOPO)", "",
            "| person | " + " | ".join(show[1:]) + " |", "|---|" + "---|" * len(show[1:])]
    for p in persons:
        out.append(f"| {p} | " + " | ".join(f"{chosen_all[v][0][p]:.2f}" for v in show[1:]) + " |")
    # Where the errors are.
    out += ["", "## Errors, itemised (held-out decisions)", "",
            "FP: reported span, p = the held-out probability of the candidates over it (max), LA = on a look-alike. "
            "FN: truth blink span, p = max held-out probability of candidates within 0.1 s, "
            "ear_min / depth of that candidate.", ""]
    for v in show:
        tag = chosen_all[v][1] if v in chosen_all else (chosen_all[show[1]][1] if len(show) > 1 else None)
        prob = probs.get(tag)
        out.append(f"### {v}" + ("" if v in chosen_all else f" (p from {tag})"))
        out.append("")
        for k, r in enumerate(recs):
            fps, fns = classify(decided[v][k], r["truth"])
            if not fps and not fns:
                continue
            items = []
            sel = np.where(data.rec == k)[0]
            for span, la in fps:
                ps = [prob[i] for i in sel if bp.matches(data.spans[i], span, 0)] if prob is not None else []
                items.append(f"FP {span[0]:.2f}-{span[1]:.2f}" + (" LA" if la else "") +
                             (f" p={max(ps):.2f}" if ps else ""))
            for span in fns:
                near = [i for i in sel if bp.matches(data.spans[i], span, LABEL_TOL)]
                if near and prob is not None:
                    i = max(near, key=lambda i: prob[i])
                    items.append(f"FN {span[0]:.2f}-{span[1]:.2f} p={prob[i]:.2f} "
                                 f"ear_min={data.X[i, ALL_NAMES.index('ear_min')]:.3f} "
                                 f"depth={data.X[i, ALL_NAMES.index('depth')]:.2f}")
                else:
                    items.append(f"FN {span[0]:.2f}-{span[1]:.2f}")
            out.append(f"- {r['name']}: " + "; ".join(items))
        out.append("")
    out += ["## Feature importances"] + imp_lines
    out += ["", "## Features (in ALL_NAMES order)", "", ", ".join(ALL_NAMES)]
    verdict = write_model(recs, series, data, results, ranked, chosen_all, opts) if opts.write_model else None
    if verdict:
        out += ["", "## model.json", "", verdict]
    report = "\n".join(out) + "\n"
    os.makedirs(opts.out, exist_ok=True)
    with open(os.path.join(opts.out, "report.md"), "w") as f:
        f.write(report)
    print(report)


def write_model(recs, series, data, results, ranked, chosen_all, opts):
    """Writes model.json for the best logistic-regression variant that beats shipped under LOPO by
    >= 0.01 F1 with no more look-alike FPs (refitted on all data); returns a sentence for the report."""
    ship = group_scores(recs, results["facewatch shipped"])["all"]
    for v in ranked:
        sc = group_scores(recs, results[v])["all"]
        if sc.f1 < ship.f1 + 0.01:
            break
        if not v.startswith("lr ") or sc.lookalike > ship.lookalike:
            continue
        set_name = v.split("[")[1].split("]")[0]
        eye_neg = "w/c-neg" in v
        mode = "or" if "OR" in v else "veto" if "veto" in v else "learned"
        names = SETS[set_name]
        cols = [ALL_NAMES.index(n) for n in names]
        y = data.y_eye if eye_neg else data.y
        sel = y >= 0
        m = make_model("lr").fit(data.X[sel][:, cols], y[sel])
        imputer, scaler, lr = m[0], m[1], m[2]
        # Threshold for the all-data model: chosen on out-of-fold (LOPO) probabilities over everyone.
        persons = sorted(set(r["person"] for r in recs))
        oof = np.full(len(y), np.nan)
        for p in persons:
            tr = sel & (data.person != p)
            mm = make_model("lr").fit(data.X[tr][:, cols], y[tr])
            te = data.person == p
            oof[te] = mm.predict_proba(data.X[te][:, cols])[:, 1]
        th = choose(recs, series, data, oof, list(range(len(recs))), mode)
        model = {
            "variant": v, "mode": mode, "threshold": th,
            "decision": ("p >= threshold; p = 1/(1+exp(-(intercept + sum(coef[j] * (x[j]' - mean[j]) / scale[j])))), "
                         "x[j]' = x[j], or median[j] when x[j] is NaN"),
            "features": names, "median": imputer.statistics_.tolist(), "mean": scaler.mean_.tolist(),
            "scale": scaler.scale_.tolist(), "coef": lr.coef_[0].tolist(), "intercept": float(lr.intercept_[0]),
            "candidate": {"limit": LIMIT, "open_percentile": OPEN_PCT, "open_window_s": list(OPEN_WINDOW),
                          "half_depth": "(1 + r_min) / 2", "local_min_frames": 2},
            "feature_definitions": FEATURE_DOC,
            "episode_definition": "see the docstring (step 2) and candidates() of Scripts/blink_learned.py",
            "lopo": {"f1": sc.f1, "tp": sc.tp, "fp": sc.fp, "fn": sc.fn},
            "shipped": {"f1": ship.f1, "tp": ship.tp, "fp": ship.fp, "fn": ship.fn},
        }
        with open(os.path.join(opts.out, "model.json"), "w") as f:
            json.dump(model, f, indent=1)
        return f"Wrote {os.path.relpath(os.path.join(opts.out, 'model.json'), ROOT)}: `{v}`, threshold {th}."
    return ("No logistic-regression variant beats shipped under LOPO by >= 0.01 F1 with no more look-alike "
            "false blinks: model.json not written.")


if __name__ == "__main__":
    main()
