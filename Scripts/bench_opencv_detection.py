#!/usr/bin/env python3
"""Time OpenCV 4.x's CascadeClassifier.detectMultiScale on the detection fixture frames, one thread.

Reference numbers for the Swift detector (`facewatch bench`). Needs opencv-python-headless 4.x
(see make_detection_fixtures.py). Usage: python3 Scripts/bench_opencv_detection.py [rounds]
"""
import os
import sys
import time

import cv2
import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(ROOT, "Tests", "Fixtures", "detection")
NAMES = ["astronaut_large", "astronaut_small", "hopper", "hopper_small", "astronaut_rotated25",
         "no_face", "several", "hopper_dim"]
CASCADES = [
    ("default", "haarcascades/haarcascade_frontalface_default.xml"),
    ("alt2", "haarcascades/haarcascade_frontalface_alt2.xml"),
    ("alt", "haarcascades/haarcascade_frontalface_alt.xml"),
    ("lbp_improved", "lbpcascades/lbpcascade_frontalface_improved.xml"),
    ("lbp", "lbpcascades/lbpcascade_frontalface.xml"),
]


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 8
    cv2.setNumThreads(1)
    frames = [cv2.imread(os.path.join(FIXTURES, n + ".jpg"), cv2.IMREAD_GRAYSCALE) for n in NAMES]
    for name, path in CASCADES:
        clf = cv2.CascadeClassifier(os.path.join("/usr/share/opencv4", path))
        for sf in (1.1, 1.2, 1.3):
            for f in frames:  # warm-up
                clf.detectMultiScale(f, sf, 3, minSize=(80, 80))
            times, faces = [], 0
            for _ in range(rounds):
                for f in frames:
                    t = time.perf_counter()
                    boxes = clf.detectMultiScale(f, sf, 3, minSize=(80, 80))
                    times.append((time.perf_counter() - t) * 1000)
                    faces += len(boxes)
            times = np.array(times)
            print(f"opencv {cv2.__version__} {name} sf={sf} min=80: median {np.median(times):.2f} ms, "
                  f"mean {times.mean():.2f} ms, min {times.min():.2f} ms, max {times.max():.2f} ms, "
                  f"{faces / len(times):.2f} faces/frame")


if __name__ == "__main__":
    main()
