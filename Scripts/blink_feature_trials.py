#!/usr/bin/env python3
"""Does the learned blink decision gain from signals beyond the eyes' EAR? Leave-one-person-out trials.

The learned decision (Scripts/train_blink_model.py, docs/blinks.md "The learned decision") decides
each eye-narrowing candidate from the two eyes' EAR ratios alone. This script adds other per-frame
signals to the same candidates, refits the same trees under the same nested leave-one-person-out
(train_blink_model.lopo: each person's trees and threshold fitted without that person) and prints
the corpus score next to the shipped features':

- `appearance`: the eye region's pixels, the cue that does not depend on where dlib puts the lids.
  Per eye, a patch aligned on the eye corners (points 36-39, 42-45; 1.6 x their distance wide,
  half as high, resampled to 40 x 20 from the grayscale frame) gives two statistics: its contrast
  (standard deviation / mean) and the darkness of its centre ((median - minimum) of the central
  half / the patch mean): an open eye shows the dark iris against the white, a closed one skin and
  lashes. Each is read as a share of its open level (the 90th percentile over [t-2 s, t-0.25 s),
  as for the EAR), at t_min + (-0.3, -0.15, 0, 0.15, 0.3) s and at its lowest over the episode:
  24 features.
- `appearance-gate`: as `appearance`, and a candidate that fails the jitter test on its EAR passes
  it when both statistics' mean depth over the episode is more than 6 x their own jitter.
- `expression`: the smile score, MAR, head pitch and the brows' height over the eyes (mean of
  points 17-21 / 22-26 to the eye's centre, in inter-ocular distances): each at t_min and
  t_min + 0.3 s less its mean over the 0.3 s before the episode, and its range over the episode
  and 0.1 s on either side (12 features): squints in laughter, looking down and raised brows are
  the look-alikes.

Usage:
  nice python3 Scripts/blink_feature_trials.py [--facewatch .build/release/facewatch] [--trials appearance,expression]
Needs: numpy, scikit-learn, opencv-python-headless; the corpus (Scripts/real-corpus), a release
build, and train_blink_model.py's cached series (run it once first). Each trial takes a few minutes.
"""
import argparse
import json
import os
import subprocess
import sys

import cv2
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import blink_learned as bl  # noqa: E402
import blink_peers as bp  # noqa: E402
import train_blink_model as tm  # noqa: E402

PATCH_W, PATCH_H, PATCH_SPAN = 40, 20, 1.6
MOMENTS = (-0.3, -0.15, 0.0, 0.15, 0.3)


def patch_stats(gray, a, b):
    """Contrast and centre darkness of the patch aligned on eye corners a and b."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    d = b - a
    length = np.hypot(*d)
    if length < 1:
        return [np.nan, np.nan]
    ux = d / length
    uy = np.array([-ux[1], ux[0]])
    s = PATCH_SPAN * length / PATCH_W
    c = (a + b) / 2 - PATCH_W / 2 * s * ux - PATCH_H / 2 * s * uy
    m = np.array([[s * ux[0], s * uy[0], c[0]], [s * ux[1], s * uy[1], c[1]]])
    p = cv2.warpAffine(gray, m, (PATCH_W, PATCH_H), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                       borderMode=cv2.BORDER_REPLICATE).astype(float)
    mean = max(p.mean(), 1.0)
    inner = p[PATCH_H // 4:3 * PATCH_H // 4, PATCH_W // 4:3 * PATCH_W // 4]
    return [p.std() / mean, (np.median(inner) - inner.min()) / mean]


def brows(lm):
    p = np.array(lm)
    io = np.linalg.norm(p[36:42].mean(0) - p[42:48].mean(0))
    left = np.linalg.norm(p[17:22].mean(0) - p[36:42].mean(0))
    right = np.linalg.norm(p[22:27].mean(0) - p[42:48].mean(0))
    return (left + right) / 2 / io


def signals(rec, binary, config, cache):
    """Per frame: t, and with a face the four patch statistics, smile, MAR, pitch, brows; cached."""
    path = os.path.join(cache, rec["name"] + ".json")
    key = {"recording": bp.fingerprint(rec["path"]), "binary_sha256": bp.sha256(binary), "v": 1}
    if os.path.exists(path):
        data = bp.load_json(path)
        if data.get("key") == key:
            return data
    index = bp.read_index(rec["path"])
    with open(os.path.join(rec["path"], "frames.mjpeg"), "rb") as f:
        raw = f.read()
    proc = subprocess.run([binary, "replay", rec["path"], "--frames", "--landmarks", "--no-nose", "--config", config],
                          capture_output=True, text=True, check=True)
    n = len(index)
    rows = [None] * n
    for line in proc.stdout.splitlines():
        e = json.loads(line)
        if e["type"] != "frame" or not 0 <= e["frame"] < n:
            continue
        i = e["frame"]
        row = {"t": e["t"]}
        if e.get("faces"):
            face = e["faces"][0]
            entry = index[i]
            gray = cv2.imdecode(np.frombuffer(raw[entry["offset"]:entry["offset"] + entry["length"]], np.uint8),
                                cv2.IMREAD_GRAYSCALE)
            lm = face["landmarks"]
            row.update(app=patch_stats(gray, lm[36], lm[39]) + patch_stats(gray, lm[42], lm[45]),
                       smile=face["smile"], mar=face["mar"], pitch=face["pose"]["pitch"], brow=brows(lm))
        rows[i] = row
    data = {"key": key, "rows": rows}
    os.makedirs(cache, exist_ok=True)
    with open(path, "w") as f:
        json.dump(data, f, separators=(",", ":"))
    return data


def open_ratio(t, v):
    """v as a share of its open level: the 90th percentile over [t-2 s, t-0.25 s), >= 8 frames."""
    out = np.full(len(t), np.nan)
    for i in range(len(t)):
        if np.isnan(v[i]):
            continue
        sel = (t >= t[i] - tm.OPEN_BACK) & (t < t[i] - tm.OPEN_GAP) & ~np.isnan(v)
        if sel.sum() >= tm.OPEN_MIN:
            out[i] = v[i] / np.percentile(v[sel], 90)
    return out


def appearance_features(c, t, ratios):
    row = []
    for v in ratios:
        ok = ~np.isnan(v)
        row += [np.interp(c["t_min"] + d, t[ok], v[ok]) if ok.any() else np.nan for d in MOMENTS]
        ep = ok & (t >= c["start"]) & (t < c["end"])
        row.append(v[ep].min() if ep.any() else np.nan)
    return row


def appearance_steady(c, t, ratios):
    depths, jitters = [], []
    for v in ratios:
        ok = ~np.isnan(v)
        ep = ok & (t >= c["start"]) & (t < c["end"])
        prior = np.where(ok & (t >= c["start"] - tm.JITTER_WINDOW) & (t < c["start"]))[0]
        if not ep.any() or len(prior) < 3:
            return False
        depths.append(1 - v[ep].min())
        jitters.append(np.median(np.abs(np.diff(v[prior]))))
    return np.mean(depths) > tm.JITTER_FACTOR * np.mean(jitters)


def expression_features(c, t, series):
    row = []
    for v in series:
        ok = ~np.isnan(v)
        if not ok.any():
            row += [np.nan] * 3
            continue
        before = ok & (t >= c["start"] - tm.LEVEL_BEFORE) & (t < c["start"])
        base = v[before].mean() if before.any() else np.nan
        around = ok & (t >= c["start"] - tm.TURN_MARGIN) & (t <= c["end"] + tm.TURN_MARGIN)
        row += [np.interp(c["t_min"], t[ok], v[ok]) - base, np.interp(c["t_min"] + 0.3, t[ok], v[ok]) - base,
                v[around].max() - v[around].min() if around.any() else np.nan]
    return row


def separability(data, app):
    """ROC AUC, over the labelled candidates, of one depth alone: the EAR's (both eyes' mean) and
    each appearance statistic's (1 - its lowest ratio over the episode, both eyes' mean)."""
    from sklearn.metrics import roc_auc_score
    keep = data.y >= 0
    y = data.y[keep]
    ear = data.X[keep, tm.NAMES.index("depth")]
    contrast = 1 - np.nanmean(app[keep][:, [5, 17]], axis=1)
    darkness = 1 - np.nanmean(app[keep][:, [11, 23]], axis=1)
    auc = [roc_auc_score(y, np.nan_to_num(v)) for v in (ear, contrast, darkness)]
    return f"depth alone, ROC AUC: EAR {auc[0]:.3f}, eye contrast {auc[1]:.3f}, centre darkness {auc[2]:.3f}"


def score(recs, series, data):
    prob, chosen = tm.lopo(recs, series, data)
    per = [bp.score(tm.reported(recs, series, data, prob, k, chosen[r["person"]]), r["truth"])
           for k, r in enumerate(recs)]
    g = bl.group_scores(recs, per)
    people = {}
    for k, r in enumerate(recs):
        people.setdefault(r["person"], bp.Score())
        people[r["person"]] += per[k]
    worst = ", ".join(f"{p} {tm.short(s)}" for p, s in sorted(people.items()) if s.fn or s.fp)
    return f"{tm.short(g['all'])}, look-alike FP {g['all'].lookalike}; not perfect: {worst}"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--facewatch", default=os.path.join(tm.ROOT, ".build", "release", "facewatch"))
    ap.add_argument("--out", default=os.path.join(tm.ROOT, "Corpus", "build", "blink-model"))
    ap.add_argument("--trials", default="appearance,appearance-gate,expression")
    opts = ap.parse_args()
    recs, _ = bp.corpus()
    with tm.without_learned(opts.facewatch) as (binary, config):
        series = {r["name"]: tm.extract(r, binary, config, opts.out) for r in recs}
        data = tm.Data(recs, series)
        base_x = data.X.copy()
        base_steady = [c["steady"] for c in data.info]
        per_rec = {}
        for r in recs:
            rows = signals(r, binary, config, os.path.join(opts.out, "trial-signals"))["rows"]
            t = np.array([x["t"] if x else np.nan for x in rows])

            def column(key, j=None):
                return np.array([(x[key] if j is None else x[key][j]) if x and key in x else np.nan for x in rows])
            per_rec[r["name"]] = dict(t=t, app=[open_ratio(t, column("app", j)) for j in range(4)],
                                      expr=[column(k) for k in ("smile", "mar", "pitch", "brow")])
        print(f"shipped features ({base_x.shape[1]}): {score(recs, series, data)}", flush=True)
        for trial in opts.trials.split(","):
            extra = []
            for i, c in enumerate(data.info):
                s = per_rec[recs[data.rec[i]]["name"]]
                c["steady"] = base_steady[i]
                if trial == "expression":
                    extra.append(expression_features(c, s["t"], s["expr"]))
                else:
                    extra.append(appearance_features(c, s["t"], s["app"]))
                    if trial == "appearance-gate" and not c["steady"] and c["turn"] <= tm.MAX_YAW_CHANGE:
                        c["steady"] = appearance_steady(c, s["t"], s["app"])
            e = np.array(extra, float)
            if trial == "appearance":
                print(separability(data, e), flush=True)
            # Missing values: no change (an appearance ratio of 1, an expression difference of 0).
            data.X = np.hstack([base_x, np.where(np.isnan(e), 0.0 if trial == "expression" else 1.0, e)])
            print(f"+ {trial} ({e.shape[1]}): {score(recs, series, data)}", flush=True)


if __name__ == "__main__":
    main()
