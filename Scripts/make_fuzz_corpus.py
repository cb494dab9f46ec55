#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets (Tests/Fuzz/corpus/<target>/) and the crash inputs of
the reliability findings (files named crash-*). Run from the repository root; standard library only.
The fuzzers add what they find to these folders when run with Scripts/fuzz-long --keep."""
import json, os, re, struct

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "Tests", "Fuzz", "corpus")
REC = os.path.join(ROOT, "Recordings", "blinks-slow-move")
OPENCV = "/usr/share/opencv4"


def put(target, name, data):
    os.makedirs(os.path.join(OUT, target), exist_ok=True)
    with open(os.path.join(OUT, target, name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


def frames():
    data = open(os.path.join(REC, "frames.mjpeg"), "rb").read()
    index = [json.loads(l) for l in open(os.path.join(REC, "frames.jsonl"))]
    return [data[e["offset"]:e["offset"] + e["length"]] for e in index]


# --- jpeg: two real frames scaled to 80x60 (the decoder's code paths are those of a 640x480
# frame, at a fraction of the time per input), one in 4:2:0 and one in 4:4:4 chroma, and one 16x16
# gray; D3: one frame whose SOF claims 65500x65500.
def small_jpeg(jpeg, size, gray=False, **options):
    from io import BytesIO
    from PIL import Image  # dev-time only (pip install pillow)
    image = Image.open(BytesIO(jpeg)).resize(size)
    out = BytesIO(); (image.convert("L") if gray else image).save(out, "JPEG", quality=75, **options)
    return out.getvalue()
jpegs = frames()
put("jpeg", "frame-0-80x60.jpg", small_jpeg(jpegs[0], (80, 60)))
put("jpeg", "frame-60-80x60-444.jpg", small_jpeg(jpegs[60], (80, 60), subsampling=0))
put("jpeg", "frame-30-16x16-gray.jpg", small_jpeg(jpegs[30], (16, 16), gray=True))
big = bytearray(jpegs[0]); sof = big.find(b"\xff\xc0"); struct.pack_into(">HH", big, sof + 5, 65500, 65500)
put("jpeg", "crash-d3-sof-65500.jpg", bytes(big))

# --- recording: recording.json NUL frames.jsonl (frames.mjpeg is 4 KiB in the target).
info = {"format": "facewatch-recording", "version": 1, "width": 640, "height": 480, "fps": 30,
        "pixel_format": "MJPG", "frame_count": 3, "source": "seed", "created": "2026-01-01T00:00:00Z"}
lines = [{"index": i, "t": i / 30, "offset": i * 1000, "length": 1000} for i in range(3)]
def recording(info, lines):
    return json.dumps(info) + "\0" + "".join(json.dumps(l) + "\n" for l in lines)
put("recording", "seed-3-frames", recording(info, lines))
put("recording", "seed-cut-line", recording(info, lines)[:-9])
d1 = [dict(l) for l in lines]; d1[1].update(offset=9223372036854775807, length=1)
put("recording", "crash-d1-offset-int-max", recording(info, d1))
d1b = [dict(l) for l in lines]; d1b[1].update(offset=100, length=9223372036854775807)
put("recording", "crash-d1-length-int-max", recording(info, d1b))
put("recording", "crash-d6-width-1e15", recording(dict(info, width=10**15, height=10**15), lines))
put("recording", "crash-d6-fps-1e308", recording(dict(info, fps=1e308), lines))
put("recording", "leak-empty-input", b"")  # empty files: Foundation's contents(atPath:) leaked 4 KiB

# --- truth.json
put("truth", "seed-events", json.dumps({"faces": 1, "events": [{"type": "blink", "start": 1.2, "end": 1.4},
                                                                {"type": "wink", "start": 2, "end": 2.2, "eye": "left"}]}))
put("truth", "end-before-start", json.dumps({"faces": 1, "events": [{"type": "smile", "start": 3, "end": 2.5}]}))

# --- config.json
put("config", "repository-config.json", open(os.path.join(ROOT, "config.json")).read())
put("config", "empty-object.json", "{}")
put("config", "empty-events.json", json.dumps({"output": {"events": ""}}))

# --- dlib model: a tiny valid model and the D2 headers (700 bytes asking for 108 GB, and 5.7 GB).
def packed(v):
    n, b = abs(v), []
    while True:
        b.append(n & 255); n >>= 8
        if not n: break
    return bytes([len(b) | (0x80 if v < 0 else 0)] + b)
def flt(x): return packed(int(x * 1024)) + packed(-10)
def column(values): return packed(-len(values)) + packed(-1) + b"".join(flt(v) for v in values)
shape = [0.1, 0.1, 0.9, 0.1, 0.5, 0.5, 0.5, 0.9]
tiny = (packed(1) + column(shape) + packed(1) + packed(1) + packed(1) + packed(0) + packed(1) + flt(3.0)
        + packed(2) + column([0.01] * 8) + column([-0.01] * 8)
        + packed(1) + packed(2) + packed(0) + packed(3)
        + packed(1) + packed(2) + flt(0.1) + flt(0.2) + flt(-0.1) + flt(0.05))
put("dlib-model", "seed-tiny-model.dat", tiny)
def header(shape, cascades, trees):
    return (packed(1) + packed(-shape) + packed(-1) + b"".join(flt(.5) for _ in range(shape)) + packed(cascades)
            + packed(trees) + packed(1) + packed(0) + packed(1) + flt(.1) + packed(2))
put("dlib-model", "crash-d2-108g.dat", header(136, 1000, 100000))
put("dlib-model", "oom-d2-6g.dat", header(136, 1000, 5500))

# --- landmark model copy (FuzzLandmarkCache): a flags byte (bit 0: recompute the checksum), then
# bytes XORed over the start of the tiny model's copy: header 0-127 (counts in words 7-11), shape
# 128-159, anchors 160-163, offsets 168-183, the split 184-191 (features at 184 and 186).
def patch(flags, changes):
    body = bytearray(max(changes, default=-1) + 1)
    for offset, value in changes.items():
        body[offset] = value
    return bytes([flags]) + bytes(body)
put("landmark-cache", "seed-unchanged", patch(1, {}))
put("landmark-cache", "seed-anchor-out-of-range", patch(1, {161: 0x80}))
put("landmark-cache", "seed-split-feature-out-of-range", patch(1, {184: 0x10}))
put("landmark-cache", "seed-two-cascades", patch(1, {56: 0x03}))
put("landmark-cache", "seed-shape-changed", patch(1, {130: 0x40}))
put("landmark-cache", "seed-checksum-stale", patch(0, {130: 0x40}))

# --- HOG detector model: a tiny valid model (2x2-cell filters, two detectors) and a prefix of the real one.
def hog_model(window=16, detectors=2):
    dims = 2 * 2 * 31
    head = (packed(2) + packed(1) + packed(0) + packed(0) + packed(8) + packed(0) + packed(window) + packed(window)
            + packed(1000) + packed(40) + packed(40) + flt(0.0) + packed(dims) + flt(0.5) + flt(1.0) + packed(detectors))
    return head + b"".join(column([((i * 7 + d) % 11 - 5) / 8 for i in range(dims)] + [0.25]) for d in range(detectors))
put("detector-model", "seed-tiny-model.dat", hog_model())
put("detector-model", "seed-real-prefix-4k.dat", open(os.path.join(ROOT, "Models", "dlib_frontal_face_detector.dat"), "rb").read()[:4096])

# --- face recognition ResNet: prefixes of the installed model (Scripts/setup-models), up to the
# fuzzer's 20 KB input bound: the header, and the input layer with the first convolution.
RESNET = "/usr/local/share/facewatch/models/dlib_face_recognition_resnet_model_v1.dat"
if os.path.exists(RESNET):
    resnet = open(RESNET, "rb").read(20000)
    put("descriptor-model", "seed-prefix-1k.dat", resnet[:1024])
    put("descriptor-model", "seed-prefix-20k.dat", resnet)

# --- cascade XML: stage 0 of a Haar and an LBP cascade (small seeds); D4 and D5 inputs.
def first_stage(path):
    xml = open(path).read()
    stages = re.search(r"<stages>(.*?)</stages>", xml, re.S)
    first = re.search(r"<_>.*?</_>", stages.group(1), re.S)
    # the first stage element spans nested <_> items: cut at its own </weakClassifiers></_>
    body = stages.group(1)
    end = body.index("</weakClassifiers></_>") + len("</weakClassifiers></_>") if "</weakClassifiers></_>" in body else None
    if end is None:
        m = re.search(r"</weakClassifiers>\s*</_>", body)
        end = m.end()
    used = max(int(n.split()[2]) for n in re.findall(r"<internalNodes>\s*([^<]*)</internalNodes>", body[:end]))
    features = re.search(r"<features>(.*?)</features>", xml, re.S).group(1)
    items = re.findall(r"\s*<_>.*?</_>\s*(?=<_>|$)", features, re.S) if "<rects>" not in features else \
        re.findall(r"\s*<_>\s*<rects>.*?</rects>\s*(?:<tilted>\d</tilted>\s*)?</_>", features, re.S)
    small = xml[:stages.start(1)] + body[:end] + "\n" + xml[stages.end(1):]
    small = small.replace(features, "".join(items[:used + 1]) + "\n")
    return re.sub(r"<stageNum>\d+</stageNum>", "<stageNum>1</stageNum>", small)
haar = first_stage(OPENCV + "/haarcascades/haarcascade_frontalface_default.xml")
lbp = first_stage(OPENCV + "/lbpcascades/lbpcascade_frontalface_improved.xml")
put("cascade", "seed-haar-stage0.xml", haar)
put("cascade", "seed-lbp-stage0.xml", lbp)
put("cascade", "crash-d4-rect-int-max.xml", re.sub(r"<_>\s*-?\d+ -?\d+ -?\d+ -?\d+ -?[\d.e-]+</_>",
                                                   "<_>1 0 9223372036854775807 4 -1.</_>", haar, count=1))
put("cascade", "crash-d4-child-int-min.xml", re.sub(r"<internalNodes>\s*-?\d+ -?\d+ ",
                                                    "<internalNodes>\n 0 -9223372036854775808 ", haar, count=1))
put("cascade", "crash-d4-lbp-block.xml", re.sub(r"<rect>[^<]*</rect>", "<rect>0 0 3074457345618258603 1</rect>", lbp, count=1))
put("cascade", "crash-d5-deep.xml", "<opencv_storage>" + "<a>" * 2000 + "</a>" * 2000 + "</opencv_storage>")

# --- event lines (plot): frame lines, discrete events; D14: t = 1e308.
frame = lambda t: json.dumps({"type": "frame", "t": t, "frame": 1, "faces": [
    {"face": 1, "ear_left": 0.3, "ear_right": 0.31, "mar": 0.1, "smile": 0.2,
     "thresholds": {"ear_close_left": 0.2, "ear_close_right": 0.2, "smile": 0.4, "mar": 0.5}}]})
events = [json.dumps({"type": "face_found", "t": 0, "frame": 0, "face": 1, "box": [1, 2, 3, 4]})]
events += [frame(i / 30) for i in range(10)]
events += [json.dumps({"type": "blink", "t": 0.2, "frame": 6, "face": 1, "start": 0.1, "duration_ms": 120}),
           json.dumps({"type": "smile", "t": 0.25, "frame": 7, "face": 1, "state": "start"}),
           json.dumps({"type": "smile", "t": 0.3, "frame": 9, "face": 1, "state": "end"})]
put("event-lines", "seed-events.jsonl", "\n".join(events) + "\n")
put("event-lines", "crash-d14-t-1e308.jsonl", "\n".join(events[:5] + [frame(1e308)] + events[5:]) + "\n")
