#!/usr/bin/env python3
"""Remakes Photos/: a small photo library in the shape photographers keep, for LibraryTests.

Nested dated folders with album index.md files, phone and camera formats (JPEG, HEIC, AVIF, WebP,
TIFF, GIF, MPO), metadata in every place it is written (XMP, IPTC-IIM, EXIF, .xmp and .md sidecars),
a GPS position and serial numbers that must never be published, a symlink, and the clutter real
folders hold. Every file's expected fate is asserted by Tests/GalleryTests/Providers/LibraryTests.swift.

Needs Pillow (PyPI), exiftool (Debian libimage-exiftool-perl), heif-enc (libheif-examples) and
avifenc (libavif-bin). Run: python3 Tests/Fixtures/library/make-library.py
"""
import os, shutil, subprocess, tempfile
from PIL import Image, ImageDraw

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "Photos")
PRIVACY = os.path.join(os.path.dirname(HERE), "privacy", "camera.jpg")


def picture(colours, size=(96, 64)):
    """Four coloured quadrants, so orientation and colour can be checked after decoding."""
    image = Image.new("RGB", size)
    draw = ImageDraw.Draw(image)
    w, h = size
    for index, colour in enumerate(colours):
        x, y = (index % 2) * w // 2, (index // 2) * h // 2
        draw.rectangle([x, y, x + w // 2 - 1, y + h // 2 - 1], fill=colour)
    return image


def path(relative):
    full = os.path.join(ROOT, relative)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    return full


def exif(relative, *arguments):
    subprocess.run(["exiftool", "-q", "-q", "-overwrite_original", "-codedcharacterset=utf8", *arguments, path(relative)],
                   check=True)


def text(relative, content):
    with open(path(relative), "w", encoding="utf-8") as handle:
        handle.write(content)


def main():
    shutil.rmtree(ROOT, ignore_errors=True)
    red, green, blue, yellow = (220, 30, 30), (30, 180, 60), (40, 60, 220), (240, 220, 40)
    base = picture([red, green, blue, yellow])

    # 2024/Iceland: an album of albums, described by its index.md.
    text("2024/Iceland/index.md", "---\ntitle: Iceland, ring road\nsort: name\n---\nTen days around the *ring road*.\n")
    # XMP and IPTC disagree (no IPTC digest): XMP wins, by the MWG's rules. EXIF's caption is a camera's
    # placeholder, which counts as none (a real one would win). GPS and serial numbers must not be published.
    shutil.copy(PRIVACY, path("2024/Iceland/Day 1/harbour.jpg"))
    exif("2024/Iceland/Day 1/harbour.jpg", "-XMP-dc:Description=Boats before sunrise.", "-XMP-dc:Subject=harbour",
         "-XMP-dc:Subject=boats", "-XMP-dc:Creator=Ásta Photographer", "-XMP-dc:Rights=CC BY 4.0",
         "-XMP-xmpRights:WebStatement=https://creativecommons.org/licenses/by/4.0/", "-XMP-xmp:Rating=4",
         "-IPTC:Caption-Abstract=IPTC caption loses", "-EXIF:ImageDescription=OLYMPUS DIGITAL CAMERA",
         "-EXIF:DateTimeOriginal=2024:06:01 05:10:00")
    # IPTC (UTF-8) and EXIF: IPTC's caption, as EXIF's is a camera's placeholder; EXIF's date.
    base.save(path("2024/Iceland/Day 1/church.jpg"), quality=90)
    exif("2024/Iceland/Day 1/church.jpg", "-IPTC:ObjectName=Hallgrímskirkja", "-IPTC:Caption-Abstract=The church on the hill.",
         "-IPTC:Keywords=church", "-IPTC:Keywords=Reykjavík", "-IPTC:By-line=Jón Jónsson",
         "-EXIF:ImageDescription=SONY DSC", "-EXIF:DateTimeOriginal=2024:06:01 12:00:00")
    # EXIF only: its caption, and the file name as the title.
    picture([green, blue, yellow, red]).save(path("2024/Iceland/Day 1/IMG_1003.jpg"), quality=90)
    exif("2024/Iceland/Day 1/IMG_1003.jpg", "-EXIF:ImageDescription=Lava field", "-EXIF:Artist=Exif Artist",
         "-EXIF:Copyright=(c) Exif Artist", "-EXIF:DateTimeOriginal=2024:06:01 15:00:00")
    # A Markdown sidecar beats the file's own XMP.
    picture([blue, yellow, red, green]).save(path("2024/Iceland/Day 1/IMG_1004.jpg"), quality=90)
    exif("2024/Iceland/Day 1/IMG_1004.jpg", "-XMP-dc:Title=XMP title loses", "-XMP-dc:Subject=xmp-keyword-loses")
    text("2024/Iceland/Day 1/IMG_1004.md",
         "---\ntitle: Puffins\ntags: [birds, cliffs]\ndate: 2024-06-01T18:00:00\n---\nA colony on the **cliffs**.\n")
    # A phone's HEIC with XMP and a position.
    with tempfile.TemporaryDirectory() as tmp:
        png = os.path.join(tmp, "base.png")
        picture([yellow, red, green, blue]).save(png)
        subprocess.run(["heif-enc", "-q", "60", "-o", path("2024/Iceland/Day 2/geyser.heic"), png], check=True,
                       stdout=subprocess.DEVNULL)
        picture([red, red, blue, blue]).save(png)
        subprocess.run(["avifenc", "-s", "8", png, path("2025/Family/kids.avif")], check=True, stdout=subprocess.DEVNULL)
    exif("2024/Iceland/Day 2/geyser.heic", "-XMP-dc:Title=Strokkur", "-XMP-dc:Subject=geyser",
         "-XMP-exif:GPSLatitude=64.3128", "-XMP-exif:GPSLongitude=-20.3003", "-XMP-exif:DateTimeOriginal=2024:06:02 09:00:00")
    # An .xmp sidecar (darktable style, NAME.ext.xmp) beats the file's IPTC.
    picture([green, green, red, red]).save(path("2024/Iceland/Day 2/waterfall.jpg"), quality=90)
    exif("2024/Iceland/Day 2/waterfall.jpg", "-IPTC:ObjectName=IPTC title loses")
    subprocess.run(["exiftool", "-q", "-q", "-o", path("2024/Iceland/Day 2/waterfall.jpg.xmp"), "-XMP-dc:Title=Skógafoss",
                    "-XMP-dc:Subject=waterfall", "-XMP-dc:Subject=south coast", path("2024/Iceland/Day 2/waterfall.jpg")],
                   check=True)
    # A two-picture MPO: the first picture is the photo.
    first, second = picture([blue, blue, green, green]), picture([red, red, red, red])
    first.save(path("2024/Iceland/Day 2/ice.mpo"), format="MPO", save_all=True, append_images=[second], quality=90)

    # 2025/Family: newest first, one photo hidden, not on the home grid.
    text("2025/Family/index.md", "---\ntitle: Family\nsort: -taken\nhidden: [private.jpg]\nhome: false\ncover: dog.webp\n---\n")
    picture([yellow, yellow, blue, blue]).save(path("2025/Family/dog.webp"), quality=80)
    exif("2025/Family/dog.webp", "-XMP-dc:Title=Our dog", "-XMP-exif:DateTimeOriginal=2025:03:01 10:00:00")
    base.save(path("2025/Family/private.jpg"), quality=90)
    frames = [picture([red, green, blue, yellow]).convert("P"), picture([blue, blue, blue, blue]).convert("P")]
    frames[0].save(path("2025/Family/party.gif"), save_all=True, append_images=frames[1:], duration=200, loop=0)
    with open(path("2025/Family/.DS_Store"), "wb") as handle:
        handle.write(b"\x00\x00\x00\x01Bud1")

    # Portfolio: a TIFF scan, a link to a photo elsewhere in the library, and files that are not photos.
    base.save(path("Portfolio/scan.tif"), compression="tiff_lzw")
    exif("Portfolio/scan.tif", "-XMP-dc:Title=Scanned print", "-IFD0:Artist=Scanner Person")
    os.symlink("../2024/Iceland/Day 1/harbour.jpg", path("Portfolio/best.jpg"))
    # Malformed XMP as Capture One has written it (a property twice): no XMP, the EXIF caption instead.
    picture([red, blue, red, blue]).save(path("Portfolio/capture-one.jpg"), quality=90)
    exif("Portfolio/capture-one.jpg", "-EXIF:ImageDescription=Kite over the dunes")
    with open(path("Portfolio/capture-one.jpg"), "rb") as handle:
        data = handle.read()
    packet = ("<?xpacket begin='' id='W5M0MpCehiHzreSzNTczkc9d'?><x:xmpmeta xmlns:x='adobe:ns:meta/'>"
              "<rdf:RDF xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#'>"
              "<rdf:Description xmlns:photoshop='http://ns.adobe.com/photoshop/1.0/' xmlns:dc='http://purl.org/dc/elements/1.1/'>"
              "<photoshop:LegacyIPTCDigest>2C16</photoshop:LegacyIPTCDigest><dc:format>image/jpeg</dc:format>"
              "<photoshop:LegacyIPTCDigest>2C16</photoshop:LegacyIPTCDigest>"
              "</rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end='w'?>").encode()
    body = b"http://ns.adobe.com/xap/1.0/\x00" + packet
    segment = b"\xff\xe1" + (len(body) + 2).to_bytes(2, "big") + body
    with open(path("Portfolio/capture-one.jpg"), "wb") as handle:
        handle.write(data[:2] + segment + data[2:])
    # Five junk bytes before a marker, as Photoshop sometimes leaves: libjpeg warns, browsers show it.
    shutil.copy(os.path.join(os.path.dirname(HERE), "formats", "jpeg-extraneous.jpg"), path("Portfolio/retouched.jpg"))
    with open(path("Portfolio/IMG_0042.CR2"), "wb") as handle:
        handle.write(b"II*\x00\x10\x00\x00\x00CR\x02\x00")
    text("Portfolio/notes.txt", "Print these at A3.\n")
    with open(path("Thumbs.db"), "wb") as handle:
        handle.write(b"\xd0\xcf\x11\xe0")


if __name__ == "__main__":
    main()
