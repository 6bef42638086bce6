#!/usr/bin/env python3
"""Regenerates the fixtures in Tests/Fixtures/formats (see SOURCES.md there).

Needs Pillow (pip install pillow), and for HEIC/AVIF libheif-examples (heif-enc), libavif-bin
(avifenc) and libimage-exiftool-perl (exiftool). Every picture is 64x48 with four quadrants
(red top-left, green top-right, blue bottom-left, white bottom-right) unless said otherwise.
"""
import io
import os
import struct
import subprocess
import tempfile
from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
COLOURS = [(220, 30, 30), (30, 200, 30), (30, 30, 220), (240, 240, 240)]


def quadrants(width=64, height=48, mode="RGB"):
    image = Image.new("RGB", (width, height))
    for y in range(height):
        for x in range(width):
            image.putpixel((x, y), COLOURS[(x * 2 // width) + 2 * (y * 2 // height)])
    return image.convert(mode) if mode != "RGB" else image


def transparent_corner(rgba):
    """Makes the bottom-right quadrant fully transparent."""
    for y in range(24, 48):
        for x in range(32, 64):
            rgba.putpixel((x, y), (0, 0, 0, 0))
    return rgba


def path(name):
    return os.path.join(HERE, name)


def exif_with_orientation(n):
    exif = Image.Exif()
    exif[0x0112] = n
    exif[0x010F] = "FormatCam"
    return exif.tobytes()


def heif_fixtures():
    """heic-exif6.heic: EXIF says orientation 6 but there is no irot, so it must stay 64x48.
    heic-alpha.heic: an alpha plane, the bottom-right quadrant transparent.
    avif-irot.avif: irot 3 (270 degrees anticlockwise = 90 clockwise) plus EXIF orientation 6, as
    phones write: shown once rotated, 48x64, blue top-left."""
    with tempfile.TemporaryDirectory() as tmp:
        jpeg = os.path.join(tmp, "q.jpg")
        quadrants().save(jpeg, quality=95, subsampling=0, exif=exif_with_orientation(6))
        subprocess.run(["heif-enc", "-q", "90", "-p", "chroma=444", jpeg, "-o", path("heic-exif6.heic")], check=True,
                       stdout=subprocess.DEVNULL)
        png = os.path.join(tmp, "q.png")
        quadrants().save(png)
        alpha = os.path.join(tmp, "alpha.png")
        transparent_corner(quadrants(mode="RGBA")).save(alpha)
        subprocess.run(["heif-enc", "-q", "90", "-p", "chroma=444", alpha, "-o", path("heic-alpha.heic")], check=True,
                       stdout=subprocess.DEVNULL)
        exif = os.path.join(tmp, "exif.bin")
        with open(exif, "wb") as handle:
            handle.write(exif_with_orientation(6)[6:])   # avifenc wants the TIFF structure, no Exif\0\0
        subprocess.run(["avifenc", "--min", "0", "--max", "10", "-y", "444", "--irot", "3", "--exif", exif, png,
                        path("avif-irot.avif")], check=True, stdout=subprocess.DEVNULL)


def webp_fixtures():
    quadrants().save(path("webp-lossy.webp"), quality=90, exif=exif_with_orientation(3))
    transparent_corner(quadrants(mode="RGBA")).save(path("webp-alpha.webp"), lossless=True)


def tiff16(name, width, height, pixel, photometric):
    """Writes an uncompressed 16-bit TIFF by hand (Pillow cannot save 16-bit RGB)."""
    samples = 3 if photometric == 2 else 1
    rows = b"".join(struct.pack("<%dH" % samples, *pixel(x, y)) for y in range(height) for x in range(width))
    entries = [(256, 3, 1, width), (257, 3, 1, height), (258, 3, samples, None), (259, 3, 1, 1),
               (262, 3, 1, photometric), (273, 4, 1, None), (277, 3, 1, samples), (278, 3, 1, height),
               (279, 4, 1, len(rows)), (284, 3, 1, 1)]
    ifd_offset = 8
    extra_offset = ifd_offset + 2 + 12 * len(entries) + 4
    bits_offset = extra_offset
    data_offset = bits_offset + (2 * samples if samples > 2 else 0)
    out = bytearray(b"II*\x00" + struct.pack("<I", ifd_offset) + struct.pack("<H", len(entries)))
    for tag, kind, count, value in entries:
        if tag == 258:
            value = bits_offset if samples > 2 else 16
            if samples > 2:
                out += struct.pack("<HHII", tag, kind, count, value)
                continue
        if tag == 273:
            value = data_offset
        if kind == 3:
            out += struct.pack("<HHIHH", tag, kind, count, value, 0)
        else:
            out += struct.pack("<HHII", tag, kind, count, value)
    out += struct.pack("<I", 0)
    if samples > 2:
        out += struct.pack("<3H", 16, 16, 16)
    out += rows
    with open(path(name), "wb") as handle:
        handle.write(out)


def tiff_fixtures():
    quadrants().save(path("tiff-rgb8.tif"), compression="tiff_deflate", exif=exif_with_orientation(8))
    quadrants(mode="L").save(path("tiff-grey8.tif"), compression="tiff_lzw")
    image = quadrants()
    tiff16("tiff-rgb16.tif", 64, 48, lambda x, y: [c * 257 for c in image.getpixel((x, y))], 2)
    grey = quadrants(mode="L")
    tiff16("tiff-grey16.tif", 64, 48, lambda x, y: [grey.getpixel((x, y)) * 257], 1)
    # The same Adobe RGB colours as ../colour/adobe-rgb.jpg, so colour/expected.json gives their sRGB values.
    adobe = Image.open(os.path.join(HERE, "..", "colour", "adobe-rgb.jpg")).info["icc_profile"]
    wide = Image.new("RGB", (64, 32), (180, 60, 40))
    wide.paste((40, 140, 200), (32, 0, 64, 32))
    wide.save(path("tiff-adobergb.tif"), icc_profile=adobe)


def gif_fixtures():
    first = quadrants().quantize(colors=4, dither=Image.Dither.NONE)
    second = Image.new("RGB", (64, 48), (0, 0, 0)).quantize(colors=2)
    first.save(path("gif-animated.gif"), save_all=True, append_images=[second], duration=100, loop=0)
    transparent = quadrants().quantize(colors=4, dither=Image.Dither.NONE)
    index = transparent.getpixel((50, 40))            # the white quadrant's palette entry
    transparent.save(path("gif-transparent.gif"), transparency=index)


def mpo_fixture():
    """Two JPEGs in one MPO file: the quadrants, then a smaller black picture that must be ignored."""
    quadrants().save(path("mpo-stereo.mpo"), format="MPO", save_all=True,
                     append_images=[Image.new("RGB", (40, 30), (0, 0, 0))], quality=95)


def jpeg_warning_fixtures():
    """jpeg-extraneous.jpg: 5 junk bytes before the DQT marker, which libjpeg reports as
    "Corrupt JPEG data: 5 extraneous bytes before marker 0xdb" and browsers ignore.
    jpeg-truncated.jpg: the last two thirds of the scan data cut off."""
    buffer = io.BytesIO()
    quadrants().save(buffer, format="JPEG", quality=95)
    data = buffer.getvalue()
    dqt = data.index(b"\xff\xdb")
    with open(path("jpeg-extraneous.jpg"), "wb") as handle:
        handle.write(data[:dqt] + b"\x00\x11\x22\x33\x44" + data[dqt:])
    sos = data.index(b"\xff\xda")
    with open(path("jpeg-truncated.jpg"), "wb") as handle:
        handle.write(data[: sos + (len(data) - sos) // 3])


def png_metadata_fixture():
    from PIL import PngImagePlugin
    info = PngImagePlugin.PngInfo()
    xmp = '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"/></x:xmpmeta>'
    info.add_itxt("XML:com.adobe.xmp", xmp)
    quadrants().save(path("png-metadata.png"), pnginfo=info, exif=exif_with_orientation(6))


if __name__ == "__main__":
    heif_fixtures()
    webp_fixtures()
    tiff_fixtures()
    gif_fixtures()
    mpo_fixture()
    jpeg_warning_fixtures()
    png_metadata_fixture()
    print("format fixtures written")
