#!/usr/bin/env python3
"""Fits the mapping from each OpenCV face cascade's boxes to dlib HOG detector boxes.

dlib's 68-point model was trained on HOG-detector boxes; a cascade box is larger and sits higher.
For every fixture image with one face, this runs the cascade (OpenCV 4.x, which our Swift detector
matches window for window) and dlib's HOG detector, and reports the median side ratio
(dlib / cascade) and centre shift (in cascade box sizes). The numbers go into
Sources/Detection/BoxCalibration.swift.

Needs OpenCV 4.x (cv2 5 has no CascadeClassifier):
  python3 -m venv --system-site-packages /tmp/cv4 && /tmp/cv4/bin/pip install "opencv-python-headless<5" dlib-bin
  /tmp/cv4/bin/python Scripts/calibrate_boxes.py
"""
import glob
import os
import statistics

import cv2
import dlib
import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CASCADES = [
    "haarcascades/haarcascade_frontalface_alt.xml",
    "haarcascades/haarcascade_frontalface_alt2.xml",
    "haarcascades/haarcascade_frontalface_default.xml",
    "lbpcascades/lbpcascade_frontalface_improved.xml",
    "lbpcascades/lbpcascade_frontalface.xml",
]


def main():
    assert cv2.__version__.startswith("4."), "needs OpenCV 4.x, see the docstring"
    images = sorted(glob.glob(os.path.join(ROOT, "Tests/Fixtures/landmarks/hog/*.jpg")))
    images += sorted(glob.glob(os.path.join(ROOT, "Tests/Fixtures/landmarks/*_gray.jpg")))
    hog = dlib.get_frontal_face_detector()
    for name in CASCADES:
        cascade = cv2.CascadeClassifier(os.path.join("/usr/share/opencv4", name))
        ratios, shifts_x, shifts_y = [], [], []
        for path in images:
            gray = cv2.imread(path, cv2.IMREAD_GRAYSCALE)
            dets = hog(gray, 1)
            boxes = cascade.detectMultiScale(gray, scaleFactor=1.1, minNeighbors=3, minSize=(40, 40))
            if len(dets) != 1 or len(boxes) == 0:
                continue
            d = dets[0]
            dw = d.right() - d.left() + 1
            dcx, dcy = d.left() + dw / 2, d.top() + (d.bottom() - d.top() + 1) / 2
            # the cascade box whose centre is nearest the HOG box's
            x, y, w, h = min(boxes, key=lambda b: (b[0] + b[2] / 2 - dcx) ** 2 + (b[1] + b[3] / 2 - dcy) ** 2)
            if abs(x + w / 2 - dcx) > w / 2:
                continue
            ratios.append(dw / w)
            shifts_x.append((dcx - (x + w / 2)) / w)
            shifts_y.append((dcy - (y + h / 2)) / h)
        if ratios:
            print(f"{name}: n={len(ratios)} scale={statistics.median(ratios):.3f} "
                  f"shiftX={statistics.median(shifts_x):.3f} shiftY={statistics.median(shifts_y):.3f} "
                  f"(scale range {min(ratios):.2f}-{max(ratios):.2f})")
        else:
            print(f"{name}: no matched faces")


if __name__ == "__main__":
    main()
