#!/usr/bin/env python3
"""Peer blink detectors on the real-face corpus, scored like `facewatch eval`, beside Facewatch.

For every corpus recording that has truth (the close-up NAME and its NAME-webcam variant, which
shares NAME's truth), this computes a per-frame EAR series and blink events for:

  facewatch      Facewatch's own `blink` events (`facewatch replay RECORDING`, shipped settings).
  facewatch-ear  the classic rule on Facewatch's own per-frame EAR (`replay --frames`: faces[0]
                 ear_left/ear_right), as `facewatch eval --rule classic` does.
  dlib-classic   dlib's HOG detector on every frame (grey, upsample 0, again at 1 when nothing is
                 found; the largest box) + /usr/share/dlib/shape_predictor_68_face_landmarks.dat,
                 EAR of points 36-41 and 42-47 (Soukupova & Cech 2016), the classic rule.
  mediapipe      MediaPipe Face Mesh 0.10.14 (refine_landmarks=True, static_image_mode=False,
                 max_num_faces=1), EAR of mesh points 33,160,158,133,153,144 and
                 362,385,387,263,373,380 in pixels, the classic rule.

The classic rule (Sources/Reports/ClassicBlinkRule.swift): a blink is the mean EAR of both eyes
below THRESHOLD on at least N consecutive frames, from the first frame below to the first frame
back at or above it; a frame without a face breaks a run off. Each EAR method is scored at the
usual defaults (0.21, 2 frames) and at the threshold/N chosen leave-one-person-out: for each person
(truth `person`), the pair with the best blink F1 over the OTHER persons' recordings (close-ups and
webcam variants pooled) from thresholds 0.15-0.30 step 0.01 and N 1-3 (ties: nearer 0.21, then
nearer 2) scores that person's recordings; the held-out counts are summed.

Scoring follows Sources/Reports/DetectionScore.swift and Evaluation.swift: a reported blink matches
a truth blink when the intervals overlap or lie within 0.25 s; truth blinks in start order each
take the earliest unused matching report; TP/FP/FN, precision, recall, F1. A report that matches no
truth blink and overlaps an `unsure` stretch of an eye type (blink, wink, eyes_closed) is set
aside, not scored. Deliberate difference from `facewatch eval`, whose blink score counts them as
FPs: a report that matches no truth blink but lies over (within 0.25 s of) a truth `wink` or
`eyes_closed` is neither TP nor FP; it is counted in its own column. FPs that overlap one of the
truth's `negatives` (look-alikes: squint, look down, gaze shift, laughter, ...) are also counted on
their own, and per minute of negative footage; in brackets, every report overlapping a negative, as
`facewatch eval` counts them (that includes true blinks inside a long look-alike stretch). Start
and duration errors of matched blinks (reported minus truth) are given as the median and p95
(nearest rank) of their absolute values, and the median signed error, in ms.

Truth: Recordings/real/NAME/truth.json for the clips committed there, else Corpus/truth/NAME.json,
else Corpus/truth/parts/NAME.FIRST-LAST.json merged (their lists concatenated); while only some
parts exist, only reports and truth that start within the parts' frames are scored. Clips without
truth are skipped.

Per-frame series are cached in Corpus/build/peers/{facewatch,dlib,mediapipe}/RECORDING.json
(keyed on the recording's frames.jsonl/frames.mjpeg and, for Facewatch, the binary's sha256), so
re-scoring is quick. The report is printed and written to Corpus/build/peers/report.md
(git-ignored, like all of Corpus/build).

Usage:
  nice -n 10 python3 Scripts/blink_peers.py [--methods facewatch,facewatch-ear,dlib-classic,mediapipe]
                                            [--only NAME[,NAME...]] [--facewatch BIN] [--prefetch]
                                            [--mp-python /tmp/mpvenv/bin/python] [--no-extract]
                                            [--out Corpus/build/peers]
  --facewatch defaults to .build/release/facewatch (copied to a temporary file for the run);
  --prefetch also caches the series of clips whose truth is not written yet.
  All 42 recordings (21 clips, 431 s, close-up + webcam) on 2 busy shared cores: Facewatch ~30 s,
  MediaPipe ~3 min, dlib ~11 min; scoring from the caches ~10 s.

Needs (system python3, 3.11): pip install dlib-bin opencv-python-headless numpy
      (measured with dlib-bin 20.0.1.post1, opencv-python-headless 5.0.0.93, numpy 2.4.6)
      apt-get install libdlib-data        (the 68-point shape predictor)
      a built Facewatch (swift build -c release)
MediaPipe runs in its own Python 3.11 virtualenv, which this script calls once per recording:
      python3 -m venv /tmp/mpvenv && /tmp/mpvenv/bin/pip install mediapipe==0.10.14
      (it resolved numpy 2.4.6, opencv-contrib-python 5.1.0.95, protobuf 4.25.9, jax 0.10.2)
"""
import argparse
import glob
import hashlib
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "Corpus")
CLIPS = os.path.join(CORPUS, "build", "clips")
REAL = os.path.join(ROOT, "Recordings", "real")
PREDICTOR = "/usr/share/dlib/shape_predictor_68_face_landmarks.dat"

TOLERANCE = 0.25
DEFAULT_RULE = (0.21, 2)
THRESHOLDS = [round(0.15 + 0.01 * i, 2) for i in range(16)]  # 0.15 ... 0.30
MIN_FRAMES = [1, 2, 3]
EYE_TYPES = ("blink", "wink", "eyes_closed")

METHODS = ["facewatch", "facewatch-ear", "dlib-classic", "mediapipe"]
# Which cache a method's series comes from.
SERIES = {"facewatch": "facewatch", "facewatch-ear": "facewatch", "dlib-classic": "dlib", "mediapipe": "mediapipe"}
EXTRACTOR_VERSION = {"facewatch": 1, "dlib": 1, "mediapipe": 1}

# MediaPipe Face Mesh EAR points, in the order p1..p6 of EAR = (|p2-p6| + |p3-p5|) / (2 |p1-p4|).
MP_RIGHT = (33, 160, 158, 133, 153, 144)   # the person's right eye (image left)
MP_LEFT = (362, 385, 387, 263, 373, 380)   # the person's left eye


# ---------------------------------------------------------------------------------------------
# Recordings and truth


def read_index(folder):
    with open(os.path.join(folder, "frames.jsonl")) as f:
        return [json.loads(line) for line in f if line.strip()]


def fingerprint(folder):
    with open(os.path.join(folder, "frames.jsonl"), "rb") as f:
        digest = hashlib.sha1(f.read()).hexdigest()
    return {"frames_jsonl_sha1": digest, "frames_mjpeg_bytes": os.path.getsize(os.path.join(folder, "frames.mjpeg"))}


def load_json(path):
    with open(path) as f:
        return json.load(f)


def load_truth(name, in_repository, clip_names):
    """The truth of clip NAME and where it came from, or (None, None)."""
    if in_repository:
        path = os.path.join(ROOT, in_repository, "truth.json")
        if os.path.exists(path):
            return load_json(path), os.path.relpath(path, ROOT)
    path = os.path.join(CORPUS, "truth", name + ".json")
    if os.path.exists(path):
        return load_json(path), os.path.relpath(path, ROOT)
    parts = []
    for p in sorted(glob.glob(os.path.join(CORPUS, "truth", "parts", "*.json"))):
        stem = os.path.basename(p)[:-5]
        # The part belongs to the longest clip name it starts with.
        owners = [c for c in clip_names if stem == c or (stem.startswith(c) and not stem[len(c)].isalnum())]
        if owners and max(owners, key=len) == name:
            parts.append(p)
    if not parts:
        return None, None
    merged = {"faces": 1, "events": [], "negatives": [], "unsure": []}
    spans = []
    for p in parts:
        t = load_json(p)
        for key in ("events", "negatives", "unsure"):
            merged[key] += t.get(key) or []
        for key in ("person", "faces"):
            if key in t:
                merged[key] = t[key]
        # A part covers the frames its name gives (NAME.FIRST-LAST.json); without them, all.
        m = re.search(r"\.(\d+)-(\d+)$", os.path.basename(p)[:-5])
        spans.append((int(m.group(1)), int(m.group(2))) if m else None)
    if None not in spans:
        merged["span_frames"] = sorted(spans)
    return merged, " + ".join(os.path.relpath(p, ROOT) for p in parts)


def resolve_spans(truth, index):
    """Turns a merged truth's `span_frames` into `span`: [start, end) in seconds per part (the
    first frame's t to the t of the frame after the last)."""
    if not truth or "span_frames" not in truth or "span" in truth:
        return
    ts = [e["t"] for e in index]
    last_end = ts[-1] + (ts[-1] - ts[-2] if len(ts) > 1 else 0)
    truth["span"] = [(ts[a], ts[b + 1] if b + 1 < len(ts) else last_end) for a, b in truth["span_frames"] if a < len(ts)]


def corpus(only=None, without_truth=False):
    """Every recording with truth (with `without_truth`, every one): dicts with name, clip, variant,
    path, person, truth (None without) and truth_file; and the clips skipped for want of truth."""
    sources = load_json(os.path.join(CORPUS, "sources.json"))
    names = [c["name"] for c in sources["clips"]]
    out, skipped = [], []
    for clip in sources["clips"]:
        name = clip["name"]
        if only and name not in only:
            continue
        try:
            truth, where = load_truth(name, clip.get("in_repository"), names)
        except (ValueError, KeyError) as e:  # a truth file caught half-written
            print(f"warning: {name}: unreadable truth ({e}); skipped", file=sys.stderr)
            truth, where = None, None
        if truth is None:
            skipped.append(name)
            if not without_truth:
                continue
        person = (truth or {}).get("person") or clip.get("person") or name
        if truth and "span_frames" in truth and os.path.exists(os.path.join(CLIPS, name, "frames.jsonl")):
            resolve_spans(truth, read_index(os.path.join(CLIPS, name)))
        closeup = os.path.join(ROOT, clip["in_repository"]) if clip.get("in_repository") else os.path.join(CLIPS, name)
        for variant, rec_name, path in (("close-up", name, closeup), ("webcam", name + "-webcam",
                                                                         os.path.join(CLIPS, name + "-webcam"))):
            if not os.path.exists(os.path.join(path, "frames.jsonl")):
                print(f"warning: {rec_name}: no recording at {os.path.relpath(path, ROOT)} (run Scripts/real-corpus)",
                      file=sys.stderr)
                continue
            out.append(dict(name=rec_name, clip=name, variant=variant, path=path, person=person, truth=truth,
                            truth_file=where))
    return out, skipped


# ---------------------------------------------------------------------------------------------
# Extraction (per-frame EAR series)


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def extract_facewatch(rec, binary):
    """Facewatch's per-frame EAR (faces[0]) and its blink, wink and eyes_closed events."""
    index = read_index(rec["path"])
    n = len(index)
    left, right = [None] * n, [None] * n
    events = []
    proc = subprocess.run([binary, "replay", rec["path"], "--frames", "--no-nose"], capture_output=True, text=True,
                          check=True)
    for line in proc.stdout.splitlines():
        e = json.loads(line)
        if e["type"] == "frame":
            faces = e.get("faces") or []
            if faces and 0 <= e["frame"] < n:
                left[e["frame"]], right[e["frame"]] = faces[0]["ear_left"], faces[0]["ear_right"]
        elif e["type"] in EYE_TYPES and "start" in e and e.get("state", "end") == "end":
            events.append({"type": e["type"], "start": e["start"], "end": e["start"] + e["duration_ms"] / 1000.0})
    return {"ear_left": left, "ear_right": right, "events": events}


def decode_frames(folder):
    import cv2
    import numpy as np
    index = read_index(folder)
    with open(os.path.join(folder, "frames.mjpeg"), "rb") as f:
        data = f.read()
    for e in index:
        buf = np.frombuffer(data[e["offset"]:e["offset"] + e["length"]], np.uint8)
        yield cv2.imdecode(buf, cv2.IMREAD_COLOR)


def ear6(p):
    """EAR of six points p1..p6 (numpy rows): (|p2-p6| + |p3-p5|) / (2 |p1-p4|)."""
    import numpy as np
    d = np.linalg.norm
    return float((d(p[1] - p[5]) + d(p[2] - p[4])) / (2.0 * d(p[0] - p[3])))


def extract_dlib(rec):
    import cv2
    import dlib
    import numpy as np
    detector = dlib.get_frontal_face_detector()
    predictor = dlib.shape_predictor(PREDICTOR)
    left, right, upsampled = [], [], 0
    for image in decode_frames(rec["path"]):
        if image is None:
            left.append(None), right.append(None)
            continue
        gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        boxes = detector(gray, 0)
        if len(boxes) == 0:
            boxes = detector(gray, 1)
            upsampled += 1
        if len(boxes) == 0:
            left.append(None), right.append(None)
            continue
        box = max(boxes, key=lambda r: r.width() * r.height())
        shape = predictor(gray, box)
        pts = np.array([(shape.part(i).x, shape.part(i).y) for i in range(68)], dtype=np.float64)
        right.append(ear6(pts[36:42]))  # the person's right eye (image left)
        left.append(ear6(pts[42:48]))
    return {"ear_left": left, "ear_right": right, "upsample1_scans": upsampled,
            "versions": {"dlib": dlib.__version__, "opencv": cv2.__version__}}


def extract_mediapipe(path):
    """Runs inside the MediaPipe virtualenv (see worker())."""
    import cv2
    import mediapipe as mp
    import numpy as np
    left, right = [], []
    with mp.solutions.face_mesh.FaceMesh(static_image_mode=False, max_num_faces=1, refine_landmarks=True,
                                         min_detection_confidence=0.5, min_tracking_confidence=0.5) as mesh:
        for image in decode_frames(path):
            if image is None:
                left.append(None), right.append(None)
                continue
            h, w = image.shape[:2]
            result = mesh.process(cv2.cvtColor(image, cv2.COLOR_BGR2RGB))
            if not result.multi_face_landmarks:
                left.append(None), right.append(None)
                continue
            lm = result.multi_face_landmarks[0].landmark
            pts = lambda ids: np.array([(lm[i].x * w, lm[i].y * h) for i in ids], dtype=np.float64)
            right.append(ear6(pts(MP_RIGHT)))
            left.append(ear6(pts(MP_LEFT)))
    return {"ear_left": left, "ear_right": right,
            "versions": {"mediapipe": mp.__version__, "opencv": cv2.__version__, "numpy": np.__version__}}


def worker(args):
    """`--worker mediapipe RECORDING OUT.json`: run in the MediaPipe virtualenv by extract()."""
    kind, path, out = args
    assert kind == "mediapipe", kind
    result = extract_mediapipe(path)
    with open(out, "w") as f:
        json.dump(result, f)


def cache_path(out_dir, series, rec):
    return os.path.join(out_dir, series, rec["name"] + ".json")


def load_series(out_dir, series, rec, key):
    path = cache_path(out_dir, series, rec)
    if not os.path.exists(path):
        return None
    data = load_json(path)
    return data if data.get("key") == key else None


def extract(out_dir, series, rec, opts):
    """The cached series of `rec` for extractor `series`, computing it when missing or stale."""
    key = {"version": EXTRACTOR_VERSION[series], "recording": fingerprint(rec["path"])}
    if series == "facewatch":
        key["binary_sha256"] = opts.facewatch_sha256
    cached = load_series(out_dir, series, rec, key)
    if cached is not None:
        return cached
    if opts.no_extract:
        return None
    began = time.time()
    if series == "facewatch":
        data = extract_facewatch(rec, opts.facewatch_copy)
    elif series == "dlib":
        data = extract_dlib(rec)
    else:
        with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as tmp:
            tmp_path = tmp.name
        try:
            subprocess.run([opts.mp_python, os.path.abspath(__file__), "--worker", "mediapipe", rec["path"], tmp_path],
                           check=True, stderr=subprocess.DEVNULL if not opts.verbose else None)
            data = load_json(tmp_path)
        finally:
            os.unlink(tmp_path)
    index = read_index(rec["path"])
    assert len(data["ear_left"]) == len(index), (rec["name"], series, len(data["ear_left"]), len(index))
    data.update(key=key, recording=os.path.relpath(rec["path"], ROOT), t=[e["t"] for e in index],
                seconds=round(time.time() - began, 2))
    os.makedirs(os.path.dirname(cache_path(out_dir, series, rec)), exist_ok=True)
    with open(cache_path(out_dir, series, rec), "w") as f:
        json.dump(data, f, separators=(",", ":"))
    found = sum(x is not None for x in data["ear_left"])
    print(f"  {series:9} {rec['name']:28} {len(index):5} frames, face on {found:5}, {data['seconds']:7.1f} s",
          file=sys.stderr)
    return data


# ---------------------------------------------------------------------------------------------
# Classic rule and scoring


def classic_blinks(series, threshold, min_frames):
    """ClassicBlinkRule.swift on a cached series: [(start, end)]."""
    out, below, start = [], 0, 0.0
    for t, l, r in zip(series["t"], series["ear_left"], series["ear_right"]):
        if l is None or r is None:
            below = 0
            continue
        if (l + r) / 2 < threshold:
            if below == 0:
                start = t
            below += 1
            continue
        if below >= min_frames:
            out.append((start, t))
        below = 0
    return out


def matches(a, b, tolerance):
    return a[0] <= b[1] + tolerance and b[0] <= a[1] + tolerance


def in_spans(interval, spans):
    """Whether an interval starts within the annotated spans (all of the clip without spans)."""
    return spans is None or any(a <= interval[0] < b for a, b in spans)


class Score:
    FIELDS = ("tp", "fp", "fn", "lookalike", "over_negatives", "eye_events", "unsure")

    def __init__(self):
        for f in self.FIELDS:
            setattr(self, f, 0)
        self.start_errors, self.duration_errors = [], []
        self.negative_seconds = 0.0
        self.recordings = 0

    def __iadd__(self, o):
        for f in self.FIELDS:
            setattr(self, f, getattr(self, f) + getattr(o, f))
        self.start_errors += o.start_errors
        self.duration_errors += o.duration_errors
        self.negative_seconds += o.negative_seconds
        self.recordings += o.recordings
        return self

    @property
    def precision(self):
        return None if self.tp + self.fp == 0 else self.tp / (self.tp + self.fp)

    @property
    def recall(self):
        return None if self.tp + self.fn == 0 else self.tp / (self.tp + self.fn)

    @property
    def f1(self):
        d = 2 * self.tp + self.fp + self.fn
        return 1.0 if d == 0 else 2 * self.tp / d


def truth_intervals(truth, key, types):
    spans = truth_spans(truth)
    return [(e["start"], max(e["start"], e["end"])) for e in truth.get(key) or []
            if e["type"] in types and in_spans((e["start"], e["end"]), spans)]


def truth_spans(truth):
    return [tuple(s) for s in truth["span"]] if truth.get("span") else None


def score(reported, truth):
    """Scores reported blink intervals against one recording's truth (see the module docstring)."""
    s = Score()
    s.recordings = 1
    spans = truth_spans(truth)
    reported = sorted(r for r in reported if in_spans(r, spans))
    blinks = truth_intervals(truth, "events", ("blink",))
    others = truth_intervals(truth, "events", ("wink", "eyes_closed"))
    unsure = truth_intervals(truth, "unsure", EYE_TYPES)
    negatives = truth_intervals(truth, "negatives", set(e["type"] for e in truth.get("negatives") or []))
    s.negative_seconds = sum(b - a for a, b in negatives)
    # As `facewatch eval` counts them: every report overlapping a look-alike, TPs included.
    s.over_negatives = sum(any(matches(n, r, 0) for n in negatives) for r in reported)
    scored = [r for r in reported
              if any(matches(t, r, TOLERANCE) for t in blinks) or not any(matches(u, r, 0) for u in unsure)]
    s.unsure = len(reported) - len(scored)
    used = [False] * len(scored)
    for t in sorted(blinks):
        i = next((i for i, r in enumerate(scored) if not used[i] and matches(r, t, TOLERANCE)), None)
        if i is None:
            s.fn += 1
            continue
        used[i] = True
        s.tp += 1
        r = scored[i]
        s.start_errors.append(r[0] - t[0])
        s.duration_errors.append((r[1] - r[0]) - (t[1] - t[0]))
    for i, r in enumerate(scored):
        if used[i]:
            continue
        if any(matches(o, r, TOLERANCE) for o in others):
            s.eye_events += 1
            continue
        s.fp += 1
        if any(matches(n, r, 0) for n in negatives):
            s.lookalike += 1
    return s


def reported_blinks(method, series, rule):
    if method == "facewatch":
        return [(e["start"], e["end"]) for e in series["events"] if e["type"] == "blink"]
    return classic_blinks(series, *rule)


def lopo(recs, data, method):
    """Leave-one-person-out: {person: (threshold, min_frames)} chosen on the other persons."""
    table = {}  # (rec name, rule) -> Score
    for rec in recs:
        for rule in ((th, n) for th in THRESHOLDS for n in MIN_FRAMES):
            table[rec["name"], rule] = score(reported_blinks(method, data[rec["name"]], rule), rec["truth"])
    chosen = {}
    for person in sorted(set(r["person"] for r in recs)):
        train = [r for r in recs if r["person"] != person]
        if not train:
            chosen[person] = DEFAULT_RULE
            continue
        best = None
        for rule in ((th, n) for th in THRESHOLDS for n in MIN_FRAMES):
            total = Score()
            for r in train:
                total += table[r["name"], rule]
            key = (-total.f1, abs(rule[0] - DEFAULT_RULE[0]), abs(rule[1] - DEFAULT_RULE[1]), rule[0])
            if best is None or key < best[0]:
                best = (key, rule, total.f1)
        chosen[person] = best[1]
    return chosen


# ---------------------------------------------------------------------------------------------
# Report


def fmt(x, digits=2):
    return "–" if x is None else f"{x:.{digits}f}"


def ms_summary(errors):
    """Median and p95 (nearest rank) of the absolute errors, and the median signed error, in ms."""
    if not errors:
        return "–"
    a = sorted(abs(e) * 1000 for e in errors)
    p95 = a[max(0, -(-95 * len(a) // 100) - 1)]
    return f"{statistics.median(a):.0f} / {p95:.0f} ({round(statistics.median(errors) * 1000):+d})"


def summary_row(label, s):
    per_min = "–" if s.negative_seconds == 0 else f"{s.lookalike / (s.negative_seconds / 60):.1f}"
    return (f"| {label} | {s.recordings} | {s.tp + s.fn} | {s.tp} | {s.fp} | {s.fn} | {fmt(s.precision)} | "
            f"{fmt(s.recall)} | **{fmt(s.f1)}** | {s.lookalike} ({s.over_negatives}) | {per_min} | {s.eye_events} | {s.unsure} | "
            f"{ms_summary(s.start_errors)} | {ms_summary(s.duration_errors)} |")


SUMMARY_HEAD = ("| method | recordings | truth blinks | TP | FP | FN | precision | recall | F1 | FP on look-alikes (all reports on them) | "
                "…per min of look-alike | on winks/closures | set aside (unsure) | start err ms: median / p95 of abs. error "
                "(signed median) | duration err ms: median / p95 (signed) |\n|" + "---|" * 15)


def build_report(recs, variants, results, face_rates, chosen, skipped, runtimes, versions, lines_extra):
    groups = [("close-up and webcam together", ("close-up", "webcam")), ("close-ups", ("close-up",)),
              ("webcam variants (125 px face, 640×480)", ("webcam",))]
    persons = sorted(set(r["person"] for r in recs))
    clips = sorted(set(r["clip"] for r in recs))
    negative_s = sum(score([], r["truth"]).negative_seconds for r in recs if r["variant"] == "close-up")
    truth_blinks = sum(len(truth_intervals(r["truth"], "events", ("blink",))) for r in recs if r["variant"] == "close-up")
    out = ["# Blink detectors on the real-face corpus: Facewatch and its peers", ""]
    out.append(f"{len(clips)} clips with truth ({len(persons)} persons), {len(recs)} recordings (close-up + "
               f"webcam variant), {truth_blinks} truth blinks per variant, {negative_s:.1f} s of look-alikes "
               f"per variant. Scored as in the docstring of Scripts/blink_peers.py (±{TOLERANCE} s, one-to-one; "
               "reports over winks/closures are neither TP nor FP; reports on `unsure` stretches set aside). "
               "`@0.21/2`: the classic defaults; `LOPO`: threshold/min frames chosen on the other persons.")
    if skipped:
        out.append("")
        out.append(f"No truth yet (skipped): {', '.join(skipped)}.")
    for title, vs in groups:
        out += ["", f"## {title}", "", SUMMARY_HEAD]
        for v in variants:
            total = Score()
            for r in recs:
                if r["variant"] in vs:
                    total += results[v][r["name"]]
            out.append(summary_row(v, total))
    out += ["", "## Face found (share of frames with an EAR)", "", "| method | close-ups | webcam |", "|---|---|---|"]
    for series, rates in face_rates.items():
        out.append(f"| {series} | " + " | ".join("–" if rates.get(v) is None else f"{100 * rates[v]:.2f} %"
                                                 for v in ("close-up", "webcam")) + " |")
    out += ["", "## Per person: F1 (TP/FP/FN), close-up · webcam", "",
            "| person | truth blinks | " + " | ".join(variants) + " |", "|---|---|" + "---|" * len(variants)]
    for p in persons:
        n = sum(len(truth_intervals(r["truth"], "events", ("blink",))) for r in recs
                if r["person"] == p and r["variant"] == "close-up")
        cells = []
        for v in variants:
            parts = []
            for vv in ("close-up", "webcam"):
                s = Score()
                for r in recs:
                    if r["person"] == p and r["variant"] == vv:
                        s += results[v][r["name"]]
                parts.append(f"{fmt(s.f1)} ({s.tp}/{s.fp}/{s.fn})" if s.recordings else "–")
            cells.append(" · ".join(parts))
        out.append(f"| {p} | {n} | " + " | ".join(cells) + " |")
    if chosen:
        methods = list(chosen)
        out += ["", "## Leave-one-person-out choice (threshold / min frames) per held-out person", "",
                "| held-out person | " + " | ".join(methods) + " |", "|---|" + "---|" * len(methods)]
        for p in persons:
            out.append(f"| {p} | " + " | ".join(f"{chosen[m][p][0]:.2f} / {chosen[m][p][1]}" for m in methods) + " |")
    out += ["", "## Per recording: TP/FP/FN (winks+closures, unsure)", "",
            "| recording | person | truth | " + " | ".join(variants) + " |", "|---|---|---|" + "---|" * len(variants)]
    for r in recs:
        n = len(truth_intervals(r["truth"], "events", ("blink",)))
        cells = []
        for v in variants:
            s = results[v][r["name"]]
            extra = f" ({s.eye_events}, {s.unsure})" if s.eye_events or s.unsure else ""
            cells.append(f"{s.tp}/{s.fp}/{s.fn}{extra}")
        out.append(f"| {r['name']} | {r['person']} | {n} | " + " | ".join(cells) + " |")
    out += ["", "## Run", ""]
    for series, secs in runtimes.items():
        out.append(f"- {series}: {secs:.0f} s of extraction for the recordings above (from the caches' timings)")
    for k, v in versions.items():
        out.append(f"- {k}: {v}")
    out += lines_extra
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------------------------------


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        return worker(sys.argv[2:])
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--methods", default=",".join(METHODS), help="comma-separated, of " + ", ".join(METHODS))
    ap.add_argument("--only", help="comma-separated clip names (NAME; its -webcam variant comes along)")
    ap.add_argument("--facewatch", default=os.path.join(ROOT, ".build", "release", "facewatch"))
    ap.add_argument("--mp-python", default="/tmp/mpvenv/bin/python")
    ap.add_argument("--out", default=os.path.join(CORPUS, "build", "peers"))
    ap.add_argument("--no-extract", action="store_true", help="score what is cached only; never run a detector")
    ap.add_argument("--prefetch", action="store_true",
                    help="also extract (cache) the series of recordings that have no truth yet")
    ap.add_argument("--verbose", action="store_true")
    opts = ap.parse_args()
    methods = [m.strip() for m in opts.methods.split(",") if m.strip()]
    for m in methods:
        if m not in METHODS:
            ap.error(f"unknown method {m}")
    methods = [m for m in METHODS if m in methods]
    only = set(opts.only.split(",")) if opts.only else None
    recs, skipped = corpus(only)
    to_extract = corpus(only, without_truth=True)[0] if opts.prefetch else recs
    if not recs and not opts.prefetch:
        sys.exit("no recording with truth")

    tmpdir = tempfile.mkdtemp(prefix="blink-peers-")
    try:
        if any(SERIES[m] == "facewatch" for m in methods):
            opts.facewatch_copy = os.path.join(tmpdir, "facewatch")
            shutil.copy2(opts.facewatch, opts.facewatch_copy)
            opts.facewatch_sha256 = sha256(opts.facewatch_copy)
        data, versions, runtimes, face_rates = {}, {}, {}, {}
        began = time.time()
        for series in dict.fromkeys(SERIES[m] for m in methods):
            data[series] = {}
            for rec in to_extract:
                d = extract(opts.out, series, rec, opts)
                if d is None:
                    sys.exit(f"{series}: {rec['name']} is not cached (run without --no-extract)")
                data[series][rec["name"]] = d
                for k, v in (d.get("versions") or {}).items():
                    versions[f"{series} extraction: {k}"] = v
            runtimes[series] = sum(data[series][r["name"]]["seconds"] for r in recs)
            face_rates[series] = {}
            for v in ("close-up", "webcam"):
                frames = [x for r in recs if r["variant"] == v for x in data[series][r["name"]]["ear_left"]]
                if frames:
                    face_rates[series][v] = sum(x is not None for x in frames) / len(frames)
        if "facewatch" in data:
            versions["facewatch binary sha256"] = opts.facewatch_sha256[:16] + "…"
        print(f"extraction done in {time.time() - began:.0f} s", file=sys.stderr)
        if not recs:
            sys.exit("no recording with truth yet (series cached)")

        variants, results, chosen = [], {}, {}
        for m in methods:
            series_of = data[SERIES[m]]
            if m == "facewatch":
                variants.append(m)
                results[m] = {r["name"]: score(reported_blinks(m, series_of[r["name"]], None), r["truth"]) for r in recs}
                continue
            v = f"{m} @0.21/2"
            variants.append(v)
            results[v] = {r["name"]: score(reported_blinks(m, series_of[r["name"]], DEFAULT_RULE), r["truth"])
                          for r in recs}
            chosen[m] = lopo(recs, series_of, m)
            v = f"{m} LOPO"
            variants.append(v)
            results[v] = {r["name"]: score(reported_blinks(m, series_of[r["name"]], chosen[m][r["person"]]), r["truth"])
                          for r in recs}
        extra = ["", "Truth files: " + "; ".join(sorted(set(f"{r['clip']}: {r['truth_file']}" for r in recs)))]
        report = build_report(recs, variants, results, face_rates, chosen, skipped, runtimes, versions, extra)
    finally:
        shutil.rmtree(tmpdir, ignore_errors=True)
    os.makedirs(opts.out, exist_ok=True)
    with open(os.path.join(opts.out, "report.md"), "w") as f:
        f.write(report)
    print(report)


if __name__ == "__main__":
    main()
