#!/usr/bin/env python3
"""Time dlib-bin's compute_face_descriptor (num_jitters 0, padding 0.25: chip + network) on the 16
faces of Tests/Fixtures/identity, one after another, for comparison with `facewatch bench`'s
"face descriptor" row. Pin both to one core:

  taskset -c 0 python3 Scripts/bench_dlib_descriptor.py
  taskset -c 0 .build/release/facewatch bench

Needs pip dlib-bin, Pillow, numpy and the model from Scripts/setup-models.
"""
import json
import os
import statistics
import sys
import time

import dlib
import numpy as np
from PIL import Image

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(ROOT, "Tests", "Fixtures", "identity")
DIRS = [os.environ.get("FACEWATCH_MODELS", ""),
        os.path.join(os.environ.get("XDG_DATA_HOME", os.path.expanduser("~/.local/share")), "facewatch/models"),
        "/usr/local/share/facewatch/models"]


def main():
    model = next((os.path.join(d, "dlib_face_recognition_resnet_model_v1.dat") for d in DIRS
                  if d and os.path.exists(os.path.join(d, "dlib_face_recognition_resnet_model_v1.dat"))), None)
    if model is None:
        sys.exit("dlib_face_recognition_resnet_model_v1.dat not installed: run Scripts/setup-models")
    facerec = dlib.face_recognition_model_v1(model)
    faces = []
    for f in json.load(open(os.path.join(FIXTURES, "descriptors.json")))["faces"]:
        img = np.ascontiguousarray(np.asarray(Image.open(os.path.join(FIXTURES, f["image"])).convert("RGB")))
        box = dlib.rectangle(*f["box"])
        shape = dlib.full_object_detection(box, [dlib.point(x, y) for x, y in f["points"]])
        faces.append((img, shape))
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 64
    for img, shape in faces[:4]:
        facerec.compute_face_descriptor(img, shape, 0, 0.25)  # warm-up
    times = []
    for i in range(runs):
        img, shape = faces[i % len(faces)]
        start = time.perf_counter()
        facerec.compute_face_descriptor(img, shape, 0, 0.25)
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    print(json.dumps({"dlib": dlib.__version__, "runs": runs, "median_ms": round(statistics.median(times), 2),
                      "p90_ms": round(times[int(0.9 * (len(times) - 1))], 2), "min_ms": round(times[0], 2)}))


if __name__ == "__main__":
    main()
