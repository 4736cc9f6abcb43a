#!/usr/bin/env python3
"""Stream greyscale frames to the image case study (weft-image) over TCP.

The sender plays the web cam of the ReconOS image case study: it connects to the capture
thread's port on loopback and sends frames in the wire format of
apps/image/frame_source.h. Frames come from image files (any format Pillow reads; each is
converted to 8-bit grey and scaled to the frame size; a list of files is sent in a loop)
or, without files, from a synthetic scene: shapes moving over a gradient with fine
texture, so that edges move from frame to frame.

    frame_sender.py --port P --frames N --size 320x240 [--fault KIND] [IMAGE ...]

--fault sends frame 1 broken on purpose (a wrong magic, frame size, sequence number or
payload length, or a payload cut short), for the tests of the capture thread's checks.
"""
import argparse
import socket
import struct
import sys

import numpy as np
from PIL import Image

MAGIC = b"WFRM"
PERIOD = 64  # the synthetic scene repeats after this many frames


def scene(width, height, i):
    """Frame i of the synthetic stream."""
    return synthetic(width, height, i % PERIOD)


def synthetic(width, height, index):
    """A deterministic test scene for frame `index`."""
    y, x = np.mgrid[0:height, 0:width]
    img = (x * 255 // max(1, width - 1) // 2 + y * 255 // max(1, height - 1) // 4)
    cx = (width // 5 + index * 7) % width
    cy = height // 2 + int((height // 4) * np.sin(index / 5.0))
    img = np.where((x - cx) ** 2 + (y - cy) ** 2 < (height // 6) ** 2, 230, img)
    bx = width - 1 - (index * 5) % width
    img = np.where((abs(x - bx) < width // 10) & (abs(y - height // 4) < height // 10), 20, img)
    stripes = (abs(y - 3 * height // 4) < height // 12) & ((x // 6 + index) % 4 == 0)
    img = np.where(stripes, 250, img)
    rng = np.random.default_rng(index)
    img = img + rng.integers(0, 3, size=img.shape)
    return np.clip(img, 0, 255).astype(np.uint8)


def from_files(paths, width, height):
    frames = []
    for path in paths:
        try:
            with Image.open(path) as im:
                frames.append(np.asarray(im.convert("L").resize((width, height))))
        except OSError as err:
            sys.exit(f"frame_sender: cannot read {path}: {err}")
    return frames


def size_arg(text):
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"size must be WIDTHxHEIGHT, not '{text}'")
    if not (1 <= w <= 65535 and 1 <= h <= 65535):
        raise argparse.ArgumentTypeError(f"size {text} out of range")
    return w, h


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--frames", type=int, required=True)
    ap.add_argument("--size", type=size_arg, default=(320, 240))
    ap.add_argument("--fault", choices=["magic", "size", "seq", "length", "short"])
    ap.add_argument("images", nargs="*")
    args = ap.parse_args()
    width, height = args.size
    # Every distinct frame is made before connecting, so the stream runs at the speed of
    # the socket and the receiver, not of numpy.
    if args.images:
        frames = [f.tobytes() for f in from_files(args.images, width, height)]
    else:
        frames = [scene(width, height, i).tobytes() for i in range(min(args.frames, PERIOD))]
    with socket.create_connection(("127.0.0.1", args.port)) as sock:
        for i in range(args.frames):
            payload = frames[i % len(frames)]
            magic, w, h, seq, length = MAGIC, width, height, i, len(payload)
            if i == 1 and args.fault:
                magic = b"JUNK" if args.fault == "magic" else magic
                w = w + 4 if args.fault == "size" else w
                seq = seq + 7 if args.fault == "seq" else seq
                length = length - 1 if args.fault == "length" else length
                payload = payload[: len(payload) // 2] if args.fault == "short" else payload
            header = magic + struct.pack("<HHII", w, h, seq, length)
            try:
                sock.sendall(header + payload)
                if i == 1 and args.fault:
                    break
            except (BrokenPipeError, ConnectionResetError):
                sys.exit(f"frame_sender: the receiver closed the connection at frame {i}")


if __name__ == "__main__":
    main()
