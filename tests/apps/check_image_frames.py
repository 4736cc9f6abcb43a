#!/usr/bin/env python3
"""Check weft-image's displayed frames against an independent numpy Laplacian.

The frames were made by frame_sender.py's synthetic scene, so frame i's input is
regenerated here and filtered with the formula of docs/case-studies.md written with numpy
array operations (no code shared with the C reference of apps/image/pixels.c).

    check_image_frames.py DIR W FRAMES WIDTHxHEIGHT
"""
import pathlib
import sys

import numpy as np
from PIL import Image

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "apps" / "image"))
import frame_sender  # noqa: E402


def laplacian(img, w):
    h, wd = img.shape
    r = w // 2
    a = img.astype(np.int32)
    total = np.zeros((h - 2 * r, wd - 2 * r), np.int32)
    for dy in range(w):
        for dx in range(w):
            total += a[dy:dy + h - 2 * r, dx:dx + wd - 2 * r]
    centre = a[r:h - r, r:wd - r]
    out = np.zeros_like(a)
    out[r:h - r, r:wd - r] = np.minimum(255, np.abs(w * w * centre - total))
    return out.astype(np.uint8)


def main():
    out_dir, w, frames = pathlib.Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    width, height = (int(v) for v in sys.argv[4].split("x"))
    bad = 0
    for i in range(frames):
        path = out_dir / f"frame_{i:04d}.pgm"
        with Image.open(path) as im:
            got = np.asarray(im)
        if got.shape != (height, width):
            print(f"{path}: {got.shape[1]}x{got.shape[0]}, want {width}x{height}")
            bad += 1
            continue
        want = laplacian(frame_sender.scene(width, height, i), w)
        diff = np.argwhere(got != want)
        if len(diff):
            y, x = diff[0]
            print(f"{path}: {len(diff)} pixels differ, first at ({x},{y}): {got[y, x]} != {want[y, x]}")
            bad += 1
    print(f"{frames - bad} of {frames} frames match the numpy reference")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
