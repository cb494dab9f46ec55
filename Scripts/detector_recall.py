#!/usr/bin/env python3
"""Recall of the face detectors on the hand-checked truth of Tests/Fixtures/hog (docs/detection.md,
"Recall").

Dev-time only. Cascade: `facewatch detect` (OpenCV haarcascade_frontalface_alt, the config.json
default) run on each fixture; HOG: dlib's detections recorded in Tests/Fixtures/hog/dlib.json,
which the Swift detector reproduces exactly (HOGDetectionTests.DlibParityTests).

A detection finds a face when each box's centre lies inside the other box (one detection per face);
a detection that finds no face is a false box.

  swift build -c release && python3 Scripts/detector_recall.py [--facewatch .build/release/facewatch]
"""
import argparse
import json
import os
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FOLDER = os.path.join(ROOT, "Tests", "Fixtures", "hog")


def centre_inside(a, b):
    """a, b: [left, top, width, height]; is a's centre inside b?"""
    cx, cy = a[0] + a[2] / 2, a[1] + a[3] / 2
    return b[0] <= cx <= b[0] + b[2] and b[1] <= cy <= b[1] + b[3]


def score(truth, found):
    """(faces found, false boxes)."""
    used, hits = set(), 0
    for face in truth:
        for i, box in enumerate(found):
            if i not in used and centre_inside(face, box) and centre_inside(box, face):
                used.add(i)
                hits += 1
                break
    return hits, len(found) - len(used)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--facewatch", default=os.path.join(ROOT, ".build", "release", "facewatch"))
    args = parser.parse_args()
    truth = json.load(open(os.path.join(FOLDER, "truth.json")))["images"]
    dlib = json.load(open(os.path.join(FOLDER, "dlib.json")))["images"]
    rows, totals = [], [0] * 7
    for name in sorted(truth):
        faces = truth[name]["faces"]
        out = subprocess.run([args.facewatch, "detect", os.path.join(FOLDER, dlib[name]["file"])],
                             check=True, capture_output=True, text=True, cwd=ROOT).stdout
        cascade = [f["box"] for f in json.loads(out)["faces"]]
        hog = [[[b[0], b[1], b[2] - b[0] + 1, b[3] - b[1] + 1] for b in dlib[name][f"upsample{u}"]] for u in (0, 1)]
        results = [score(faces, cascade), score(faces, hog[0]), score(faces, hog[1])]
        row = [len(faces)] + [v for r in results for v in r]
        totals = [t + v for t, v in zip(totals, row)]
        rows.append((name, row))
    print("| image | faces | cascade found | cascade false | HOG up 0 found | HOG up 0 false | HOG up 1 found | HOG up 1 false |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for name, row in rows:
        print(f"| {name} | " + " | ".join(str(v) for v in row) + " |")
    print("| **all** | " + " | ".join(f"**{v}**" for v in totals) + " |")


if __name__ == "__main__":
    main()
