#!/usr/bin/env python3
"""Eye-region (or mouth-region) contact sheets of a recording, for annotating blinks, winks and
closures (or smiles and open mouths) by eye.

Every frame of the recording (or of --from/--to, every --step'th) becomes one tile: the region
around both eyes and brows (with --region mouth: the lower face, from under the eyes to the chin),
scaled to the tile size, labelled with the frame index and its `t` from frames.jsonl.
Tiles fill COLS x ROWS sheets written as PNG. dlib's detector and 68-point predictor only place the
crop (the box carries over frames where no face is found); the tiles show the pixels, so the lids
are judged by looking, never from landmarks or an EAR or MAR curve. The person's right eye is on
the left of each tile (the image is not mirrored).

Usage: python3 Scripts/eye_sheets.py RECORDING OUTDIR [--region eyes|mouth] [--from N] [--to N]
                                     [--step N] [--cols 8] [--rows 12]
Needs: pip install dlib-bin opencv-python-headless numpy; Debian libdlib-data.
"""
import argparse
import json
import os

import cv2
import dlib
import numpy as np

MODEL = "/usr/share/dlib/shape_predictor_68_face_landmarks.dat"
TILES = {"eyes": (200, 70), "mouth": (140, 110)}


def read_frames(folder):
    entries = [json.loads(line) for line in open(os.path.join(folder, "frames.jsonl"))]
    data = open(os.path.join(folder, "frames.mjpeg"), "rb").read()
    for e in entries:
        buf = np.frombuffer(data[e["offset"]:e["offset"] + e["length"]], np.uint8)
        yield e["index"], e["t"], cv2.imdecode(buf, cv2.IMREAD_COLOR)


def eye_box(points, tile_w, tile_h):
    eyes = points[36:48]
    x0, y0 = eyes.min(0)
    x1, y1 = eyes.max(0)
    w = x1 - x0
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2 - 0.08 * w
    half_w = 0.65 * w
    half_h = half_w * tile_h / tile_w
    return int(cx - half_w), int(cy - half_h), int(cx + half_w), int(cy + half_h)


def mouth_box(points, tile_w, tile_h):
    """The lower face: cheeks and mouth, from the nose tip to below the chin, sized from the eye
    span so an opening mouth does not change the crop."""
    span = np.linalg.norm(points[36:42].mean(0) - points[42:48].mean(0))
    cx, cy = points[48:68].mean(0)
    half_w = 0.95 * span
    half_h = half_w * tile_h / tile_w
    return int(cx - half_w), int(cy - half_h), int(cx + half_w), int(cy + half_h)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("recording")
    ap.add_argument("outdir")
    ap.add_argument("--region", choices=sorted(TILES), default="eyes")
    ap.add_argument("--step", type=int, default=1, help="one tile every N frames")
    ap.add_argument("--from", dest="first", type=int, default=0)
    ap.add_argument("--to", dest="last", type=int, default=None)
    ap.add_argument("--cols", type=int, default=8)
    ap.add_argument("--rows", type=int, default=12)
    args = ap.parse_args()
    detector = dlib.get_frontal_face_detector()
    predictor = dlib.shape_predictor(MODEL)
    os.makedirs(args.outdir, exist_ok=True)
    name = os.path.basename(os.path.normpath(args.recording))
    per_sheet = args.cols * args.rows
    TILE_W, TILE_H = TILES[args.region]
    region_box = eye_box if args.region == "eyes" else mouth_box
    tiles, rect, box = [], None, None

    def flush():
        if not tiles:
            return
        sheet = np.full((args.rows * TILE_H, args.cols * TILE_W, 3), 40, np.uint8)
        for k, tile in enumerate(tiles):
            r, c = divmod(k, args.cols)
            sheet[r * TILE_H:(r + 1) * TILE_H, c * TILE_W:(c + 1) * TILE_W] = tile
        first = tiles[0].index
        path = os.path.join(args.outdir, f"{name}-{args.region}-{first:05d}.png")
        cv2.imwrite(path, sheet)
        print(path)
        tiles.clear()

    class Tile(np.ndarray):
        pass

    for index, t, image in read_frames(args.recording):
        if index < args.first or (args.last is not None and index > args.last) or (index - args.first) % args.step:
            continue
        gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        # the face fills the recordings' crops: detect at 1x on every 4th frame (or when lost)
        found = detector(gray, 0) if rect is None or index % 4 == 0 else [rect]
        if found:
            rect = max(found, key=lambda r: r.area())
        if rect is not None:
            points = np.array([[p.x, p.y] for p in predictor(gray, rect).parts()], float)
            box = region_box(points, TILE_W, TILE_H) if found or box is None else box
        if box is None:
            crop = np.zeros((TILE_H, TILE_W, 3), np.uint8)
        else:
            x0, y0, x1, y1 = box
            pad = max(0, -x0, -y0, x1 - image.shape[1], y1 - image.shape[0])
            padded = cv2.copyMakeBorder(image, pad, pad, pad, pad, cv2.BORDER_CONSTANT)
            crop = cv2.resize(padded[y0 + pad:y1 + pad, x0 + pad:x1 + pad], (TILE_W, TILE_H), interpolation=cv2.INTER_CUBIC)
        label = f"{index} {t:.3f}" + ("" if found else " ?")  # ?: no face found, crop carried over
        cv2.rectangle(crop, (0, 0), (len(label) * 8 + 4, 14), (0, 0, 0), -1)
        cv2.putText(crop, label, (2, 11), cv2.FONT_HERSHEY_SIMPLEX, 0.38, (0, 255, 255), 1, cv2.LINE_AA)
        cv2.rectangle(crop, (0, 0), (TILE_W - 1, TILE_H - 1), (90, 90, 90), 1)
        tile = crop.view(Tile)
        tile.index = index
        tiles.append(tile)
        if len(tiles) == per_sheet:
            flush()
    flush()


if __name__ == "__main__":
    main()
