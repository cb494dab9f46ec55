#!/usr/bin/env python3
"""Dev-time benchmark: dlib's Python pipeline on a Facewatch recording, for `facewatch replay`.

What a dlib user writes for blink detection: decode every frame (OpenCV, grayscale), find the
face with dlib's HOG detector (once every --detect-every frames while a face is tracked, as
Facewatch runs its detector about once a second; in between the box follows the previous
landmarks), fit the 68 landmarks with dlib's shape_predictor and compute both eyes' EAR.
Prints the frames, the whole process's wall time from interpreter start (imports and model
load included) and frames per second, so that it compares with timing a whole
`facewatch replay` process:

    pip install dlib-bin opencv-python-headless numpy
    /usr/bin/time -f "%e s" python3 Scripts/bench_dlib_pipeline.py Recordings/blinks-slow-move
    /usr/bin/time -f "%e s" .build/release/facewatch replay Recordings/blinks-slow-move >/dev/null

Facewatch's unit tests never run this.
"""
import argparse
import json
import os
import time

STARTED = time.monotonic()

import cv2  # noqa: E402
import dlib  # noqa: E402
import numpy as np  # noqa: E402

MODEL = "/usr/share/dlib/shape_predictor_68_face_landmarks.dat"


def ear(points, first):
    p = points[first:first + 6]
    vertical = np.linalg.norm(p[1] - p[5]) + np.linalg.norm(p[2] - p[4])
    return vertical / (2.0 * np.linalg.norm(p[0] - p[3]))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("recording")
    parser.add_argument("--detect-every", type=int, default=30, help="frames between HOG detections while tracking")
    parser.add_argument("--model", default=MODEL)
    args = parser.parse_args()

    detector = dlib.get_frontal_face_detector()
    predictor = dlib.shape_predictor(args.model)
    loaded = time.monotonic()

    with open(os.path.join(args.recording, "frames.mjpeg"), "rb") as f:
        stream = f.read()
    with open(os.path.join(args.recording, "frames.jsonl")) as f:
        entries = [json.loads(line) for line in f if line.strip()]

    box = None
    since_detection = 0
    frames = faces = 0
    for entry in entries:
        jpeg = np.frombuffer(stream, dtype=np.uint8, count=entry["length"], offset=entry["offset"])
        gray = cv2.imdecode(jpeg, cv2.IMREAD_GRAYSCALE)
        frames += 1
        if box is None or since_detection >= args.detect_every:
            found = detector(gray, 0)
            box = max(found, key=lambda r: r.area()) if found else None
            since_detection = 0
        since_detection += 1
        if box is None:
            continue
        shape = predictor(gray, box)
        points = np.array([(p.x, p.y) for p in shape.parts()], dtype=np.float64)
        ear(points, 36), ear(points, 42)
        faces += 1
        left, top = points.min(axis=0)
        right, bottom = points.max(axis=0)
        box = dlib.rectangle(int(left), int(top), int(right), int(bottom))

    done = time.monotonic()
    print(json.dumps({
        "recording": args.recording, "frames": frames, "faces": faces,
        "process_s": round(done - STARTED, 3), "model_load_s": round(loaded - STARTED, 3),
        "fps_after_load": round(frames / max(done - loaded, 1e-9), 1),
    }))


if __name__ == "__main__":
    main()
