#!/usr/bin/env python3
"""Prints the first and last pixel columns of a PNG that hold ink (a pixel darker than light grey on any
colour channel), as "FIRST LAST", or "none" for a blank image. Used by the plot tests to measure text as
rsvg-convert renders it, independently of the layout's own width estimate.

Usage: Tools/dev/png-ink.py FILE.png   (8-bit greyscale, RGB or RGBA, not interlaced: what rsvg-convert writes)
"""
import struct
import sys
import zlib

data = open(sys.argv[1], "rb").read()
if data[:8] != b"\x89PNG\r\n\x1a\n":
    sys.exit(f"png-ink: {sys.argv[1]} is not a PNG file")
position, compressed = 8, b""
while position < len(data):
    length, kind = struct.unpack(">I4s", data[position : position + 8])
    body = data[position + 8 : position + 8 + length]
    position += 12 + length
    if kind == b"IHDR":
        width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
    elif kind == b"IDAT":
        compressed += body
channels = {0: 1, 2: 3, 4: 2, 6: 4}.get(colour)
if depth != 8 or channels is None or interlace != 0:
    sys.exit(f"png-ink: {sys.argv[1]}: unsupported PNG (depth {depth}, colour type {colour}, interlace {interlace})")
raw = zlib.decompress(compressed)
stride = width * channels
inked = [False] * width
previous = bytearray(stride)
offset = 0
for _ in range(height):
    kind, line = raw[offset], bytearray(raw[offset + 1 : offset + 1 + stride])
    offset += 1 + stride
    for x in range(stride):  # undo the row filter (PNG specification, section 9)
        a = line[x - channels] if x >= channels else 0
        b = previous[x]
        c = previous[x - channels] if x >= channels else 0
        if kind == 1:
            line[x] = (line[x] + a) & 255
        elif kind == 2:
            line[x] = (line[x] + b) & 255
        elif kind == 3:
            line[x] = (line[x] + (a + b) // 2) & 255
        elif kind == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    colours = min(channels, 3)
    for x in range(width):
        if not inked[x] and min(line[x * channels : x * channels + colours]) < 192:
            inked[x] = True
    previous = line
columns = [x for x in range(width) if inked[x]]
print(f"{columns[0]} {columns[-1]}" if columns else "none")
