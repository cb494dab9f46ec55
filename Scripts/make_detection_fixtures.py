#!/usr/bin/env python3
"""Make the face-detection agreement fixtures in Tests/Fixtures/detection/.

Writes small 640x480 grayscale JPEGs (quality 85) built from two public-domain portraits
(skimage.data.astronaut(), matplotlib's sample grace_hopper.jpg), then decodes every committed
JPEG again with cv2.imread(IMREAD_GRAYSCALE) so that OpenCV sees exactly the pixels the Swift
tests see, and records OpenCV's CascadeClassifier.detectMultiScale boxes in opencv_boxes.json.
It also records reference values for the building blocks (cv2.resize INTER_LINEAR_EXACT checksums,
cv2.integral3 on a small image).

Needs OpenCV 4.x: OpenCV 5 dropped CascadeClassifier from the main modules. For example:
    python3 -m venv --system-site-packages /tmp/cv4
    /tmp/cv4/bin/pip install "opencv-python-headless<5"
    /tmp/cv4/bin/python Scripts/make_detection_fixtures.py
Cascades come from Debian's opencv-data package (/usr/share/opencv4).
"""
import json
import os
import sys

import cv2
import matplotlib
import numpy as np
import skimage.data

if not hasattr(cv2, "CascadeClassifier"):
    sys.exit(f"cv2 {cv2.__version__} has no CascadeClassifier; use opencv-python-headless 4.x")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "Tests", "Fixtures", "detection")
CASCADES = "/usr/share/opencv4"
W, H = 640, 480

cv2.setNumThreads(1)
rng = np.random.default_rng(20240521)


def gray(rgb):
    return cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY)


astronaut = gray(skimage.data.astronaut())  # 512x512, face near (220, 100)
hopper = gray(cv2.cvtColor(cv2.imread(os.path.join(
    matplotlib.get_data_path(), "sample_data", "grace_hopper.jpg")), cv2.COLOR_BGR2RGB))  # 600x512


def background(level=110, amp=25):
    """A smooth, low-contrast textured background (no face-like structure)."""
    small = rng.normal(level, amp, (12, 16)).clip(0, 255).astype(np.float32)
    bg = cv2.resize(small, (W, H), interpolation=cv2.INTER_CUBIC)
    bg += rng.normal(0, 3, (H, W))
    return bg.clip(0, 255).astype(np.uint8)


def paste(canvas, img, x, y, scale):
    h, w = img.shape
    nw, nh = int(round(w * scale)), int(round(h * scale))
    small = cv2.resize(img, (nw, nh), interpolation=cv2.INTER_AREA)
    x0, y0 = max(x, 0), max(y, 0)
    x1, y1 = min(x + nw, W), min(y + nh, H)
    canvas[y0:y1, x0:x1] = small[y0 - y:y1 - y, x0 - x:x1 - x]


def crop43(img, cx, cy, height):
    """Crop a 4:3 window of the given height centred on (cx, cy) and scale it to 640x480."""
    width = height * 4 // 3
    x0 = int(np.clip(cx - width // 2, 0, img.shape[1] - width))
    y0 = int(np.clip(cy - height // 2, 0, img.shape[0] - height))
    return cv2.resize(img[y0:y0 + height, x0:x0 + width], (W, H), interpolation=cv2.INTER_AREA)


def make_images():
    images = {}
    images["astronaut_large"] = crop43(astronaut, 230, 200, 384)
    c = background()
    paste(c, astronaut, 300, 120, 0.5)
    images["astronaut_small"] = c
    c = background(140)
    paste(c, hopper, 60, 0, 0.8)
    images["hopper"] = c
    c = background(90)
    paste(c, hopper, 420, 200, 0.35)
    images["hopper_small"] = c
    m = cv2.getRotationMatrix2D((256, 200), 25, 1.0)
    rot = cv2.warpAffine(astronaut, m, (512, 512), borderMode=cv2.BORDER_REFLECT)
    images["astronaut_rotated25"] = crop43(rot, 240, 220, 384)
    images["no_face"] = crop43(gray(skimage.data.coffee()), 300, 200, 400)
    faces = [astronaut[10:310, 80:380], hopper[30:390, 60:420]]  # head-and-shoulders crops
    c = background(120)
    for i, (x, y, scale) in enumerate([(0, 0, 0.7), (215, 10, 0.6), (430, 0, 0.7),
                                       (10, 250, 0.62), (230, 240, 0.75), (450, 260, 0.6)]):
        face = faces[i % 2] if i % 3 else faces[i % 2][:, ::-1].copy()
        paste(c, face, x, y, scale * 300 / face.shape[0])
    images["several"] = c
    dim = crop43(hopper, 256, 240, 384).astype(np.float32) * 0.3 + 6
    images["hopper_dim"] = (dim + rng.normal(0, 1.5, dim.shape)).clip(0, 255).astype(np.uint8)
    c = background(100)
    for i in range(20):
        face = faces[i % 2] if i % 3 else faces[i % 2][:, ::-1].copy()
        paste(c, face, (i % 5) * 128, (i // 5) * 120, 120 / face.shape[0])
    images["twenty"] = c
    return images


SETTINGS = [
    # (name, cascade file, scaleFactor, minNeighbors, minSize)
    ("default_min80", "haarcascades/haarcascade_frontalface_default.xml", 1.1, 3, 80),
    ("default_min30", "haarcascades/haarcascade_frontalface_default.xml", 1.1, 3, 30),
    ("alt2_min80", "haarcascades/haarcascade_frontalface_alt2.xml", 1.1, 3, 80),
    ("alt2_min30", "haarcascades/haarcascade_frontalface_alt2.xml", 1.1, 3, 30),
    ("lbp_improved_min80", "lbpcascades/lbpcascade_frontalface_improved.xml", 1.1, 3, 80),
    ("lbp_improved_min30", "lbpcascades/lbpcascade_frontalface_improved.xml", 1.1, 3, 30),
    ("default_min80_sf12", "haarcascades/haarcascade_frontalface_default.xml", 1.2, 3, 80),
    ("alt_min80", "haarcascades/haarcascade_frontalface_alt.xml", 1.1, 3, 80),
    ("alt_min80_sf12", "haarcascades/haarcascade_frontalface_alt.xml", 1.2, 3, 80),
    ("alt_min30_sf12", "haarcascades/haarcascade_frontalface_alt.xml", 1.2, 3, 30),
    ("default_raw_min80", "haarcascades/haarcascade_frontalface_default.xml", 1.1, 0, 80),
    ("alt2_raw_min80", "haarcascades/haarcascade_frontalface_alt2.xml", 1.1, 0, 80),
    ("lbp_improved_raw_min80", "lbpcascades/lbpcascade_frontalface_improved.xml", 1.1, 0, 80),
]
RAW_IMAGES = {"astronaut_large", "hopper", "several", "no_face"}


def checksum(a):
    """Sum of pixels and a position-weighted sum, both mod 2^32 (cheap to recompute in Swift)."""
    flat = a.astype(np.uint64).ravel()
    idx = np.arange(1, flat.size + 1, dtype=np.uint64)
    return [int(flat.sum() % 2**32), int((flat * idx).sum() % 2**32)]


def main():
    os.makedirs(OUT, exist_ok=True)
    names = []
    decoded = {}
    for name, img in make_images().items():
        path = os.path.join(OUT, name + ".jpg")
        cv2.imwrite(path, img, [cv2.IMWRITE_JPEG_QUALITY, 85])
        decoded[name] = cv2.imread(path, cv2.IMREAD_GRAYSCALE)
        names.append(name)

    results = {
        "opencv_version": cv2.__version__,
        "note": "Boxes are [x, y, width, height] from CascadeClassifier.detectMultiScale on the "
                "committed JPEG decoded by cv2.imread(IMREAD_GRAYSCALE), cv2.setNumThreads(1).",
        "images": {n: {"file": n + ".jpg", "checksum": checksum(decoded[n])} for n in names},
        "settings": {},
        "detections": {},
    }
    for key, cascade, sf, mn, minsz in SETTINGS:
        results["settings"][key] = {"cascade": cascade, "scaleFactor": sf, "minNeighbors": mn,
                                    "minSize": minsz}
        clf = cv2.CascadeClassifier(os.path.join(CASCADES, cascade))
        assert not clf.empty(), cascade
        per = {}
        for n in names:
            if mn == 0 and n not in RAW_IMAGES:
                continue
            boxes = clf.detectMultiScale(decoded[n], scaleFactor=sf, minNeighbors=mn,
                                         minSize=(minsz, minsz))
            per[n] = sorted([[int(v) for v in b] for b in boxes])
        results["detections"][key] = per

    # Building blocks: INTER_LINEAR_EXACT downscales (what CascadeClassifier uses in 4.x) of one fixture and integral images of a small array.
    src = decoded["hopper"]
    results["resize"] = {"source": "hopper", "levels": []}
    for f in [1.1, 1.331, 2.357947691, 3.4522712, 9.849732675]:
        dw, dh = int(round(W / f)), int(round(H / f))
        r = cv2.resize(src, (dw, dh), interpolation=cv2.INTER_LINEAR_EXACT)
        results["resize"]["levels"].append({"width": dw, "height": dh, "checksum": checksum(r)})
    small = rng.integers(0, 256, (7, 9), dtype=np.uint8)
    s, sq, t = cv2.integral3(small)
    results["integral"] = {"width": 9, "height": 7, "pixels": small.ravel().tolist(),
                           "sum": s.ravel().tolist(), "sqsum": [int(v) for v in sq.ravel()],
                           "tilted": t.ravel().tolist()}

    with open(os.path.join(OUT, "opencv_boxes.json"), "w") as f:
        json.dump(results, f, indent=1)
    for key in results["detections"]:
        print(key, {n: len(b) for n, b in results["detections"][key].items()})


if __name__ == "__main__":
    main()
