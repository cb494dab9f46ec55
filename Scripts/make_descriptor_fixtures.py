#!/usr/bin/env python3
"""Make the dlib face descriptor parity fixtures in Tests/Fixtures/identity/.

Dev-time only (tests never run Python). Needs: pip dlib-bin 20.x, Pillow, numpy, scikit-image,
matplotlib; /usr/share/dlib/shape_predictor_68_face_landmarks.dat (libdlib-data) and the descriptor
model installed by Scripts/setup-models.

  python3 Scripts/make_descriptor_fixtures.py --crop DIR   # crop the source photos in DIR (once)
  python3 Scripts/make_descriptor_fixtures.py              # write descriptors.json and the chips

--crop reads the original photos (file names in SOURCES below; see Tests/Fixtures/identity/README.md
for where each comes from), finds the face with dlib's HOG detector, crops it with a margin, scales
it and writes Tests/Fixtures/identity/photos/NAME.jpg (JPEG quality 75). skimage's astronaut and
matplotlib's grace_hopper.jpg come from those packages.

The committed JPEG is the truth: each photo is decoded with PIL (libjpeg-turbo, as the Swift side),
the FNV-1a 64 hash of the decoded RGB bytes is recorded so the Swift test can check it decodes the same
pixels, and dlib runs on those pixels: HOG detector (upsample 1) -> 68-point shape predictor ->
get_face_chip(img, shape, 150, 0.25) (written as NAME.chip.rgb, 150*150*3 bytes) and
compute_face_descriptor(img, shape) (num_jitters 0, padding 0.25; 128 values in descriptors.json).
"""
import argparse
import json
import os
import sys

import dlib
import numpy as np
from PIL import Image

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "Tests", "Fixtures", "identity")
PHOTOS = os.path.join(OUT, "photos")
LANDMARKS = "/usr/share/dlib/shape_predictor_68_face_landmarks.dat"
DESCRIPTOR_MODEL_DIRS = [os.environ.get("FACEWATCH_MODELS", ""),
                         os.path.join(os.environ.get("XDG_DATA_HOME", os.path.expanduser("~/.local/share")), "facewatch/models"),
                         "/usr/local/share/facewatch/models"]

# name -> (person, source file in the --crop folder, face width in the crop in pixels)
SOURCES = {
    "obama_1": ("Barack Obama", "fr_obama.jpg", 110),
    "obama_2": ("Barack Obama", "fr_obama2.jpg", 120),
    "obama_3": ("Barack Obama", "fr_obama1.jpg", 100),
    "biden_1": ("Joe Biden", "fr_biden.jpg", 120),
    "biden_2": ("Joe Biden", "fr_biden2.jpg", 110),
    "rudd_1": ("Paul Rudd", "max_Paul.jpeg", 115),
    "rudd_2": ("Paul Rudd", "max_Paul2.jpeg", 105),
    "pratt": ("Chris Pratt", "max_Chris.jpeg", 110),
    "luciano": ("Luciano (CODAIT)", "max_Luciano.png", 120),
    "lennon": ("John Lennon", "beatles_john.jpg", 110),
    "mccartney": ("Paul McCartney", "beatles_paul.jpg", 110),
    "harrison": ("George Harrison", "beatles_george.jpg", 110),
    "starr": ("Ringo Starr", "beatles_ringo.jpg", 110),
    "collins": ("Eileen Collins", "skimage:astronaut", 120),
    "hopper": ("Grace Hopper", "matplotlib:grace_hopper.jpg", 115),
    # A large face: its chip comes through dlib's image pyramid (chip rectangle wider than 300 px).
    "collins_large": ("Eileen Collins", "skimage:astronaut", 330),
}

DETECTOR = dlib.get_frontal_face_detector()
PREDICTOR = dlib.shape_predictor(LANDMARKS)


def descriptor_model():
    for d in DESCRIPTOR_MODEL_DIRS:
        p = os.path.join(d, "dlib_face_recognition_resnet_model_v1.dat")
        if d and os.path.exists(p):
            return p
    sys.exit("dlib_face_recognition_resnet_model_v1.dat not installed: run Scripts/setup-models")


def fnv1a64(data: bytes) -> str:
    h = 0xcbf29ce484222325
    for b in data:
        h ^= b
        h = (h * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return "%016x" % h


def load_source(folder, source):
    if source == "skimage:astronaut":
        import skimage.data
        return skimage.data.astronaut()
    if source.startswith("matplotlib:"):
        import matplotlib.cbook
        return np.asarray(Image.open(matplotlib.cbook.get_sample_data(source.split(":")[1], asfileobj=False)).convert("RGB"))
    return np.asarray(Image.open(os.path.join(folder, source)).convert("RGB"))


def crop(folder):
    os.makedirs(PHOTOS, exist_ok=True)
    for name, (person, source, face_width) in SOURCES.items():
        img = load_source(folder, source)
        faces = DETECTOR(img, 1)
        if len(faces) == 0:
            sys.exit(f"{name}: no face in {source}")
        f = max(faces, key=lambda r: r.area())
        scale = face_width / f.width()
        cx, cy = f.center().x, f.center().y
        half = f.width() * 0.95
        box = (max(0, int(cx - half)), max(0, int(cy - half * 1.15)), min(img.shape[1], int(cx + half)), min(img.shape[0], int(cy + half * 1.05)))
        im = Image.fromarray(img).crop(box)
        im = im.resize((max(1, round(im.width * scale)), max(1, round(im.height * scale))), Image.LANCZOS)
        im.save(os.path.join(PHOTOS, name + ".jpg"), quality=75)
        print(f"{name}: {source} face {f.width()} px -> {im.size}")


def make():
    facerec = dlib.face_recognition_model_v1(descriptor_model())
    entries = []
    for name, (person, _, _) in SOURCES.items():
        path = os.path.join(PHOTOS, name + ".jpg")
        img = np.ascontiguousarray(np.asarray(Image.open(path).convert("RGB")))
        faces = DETECTOR(img, 1)
        if len(faces) != 1:
            sys.exit(f"{name}: {len(faces)} faces found, expected 1")
        shape = PREDICTOR(img, faces[0])
        points = [[shape.part(i).x, shape.part(i).y] for i in range(68)]
        chip = dlib.get_face_chip(img, shape, size=150, padding=0.25)
        assert chip.shape == (150, 150, 3)
        with open(os.path.join(OUT, name + ".chip.rgb"), "wb") as fh:
            fh.write(np.ascontiguousarray(chip).tobytes())
        descriptor = facerec.compute_face_descriptor(img, shape, 0, 0.25)
        entries.append({
            "name": name, "person": person, "image": f"photos/{name}.jpg",
            "width": int(img.shape[1]), "height": int(img.shape[0]),
            "pixels_fnv1a64": fnv1a64(img.tobytes()),
            "box": [faces[0].left(), faces[0].top(), faces[0].right(), faces[0].bottom()],
            "points": points,
            "chip": f"{name}.chip.rgb",
            "descriptor": [float(v) for v in descriptor],
        })
        print(f"{name}: face {faces[0].width()} px")
    doc = {"dlib": dlib.__version__, "padding": 0.25, "chip_size": 150, "num_jitters": 0, "faces": entries}
    with open(os.path.join(OUT, "descriptors.json"), "w") as fh:
        json.dump(doc, fh, indent=1)
        fh.write("\n")


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--crop", metavar="DIR")
    args = ap.parse_args()
    if args.crop:
        crop(args.crop)
    make()
