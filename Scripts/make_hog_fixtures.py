#!/usr/bin/env python3
"""Make the dlib HOG face detector parity fixtures in Tests/Fixtures/hog/.

Dev-time only (tests never run Python). Deterministic: same inputs and tool versions give the same
bytes. Needs: pip dlib-bin==20.0.1.post1, scikit-image, matplotlib, Pillow, numpy; and a dlib
source checkout for its example photos (DLIB_EXAMPLES, default: extracted from the `fetch`ed mirror
at /work/.mirror/davisking+dlib/repo).

  python3 Scripts/make_hog_fixtures.py

Outputs
  Tests/Fixtures/hog/*.jpg      gray JPEGs (quality 75): photos, rotations, small faces, several
                                faces, no face, random crops
  Tests/Fixtures/hog/dlib.json  per image: size, FNV-1a 64 of the decoded gray pixels, and
                                dlib's detector.run(img, upsample, 0) for upsample 0 and 1
                                (boxes [left, top, right, bottom] inclusive, score, filter index),
                                plus a run with adjust_threshold -0.5 on upsample 0
  Tests/Fixtures/hog/truth.json the faces a person sees in each image (hand-checked boxes)

The committed JPEG is the truth: every image is written, read back with PIL, and those decoded
pixels (a 2-D uint8 array) are what dlib sees; the Swift test checks its own decode against the
recorded FNV-1a hash before comparing detections.
"""
from __future__ import annotations

import io
import json
import os
import subprocess
import sys

import dlib
import matplotlib
import numpy as np
import skimage
import skimage.data
from PIL import Image

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "Tests", "Fixtures", "hog")
MIRROR = os.environ.get("DLIB_MIRROR", "/work/.mirror/davisking+dlib/repo")
HOPPER = os.path.join(matplotlib.get_data_path(), "sample_data", "grace_hopper.jpg")
DETECTOR = dlib.get_frontal_face_detector()

# dlib's examples/faces photos (PASCAL VOC) and their face boxes from dlib's own
# training.xml / testing.xml, [left, top, width, height]; the other photos' boxes were drawn by
# hand after looking at the picture (see Tests/Fixtures/hog/README.md).
DLIB_PHOTOS = ["2007_007763", "2008_001009", "2008_001322", "2008_002079", "2008_002470", "2008_002506",
               "2008_004176", "2008_007676", "2009_004587"]


def dlib_example(name: str) -> Image.Image:
    data = subprocess.run(["git", f"--git-dir={MIRROR}", "show", f"HEAD:examples/faces/{name}.jpg"],
                          check=True, capture_output=True).stdout
    return Image.open(io.BytesIO(data)).convert("L")


def dlib_truth() -> dict[str, list[list[float]]]:
    import xml.etree.ElementTree as ET
    truth: dict[str, list[list[float]]] = {}
    for xml in ("training.xml", "testing.xml"):
        data = subprocess.run(["git", f"--git-dir={MIRROR}", "show", f"HEAD:examples/faces/{xml}"],
                              check=True, capture_output=True).stdout
        for image in ET.fromstring(data).iter("image"):
            name = os.path.splitext(image.get("file"))[0]
            boxes = [[float(b.get("left")), float(b.get("top")), float(b.get("width")), float(b.get("height"))]
                     for b in image.iter("box") if b.get("ignore") != "1"]
            truth.setdefault(name, []).extend(boxes)
    return truth


def fnv1a64(pixels: np.ndarray) -> str:
    h = 0xcbf29ce484222325
    for b in pixels.tobytes():
        h ^= b
        h = (h * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return f"{h:016x}"


def rotate(img: Image.Image, boxes: list[list[float]], degrees: float, size: tuple[int, int]):
    """Rotate about the image centre (counter-clockwise in the picture), on a canvas of `size`."""
    canvas = Image.new("L", size, 128)
    canvas.paste(img, ((size[0] - img.width) // 2, (size[1] - img.height) // 2))
    dx, dy = (size[0] - img.width) // 2, (size[1] - img.height) // 2
    out = canvas.rotate(degrees, resample=Image.BICUBIC, fillcolor=128)
    cx, cy = size[0] / 2, size[1] / 2
    t = np.deg2rad(degrees)
    moved = []
    for x, y, w, h in boxes:
        px, py = x + dx + w / 2 - cx, y + dy + h / 2 - cy
        nx = cx + px * np.cos(t) + py * np.sin(t)
        ny = cy - px * np.sin(t) + py * np.cos(t)
        moved.append([nx - w / 2, ny - h / 2, w, h])
    return out, moved


def scale(img: Image.Image, boxes, factor: float):
    out = img.resize((round(img.width * factor), round(img.height * factor)), Image.LANCZOS)
    return out, [[v * factor for v in b] for b in boxes]


def around(img: Image.Image, boxes):
    """The image cropped to its (first) face box grown by 60 % on every side."""
    x, y, w, h = boxes[0]
    left, top = max(0, round(x - 0.6 * w)), max(0, round(y - 0.6 * h))
    right, bottom = min(img.width, round(x + 1.6 * w)), min(img.height, round(y + 1.6 * h))
    return img.crop((left, top, right, bottom)), [[x - left, y - top, w, h]]


def paste(canvas: Image.Image, truth: list, img: Image.Image, boxes, at: tuple[int, int]):
    canvas.paste(img, at)
    truth.extend([[x + at[0], y + at[1], w, h] for x, y, w, h in boxes])


def make_images() -> dict[str, tuple[Image.Image, list[list[float]], str]]:
    truth = dlib_truth()
    astronaut = Image.fromarray(skimage.data.astronaut()).convert("L")
    astronaut_face = [[170.0, 40.0, 110.0, 120.0]]
    hopper = Image.open(HOPPER).convert("L")
    hopper_face = [[170.0, 110.0, 180.0, 200.0]]
    images: dict[str, tuple[Image.Image, list[list[float]], str]] = {}

    for name in DLIB_PHOTOS:
        images[name] = (dlib_example(name), truth.get(name, []), "dlib examples/faces (PASCAL VOC)")
    bald = dlib_example("bald_guys")
    images["bald_guys"] = (scale(bald, [], 640 / bald.width)[0], BALD_GUYS, "dlib examples/faces")
    dogs = dlib_example("dogs")
    images["dogs"] = (dogs.resize((480, 488), Image.LANCZOS), [], "dlib examples/faces (no person)")

    images["astronaut"] = (astronaut, astronaut_face, "scikit-image astronaut (NASA, public domain)")
    images["hopper"] = (hopper, hopper_face, "matplotlib grace_hopper (US Navy, public domain)")
    for degrees in (-30, -15, 15, 30):
        a, ab = scale(astronaut, astronaut_face, 0.8)
        images[f"astronaut_rot{degrees:+d}"] = rotate(a, ab, degrees, (640, 480)) + ("astronaut, rotated",)
        h, hb = scale(hopper, hopper_face, 0.7)
        images[f"hopper_rot{degrees:+d}"] = rotate(h, hb, degrees, (640, 480)) + ("hopper, rotated",)

    # Small faces (60-80 px) and several faces of different sizes on one 640x480 canvas.
    canvas, faces = Image.new("L", (640, 480), 110), []
    for i, width in enumerate((60, 70, 80)):
        for row, (img, box) in enumerate(((astronaut, astronaut_face), (hopper, hopper_face))):
            small, sb = scale(*around(img, box), width / box[0][2])
            paste(canvas, faces, small, sb, (30 + i * 210, 30 + row * 230))
    images["small_faces"] = (canvas, faces, "astronaut and hopper, 60-80 px faces")
    canvas, faces = Image.new("L", (640, 480), 90), []
    paste(canvas, faces, *scale(astronaut, astronaut_face, 0.45), (0, 0))
    paste(canvas, faces, *scale(hopper, hopper_face, 0.35), (330, 10))
    paste(canvas, faces, *scale(dlib_example("2008_002470"), truth["2008_002470"], 0.7), (20, 250))
    paste(canvas, faces, *scale(hopper.transpose(Image.FLIP_LEFT_RIGHT),
                                [[512 - 170 - 180.0, 110.0, 180.0, 200.0]], 0.5), (400, 230))
    images["several"] = (canvas, faces, "composite of astronaut, hopper and a dlib example photo")

    coffee = Image.fromarray(skimage.data.coffee()).convert("L")
    images["coffee"] = (coffee.resize((480, 320), Image.LANCZOS), [], "scikit-image coffee (CC0, no face)")
    chelsea = Image.fromarray(skimage.data.chelsea()).convert("L")
    images["chelsea"] = (chelsea, [], "scikit-image chelsea (CC0, a cat, no face)")

    # Random crops (seeded) of the photos above.
    rng = np.random.default_rng(10)
    for source in ("2008_002506", "bald_guys", "several", "astronaut_rot+15"):
        img, boxes, _ = images[source]
        w = int(rng.integers(img.width // 2, img.width - 20))
        h = int(rng.integers(img.height // 2, img.height - 20))
        x, y = int(rng.integers(0, img.width - w)), int(rng.integers(0, img.height - h))
        # A face counts when at least 60 % of its box is in the crop (clipped to the crop).
        inside = []
        for bx, by, bw, bh in boxes:
            l, t, r, b = max(bx, x), max(by, y), min(bx + bw, x + w), min(by + bh, y + h)
            if r > l and b > t and (r - l) * (b - t) >= 0.6 * bw * bh:
                inside.append([l - x, t - y, r - l, b - t])
        images[f"crop_{source}"] = (img.crop((x, y, x + w, y + h)), inside, f"random crop of {source}")
    return images


# bald_guys.jpg scaled to 640 px wide: 24 faces, by hand, [left, top, width, height].
BALD_GUYS: list[list[float]] = [
    [20, 26, 53, 53], [98, 70, 44, 44], [109, 18, 37, 37], [170, 32, 63, 63],
    [279, 38, 53, 53], [462, 32, 108, 109], [20, 124, 53, 53], [108, 146, 44, 45],
    [176, 135, 64, 64], [279, 130, 53, 53], [589, 142, 37, 37], [20, 228, 53, 53],
    [121, 262, 76, 76], [246, 260, 63, 63], [343, 245, 52, 53], [529, 222, 37, 37],
    [21, 319, 44, 44], [362, 348, 44, 44], [11, 412, 63, 63], [114, 405, 63, 63],
    [250, 401, 53, 52], [342, 419, 64, 63], [467, 434, 45, 45], [577, 412, 64, 63],
]


def run(pixels: np.ndarray, upsample: int, adjust: float = 0.0):
    boxes, scores, indices = DETECTOR.run(pixels, upsample, adjust)
    return [[b.left(), b.top(), b.right(), b.bottom(), round(s, 9), int(i)] for b, s, i in zip(boxes, scores, indices)]


def main() -> None:
    os.makedirs(OUT, exist_ok=True)
    fixtures, truth = {}, {}
    for name, (img, boxes, source) in sorted(make_images().items()):
        path = os.path.join(OUT, f"{name}.jpg")
        img.save(path, quality=75)
        pixels = np.asarray(Image.open(path).convert("L"), dtype=np.uint8).copy()
        fixtures[name] = {
            "file": f"{name}.jpg", "width": int(pixels.shape[1]), "height": int(pixels.shape[0]),
            "fnv1a64": fnv1a64(pixels),
            "upsample0": run(pixels, 0), "upsample1": run(pixels, 1), "upsample0_adjust-0.5": run(pixels, 0, -0.5),
        }
        truth[name] = {"source": source, "faces": [[round(v) for v in b] for b in boxes]}
        print(name, pixels.shape, len(fixtures[name]["upsample0"]), len(fixtures[name]["upsample1"]), file=sys.stderr)
    meta = {"generator": "Scripts/make_hog_fixtures.py", "dlib": dlib.__version__,
            "box_format": "[left, top, right, bottom, score, filter] as dlib.rectangle (inclusive) and run()'s scores/indices",
            "images": fixtures}
    with open(os.path.join(OUT, "dlib.json"), "w") as f:
        json.dump(meta, f, indent=1)
        f.write("\n")
    with open(os.path.join(OUT, "truth.json"), "w") as f:
        json.dump({"box_format": "[left, top, width, height] of each face a person sees", "images": truth}, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
