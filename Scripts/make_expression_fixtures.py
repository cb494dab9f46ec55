#!/usr/bin/env python3
"""Dev-time script: reference landmarks for the Expressions tests.

Writes Tests/Fixtures/expressions/landmarks.json with
  - "mean_shape": dlib's 68-point initial_shape (unit box of the detection), read straight
    from the .dat header (dlib serialize format, see shared/spec/reference-facts.md 1.2);
  - "faces": for two public-domain portraits (skimage astronaut, matplotlib grace_hopper),
    the frame size, the HOG detector box and the 68 landmarks from Python dlib.
The Swift tests never run this; they read the JSON.
"""
import json, os, struct
import numpy as np
import dlib, skimage.data, matplotlib
from PIL import Image

DAT = "/usr/share/dlib/shape_predictor_68_face_landmarks.dat"
OUT = os.path.join(os.path.dirname(__file__), "..", "Tests", "Fixtures", "expressions", "landmarks.json")


def read_int(f, signed=True):
    c = f.read(1)[0]
    n = c & 0x0F
    v = int.from_bytes(f.read(n), "little")
    return -v if (c & 0x80) else v


def read_float(f):
    m = read_int(f)
    e = read_int(f)
    return float(m) * 2.0 ** e


def mean_shape():
    with open(DAT, "rb") as f:
        assert read_int(f) == 1
        nr, nc = -read_int(f), -read_int(f)
        vals = [read_float(f) for _ in range(nr * nc)]
    return [[round(vals[2 * i], 6), round(vals[2 * i + 1], 6)] for i in range(nr // 2)]


def faces():
    det = dlib.get_frontal_face_detector()
    sp = dlib.shape_predictor(DAT)
    hopper = os.path.join(matplotlib.get_data_path(), "sample_data", "grace_hopper.jpg")
    out = []
    for name, rgb in [("astronaut", skimage.data.astronaut()), ("grace_hopper", np.array(Image.open(hopper).convert("RGB")))]:
        rects = det(rgb, 1)
        r = max(rects, key=lambda r: r.area())
        s = sp(rgb, r)
        out.append({
            "name": name,
            "width": int(rgb.shape[1]), "height": int(rgb.shape[0]),
            "box": [r.left(), r.top(), r.width(), r.height()],
            "points": [[p.x, p.y] for p in s.parts()],
        })
    return out


if __name__ == "__main__":
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as f:
        json.dump({"mean_shape": mean_shape(), "faces": faces()}, f)
        f.write("\n")
    print("wrote", OUT)
