#!/usr/bin/env python3
"""Make presentation-attack recordings (shared/spec/recording-format.md) from real recordings, for
scoring `facewatch check` as ISO/IEC 30107-3 APCER: every output is an attack, so every pass is an error.

For each SOURCE recording folder (frames.mjpeg + frames.jsonl, truth.json optional) it writes, under
--out, 640x480 recordings at a regular 30 fps (t = i/30) named <source>-<kind>:

  screen         the source video played on a phone screen filmed by a webcam: the screen (with a dark
                 bezel) is a 3-D plane held by hand (a slowly varying homography: slight yaw, pitch,
                 roll and shift) in front of a room background; the video is resampled from its own
                 timestamps to the camera's clock (the latest source frame at each camera time); display
                 gamma, raised black level and a cool white point; a moire fringe pattern (the beat
                 between a grating on the screen plane and one on the sensor grid, so it curves with
                 the perspective and crawls as the hand shakes); a drifting glare highlight; a
                 refresh-rate beat (a faint dark horizontal band rolling down the screen); defocus
                 blur and sensor noise. The face is scaled to about 165 px wide.
  replay-webcam  the source video fitted (letterboxed) into 640x480 at the camera's 30 fps: what an
                 injected or virtual-camera replay delivers. No other change.
  photo-held     one source frame with the eyes open, printed (white border, lower contrast and
                 saturation, paper texture, paper white below 255) and held in front of the camera
                 with a small hand tremor (6 s).
  photo-moved    the same print moved across the frame: translation, roll and distance drift (8 s).
  photo-turned   the same print turned about its vertical axis to +45 and -45 deg and back, then
                 tilted about its horizontal axis to +25 and -25 deg (a nod) and back: a 3-D plane
                 rotation projected with a pinhole camera (f = 700 px), rendered by its homography;
                 the card's shading follows its normal (8 s).
  photo-bent     the print bent into a cylinder whose curvature changes over time (ray-cast per
                 pixel, shaded by the surface normal) while tremoring (7 s).
  photo-eyecut   the print with both eye regions cut out (an ellipse around each eye's landmarks) and
                 the REAL eyes of the same person from the source video behind the holes: each source
                 frame's eye (dlib landmarks, eye corners smoothed over 5 frames) is aligned to its hole
                 by a similarity transform on the two eye corners and composited only inside the hole
                 (2-px soft edge), slightly shaded as it sits behind the card; the card tremors.
                 Length: the source's or 12 s, whichever is shorter (from the source's start).

The print is made from the frame nearest the clip's middle that is at least 0.5 s from every truth
blink, wink, eyes_closed (and squint / look_down negative) interval, where dlib finds the face and
its eye aspect ratio is at least 0.9 x the clip's 75th percentile (eyes open). dlib's HOG detector
and 68-point predictor place things (the print crop, eye holes, eye alignment, the face's size); they
are not truth. Each written frame is decoded and given to dlib's HOG detector (upsample 0, then 1
where 0 finds nothing); the fraction of frames with a face is printed and written in truth.json's notes.

truth.json: {"faces": 1, "attack": KIND, "source": SOURCE, "events": [], "notes": ...}. Output is
deterministic for a --seed (and given package versions): every random draw comes from a generator
seeded by (seed, CRC-32 of the source name, kind).

Frames are written by Scripts/make_real_recordings.py's writer (baseline JPEG, optimised Huffman
tables; quality --quality, default 70).

Usage:
  python3 Scripts/make_attack_recordings.py SOURCE... --out DIR [--seed N] [--kinds K,...]
          [--seconds S] [--quality Q] [--face PX] [--only NAME...]
  --seconds S caps every recording's length at S seconds (the photo-turned timeline is compressed to
  fit); --only writes just the named outputs (<source>-<kind>).
Needs: pip install dlib-bin opencv-python-headless numpy; Debian libdlib-data (68-point model).
"""
import argparse
import json
import os
import sys
import zlib
from collections import OrderedDict

import cv2
import dlib
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_real_recordings import encode_jpeg, write_frames, write_info  # noqa: E402

MODEL = "/usr/share/dlib/shape_predictor_68_face_landmarks.dat"
W, H, FPS = 640, 480, 30
FOCAL = 700.0                       # the webcam's focal length in pixels (about 49 deg horizontal view)
FACE = 165.0                        # target face width (dlib box) in the camera image, px
KINDS = ["screen", "replay-webcam", "photo-held", "photo-moved", "photo-turned", "photo-bent", "photo-eyecut"]
PHOTO_SECONDS = {"photo-held": 6.0, "photo-moved": 8.0, "photo-turned": 8.0, "photo-bent": 7.0}
EYECUT_SECONDS = 12.0
CLOSED_TYPES = {"blink", "wink", "eyes_closed", "squint", "look_down"}
CREATED = "2026-11-28T00:00:00Z"

DETECTOR = dlib.get_frontal_face_detector()
PREDICTOR = dlib.shape_predictor(MODEL)


# ---------------------------------------------------------------- source analysis

class Frames:
    """A recording's frames, decoded on demand (a long clip does not fit in memory decoded), with a
    small cache."""

    def __init__(self, folder):
        self.entries = [json.loads(line) for line in open(os.path.join(folder, "frames.jsonl")) if line.strip()]
        self.data = open(os.path.join(folder, "frames.mjpeg"), "rb").read()
        self.cache = OrderedDict()

    def __len__(self):
        return len(self.entries)

    def __getitem__(self, i):
        if i not in self.cache:
            e = self.entries[i]
            buf = np.frombuffer(self.data[e["offset"]:e["offset"] + e["length"]], np.uint8)
            self.cache[i] = cv2.imdecode(buf, cv2.IMREAD_COLOR)
            if len(self.cache) > 64:
                self.cache.popitem(last=False)
        return self.cache[i]


class Source:
    def __init__(self, folder):
        self.folder = os.path.normpath(folder)
        self.name = os.path.basename(self.folder)
        self.images = Frames(self.folder)
        self.times = np.array([e["t"] for e in self.images.entries], float)
        self.times -= self.times[0]
        truth = os.path.join(self.folder, "truth.json")
        self.truth = json.load(open(truth)) if os.path.exists(truth) else {}
        self._shapes = {}
        self.face_width, self.face_center = self._face_size()

    @property
    def duration(self):
        """Seconds the source covers: its last frame's time plus one frame period."""
        if len(self.times) < 2:
            return 1.0 / FPS
        return float(self.times[-1] + np.median(np.diff(self.times)))

    def frame_at(self, t):
        """Index of the latest source frame shown at time t (what a player displays)."""
        return int(max(0, np.searchsorted(self.times, t + 1e-9, side="right") - 1))

    def shape(self, i):
        """dlib's 68 points on frame i (largest face; upsample 1 if 0 finds none), or None."""
        if i not in self._shapes:
            gray = cv2.cvtColor(self.images[i], cv2.COLOR_BGR2GRAY)
            found = DETECTOR(gray, 0) or DETECTOR(gray, 1)
            if not found:
                self._shapes[i] = None
            else:
                r = max(found, key=lambda r: r.area())
                p = np.array([[q.x, q.y] for q in PREDICTOR(gray, r).parts()], float)
                self._shapes[i] = (p, (r.left(), r.top(), r.right(), r.bottom()))
        return self._shapes[i]

    def _face_size(self):
        step = max(1, len(self.images) // 40)
        boxes = [self.shape(i)[1] for i in range(0, len(self.images), step) if self.shape(i)]
        if not boxes:
            sys.exit(f"{self.name}: dlib finds no face in the source")
        b = np.array(boxes, float)
        return float(np.median(b[:, 2] - b[:, 0])), (float(np.median((b[:, 0] + b[:, 2]) / 2)),
                                                      float(np.median((b[:, 1] + b[:, 3]) / 2)))

    def closed_intervals(self):
        out = []
        for key in ("events", "negatives"):
            for e in self.truth.get(key, []):
                if e.get("type") in CLOSED_TYPES:
                    out.append((float(e["start"]), float(e["end"])))
        return out

    def open_frame(self):
        """The print's frame: nearest the middle, >= 0.5 s from closed intervals, face found, eyes open."""
        bad = self.closed_intervals()
        ok_time = [all(t < s - 0.5 or t > e + 0.5 for s, e in bad) for t in self.times]
        step = max(1, len(self.images) // 60)
        ears = [ear_both(self.shape(i)[0]) for i in range(0, len(self.images), step) if self.shape(i)]
        threshold = 0.9 * float(np.percentile(ears, 75))
        middle = self.times[-1] / 2
        for i in sorted(range(len(self.times)), key=lambda i: (abs(self.times[i] - middle), i)):
            if ok_time[i] and self.shape(i) and ear_both(self.shape(i)[0]) >= threshold:
                return i
        for i in sorted(range(len(self.times)), key=lambda i: (abs(self.times[i] - middle), i)):
            if ok_time[i] and self.shape(i):
                return i
        sys.exit(f"{self.name}: no frame with a face away from the closed-eye intervals")


def ear(p, first):
    e = p[first:first + 6]
    return (np.linalg.norm(e[1] - e[5]) + np.linalg.norm(e[2] - e[4])) / (2 * np.linalg.norm(e[0] - e[3]))


def ear_both(p):
    return (ear(p, 36) + ear(p, 42)) / 2


# ---------------------------------------------------------------- random, geometry, scene

def rng_for(seed, source, kind):
    return np.random.default_rng([seed, zlib.crc32(source.encode()), KINDS.index(kind)])


class Wobble:
    """A smooth random signal in about [-1, 1]: a sum of sinusoids of random frequency and phase."""

    def __init__(self, rng, lo=0.3, hi=2.0, n=4):
        self.f = rng.uniform(lo, hi, n)
        self.phase = rng.uniform(0, 2 * np.pi, n)
        self.amp = rng.uniform(0.5, 1.0, n)
        self.amp /= self.amp.sum()

    def __call__(self, t):
        return float(np.sum(self.amp * np.sin(2 * np.pi * self.f * t + self.phase)))


class Tremor:
    """Hand tremor: slow drift plus a faster shake, per pose channel (dx, dy px; yaw, pitch, roll deg)."""

    def __init__(self, rng, shift=3.0, angle=1.0, tilt=2.0):
        self.ch = {k: (Wobble(rng, 0.2, 0.9), Wobble(rng, 3.0, 9.0)) for k in ("dx", "dy", "yaw", "pitch", "roll")}
        self.scale = {"dx": shift, "dy": shift, "yaw": tilt, "pitch": tilt, "roll": angle}

    def __call__(self, t):
        return {k: self.scale[k] * (0.8 * slow(t) + 0.25 * fast(t)) for k, (slow, fast) in self.ch.items()}


def rotation(yaw, pitch, roll):
    """Rotation (degrees): yaw about the vertical axis, pitch about the horizontal, roll in the image plane."""
    a, b, c = np.radians([yaw, pitch, roll])
    ry = np.array([[np.cos(a), 0, np.sin(a)], [0, 1, 0], [-np.sin(a), 0, np.cos(a)]])
    rx = np.array([[1, 0, 0], [0, np.cos(b), -np.sin(b)], [0, np.sin(b), np.cos(b)]])
    rz = np.array([[np.cos(c), -np.sin(c), 0], [np.sin(c), np.cos(c), 0], [0, 0, 1]])
    return rz @ rx @ ry


def pose_matrices(pose):
    """(R, T) of a card pose: centre at camera pixel (cx, cy) at distance FOCAL / scale."""
    r = rotation(pose["yaw"], pose["pitch"], pose["roll"])
    z = FOCAL / pose["scale"]
    t = np.array([(pose["cx"] - W / 2) * z / FOCAL, (pose["cy"] - H / 2) * z / FOCAL, z])
    return r, t


def project(points3, r, t):
    q = points3 @ r.T + t
    return np.stack([FOCAL * q[:, 0] / q[:, 2] + W / 2, FOCAL * q[:, 1] / q[:, 2] + H / 2], 1)


def plane_homography(tw, th, pose):
    """Homography from a tw x th texture (1 texel = 1 camera px at scale 1, frontal) to the camera image."""
    r, t = pose_matrices(pose)
    corners = np.array([[-tw / 2, -th / 2, 0], [tw / 2, -th / 2, 0], [tw / 2, th / 2, 0], [-tw / 2, th / 2, 0]])
    src = np.float32([[0, 0], [tw, 0], [tw, th], [0, th]])
    return cv2.getPerspectiveTransform(src, np.float32(project(corners, r, t))), r


LIGHT = np.array([-0.35, -0.45, -0.82]) / np.linalg.norm([-0.35, -0.45, -0.82])   # towards the lamp


def room(rng):
    """A plain-ish room: vertical and horizontal light gradient, blurred low-frequency blotches, a soft
    door or shelf edge, fine wall texture. Float BGR."""
    y, x = np.mgrid[0:H, 0:W].astype(np.float32)
    base = np.array(rng.uniform([120, 130, 140], [170, 175, 190]), np.float32)
    img = np.ones((H, W, 3), np.float32) * base
    img *= (1.05 - 0.25 * y / H)[..., None] * (1.0 - 0.15 * (x / W - rng.uniform(0.3, 0.7)) ** 2)[..., None]
    blotch = cv2.resize(rng.normal(0, 1, (6, 8)).astype(np.float32), (W, H), interpolation=cv2.INTER_CUBIC)
    tint = cv2.resize(rng.normal(0, 1, (3, 4, 3)).astype(np.float32), (W, H), interpolation=cv2.INTER_CUBIC)
    img += 12 * blotch[..., None] + 3 * tint
    edge = rng.uniform(0.1, 0.9) * W
    door = 0.5 * (1 + np.tanh((x - edge) / 6.0))
    img *= (1 - rng.uniform(0.08, 0.18) * door)[..., None]
    fine = cv2.GaussianBlur(rng.normal(0, 1, (H, W)).astype(np.float32), (0, 0), 3.0)
    img += 8 * fine[..., None]
    return img


def camera(frame, rng, blur=0.8, noise=3.0):
    """Sensor noise (luma and a little chroma), then the lens's and the camera's own smoothing
    (which also correlates the noise, as a webcam's demosaicing and denoising do), 8-bit."""
    luma = rng.normal(0, noise, (H, W, 1)).astype(np.float32)
    chroma = rng.normal(0, noise * 0.4, (H, W, 3)).astype(np.float32)
    frame = cv2.GaussianBlur(frame + luma + chroma, (0, 0), blur)
    return np.clip(frame, 0, 255).astype(np.uint8)


def composite(canvas, texture, hom, shade=1.0, shadow=True):
    """Warp a float texture onto the canvas with an anti-aliased edge and a soft drop shadow."""
    th, tw = texture.shape[:2]
    warped = cv2.warpPerspective(texture, hom, (W, H), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
    mask = cv2.warpPerspective(np.ones((th, tw), np.float32), hom, (W, H), flags=cv2.INTER_LINEAR)[..., None]
    if shadow:
        s = cv2.GaussianBlur(np.roll(mask[..., 0], (9, 7), (0, 1)), (0, 0), 9)[..., None]
        canvas = canvas * (1 - 0.35 * s)
    return canvas * (1 - mask) + warped * shade * mask, mask


def smoothstep_keys(keys):
    """Piecewise (t, value) keys, eased at each key (smoothstep)."""
    ts = np.array([k[0] for k in keys], float)
    vs = np.array([k[1] for k in keys], float)

    def f(t):
        if t <= ts[0]:
            return float(vs[0])
        if t >= ts[-1]:
            return float(vs[-1])
        i = int(np.searchsorted(ts, t) - 1)
        u = (t - ts[i]) / (ts[i + 1] - ts[i])
        u = u * u * (3 - 2 * u)
        return float(vs[i] + (vs[i + 1] - vs[i]) * u)
    return f


# ---------------------------------------------------------------- the print

class Print:
    """A printed photo of one source frame as a float BGR texture (texel = camera px when frontal at
    scale 1), with the map from source pixels to texels."""

    def __init__(self, source, index, rng, face=None):
        face = face or FACE
        img = source.images[index]
        p, box = source.shape(index)
        fw = box[2] - box[0]
        cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        ih, iw = img.shape[:2]
        # head and shoulders, portrait 5:6, within the frame
        cw = min(iw, 1.9 * fw)
        ch = min(ih, 1.2 * cw)
        x0 = int(np.clip(cx - cw / 2, 0, iw - cw)); y0 = int(np.clip(cy - 0.45 * ch, 0, ih - ch))
        x1, y1 = x0 + int(cw), y0 + int(ch)
        self.scale = face / fw
        photo = cv2.resize(img[y0:y1, x0:x1], (int(round((x1 - x0) * self.scale)), int(round((y1 - y0) * self.scale))),
                           interpolation=cv2.INTER_CUBIC).astype(np.float32)
        self.border = int(round(0.07 * photo.shape[1]))
        self.offset = np.array([x0, y0], float)
        self.index, self.points = index, p
        # print: lower contrast (paper white ~235, ink black ~30), lower saturation, slightly warm
        gray = photo.mean(2, keepdims=True)
        photo = gray + 0.78 * (photo - gray)
        photo = 30 + photo * (205 / 255)
        photo *= np.array([0.96, 1.0, 1.03], np.float32)
        bh, bw = photo.shape[0] + 2 * self.border, photo.shape[1] + 2 * self.border
        paper = np.full((bh, bw, 3), 236, np.float32) * np.array([0.97, 1.0, 1.0], np.float32)
        paper[self.border:self.border + photo.shape[0], self.border:self.border + photo.shape[1]] = photo
        grain = cv2.GaussianBlur(rng.normal(0, 1, (bh, bw)).astype(np.float32), (0, 0), 1.2)
        fibre = cv2.GaussianBlur(rng.normal(0, 1, (bh, bw)).astype(np.float32), (0, 0), 4.0)
        paper *= (1 + 0.012 * grain + 0.03 * fibre)[..., None]
        self.texture = paper

    def to_texture(self, pts):
        return (np.asarray(pts, float) - self.offset) * self.scale + self.border


# ---------------------------------------------------------------- kinds

def out_length(kind, source, cap):
    if kind in ("screen", "replay-webcam"):
        seconds = source.duration
    elif kind == "photo-eyecut":
        seconds = min(source.duration, EYECUT_SECONDS)
    else:
        seconds = PHOTO_SECONDS[kind]
    if cap:
        seconds = min(seconds, cap)
    return max(1, int(np.floor(seconds * FPS + 1e-6)))


def render_replay(source, n, rng, notes):
    ih, iw = source.images[0].shape[:2]
    s = min(W / iw, H / ih)
    nw, nh = int(round(iw * s)), int(round(ih * s))
    x0, y0 = (W - nw) // 2, (H - nh) // 2
    notes.append(f"source fitted into 640x480 (scale {s:.3f}, black bars), latest source frame at each t = i/30; "
                 f"face about {source.face_width * s:.0f} px")
    for i in range(n):
        frame = np.zeros((H, W, 3), np.uint8)
        frame[y0:y0 + nh, x0:x0 + nw] = cv2.resize(source.images[source.frame_at(i / FPS)], (nw, nh),
                                                   interpolation=cv2.INTER_AREA if s < 1 else cv2.INTER_CUBIC)
        yield frame


def render_screen(source, n, rng, notes):
    ih, iw = source.images[0].shape[:2]
    s = FACE / source.face_width
    max_w, max_h = 500.0, 380.0
    # crop the source around the face if the whole frame at this scale would not fit the view
    cw, ch = min(iw, max_w / s), min(ih, max_h / s)
    fx, fy = source.face_center
    x0 = int(np.clip(fx - cw / 2, 0, iw - cw)); y0 = int(np.clip(fy - ch / 2, 0, ih - ch))
    x1, y1 = x0 + int(cw), y0 + int(ch)
    sw, sh = int(round((x1 - x0) * s)), int(round((y1 - y0) * s))
    bez = int(round(0.06 * min(sw, sh))) + 6
    tw, th = sw + 2 * bez, sh + 2 * bez + int(0.06 * sh)       # a thicker chin
    body = np.full((th, tw, 3), 22, np.float32)
    cv2.rectangle(body, (1, 1), (tw - 2, th - 2), (48, 48, 52), 2)
    back = room(rng)
    tremor = Tremor(rng, shift=4.0, angle=1.2, tilt=2.5)
    base_yaw, base_pitch = rng.uniform(-10, 10), rng.uniform(-8, 2)
    gamma, black = rng.uniform(1.1, 1.25), rng.uniform(0.05, 0.09)
    white = np.array(rng.uniform([1.0, 0.95, 0.86], [1.05, 1.0, 0.93]), np.float32)
    moire_angle, moire_cam = rng.uniform(0, np.pi), rng.uniform(0.35, 0.5)
    moire_beat = rng.uniform(1 / 40, 1 / 18)
    glare = (Wobble(rng, 0.05, 0.25), Wobble(rng, 0.05, 0.25))
    # the lamp's reflection: off the face, as someone filming a phone tilts it until the face is clear
    side = 1 if rng.uniform() < 0.5 else -1
    glare_c = np.array([0.5 + side * rng.uniform(0.22, 0.36), rng.uniform(0.12, 0.4)]) * [tw, th]
    band_speed, band_phase = rng.uniform(0.25, 0.5), rng.uniform(0, 1)
    notes.append(f"screen {sw}x{sh} px showing source x {x0}-{x1} y {y0}-{y1} (scale {s:.3f}, face about "
                 f"{FACE:.0f} px frontal), held at yaw {base_yaw:.1f} pitch {base_pitch:.1f} deg with tremor; display "
                 f"gamma {gamma:.2f}, black level {black:.2f}; moire beat period about {1 / moire_beat:.0f} px; "
                 f"glare, rolling refresh band, sensor noise 3 then blur 0.8 px")
    yy, xx = np.mgrid[0:H, 0:W].astype(np.float64)
    for i in range(n):
        t = i / FPS
        img = cv2.resize(source.images[source.frame_at(t)][y0:y1, x0:x1], (sw, sh),
                         interpolation=cv2.INTER_AREA if s < 1 else cv2.INTER_CUBIC).astype(np.float32) / 255
        img = (black + (1 - black) * img ** gamma) * white * 255
        tex = body.copy()
        tex[bez:bez + sh, bez:bez + sw] = img
        d = tremor(t)
        pose = dict(cx=W / 2 + d["dx"], cy=H / 2 + 10 + d["dy"], scale=1.0, yaw=base_yaw + d["yaw"],
                    pitch=base_pitch + d["pitch"], roll=d["roll"])
        hom, r = plane_homography(tw, th, pose)
        canvas, mask = composite(back, tex, hom, shadow=False)
        # the lit screen area in camera coordinates
        screen = cv2.warpPerspective(np.pad(np.ones((sh, sw), np.float32), bez)[:th], hom, (W, H))
        inv = np.linalg.inv(hom)
        den = inv[2, 0] * xx + inv[2, 1] * yy + inv[2, 2]
        u = (inv[0, 0] * xx + inv[0, 1] * yy + inv[0, 2]) / den
        v = (inv[1, 0] * xx + inv[1, 1] * yy + inv[1, 2]) / den
        # moire: a pixel grating on the screen beating against the sensor's; perspective curves it
        ca, sa = np.cos(moire_angle), np.sin(moire_angle)
        k_scr = moire_cam + moire_beat
        phase = 2 * np.pi * (k_scr * (u * ca + v * sa) - moire_cam * (xx * ca + yy * sa))
        moire = 1 + 0.03 * np.cos(phase) + 0.015 * np.cos(2 * np.pi * (k_scr * (u * sa - v * ca) - moire_cam * (xx * sa - yy * ca)))
        # refresh beat: a dark band rolling down the image rows
        y_band = ((band_phase + band_speed * t) % 1.0) * (H + 160) - 80
        band = 1 - 0.09 * np.exp(-0.5 * ((yy - y_band) / 30) ** 2)
        # glare: a soft highlight on the glass that drifts as the phone moves
        gx = glare_c[0] + 0.12 * tw * glare[0](t) - 4 * d["yaw"]
        gy = glare_c[1] + 0.12 * th * glare[1](t) + 4 * d["pitch"]
        g = np.exp(-0.5 * (((u - gx) / (0.14 * tw)) ** 2 + ((v - gy) / (0.1 * th)) ** 2)) ** 1.5
        mod = (moire * band).astype(np.float32)[..., None]
        lit = canvas * mod + (95 * g).astype(np.float32)[..., None] * np.array([1.0, 1.0, 0.97], np.float32)
        m = screen[..., None]
        canvas = canvas * (1 - m) + lit * m
        # the bezel glass catches a little of the glare too
        canvas += (mask - m) * (25 * g).astype(np.float32)[..., None]
        yield camera(canvas, rng)


def photo_poses(kind, n, rng, notes):
    """Card poses per frame for the photo kinds."""
    tremor = Tremor(rng, shift=2.5, angle=0.8, tilt=1.5)
    duration = n / FPS
    if kind == "photo-moved":
        wx, wy = Wobble(rng, 0.08, 0.2, 2), Wobble(rng, 0.08, 0.2, 2)
        wr, ws = Wobble(rng, 0.1, 0.25, 2), Wobble(rng, 0.08, 0.2, 2)
        notes.append("card drifts across the frame (+-150 px x, +-70 px y), rolls +-15 deg, distance x0.8-1.25, with tremor")
    if kind == "photo-turned":
        a, b = 0.55 * duration, duration
        yaw = smoothstep_keys([(0, 0), (0.08 * b, 0), (0.2 * b, 45), (0.26 * b, 45), (0.4 * b, -45), (0.46 * b, -45),
                               (a, 0)])
        pitch = smoothstep_keys([(a, 0), (a + 0.1 * b, 25), (a + 0.15 * b, 25), (a + 0.3 * b, -25),
                                 (a + 0.35 * b, -25), (0.98 * b, 0)])
        notes.append(f"card turned about its vertical axis 0 -> +45 -> -45 -> 0 deg (0-{a:.1f} s), then tilted about "
                     f"its horizontal axis 0 -> +25 -> -25 -> 0 deg ({a:.1f}-{b:.1f} s), pinhole f = {FOCAL:.0f} px, "
                     f"with tremor")
    poses = []
    for i in range(n):
        t = i / FPS
        d = tremor(t)
        pose = dict(cx=W / 2 + d["dx"], cy=H / 2 + d["dy"], scale=1.0, yaw=d["yaw"], pitch=d["pitch"], roll=d["roll"])
        if kind == "photo-moved":
            pose.update(cx=W / 2 + 150 * wx(t) + d["dx"], cy=H / 2 + 70 * wy(t) + d["dy"],
                        roll=15 * wr(t) + d["roll"], scale=float(np.exp(0.223 * ws(t))))
        elif kind == "photo-turned":
            pose.update(yaw=yaw(t) + 0.5 * d["yaw"], pitch=pitch(t) + 0.5 * d["pitch"])
        poses.append(pose)
    return poses


def bent_frame(texture, pose, curvature, back):
    """Ray-cast a card bent into a cylinder (axis along the card's vertical; curvature 1/R, > 0: the
    sides curl away from the camera) in the given pose; Lambert-shaded by the surface normal."""
    th, tw = texture.shape[:2]
    r, t = pose_matrices(pose)
    yy, xx = np.mgrid[0:H, 0:W].astype(np.float64)
    d = np.stack([(xx - W / 2) / FOCAL, (yy - H / 2) / FOCAL, np.ones_like(xx)], -1)
    dl = d @ r                       # ray directions in card coordinates (R^T d)
    o = -(r.T @ t)                   # camera centre in card coordinates
    if abs(curvature) < 1e-6:
        s = -o[2] / dl[..., 2]
        px, py = o[0] + s * dl[..., 0], o[1] + s * dl[..., 1]
        u, nx, nz = px, np.zeros_like(px), -np.ones_like(px)
    else:
        rad = 1.0 / curvature        # surface: x^2 + (z - rad)^2 = rad^2, the card touching z = 0 at x = 0
        a = dl[..., 0] ** 2 + dl[..., 2] ** 2
        b = 2 * (o[0] * dl[..., 0] + (o[2] - rad) * dl[..., 2])
        c = o[0] ** 2 + (o[2] - rad) ** 2 - rad ** 2
        disc = np.maximum(b * b - 4 * a * c, 0)
        roots = np.stack([(-b - np.sqrt(disc)) / (2 * a), (-b + np.sqrt(disc)) / (2 * a)])
        zs = o[2] + roots * dl[..., 2]
        ok = (zs - rad) * np.sign(rad) < 0            # the half of the cylinder the card lies on
        s = np.where(ok[0], roots[0], roots[1])
        px, py, pz = o[0] + s * dl[..., 0], o[1] + s * dl[..., 1], o[2] + s * dl[..., 2]
        theta = np.arctan2(px / rad, (rad - pz) / rad)
        u = rad * theta
        nx, nz = np.sin(theta), -np.cos(theta)     # the normal towards the camera, card coordinates
    mapx = (u + tw / 2).astype(np.float32)
    mapy = (py + th / 2).astype(np.float32)
    warped = cv2.remap(texture, mapx, mapy, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
    mask = cv2.remap(np.ones((th, tw), np.float32), mapx, mapy, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
    normal = np.stack([nx, np.zeros_like(nx), nz], -1) @ r.T     # to camera coordinates
    shade = (0.72 + 0.33 * np.clip(normal @ LIGHT, 0, 1)).astype(np.float32)
    shadow = cv2.GaussianBlur(np.roll(mask, (9, 7), (0, 1)), (0, 0), 9)[..., None]
    canvas = back * (1 - 0.35 * shadow)
    m = mask[..., None]
    return canvas * (1 - m) + warped * shade[..., None] * m


def eye_hole_mask(tex_shape, pts):
    """Float mask (1 = hole) of the two cut-out eye holes; ellipses around each eye's six points."""
    mask = np.zeros(tex_shape[:2], np.float32)
    for first in (36, 42):
        e = pts[first:first + 6]
        c = e.mean(0)
        w = np.linalg.norm(e[3] - e[0])
        ang = np.degrees(np.arctan2(e[3][1] - e[0][1], e[3][0] - e[0][0]))
        centre = (int(round(c[0] * 8)), int(round((c[1] - 0.08 * w) * 8)))
        cv2.ellipse(mask, centre, (int(round(0.78 * w * 8)), int(round(0.5 * w * 8))), ang, 0, 360, 1.0, -1,
                    cv2.LINE_AA, 3)
    return cv2.GaussianBlur(mask, (0, 0), 1.0)


def similarity(src, dst):
    """2x3 similarity matrix taking two source points exactly onto two destination points."""
    s0, s1 = src; d0, d1 = dst
    vs, vd = s1 - s0, d1 - d0
    k = np.linalg.norm(vd) / np.linalg.norm(vs)
    a = np.arctan2(vd[1], vd[0]) - np.arctan2(vs[1], vs[0])
    m = k * np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    return np.hstack([m, (d0 - m @ s0)[:, None]])


def smoothed_corners(source, frames):
    """Eye corners (36, 39, 42, 45) per used source frame, carried over frames without a face and
    averaged over a centred 5-frame window."""
    used = sorted(set(frames))
    raw, last = {}, None
    for i in range(used[0], used[-1] + 1):
        sh = source.shape(i)
        if sh is not None:
            last = sh[0][[36, 39, 42, 45]]
        raw[i] = last
    first = next(v for v in raw.values() if v is not None)
    for i in raw:
        if raw[i] is None:
            raw[i] = first
    out = {}
    for i in used:
        window = [raw[j] for j in range(i - 2, i + 3) if j in raw]
        out[i] = np.mean(window, 0)
    return out


def render_photo(kind, source, n, rng, notes):
    index = source.open_frame()
    card = Print(source, index, rng)
    notes.append(f"print of source frame {index} (t {source.times[index]:.2f} s; eyes open, >= 0.5 s from the truth's "
                 f"closed-eye intervals), face {FACE:.0f} px at frontal distance, white border, contrast 205/255, "
                 f"saturation 0.78, paper grain")
    back = room(rng)
    poses = photo_poses(kind, n, rng, notes)
    tex = card.texture
    if kind == "photo-bent":
        bend = Wobble(rng, 0.15, 0.4, 3)
        notes.append("card bent into a cylinder of changing curvature (sides curling away, then towards the camera; "
                     "radius down to about 0.75 card widths), ray-cast and shaded, with tremor")
    if kind == "photo-eyecut":
        holes = eye_hole_mask(tex.shape, card.to_texture(card.points))
        frames = [source.frame_at(i / FPS) for i in range(n)]
        corners = smoothed_corners(source, frames)
        photo_corners = card.to_texture(card.points[[36, 39, 42, 45]])
        notes.append("both eye regions cut out of the print (ellipses 1.56 x 1.0 eye widths around each eye), the "
                     "source video's real eyes behind them (similarity on the two eye corners, 5-frame smoothed), "
                     "shaded 0.88, 2-px soft hole edge; card tremor; source time = output time")
        # the card's shadow on the face behind it, just inside each hole's edge
        hole_shadow = 1 - np.clip(2.0 * (holes - cv2.GaussianBlur(holes, (0, 0), 1.5)), 0, 0.3)[..., None]
    for i in range(n):
        pose = poses[i]
        if kind == "photo-eyecut":
            img = source.images[frames[i]]
            behind = np.zeros_like(tex)
            c = corners[frames[i]]
            for k in (0, 2):
                m = similarity(c[k:k + 2], photo_corners[k:k + 2])
                behind += cv2.warpAffine(img, m, (tex.shape[1], tex.shape[0]), flags=cv2.INTER_CUBIC,
                                         borderMode=cv2.BORDER_REPLICATE).astype(np.float32) * \
                    (eye_side_mask(tex.shape, photo_corners, k))[..., None]
            frame_tex = tex * (1 - holes[..., None]) + 0.88 * behind * hole_shadow * holes[..., None]
        else:
            frame_tex = tex
        if kind == "photo-bent":
            curvature = 1 / (0.75 * tex.shape[1]) * bend(i / FPS)
            canvas = bent_frame(frame_tex, pose, curvature, back)
        else:
            hom, r = plane_homography(tex.shape[1], tex.shape[0], pose)
            normal = r @ np.array([0, 0, -1.0])
            canvas, _ = composite(back, frame_tex, hom, shade=0.72 + 0.33 * max(0.0, float(normal @ LIGHT)))
        yield camera(canvas, rng, blur=0.7)


def eye_side_mask(shape, photo_corners, k):
    """1 on the half of the texture belonging to eye k (0: the person's right eye, left in the image)."""
    mid = (photo_corners[1][0] + photo_corners[2][0]) / 2
    xs = np.arange(shape[1], dtype=np.float32)
    side = (xs < mid) if k == 0 else (xs >= mid)
    return np.repeat(side[None, :].astype(np.float32), shape[0], 0)


RENDER = {"screen": render_screen, "replay-webcam": render_replay}


# ---------------------------------------------------------------- driver

def make(source, kind, out, seed, cap, quality):
    name = f"{source.name}-{kind}"
    folder = os.path.join(out, name)
    rng = rng_for(seed, source.name, kind)
    n = out_length(kind, source, cap)
    notes = []
    frames = RENDER[kind](source, n, rng, notes) if kind in RENDER else render_photo(kind, source, n, rng, notes)
    found = {"u0": 0, "any": 0}
    per_frame = []

    def encoded():
        for i, frame in enumerate(frames):
            data = encode_jpeg(frame, quality)
            gray = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_GRAYSCALE)
            f0 = len(DETECTOR(gray, 0)) > 0
            f1 = f0 or len(DETECTOR(gray, 1)) > 0
            found["u0"] += f0; found["any"] += f1
            per_frame.append(f1)
            yield data, round(i / FPS, 6)

    size = write_frames(folder, encoded())
    write_info(folder, W, H, FPS, n, f"Scripts/make_attack_recordings.py: {kind} attack made from {source.name} "
               f"(seed {seed})", CREATED)
    frac0, frac = found["u0"] / n, found["any"] / n
    stat = (f"dlib HOG finds a face in {100 * frac:.0f} % of frames (upsample 0: {100 * frac0:.0f} %)")
    truth = {"faces": 1, "attack": kind, "source": source.name, "events": [],
             "notes": f"Presentation attack ({kind}) made by Scripts/make_attack_recordings.py --seed {seed} from "
                      f"{source.name} ({source.duration:.1f} s, {len(source.times)} frames), JPEG quality {quality}" +
                      (f", length capped at {cap:g} s" if cap else "") + ". " + "; ".join(notes) +
                      f". {stat}. Every liveness pass on it is an attack accepted."}
    with open(os.path.join(folder, "truth.json"), "w") as f:
        json.dump(truth, f, indent=1)
    misses = [i for i, ok in enumerate(per_frame) if not ok]
    print(f"{name}: {n} frames, {n / FPS:.1f} s, {size / 1e6:.2f} MB; face found {100 * frac:.1f} % "
          f"(upsample 0: {100 * frac0:.1f} %)" + (f"; missed frames {misses[:12]}{'...' if len(misses) > 12 else ''}"
                                                  if misses else ""), flush=True)
    return dict(name=name, frames=n, mb=size / 1e6, found=frac, found0=frac0)


def main():
    global FACE
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("sources", nargs="+", metavar="SOURCE")
    ap.add_argument("--out", required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--kinds", default=",".join(KINDS))
    ap.add_argument("--seconds", type=float, default=None, help="cap every recording's length")
    ap.add_argument("--quality", type=int, default=70)
    ap.add_argument("--face", type=float, default=FACE, help="face width in the camera image, px (120-220)")
    ap.add_argument("--only", nargs="*", default=None, help="just these outputs (<source>-<kind>)")
    args = ap.parse_args()
    kinds = [k for k in args.kinds.split(",") if k]
    for k in kinds:
        if k not in KINDS:
            sys.exit(f"unknown kind {k}; kinds: {', '.join(KINDS)}")
    FACE = args.face
    for folder in args.sources:
        name = os.path.basename(os.path.normpath(folder))
        wanted = [k for k in kinds if args.only is None or f"{name}-{k}" in args.only]
        if not wanted:
            continue
        source = Source(folder)
        for kind in wanted:
            make(source, kind, args.out, args.seed, args.seconds, args.quality)


if __name__ == "__main__":
    main()
