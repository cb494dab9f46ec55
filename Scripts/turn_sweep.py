#!/usr/bin/env python3
"""Dev-time measurement: dlib's own pipeline on the head turns that Scripts/make_recordings.py renders.

For each bundled photo (the turn clips' faces) and each yaw from -45 to +45 degrees in 5 degree
steps, the frontal photo is turned by HeadMesh, placed on the canvas as in the clips, and dlib's
HOG detector (upsample 0, threshold -0.6) and 68-point predictor run on it. Prints the rendered
yaw, the yaw and pitch that Facewatch's HeadPoseEstimator would read from dlib's points (the same
weak-perspective fit of GenericFaceModel, mirrored here), the filter that fired and its score,
and the EAR of both eyes before and after the yaw correction (Foreshortening, eye angle 13 deg).

    pip install dlib-bin mediapipe==0.10.14 scikit-image matplotlib opencv-python-headless "numpy<2"
    python3 Scripts/turn_sweep.py

Facewatch's tests never run this; docs/blinks.md ("Turned heads") quotes what it printed.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_recordings as mr  # noqa: E402

# GenericFaceModel (Sources/Expressions/GenericFaceModel.swift): iBUG indices and points in mm.
INDICES = [27, 28, 29, 30, 31, 33, 35, 36, 39, 42, 45, 48, 54]
MODEL = np.array([(0, -39.1, 24), (0, -26.1, 17), (0, -13.3, 9), (0, 0, 0), (-15.5, 9, 20), (0, 14, 16),
                  (15.5, 9, 20), (-46.4, -37.5, 45), (-19.5, -35.6, 32), (19.5, -35.6, 32), (46.4, -37.5, 45),
                  (-29.6, 33.1, 34), (29.6, 33.1, 34)])
CENTRED = (MODEL - MODEL.mean(0)).T
PINV = CENTRED.T @ np.linalg.inv(CENTRED @ CENTRED.T)
EYE_ANGLE = np.radians(13)


def pose(p):
    """HeadPoseEstimator.estimate: yaw and pitch in degrees from 68 points."""
    q = p[INDICES] - p[INDICES].mean(0)
    r1, r2 = q[:, 0] @ PINV, q[:, 1] @ PINV
    u, v = r1 / np.linalg.norm(r1), r2 / np.linalg.norm(r2)
    c, d = (u + v) / np.linalg.norm(u + v), (u - v) / np.linalg.norm(u - v)
    x, y = (c + d) / np.sqrt(2), (c - d) / np.sqrt(2)
    z = np.cross(x, y)
    return np.degrees(np.arctan2(z[0], z[2])), np.degrees(np.arcsin(-z[1]))


def main():
    for face in (mr.turn_astronaut(), mr.turn_hopper()):
        for yaw in range(-45, 50, 5):
            img = face.render(0, 0, 0, 0, yaw)
            canvas, _ = mr.place(img, face.unit, 0.0, lambda t: (0, 0, 1.0, 0), 1)
            gray = np.clip(canvas, 0, 255).astype(np.uint8).mean(2).astype(np.uint8)
            boxes, scores, filters = mr.DETECTOR.run(gray, 0, -0.6)
            if not len(boxes):
                print(f"{face.name:12s} yaw {yaw:4d}: no face")
                continue
            p = np.array([[q.x, q.y] for q in mr.PREDICTOR(gray, boxes[0]).parts()], float)
            est, pitch = pose(p)
            th = np.radians(est)
            left = mr.ear(p, 42) * np.cos(th + EYE_ANGLE) / np.cos(EYE_ANGLE)
            right = mr.ear(p, 36) * np.cos(th - EYE_ANGLE) / np.cos(EYE_ANGLE)
            print(f"{face.name:12s} yaw {yaw:4d}: estimated {est:6.1f} pitch {pitch:6.1f}, filter {filters[0]} "
                  f"score {scores[0]:5.2f}, EAR {mr.ear(p, 42):.3f}/{mr.ear(p, 36):.3f} corrected {left:.3f}/{right:.3f}")


if __name__ == "__main__":
    main()
