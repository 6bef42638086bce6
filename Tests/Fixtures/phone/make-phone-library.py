#!/usr/bin/env python3
"""Makes a phone-style photo library in the folder given (default: ./Phone), as docs/library.md
shows it built: stills (JPEG, HEIC), clips (a rotated iPhone MOV with its position, a 10-bit HEVC
MP4, a WebM that opens on black), a Live Photo (a HEIC and a MOV of the same name), a Google motion
photo (a JPEG with its MP4 appended), a raw beside its JPEG and a lone raw.

Needs ffmpeg; the photos and raws are the repository's own fixtures (Tests/Fixtures/images, .../raw
and .../library, all made by this project). Run from anywhere: python3 make-phone-library.py OUT
"""
import os
import shutil
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
fixtures = os.path.dirname(here)
out = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "Phone")
camera = os.path.join(out, "2025", "Lisbon")
os.makedirs(camera, exist_ok=True)


def ffmpeg(*arguments):
    subprocess.run(["ffmpeg", "-v", "error", "-y", *arguments], check=True)


def at(name):
    return os.path.join(camera, name)


def copy(fixture, name):
    shutil.copyfile(os.path.join(fixtures, fixture), at(name))


copy("images/photo-1.jpg", "IMG_0001.JPG")
copy("library/Photos/2024/Iceland/Day 2/geyser.heic", "IMG_0002.HEIC")
# An iPhone clip: H.264/AAC, a quarter turn in its display matrix, its position and Apple's keys.
plain = at(".plain.mov")
ffmpeg("-f", "lavfi", "-i", "testsrc2=size=640x360:rate=30:duration=3", "-f", "lavfi", "-i", "sine=d=3",
       "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac", plain)
ffmpeg("-i", plain, "-c", "copy", "-metadata:s:v:0", "rotate=90", "-metadata", "location=+38.7139-009.1394/",
       "-metadata", "com.apple.quicktime.location.ISO6709=+38.7139-009.1394+010.000/",
       "-metadata", "com.apple.quicktime.make=Apple", "-metadata", "com.apple.quicktime.model=iPhone 15",
       "-metadata", "creation_time=2025-05-02T09:30:00Z", "-movflags", "use_metadata_tags", at("IMG_0003.MOV"))
os.remove(plain)
# An Android clip in 10-bit HEVC, and a WebM that opens on a second of black.
ffmpeg("-f", "lavfi", "-i", "testsrc2=size=1280x720:rate=30:duration=4", "-c:v", "libx265", "-x265-params", "log-level=error",
       "-pix_fmt", "yuv420p10le", "-tag:v", "hvc1", at("PXL_0004.mp4"))
ffmpeg("-f", "lavfi", "-i", "color=black:size=640x360:rate=25:duration=1", "-f", "lavfi",
       "-i", "testsrc2=size=640x360:rate=25:duration=2", "-filter_complex", "[0][1]concat=n=2:v=1",
       "-c:v", "libvpx-vp9", "-b:v", "300k", at("screen.webm"))
# A Live Photo: the still and its 1.5 s clip, the same name.
copy("library/Photos/2024/Iceland/Day 2/geyser.heic", "IMG_0005.HEIC")
ffmpeg("-f", "lavfi", "-i", "testsrc2=size=640x360:rate=30:duration=1.5", "-f", "lavfi", "-i", "sine=d=1.5",
       "-c:v", "libx265", "-x265-params", "log-level=error", "-tag:v", "hvc1", "-c:a", "aac", at("IMG_0005.MOV"))
# A Google motion photo: XMP that announces the clip and its length, then the MP4 after the JPEG.
clip = at(".motion.mp4")
ffmpeg("-f", "lavfi", "-i", "testsrc2=size=480x270:rate=30:duration=1", "-c:v", "libx264", "-pix_fmt", "yuv420p", clip)
with open(clip, "rb") as handle:
    motion = handle.read()
os.remove(clip)
with open(os.path.join(fixtures, "images", "photo-2.jpg"), "rb") as handle:
    jpeg = handle.read()
xmp = ('<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
       '<rdf:Description xmlns:GCamera="http://ns.google.com/photos/1.0/camera/" '
       'xmlns:Container="http://ns.google.com/photos/1.0/container/" xmlns:Item="http://ns.google.com/photos/1.0/container/item/" '
       'GCamera:MotionPhoto="1" GCamera:MotionPhotoVersion="1"><Container:Directory><rdf:Seq>'
       '<rdf:li rdf:parseType="Resource"><Container:Item Item:Mime="image/jpeg" Item:Semantic="Primary" Item:Length="0"/></rdf:li>'
       '<rdf:li rdf:parseType="Resource"><Container:Item Item:Mime="video/mp4" Item:Semantic="MotionPhoto" '
       f'Item:Length="{len(motion)}"/></rdf:li></rdf:Seq></Container:Directory></rdf:Description></rdf:RDF></x:xmpmeta>')
body = b"http://ns.adobe.com/xap/1.0/\0" + xmp.encode()
app1 = b"\xff\xe1" + (len(body) + 2).to_bytes(2, "big") + body
with open(at("PXL_0006.MP.jpg"), "wb") as handle:
    handle.write(b"\xff\xd8" + app1 + jpeg[2:] + motion)
# A raw beside its JPEG (the JPEG is published, the raw ignored on purpose), and a raw alone.
copy("raw/lone.dng", "DSC_0007.DNG")
copy("images/photo-3.jpg", "DSC_0007.JPG")
copy("raw/preview.dng", "DSC_0008.DNG")
print(f"made {out}: {len(os.listdir(camera))} files in 2025/Lisbon")
