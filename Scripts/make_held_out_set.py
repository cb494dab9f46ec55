#!/usr/bin/env python3
"""Build the held-out blink set: real talking-head clips that are NOT in the repository.

These clips come from public repositories whose code licence does not clearly cover the footage
(HDTF-style crops of public video addresses, a broadcast crop), so they cannot be bundled under
Recordings/. They are used only to measure, on people the detector was never tuned on, what the
bundled real set cannot show. Nothing in Facewatch is fitted to them; a change is kept only when
it does not lose on Recordings/ and helps here (docs/blinks.md, "Measured on the recordings").

The blink truth below was annotated by eye on Scripts/eye_sheets.py contact sheets (every frame;
first and last frame where the lids cover about half the iris or more), the same rule as the real
set. `unsure` marks lowered lids while looking down, which `facewatch eval` does not score.

Sources (bring each repository with the `fetch` tool, then `git --git-dir=<mirror> show HEAD:<path>`
into SRC under the file name given):
  sadtalker  github:OpenTalker/SadTalker @ cd4c0465ae0b54a6f85af57f5c65fec9fe23e7f8
             examples/ref_video/WDA_AlexandriaOcasioCortez_000.mp4 -> aoc.mp4,
             examples/ref_video/WDA_KatieHill_000.mp4 -> hill.mp4
  retalking  github:OpenTalker/video-retalking @ d32e8e58248255e2d243eeaf3cba545dbe505ca8
             examples/face/{1,2,4,5}.mp4 -> vr1.mp4, vr2.mp4, vr4.mp4, vr5.mp4
             (3.mp4 is the same speech as aoc.mp4 and is left out)
  ip_lap     github:Weizhi-Zhong/IP_LAP @ 9b9dc03f0e90b10b92c904b202443c160afe7c45
             test/template_video/129.mp4 -> iplap.mp4

Usage: python3 Scripts/make_held_out_set.py SRC OUTDIR
       facewatch eval OUTDIR/* --types blink
Needs what Scripts/make_real_recordings.py needs.
"""
import json
import os
import sys

import make_real_recordings

# name, file, description, blinks (first, last frame), unsure stretches (first, last frame)
CLIPS = [
    ("aoc", "aoc.mp4", "SadTalker examples/ref_video/WDA_AlexandriaOcasioCortez_000.mp4",
     [(10, 12), (34, 36), (56, 59), (80, 82), (97, 99), (110, 112), (129, 132), (149, 152), (176, 180)],
     [(24, 29)]),
    ("hill", "hill.mp4", "SadTalker examples/ref_video/WDA_KatieHill_000.mp4",
     [(23, 26), (32, 34), (112, 114), (170, 174)], []),
    ("iplap", "iplap.mp4", "IP_LAP test/template_video/129.mp4",
     [(12, 14), (47, 51), (71, 73), (94, 96), (118, 121), (130, 132), (146, 148), (172, 174), (194, 196),
      (211, 213), (235, 240)], []),
    ("vr1", "vr1.mp4", "video-retalking examples/face/1.mp4", [(81, 83)], []),
    ("vr2", "vr2.mp4", "video-retalking examples/face/2.mp4", [], []),
    ("vr4", "vr4.mp4", "video-retalking examples/face/4.mp4",
     [(28, 32), (36, 39), (74, 78), (86, 91), (125, 128), (138, 141)], []),
    ("vr5", "vr5.mp4", "video-retalking examples/face/5.mp4 (glasses)", [(9, 17)], []),
]


def interval(times, first, last, kind=None):
    event = {"type": "blink", "start": times[first], "end": times[min(last + 1, len(times) - 1)],
             "frames": [first, last]}
    if kind:
        event["kind"] = kind
    return event


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    src, out = sys.argv[1], os.path.abspath(sys.argv[2])
    make_real_recordings.OUT = out
    for name, file, description, blinks, unsure in CLIPS:
        folder = os.path.join(out, name)
        truth = os.path.join(folder, "truth.json")
        if os.path.exists(truth):
            os.remove(truth)  # convert() keeps an existing truth; this one is always rewritten
        make_real_recordings.convert(src, name, file, 0, None, name, description)
        times = [json.loads(line)["t"] for line in open(os.path.join(folder, "frames.jsonl"))]
        with open(truth, "w") as f:
            json.dump({"faces": 1, "person": name, "events": [interval(times, a, b) for a, b in blinks],
                       "negatives": [], "unsure": [interval(times, a, b, "lids lowered, looking down") for a, b in unsure],
                       "notes": "held-out: blinks only, annotated by eye"}, f, indent=1)


if __name__ == "__main__":
    main()
