#!/usr/bin/env python3
"""Time dlib-bin's HOG face detector on the same 640x480 frames as `facewatch bench`'s HOG figures.

Dev-time only. Needs `pip install dlib-bin==20.0.1.post1` and Pillow. One thread (dlib's detector is
single-threaded; OMP/BLAS are not involved). Frames: every 640x480 JPEG in Tests/Fixtures/hog plus
Tests/Fixtures/bench/face-640x480.jpg, decoded to gray once, cycled through.

  python3 Scripts/bench_dlib_hog.py [--iterations 200]
"""
import argparse
import glob
import os
import statistics
import time

import dlib
import numpy as np
from PIL import Image

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def frames() -> list[np.ndarray]:
    paths = sorted(glob.glob(os.path.join(ROOT, "Tests", "Fixtures", "hog", "*.jpg")))
    paths.append(os.path.join(ROOT, "Tests", "Fixtures", "bench", "face-640x480.jpg"))
    images = [np.asarray(Image.open(p).convert("L"), dtype=np.uint8) for p in paths]
    return [i.copy() for i in images if i.shape == (480, 640)]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--iterations", type=int, default=200)
    args = parser.parse_args()
    detector = dlib.get_frontal_face_detector()
    images = frames()
    for upsample, count in ((0, args.iterations), (1, max(20, args.iterations // 4))):
        for image in images:
            detector.run(image, upsample, 0.0)
        times = []
        for i in range(count):
            image = images[i % len(images)]
            start = time.perf_counter()
            detector.run(image, upsample, 0.0)
            times.append((time.perf_counter() - start) * 1000)
        times.sort()
        print(f"dlib-bin {dlib.__version__} upsample {upsample}: {len(images)} frames 640x480, {count} runs: "
              f"mean {statistics.fmean(times):.2f} ms, median {times[len(times) // 2]:.2f} ms, "
              f"p90 {times[int(len(times) * 0.9)]:.2f} ms")


if __name__ == "__main__":
    main()
