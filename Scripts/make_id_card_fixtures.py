#!/usr/bin/env python3
"""Identity-card style test photos for `verify --against`, made from the fixture portraits in
Tests/Fixtures/identity/photos (see that folder's README for their sources and licences).

- id_card_biden.jpg: a card with the main portrait (biden_1) on the left and a ghost portrait on
  the right, as most identity cards carry: the same photo at half the size, grey and faded.
- two_people.jpg: biden_1 and obama_1 side by side at the same size: two people, which an ID
  photo must not be.

Usage: python3 Scripts/make_id_card_fixtures.py   (needs opencv-python-headless, numpy)
"""
import os

import cv2
import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PHOTOS = os.path.join(ROOT, "Tests", "Fixtures", "identity", "photos")


def read(name):
    return cv2.imread(os.path.join(PHOTOS, name + ".jpg"), cv2.IMREAD_COLOR)


def write(name, image):
    cv2.imwrite(os.path.join(PHOTOS, name + ".jpg"), image, [cv2.IMWRITE_JPEG_QUALITY, 90])


def id_card():
    main = read("biden_1")
    h, w = main.shape[:2]
    card = np.full((h + 40, w * 2 + 60, 3), (226, 216, 200), np.uint8)
    card[20:20 + h, 20:20 + w] = main
    ghost = cv2.resize(main, (w // 2, h // 2), interpolation=cv2.INTER_AREA)
    grey = cv2.cvtColor(cv2.cvtColor(ghost, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR).astype(np.float32)
    faded = (0.55 * grey + 0.45 * np.array((226, 216, 200), np.float32)).astype(np.uint8)
    y, x = 20 + h // 4, 40 + w + w // 4
    card[y:y + h // 2, x:x + w // 2] = faded
    write("id_card_biden", card)


def two_people():
    a, b = read("biden_1"), read("obama_1")
    h = min(a.shape[0], b.shape[0])
    a = cv2.resize(a, (a.shape[1] * h // a.shape[0], h), interpolation=cv2.INTER_AREA)
    b = cv2.resize(b, (b.shape[1] * h // b.shape[0], h), interpolation=cv2.INTER_AREA)
    write("two_people", np.hstack([a, b]))


if __name__ == "__main__":
    id_card()
    two_people()
