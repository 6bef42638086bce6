#!/usr/bin/env python3
"""Makes the DNG fixtures of the RAW tests (Tests/Fixtures/raw/), with tifffile (PyPI) and numpy.

Each is a real DNG 1.4 that LibRaw develops: 16-bit Bayer data (RGGB) of a scene whose left half
is red and right half blue, a colour matrix for linear sRGB primaries, D65, neutral white balance.
  lone.dng        the raw only (no preview): galleryssg develops it.
  rotated.dng     the same with Orientation 6 (shot in portrait): developed, then turned.
  preview.dng     a 150x100 8-bit RGB preview (IFD0, all green) and the raw in a SubIFD: with
                  images.raw "preview", the preview is what is published (green, not red/blue).
  jpeg-preview.dng  the same with a 240x160 JPEG preview (baseline, 4:2:0, all green), as cameras write.
Run: python3 make-raw.py OUTPUT_FOLDER   (tifffile 2026.3.3, imagecodecs 2026.3.6, numpy 2.x)
"""
import sys, os
import numpy as np
import tifffile

W, H = 192, 128

def cfa():
    # Scene: left half red (R channel high), right half blue; RGGB mosaic.
    img = np.zeros((H, W), dtype=np.uint16)
    low, high = 300, 12000
    for y in range(H):
        for x in range(W):
            red_side = x < W // 2
            if y % 2 == 0 and x % 2 == 0: img[y, x] = high if red_side else low          # R
            elif y % 2 == 1 and x % 2 == 1: img[y, x] = low if red_side else high        # B
            else: img[y, x] = low                                                        # G
    return img

def rationals(values, denominator=10000):
    out = []
    for v in values:
        out += [int(round(v * denominator)), denominator]
    return out

# XYZ (D65) -> linear sRGB, the inverse of sRGB's primaries: the "camera" sees sRGB.
XYZ_TO_SRGB = [3.2404542, -1.5371385, -0.4985314, -0.9692660, 1.8760108, 0.0415560, 0.0556434, -0.2040259, 1.0572252]

def dng_tags(orientation=1):
    return [
        (50706, 'B', 4, (1, 4, 0, 0), True),          # DNGVersion
        (50707, 'B', 4, (1, 1, 0, 0), True),          # DNGBackwardVersion
        (271, 's', 0, 'galleryssg', True),            # Make
        (272, 's', 0, 'Test DNG', True),              # Model
        (50708, 's', 0, 'galleryssg Test DNG', True), # UniqueCameraModel
        (274, 'H', 1, orientation, True),             # Orientation
        (306, 's', 0, '2024:06:01 12:34:56', True),   # DateTime
        (50721, '2i', 9, rationals(XYZ_TO_SRGB), True),  # ColorMatrix1
        (50778, 'H', 1, 21, True),                    # CalibrationIlluminant1: D65
        (50728, '2I', 3, rationals([1, 1, 1]), True), # AsShotNeutral
    ]

def raw_tags():
    return [
        (33421, 'H', 2, (2, 2), True),                # CFARepeatPatternDim
        (33422, 'B', 4, (0, 1, 1, 2), True),          # CFAPattern: RGGB
        (50714, 'H', 1, 0, True),                     # BlackLevel
        (50717, 'H', 1, 16383, True),                 # WhiteLevel
    ]

def write_raw_only(path, orientation):
    with tifffile.TiffWriter(path) as tif:
        tif.write(cfa(), photometric=32803, subfiletype=0, metadata=None, software=False,
                  extratags=dng_tags(orientation) + raw_tags())

def write_with_preview(path, jpeg=False):
    shape = (160, 240, 3) if jpeg else (100, 150, 3)
    preview = np.zeros(shape, dtype=np.uint8)
    # tifffile hands YCbCr JPEG data to the encoder as it is: give it green (0, 200, 0) as YCbCr already.
    preview[...] = (117, 62, 44) if jpeg else (0, 200, 0)
    options = dict(photometric='ycbcr', compression='jpeg', compressionargs={'level': 90}, subsampling=(2, 2)) if jpeg else dict(photometric='rgb')
    with tifffile.TiffWriter(path) as tif:
        tif.write(preview, subfiletype=1, subifds=1, metadata=None, software=False, extratags=dng_tags(), **options)
        tif.write(cfa(), photometric=32803, subfiletype=0, metadata=None, software=False, extratags=raw_tags())

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
write_raw_only(os.path.join(out, 'lone.dng'), 1)
write_raw_only(os.path.join(out, 'rotated.dng'), 6)
write_with_preview(os.path.join(out, 'preview.dng'))
write_with_preview(os.path.join(out, 'jpeg-preview.dng'), jpeg=True)
