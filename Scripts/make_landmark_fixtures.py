#!/usr/bin/env python3
"""Make the dlib shape_predictor reference fixtures in Tests/Fixtures/landmarks/.

Dev-time only (tests never run Python). Deterministic: same inputs and tool versions give the same
bytes. Needs: pip dlib-bin 20.x, opencv-python-headless, scikit-image, matplotlib, Pillow, numpy;
Debian packages libdlib-dev (headers), libdlib-data (the model), libturbojpeg0 (decode cross-check),
g++.

  python3 Scripts/make_landmark_fixtures.py

Outputs
  Tests/Fixtures/landmarks/*.jpg          landmark test images (gray, one colour)
  Tests/Fixtures/landmarks/landmarks.json dlib's 68 points per (image, box): the Python binding's
                                          integers and the float points before rounding, from
                                          Scripts/dlib_float_landmarks.cpp
  Tests/Fixtures/landmarks/hog/*.jpg      640x480 gray canvases: tilt, scale, mirror, perspective
  Tests/Fixtures/landmarks/hog_faces.json dlib's HOG detector boxes (upsample 1) and 68 points there

The committed JPEG is the truth: every image is written, read back (PIL) and those decoded pixels are
what dlib sees. The decode is cross-checked against OpenCV's decoder and against Debian's libturbojpeg
(the library the Swift side links).
"""
from __future__ import annotations

import ctypes
import hashlib
import json
import math
import os
import re
import subprocess
import sys
import tempfile

import cv2
import dlib
import matplotlib
import numpy as np
import PIL
import skimage
import skimage.data
from PIL import Image

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "Tests", "Fixtures", "landmarks")
HOG_OUT = os.path.join(OUT, "hog")
MODEL = "/usr/share/dlib/shape_predictor_68_face_landmarks.dat"
MODEL_SHA256 = "fbdc2cb80eb9aa7a758672cbfdda32ba6300efe9b6e6c7a299ff7e736b11b92f"
CPP = os.path.join(ROOT, "Scripts", "dlib_float_landmarks.cpp")
HOPPER = os.path.join(matplotlib.get_data_path(), "sample_data", "grace_hopper.jpg")
TURBOJPEG = "/usr/lib/x86_64-linux-gnu/libturbojpeg.so.0"

DETECTOR = dlib.get_frontal_face_detector()
PREDICTOR = dlib.shape_predictor(MODEL)


# ----------------------------------------------------------------------------------------------
# Hashing, JPEG encode/decode and decoder cross-checks


def sha256_bytes(b: bytes) -> str:
    return hashlib.sha256(b).hexdigest()


def sha256_file(path: str) -> str:
    with open(path, "rb") as f:
        return sha256_bytes(f.read())


class TurboJPEG:
    """Debian's libturbojpeg (2.1.5) through its C API: default flags = islow IDCT, fancy upsampling."""

    TJPF_RGB, TJPF_GRAY = 0, 6

    def __init__(self) -> None:
        self.lib = ctypes.CDLL(TURBOJPEG)
        self.lib.tjInitDecompress.restype = ctypes.c_void_p
        self.lib.tjDecompressHeader3.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_ulong] + [
            ctypes.POINTER(ctypes.c_int)] * 4
        self.lib.tjDecompress2.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_ulong, ctypes.c_void_p,
                                           ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_int]
        self.lib.tjDestroy.argtypes = [ctypes.c_void_p]

    def decode(self, data: bytes, gray: bool) -> np.ndarray:
        h = self.lib.tjInitDecompress()
        try:
            w, ht, sub, cs = (ctypes.c_int() for _ in range(4))
            if self.lib.tjDecompressHeader3(h, data, len(data), ctypes.byref(w), ctypes.byref(ht),
                                            ctypes.byref(sub), ctypes.byref(cs)) != 0:
                raise RuntimeError("tjDecompressHeader3 failed")
            channels = 1 if gray else 3
            out = np.zeros((ht.value, w.value, channels), dtype=np.uint8)
            fmt = self.TJPF_GRAY if gray else self.TJPF_RGB
            if self.lib.tjDecompress2(h, data, len(data), out.ctypes.data, w.value, 0, ht.value, fmt, 0) != 0:
                raise RuntimeError("tjDecompress2 failed")
            return out[:, :, 0] if gray else out
        finally:
            self.lib.tjDestroy(h)


TJ = TurboJPEG()


def jpeg_components(data: bytes) -> int:
    """Number of components in the (first) SOF marker; also asserts baseline SOF0."""
    i = 2
    while i < len(data):
        assert data[i] == 0xFF
        marker = data[i + 1]
        length = data[i + 2] << 8 | data[i + 3]
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            assert marker == 0xC0, f"not baseline: SOF{marker - 0xC0}"
            return data[i + 9]
        i += 2 + length
    raise ValueError("no SOF marker")


def write_gray_jpeg(arr: np.ndarray, path: str, quality: int) -> np.ndarray:
    """Encodes a single-component baseline JPEG, then returns the pixels read back from the file."""
    Image.fromarray(arr, "L").save(path, "JPEG", quality=quality, optimize=False, progressive=False)
    with open(path, "rb") as f:
        data = f.read()
    assert jpeg_components(data) == 1
    with Image.open(path) as im:
        assert im.mode == "L"
        px = np.ascontiguousarray(np.array(im, dtype=np.uint8))
    cv = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_UNCHANGED)
    tj = TJ.decode(data, gray=True)
    assert cv.shape == px.shape and np.array_equal(cv, px), f"{path}: OpenCV gray decode differs from PIL"
    assert np.array_equal(tj, px), f"{path}: libturbojpeg 2.1.5 gray decode differs from PIL"
    return px


def write_gray_record(path: str, px: np.ndarray, quality: int) -> dict:
    return {"file": os.path.relpath(path, OUT), "width": int(px.shape[1]), "height": int(px.shape[0]),
            "components": 1, "quality": quality, "bytes": os.path.getsize(path),
            "pixels_sha256": sha256_bytes(px.tobytes())}


# ----------------------------------------------------------------------------------------------
# dlib: detector, Python predictor, C++ float predictor


def hog_boxes(px: np.ndarray) -> list[tuple[list[int], float]]:
    dets, scores, _ = DETECTOR.run(px, 1, 0)
    return [([d.left(), d.top(), d.width(), d.height()], float(s)) for d, s in zip(dets, scores)]


def rect(box: list[int]) -> dlib.rectangle:
    x, y, w, h = box
    return dlib.rectangle(x, y, x + w - 1, y + h - 1)


def python_points(px: np.ndarray, box: list[int]) -> list[list[int]]:
    shape = PREDICTOR(px, rect(box))
    return [[shape.part(i).x, shape.part(i).y] for i in range(shape.num_parts)]


class FloatPredictor:
    """Builds Scripts/dlib_float_landmarks.cpp and runs it over (PGM, box) jobs."""

    BUILD = ["g++", "-std=c++14", "-O2", "-DFLOAT_LANDMARKS_NO_LAPACK"]
    BUILD_LAPACK = ["g++", "-std=c++14", "-O2"]
    LAPACK_LIBS = ["-l:liblapack.so.3", "-l:libblas.so.3"]

    def __init__(self, tmp: str) -> None:
        self.tmp = tmp
        self.exe = os.path.join(tmp, "dlib_float_landmarks")
        subprocess.run(self.BUILD + [CPP, "-o", self.exe], check=True)
        self.exe_lapack = os.path.join(tmp, "dlib_float_landmarks_lapack")
        subprocess.run(self.BUILD_LAPACK + [CPP, "-o", self.exe_lapack] + self.LAPACK_LIBS, check=True)
        self.jobs: list[tuple[str, list[int]]] = []
        self.pgms: dict[str, str] = {}

    def pgm(self, name: str, px: np.ndarray) -> str:
        path = os.path.join(self.tmp, name.replace("/", "_") + ".pgm")
        with open(path, "wb") as f:
            f.write(b"P5\n%d %d\n255\n" % (px.shape[1], px.shape[0]))
            f.write(px.tobytes())
        self.pgms[name] = path
        return path

    def run(self, exe: str, jobs: list[tuple[str, list[int]]]) -> list[tuple[list, list]]:
        text = "".join(f"{self.pgms[n]} {b[0]} {b[1]} {b[2]} {b[3]}\n" for n, b in jobs)
        out = subprocess.run([exe, MODEL], input=text, capture_output=True, text=True, check=True).stdout
        results = []
        for line in out.splitlines():
            ints, floats = line.split(" | ")
            iv = list(map(int, ints.split()[1:]))
            fv = list(map(float, floats.split()[1:]))
            results.append(([iv[2 * i:2 * i + 2] for i in range(68)], [fv[2 * i:2 * i + 2] for i in range(68)]))
        assert len(results) == len(jobs)
        return results


def write_json(path: str, obj: dict) -> None:
    """Indented JSON with every innermost array of numbers on one line."""
    text = json.dumps(obj, indent=1)
    text = re.sub(r"\[\s*([-0-9.eE+,\s]+?)\s*\]",
                  lambda m: "[" + re.sub(r"\s+", " ", m.group(1)) + "]", text)
    with open(path, "w") as f:
        f.write(text + "\n")


def dlib_round(v: float) -> int:
    """dlib::vector<double,2> -> dlib::point conversion: floor(v + 0.5)."""
    return math.floor(v + 0.5)


# ----------------------------------------------------------------------------------------------
# Landmark test images and boxes


def source_gray(rgb: np.ndarray) -> np.ndarray:
    return np.array(Image.fromarray(rgb, "RGB").convert("L"), dtype=np.uint8)


def box_variants(hog: list[int], full: bool) -> list[tuple[str, list[int]]]:
    x, y, w, h = hog
    cx, cy = x + w / 2, y + h / 2

    def centered(bw: float, bh: float, dy: float = 0) -> list[int]:
        bw, bh = round(bw), round(bh)
        return [round(cx - bw / 2), round(cy + dy - bh / 2), bw, bh]

    v = [("hog", list(hog)),
         ("shifted", [x + round(0.15 * w), y, w, h]),
         ("shifted", [x - round(0.12 * w), y + round(0.10 * h), w, h]),
         ("scaled", centered(0.8 * w, 0.8 * h)),
         ("scaled", centered(1.25 * w, 1.25 * h)),
         ("tiny", centered(40, 40)),
         ("huge", centered(3.0 * w, 3.0 * h))]
    if full:
        v += [("shifted", [x, y - round(0.20 * h), w, h]),
              ("shifted", [x + round(0.18 * w), y + round(0.18 * h), w, h]),
              ("nonsquare", centered(1.2 * w, 0.9 * h)),
              ("nonsquare", centered(0.85 * w, 1.15 * h, dy=0.05 * h)),
              # Box hanging over the top-left corner of the frame: many feature pixels fall
              # outside the image, where dlib reads 0. Not on the face; a pure parity case.
              ("partial", [-w // 2, -h // 3, w, h])]
    return v


def make_landmark_images() -> tuple[list[dict], list[tuple[str, np.ndarray, list]]]:
    """Writes the landmark test JPEGs. Returns image records and (name, pixels, boxes) per image."""
    astro_rgb = skimage.data.astronaut()
    with Image.open(HOPPER) as im:
        hopper_rgb = np.array(im.convert("RGB"))
    astro = source_gray(astro_rgb)
    hopper = source_gray(hopper_rgb)

    images: list[tuple[str, np.ndarray, bool, list[int] | None]] = []
    images.append(("astronaut_gray.jpg", astro, True, None))
    images.append(("hopper_gray.jpg", hopper, True, None))
    rot = np.array(Image.fromarray(astro).rotate(12, resample=Image.BICUBIC, center=(220, 121), fillcolor=96))
    images.append(("astronaut_rot12_gray.jpg", rot, False, None))
    small = Image.fromarray(astro).resize((307, 307), Image.LANCZOS)
    canvas = Image.new("L", (640, 480), 96)
    canvas.paste(small, (260, 90))
    images.append(("astronaut_small_canvas_gray.jpg", np.array(canvas), False, None))
    images.append(("hopper_mirror_gray.jpg", np.ascontiguousarray(hopper[:, ::-1]), False, None))
    # Face cut by the left/top frame edge: the astronaut's HOG box (175, 76, 91, 91) moved by the crop.
    crop = np.ascontiguousarray(astro[100:, 210:])
    images.append(("astronaut_crop_gray.jpg", crop, False, [175 - 210, 76 - 100, 91, 91]))

    records, cases = [], []
    for name, arr, full, forced in images:
        path = os.path.join(OUT, name)
        px = write_gray_jpeg(arr, path, 90)
        rec = write_gray_record(path, px, 90)
        found = hog_boxes(px)
        rec["hog_detections"] = [{"box": b, "score": round(s, 6)} for b, s in found]
        records.append(rec)
        if forced is not None:
            boxes = [("partial", forced)] + [(k, b) for k, b in box_variants(forced, False)[1:]]
        else:
            assert found, f"{name}: dlib's HOG detector found no face"
            best = max(found, key=lambda bs: bs[0][2])[0]
            boxes = box_variants(best, full)
        cases.append((name, px, boxes))
    return records, cases


def make_colour_image() -> tuple[dict, tuple[str, np.ndarray, list]]:
    """Colour astronaut (4:2:0, q90): dlib's gray = (R+G+B)/3 of the decoded RGB."""
    name = "astronaut_color.jpg"
    path = os.path.join(OUT, name)
    Image.fromarray(skimage.data.astronaut(), "RGB").save(path, "JPEG", quality=90, subsampling=2,
                                                          optimize=False, progressive=False)
    with open(path, "rb") as f:
        data = f.read()
    assert jpeg_components(data) == 3
    with Image.open(path) as im:
        rgb = np.ascontiguousarray(np.array(im.convert("RGB"), dtype=np.uint8))
    cv = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)[:, :, ::-1]
    tj = TJ.decode(data, gray=False)
    cv_equal = bool(np.array_equal(cv, rgb))
    tj_equal = bool(np.array_equal(tj, rgb))
    gray = (rgb.astype(np.uint16).sum(axis=2) // 3).astype(np.uint8)
    # Python dlib fed the RGB array must see the same gray as our (R+G+B)//3 conversion.
    found = hog_boxes(gray)
    assert found, "astronaut_color: no HOG face"
    hog = max(found, key=lambda bs: bs[0][2])[0]
    for _, b in box_variants(hog, False):
        assert python_points(rgb, b) == python_points(gray, b), "dlib RGB input != (R+G+B)//3 gray input"
    rec = {"file": name, "width": int(rgb.shape[1]), "height": int(rgb.shape[0]), "components": 3,
           "quality": 90, "subsampling": "4:2:0", "bytes": os.path.getsize(path),
           "rgb_sha256": sha256_bytes(rgb.tobytes()),
           "conversion": "rgb-mean",
           "pixels_sha256": sha256_bytes(gray.tobytes()),
           "pixels_note": "pixels_sha256 is of the gray image dlib sees: (R+G+B)//3 of the RGB decode",
           "opencv_rgb_equal": cv_equal, "libturbojpeg_2_1_5_rgb_equal": tj_equal,
           "hog_detections": [{"box": b, "score": round(s, 6)} for b, s in found]}
    if not (cv_equal and tj_equal):
        print(f"WARNING {name}: decoders differ: opencv={cv_equal} libturbojpeg-2.1.5={tj_equal}")
        for label, other in (("opencv", cv), ("libturbojpeg", tj)):
            d = np.abs(other.astype(int) - rgb.astype(int))
            print(f"  {label}: differing samples {int((d > 0).sum())}, max diff {int(d.max())}")
    return rec, (name, gray, box_variants(hog, False)[:5])


# ----------------------------------------------------------------------------------------------
# HOG-detector images: tilt, scale, mirror, perspective on 640x480 canvases

CANVAS = (640, 480)
BACKGROUND = 96


def place(src: np.ndarray, src_box: list[int], face_w: int, angle: float, center: tuple[int, int],
          mirror: bool = False, persp: float = 0.0) -> tuple[np.ndarray, list[float]]:
    """Scales src so its face box is face_w wide, rotates by angle (degrees, counter-clockwise) about the
    face centre, puts the face centre at `center` of a 640x480 canvas. persp != 0 then applies a
    horizontal keystone about the face (one side shrinks by persp): a tilted photo, not a 3D turn.
    Returns the canvas and the source box centre/size mapped (cx, cy, w) for reference."""
    img = src[:, ::-1] if mirror else src
    bx, by, bw, bh = src_box
    cx_src = (src.shape[1] - (bx + bw / 2)) if mirror else (bx + bw / 2)
    cy_src = by + bh / 2
    s = face_w / bw
    resized = np.array(Image.fromarray(np.ascontiguousarray(img)).resize(
        (round(img.shape[1] * s), round(img.shape[0] * s)), Image.LANCZOS))
    m = cv2.getRotationMatrix2D((cx_src * s, cy_src * s), angle, 1.0)
    m[0, 2] += center[0] - cx_src * s
    m[1, 2] += center[1] - cy_src * s
    out = cv2.warpAffine(resized, m, CANVAS, flags=cv2.INTER_CUBIC, borderMode=cv2.BORDER_CONSTANT,
                         borderValue=BACKGROUND)
    if persp:
        half = 1.6 * face_w
        cx, cy = center
        srcq = np.float32([[cx - half, cy - half], [cx + half, cy - half], [cx + half, cy + half], [cx - half, cy + half]])
        k = half * persp
        # The right side (persp > 0) or left side (persp < 0) gets shorter and moves inward.
        if persp > 0:
            dstq = np.float32([[cx - half, cy - half], [cx + half - k, cy - half + k / 2],
                               [cx + half - k, cy + half - k / 2], [cx - half, cy + half]])
        else:
            k = -k
            dstq = np.float32([[cx - half + k, cy - half + k / 2], [cx + half, cy - half],
                               [cx + half, cy + half], [cx - half + k, cy + half - k / 2]])
        hmat = cv2.getPerspectiveTransform(srcq, dstq)
        out = cv2.warpPerspective(out, hmat, CANVAS, flags=cv2.INTER_CUBIC, borderMode=cv2.BORDER_CONSTANT,
                                  borderValue=BACKGROUND)
    return np.ascontiguousarray(out), [float(center[0]), float(center[1]), float(face_w)]


def make_hog_images(fp: FloatPredictor) -> list[dict]:
    os.makedirs(HOG_OUT, exist_ok=True)
    astro = source_gray(skimage.data.astronaut())
    with Image.open(HOPPER) as im:
        hopper = source_gray(np.array(im.convert("RGB")))
    srcs = {"astronaut": (astro, [175, 76, 91, 91]), "hopper": (hopper, [180, 139, 187, 187])}
    specs = [
        # name, source, face width px, angle deg (counter-clockwise), centre, mirror, perspective
        ("astronaut_rot+10", "astronaut", 150, 10, (320, 240), False, 0.0),
        ("astronaut_rot-10", "astronaut", 150, -10, (300, 220), False, 0.0),
        ("astronaut_rot+20", "astronaut", 150, 20, (340, 250), False, 0.0),
        ("astronaut_rot-20", "astronaut", 150, -20, (320, 240), False, 0.0),
        ("hopper_rot+10", "hopper", 150, 10, (320, 230), False, 0.0),
        ("hopper_rot-20", "hopper", 150, -20, (330, 240), False, 0.0),
        ("astronaut_w80", "astronaut", 80, 0, (220, 180), False, 0.0),
        ("astronaut_w120", "astronaut", 120, 0, (420, 260), False, 0.0),
        ("hopper_w180", "hopper", 180, 0, (320, 240), False, 0.0),
        ("astronaut_w250", "astronaut", 250, 0, (320, 240), False, 0.0),
        ("hopper_w100", "hopper", 100, 0, (380, 200), False, 0.0),
        ("astronaut_mirror", "astronaut", 140, 0, (300, 240), True, 0.0),
        ("hopper_mirror_rot+15", "hopper", 130, 15, (320, 240), True, 0.0),
        ("astronaut_persp_right", "astronaut", 150, 0, (320, 240), False, 0.25),
        ("hopper_persp_left", "hopper", 150, 0, (320, 240), False, -0.25),
    ]
    records, jobs = [], []
    for name, src, fw, angle, center, mirror, persp in specs:
        img, ref = place(srcs[src][0], srcs[src][1], fw, angle, center, mirror, persp)
        file = f"hog/{name}.jpg"
        path = os.path.join(OUT, file)
        px = write_gray_jpeg(img, path, 85)
        rec = write_gray_record(path, px, 85)
        found = hog_boxes(px)
        rec.update({"source": src, "source_hog_box": srcs[src][1], "face_width": fw, "angle_deg": angle,
                    "angle_note": "counter-clockwise in image coordinates (OpenCV getRotationMatrix2D)",
                    "mirror": mirror, "perspective": persp, "face_center": [center[0], center[1]],
                    "hog_detections": [{"box": b, "score": round(s, 6)} for b, s in found]})
        # The face: the detection whose centre is nearest the placed face centre.
        if found:
            best = min(found, key=lambda bs: (bs[0][0] + bs[0][2] / 2 - center[0]) ** 2
                       + (bs[0][1] + bs[0][3] / 2 - center[1]) ** 2)[0]
            rec["hog_box"] = best
            rec["points"] = python_points(px, best)
            fp.pgm(file, px)
            jobs.append((file, best))
        else:
            rec["hog_box"] = None
            rec["points"] = None
        records.append(rec)
    results = fp.run(fp.exe, jobs)
    by_file = {f: r for (f, _), r in zip(jobs, results)}
    for rec in records:
        if rec["hog_box"] is not None:
            ints, floats = by_file[rec["file"]]
            assert ints == rec["points"], f"{rec['file']}: C++ dlib 19.24 ints != Python dlib ints"
            rec["points_float"] = [[round(x, 6), round(y, 6)] for x, y in floats]
    return records


# ----------------------------------------------------------------------------------------------


def main() -> int:
    assert sha256_file(MODEL) == MODEL_SHA256, "unexpected model file"
    os.makedirs(OUT, exist_ok=True)
    tools = {"dlib_python": dlib.__version__, "dlib_cpp_headers": "19.24 (Debian libdlib-dev)",
             "opencv": cv2.__version__, "pillow": PIL.__version__, "numpy": np.__version__,
             "scikit_image": skimage.__version__, "matplotlib": matplotlib.__version__}
    with tempfile.TemporaryDirectory() as tmp:
        fp = FloatPredictor(tmp)
        image_records, image_cases = make_landmark_images()
        colour_record, colour_case = make_colour_image()
        image_records.append(colour_record)
        image_cases.append(colour_case)

        cases, jobs = [], []
        for name, px, boxes in image_cases:
            fp.pgm(name, px)
            for kind, box in boxes:
                case = {"image": name, "box": box, "kind": kind, "points": python_points(px, box)}
                if name == colour_record["file"]:
                    case["conversion"] = "rgb-mean"
                cases.append(case)
                jobs.append((name, box))
        results = fp.run(fp.exe, jobs)
        lapack_results = fp.run(fp.exe_lapack, jobs)

        mismatches, round_mismatches, near_half = [], [], []
        lapack_max = 0.0
        for ci, (case, (ints, floats), (_, lfloats)) in enumerate(zip(cases, results, lapack_results)):
            if ints != case["points"]:
                mismatches.append((ci, case["image"], case["kind"]))
            for k, ((fx, fy), (lx, ly)) in enumerate(zip(floats, lfloats)):
                lapack_max = max(lapack_max, abs(fx - lx), abs(fy - ly))
                for axis, v in (("x", fx), ("y", fy)):
                    if dlib_round(v) != case["points"][k][0 if axis == "x" else 1]:
                        round_mismatches.append((ci, k, axis, v))
                    if abs(v - math.floor(v) - 0.5) < 1e-3:
                        near_half.append({"case": ci, "image": case["image"], "kind": case["kind"],
                                          "point": k, "axis": axis, "value": round(v, 6)})
            case["points_float"] = [[round(x, 6), round(y, 6)] for x, y in floats]
            assert [[dlib_round(x), dlib_round(y)] for x, y in case["points_float"]] == case["points"], \
                f"case {ci}: 6-decimal floats no longer round to dlib's integers"

        hog_records = make_hog_images(fp)

    fixture = {
        "generator": "Scripts/make_landmark_fixtures.py",
        "tools": tools,
        "model": {"path": MODEL, "sha256": MODEL_SHA256, "bytes": os.path.getsize(MODEL)},
        "box_format": "[x, y, w, h] = dlib.rectangle(x, y, x+w-1, y+h-1) (inclusive right/bottom)",
        "points": "dlib Python binding (pip dlib-bin) shape_predictor(img, rect) integer parts",
        "points_float": ("tform_to_img(location(current_shape, k)) as double, before dlib rounds with "
                         "floor(v+0.5); from Scripts/dlib_float_landmarks.cpp (dlib 19.24 headers, no "
                         "BLAS/LAPACK like dlib-bin), rounded to 6 decimals"),
        "float_checks": {"cpp_int_equals_python_int": not mismatches,
                         "round_float_equals_python_int": not round_mismatches,
                         "max_abs_diff_vs_debian_lapack_build": lapack_max,
                         "within_1e-3_of_half": near_half},
        "images": image_records,
        "cases": cases,
    }
    write_json(os.path.join(OUT, "landmarks.json"), fixture)
    hog_fixture = {
        "generator": "Scripts/make_landmark_fixtures.py",
        "tools": tools,
        "model": fixture["model"],
        "box_format": fixture["box_format"],
        "detector": "dlib.get_frontal_face_detector().run(img, 1, 0) (upsample 1, threshold 0)",
        "canvas": {"width": CANVAS[0], "height": CANVAS[1], "background": BACKGROUND},
        "images": hog_records,
    }
    write_json(os.path.join(OUT, "hog_faces.json"), hog_fixture)

    print(f"landmark cases: {len(cases)}; C++ int != Python int: {mismatches}")
    print(f"round(float) != Python int: {round_mismatches}")
    print(f"max |float(no LAPACK) - float(Debian LAPACK)|: {lapack_max:.3g}")
    print(f"floats within 1e-3 of .5: {len(near_half)}")
    for n in near_half:
        print("  ", n)
    print(f"hog images: {len(hog_records)}, detected: {sum(r['hog_box'] is not None for r in hog_records)}")
    for r in hog_records:
        print("  ", r["file"], r["hog_box"], [d["score"] for d in r["hog_detections"]])
    return 1 if (mismatches or round_mismatches) else 0


if __name__ == "__main__":
    sys.exit(main())
