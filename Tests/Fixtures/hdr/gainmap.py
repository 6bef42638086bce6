#!/usr/bin/env python3
"""Gain-map JPEGs for the HDR tests, written and read per the published specifications, apart from
galleryssg's own code (numpy and Pillow only).

    gainmap.py make DIR [W H]    writes the fixtures below into DIR (at W x H for the benchmark)
    gainmap.py compare SRC DER   prints, as JSON, how well DER's HDR rendition matches SRC's

Fixtures (a 768x512 scene: a gradient, a sun six times brighter than SDR white, a strip at three
times; the SDR image is the scene clipped at white):
    ultrahdr.jpg   Ultra HDR as libultrahdr writes it: a one-channel gain map at a quarter size,
                   hdrgm XMP, an ISO 21496-1 block in both images, MPF big-endian
    iso-only.jpg   ISO 21496-1 alone (as Lightroom can export): a three-channel gain map, MPF
                   little-endian, no XMP at all
    rotated.jpg    ultrahdr.jpg stored on its side with EXIF orientation 6, and a GPS position

compare rebuilds the HDR image of each file from its SDR image, its gain map and its metadata (the
Adobe gain map specification 1.0, section "Applying the gain map", at full weight: a display with
the file's HDRCapacityMax), turns SRC's upright, averages it down to DER's size in linear light, and
gives the PSNR of log2 luminance (floored at 1/64 of SDR white) over SRC's log2 luminance range. Apple's HDRGainMap form is read as
libultrahdr reads it: gains from 1 to its headroom, gamma 1, no offsets.
"""
import io
import json
import re
import struct
import sys

import numpy as np
from PIL import Image, ImageCms, ImageOps

W, H = 768, 512
OFFSET = 1 / 64
SIGNATURE_XMP = b"http://ns.adobe.com/xap/1.0/\x00"
ISO_URN = b"urn:iso:std:iso:ts:21496:-1\x00"


def srgb_encode(linear):
    linear = np.clip(linear, 0, 1)
    return np.where(linear <= 0.0031308, linear * 12.92, 1.055 * np.power(linear, 1 / 2.4) - 0.055)


def srgb_decode(encoded):
    return np.where(encoded <= 0.04045, encoded / 12.92, np.power((encoded + 0.055) / 1.055, 2.4))


def scene():
    y, x = np.mgrid[0:H, 0:W].astype(np.float64)
    u, v = x / W, y / H
    hdr = np.stack([0.05 + 0.6 * u, 0.08 + 0.4 * v + 0.2 * u, 0.35 * (1 - u) + 0.05], axis=-1)
    sun = np.clip(1.5 - np.hypot(x - 0.22 * W, y - 0.3 * H) / (0.09 * H), 0, 1)
    hdr = hdr * (1 - sun[..., None]) + np.array([6.0, 5.6, 4.8]) * sun[..., None]
    strip = (u > 0.6) & (v > 0.75) & (v < 0.85)
    hdr[strip] = [3.0, 3.0, 2.6]
    return hdr


def luminance(rgb):
    return rgb @ np.array([0.2126, 0.7152, 0.0722])


def jpeg(array, quality=95, exif=None):
    out = io.BytesIO()
    image = Image.fromarray(np.clip(np.round(array * 255), 0, 255).astype(np.uint8))
    image.save(out, "JPEG", quality=quality, **({"exif": exif} if exif else {}))
    return out.getvalue()


def segment(marker, body):
    return bytes([0xFF, marker]) + struct.pack(">H", len(body) + 2) + body


def insert(data, segments):
    at = 2
    while data[at] == 0xFF and data[at + 1] in (0xE0, 0xE1):
        at += 2 + struct.unpack(">H", data[at + 2:at + 4])[0]
    return data[:at] + b"".join(segments) + data[at:], at


def iso_block(min_log, max_log, gamma, headroom):
    """ISO 21496-1 gain map metadata: version 0, one common denominator."""
    channels = len(min_log)
    denominator = 1_000_000
    flags = (0x80 if channels == 3 else 0) | 0x08
    out = struct.pack(">HHBI", 0, 0, flags, denominator)
    out += struct.pack(">II", 0, round(headroom * denominator))
    for c in range(channels):
        out += struct.pack(">iiIii", round(min_log[c] * denominator), round(max_log[c] * denominator),
                           round(gamma * denominator), round(OFFSET * denominator), round(OFFSET * denominator))
    return ISO_URN + out


def mpf(primary_size, gain_size, gain_offset, little):
    e = "<" if little else ">"
    body = (b"II*\x00" if little else b"MM\x00*") + struct.pack(e + "I", 8) + struct.pack(e + "H", 3)
    body += struct.pack(e + "HHI", 0xB000, 7, 4) + b"0100"
    body += struct.pack(e + "HHII", 0xB001, 4, 1, 2)
    body += struct.pack(e + "HHII", 0xB002, 7, 32, 8 + 2 + 36 + 4) + struct.pack(e + "I", 0)
    body += struct.pack(e + "IIIHH", 0x030000, primary_size, 0, 0, 0)
    body += struct.pack(e + "IIIHH", 0, gain_size, gain_offset, 0, 0)
    return b"MPF\x00" + body


def make_file(multichannel, little, xmp, exif=None, rotate=False):
    hdr = scene()
    sdr = np.clip(hdr, 0, 1)
    sdr_encoded = np.round(srgb_encode(sdr) * 255) / 255
    sdr_linear = srgb_decode(sdr_encoded)
    if multichannel:
        gain = np.log2((hdr + OFFSET) / (sdr_linear + OFFSET))
    else:
        gain = np.log2((luminance(hdr) + OFFSET) / (luminance(sdr_linear) + OFFSET))
    min_log = [float(np.floor(gain.min() * 100) / 100)] * (3 if multichannel else 1)
    max_log = [float(np.ceil(gain.max() * 100) / 100)] * (3 if multichannel else 1)
    recovery = np.clip((gain - min_log[0]) / (max_log[0] - min_log[0]), 0, 1)
    if multichannel:
        channels = [Image.fromarray(recovery[..., c].astype(np.float32)).resize((W // 4, H // 4), Image.BOX)
                    for c in range(3)]
        gain_map = np.stack([np.asarray(c) for c in channels], axis=-1)
    else:
        gain_map = np.asarray(Image.fromarray(recovery.astype(np.float32)).resize((W // 4, H // 4), Image.BOX))
    primary_pixels, gain_pixels = sdr_encoded, gain_map
    if rotate:  # stored on its side: orientation 6 turns it back clockwise
        primary_pixels, gain_pixels = np.rot90(primary_pixels, 1), np.rot90(gain_pixels, 1)
    primary = jpeg(primary_pixels, exif=exif)
    gain_jpeg = jpeg(gain_pixels, quality=95)
    gain_segments = []
    headroom = max_log[0]
    if xmp:
        values = (f'hdrgm:Version="1.0" hdrgm:GainMapMin="{min_log[0]}" hdrgm:GainMapMax="{max_log[0]}" '
                  f'hdrgm:Gamma="1" hdrgm:OffsetSDR="{OFFSET}" hdrgm:OffsetHDR="{OFFSET}" '
                  f'hdrgm:HDRCapacityMin="0" hdrgm:HDRCapacityMax="{headroom}" hdrgm:BaseRenditionIsHDR="False"')
        packet = ('<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
                  f'<rdf:Description rdf:about="" xmlns:hdrgm="http://ns.adobe.com/hdr-gain-map/1.0/" {values}/>'
                  '</rdf:RDF></x:xmpmeta>')
        gain_segments.append(segment(0xE1, SIGNATURE_XMP + packet.encode()))
    gain_segments.append(segment(0xE2, iso_block(min_log, max_log, 1.0, headroom)))
    gain_file, _ = insert(gain_jpeg, gain_segments)
    primary_segments = []
    if xmp:
        packet = ('<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
                  '<rdf:Description rdf:about="" xmlns:hdrgm="http://ns.adobe.com/hdr-gain-map/1.0/" '
                  'xmlns:Container="http://ns.google.com/photos/1.0/container/" '
                  'xmlns:Item="http://ns.google.com/photos/1.0/container/item/" hdrgm:Version="1.0">'
                  '<Container:Directory><rdf:Seq><rdf:li rdf:parseType="Resource"><Container:Item '
                  'Item:Semantic="Primary" Item:Mime="image/jpeg"/></rdf:li><rdf:li rdf:parseType="Resource">'
                  f'<Container:Item Item:Semantic="GainMap" Item:Mime="image/jpeg" Item:Length="{len(gain_file)}"/>'
                  '</rdf:li></rdf:Seq></Container:Directory></rdf:Description></rdf:RDF></x:xmpmeta>')
        primary_segments.append(segment(0xE1, SIGNATURE_XMP + packet.encode()))
    primary_segments.append(segment(0xE2, ISO_URN + b"\x00\x00\x00\x00"))
    placeholder = segment(0xE2, mpf(0, 0, 0, little))
    with_segments, at = insert(primary, primary_segments + [placeholder])
    header = at + sum(len(s) for s in primary_segments) + 4 + 4
    final = segment(0xE2, mpf(len(with_segments), len(gain_file), len(with_segments) - header, little))
    with_segments, _ = insert(primary, primary_segments + [final])
    return with_segments + gain_file


def rotated_exif():
    exif = Image.Exif()
    exif[0x0112] = 6
    exif[0x010F] = "galleryssg"
    exif[0x8825] = {1: "N", 2: (64.0, 8.0, 24.0), 3: "W", 4: (21.0, 56.0, 30.0)}
    return exif.tobytes()


def make(folder):
    with open(f"{folder}/ultrahdr.jpg", "wb") as out:
        out.write(make_file(multichannel=False, little=False, xmp=True))
    with open(f"{folder}/iso-only.jpg", "wb") as out:
        out.write(make_file(multichannel=True, little=True, xmp=False))
    with open(f"{folder}/rotated.jpg", "wb") as out:
        out.write(make_file(multichannel=False, little=False, xmp=True, exif=rotated_exif(), rotate=True))


def segments(data):
    at, found = 2, []
    while at + 4 <= len(data) and data[at] == 0xFF and data[at + 1] not in (0xDA, 0xD9):
        length = struct.unpack(">H", data[at + 2:at + 4])[0]
        found.append((data[at + 1], at + 4, data[at + 4:at + 2 + length]))
        at += 2 + length
    return found


def gain_map_image(data):
    for marker, offset, body in segments(data):
        if marker == 0xE2 and body.startswith(b"MPF\x00"):
            tiff = body[4:]
            e = "<" if tiff[:2] == b"II" else ">"
            ifd = struct.unpack(e + "I", tiff[4:8])[0]
            for i in range(struct.unpack(e + "H", tiff[ifd:ifd + 2])[0]):
                tag, _, count, value = struct.unpack(e + "HHII", tiff[ifd + 2 + 12 * i:ifd + 14 + 12 * i])
                if tag == 0xB002:
                    size, start = struct.unpack(e + "II", tiff[value + 16 + 4:value + 16 + 12])
                    return data[offset + 4 + start:offset + 4 + start + size]
    return None


def metadata(gain_file):
    """(min_log, max_log, gamma, offset_sdr, offset_hdr) per channel, from hdrgm XMP, else ISO, else Apple."""
    text = gain_file[:65536].decode("latin-1")
    def number(name):
        found = re.search(name + r'="([^"]+)"', text) or re.search(f"<{name}>([^<]+)<", text)
        return float(found.group(1)) if found else None
    if number("hdrgm:GainMapMax") is not None:
        return tuple([v] for v in (number("hdrgm:GainMapMin") or 0.0, number("hdrgm:GainMapMax"),
                                   number("hdrgm:Gamma") or 1.0, number("hdrgm:OffsetSDR") or OFFSET,
                                   number("hdrgm:OffsetHDR") or OFFSET))
    for marker, _, body in segments(gain_file):
        if marker == 0xE2 and body.startswith(ISO_URN) and len(body) > len(ISO_URN) + 4:
            block = body[len(ISO_URN):]
            flags = block[4]
            channels = 3 if flags & 0x80 else 1
            assert flags & 0x08, "the fixtures and galleryssg copy common-denominator blocks"
            denominator = struct.unpack(">I", block[5:9])[0]
            rest = block[17:]
            values = [struct.unpack(">iiIii", rest[20 * c:20 * c + 20]) for c in range(channels)]
            return tuple([v[i] / denominator for v in values] for i in range(5))
    headroom = number("HDRGainMap:HDRGainMapHeadroom")
    if headroom is not None:
        return ([0.0], [float(np.log2(headroom))], [1.0], [0.0], [0.0])
    return None


def reconstruct(data):
    """The HDR rendition in linear light, upright; None when the file has no gain map."""
    primary = ImageOps.exif_transpose(Image.open(io.BytesIO(data))).convert("RGB")
    profile = Image.open(io.BytesIO(data)).info.get("icc_profile")
    if profile:  # in sRGB primaries, as galleryssg's sizes are (Apple's exports are Display P3)
        primary = ImageCms.profileToProfile(primary, io.BytesIO(profile), ImageCms.createProfile("sRGB"))
    gain_file = gain_map_image(data)
    if gain_file is None:
        return None
    orientation = Image.open(io.BytesIO(data)).getexif().get(0x0112, 1)
    gain = Image.open(io.BytesIO(gain_file))
    if orientation in TRANSPOSE:  # the primary's orientation applies to its gain map too
        gain = gain.transpose(TRANSPOSE[orientation])
    min_log, max_log, gamma, off_sdr, off_hdr = metadata(gain_file)
    gain = np.asarray(gain.resize(primary.size, Image.BILINEAR), dtype=np.float64) / 255
    if gain.ndim == 2:
        gain = gain[..., None]
    sdr = srgb_decode(np.asarray(primary, dtype=np.float64) / 255)
    g = np.array(gamma)
    log_boost = np.array(min_log) + (np.array(max_log) - np.array(min_log)) * np.power(gain, 1 / g)
    return (sdr + np.array(off_sdr)) * np.exp2(log_boost) - np.array(off_hdr)


TRANSPOSE = {2: Image.Transpose.FLIP_LEFT_RIGHT, 3: Image.Transpose.ROTATE_180, 4: Image.Transpose.FLIP_TOP_BOTTOM,
             5: Image.Transpose.TRANSPOSE, 6: Image.Transpose.ROTATE_270, 7: Image.Transpose.TRANSVERSE,
             8: Image.Transpose.ROTATE_90}


def compare(source_path, derivative_path):
    source = reconstruct(open(source_path, "rb").read())
    derivative_bytes = open(derivative_path, "rb").read()
    derivative = reconstruct(derivative_bytes)
    if derivative is None:  # an SDR file: its HDR rendition is its SDR image
        image = Image.open(io.BytesIO(derivative_bytes)).convert("RGB")
        derivative = srgb_decode(np.asarray(image, dtype=np.float64) / 255)
    h, w = derivative.shape[:2]
    shrunk = np.stack([np.asarray(Image.fromarray(source[..., c].astype(np.float32)).resize((w, h), Image.BOX))
                       for c in range(3)], axis=-1)
    # Luminance below the specifications' offset (1/64 of SDR white) is floored there: in the near
    # black, a log scale would make differences no one sees (JPEG noise, rounding) dominate.
    a = np.log2(np.maximum(luminance(shrunk), OFFSET))
    b = np.log2(np.maximum(luminance(np.maximum(derivative, 0)), OFFSET))
    peak = float(a.max() - a.min())
    mse = float(np.mean((a - b) ** 2))
    psnr = 10 * np.log10(peak ** 2 / mse) if mse > 0 else 99.0
    print(json.dumps({"psnr": round(float(psnr), 2), "size": [w, h], "gainMap": gain_map_image(derivative_bytes)
                      is not None, "peak": round(float(np.exp2(a.max())), 3)}))


if __name__ == "__main__":
    if len(sys.argv) in (3, 5) and sys.argv[1] == "make":
        if len(sys.argv) == 5:
            W, H = int(sys.argv[3]), int(sys.argv[4])
        make(sys.argv[2])
    elif len(sys.argv) == 4 and sys.argv[1] == "compare":
        compare(sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__)
