#!/usr/bin/env python3
"""Write dlib's frontal face detector model to Models/dlib_frontal_face_detector.dat.

Dev-time only. Needs `pip install dlib-bin==20.0.1.post1`. The file is dlib's own serialization of
`get_frontal_face_detector()` (object_detector<scan_fhog_pyramid<pyramid_down<6>>>, five 10×10-cell
fHOG filters); the script checks the bytes against the checksum recorded in Models/README.md.

  python3 Scripts/make_hog_model.py
"""
import hashlib
import os
import sys

import dlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PATH = os.path.join(ROOT, "Models", "dlib_frontal_face_detector.dat")
SHA256 = "f3f7aa833fb4a14a46fc48689f45b98d85ef72d6dfaf8bdc012b7d3c522a5426"


def main() -> None:
    os.makedirs(os.path.dirname(PATH), exist_ok=True)
    dlib.get_frontal_face_detector().save(PATH)
    with open(PATH, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    print(f"{PATH}: {os.path.getsize(PATH)} bytes, sha256 {digest} (dlib {dlib.__version__})")
    if digest != SHA256:
        sys.exit(f"sha256 differs from {SHA256}: another dlib version wrote a different file")


if __name__ == "__main__":
    main()
