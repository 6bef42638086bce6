#!/bin/sh
# Remakes the metadata fixtures (needs exiftool: apt-get install libimage-exiftool-perl).
# Each JPEG is ../images/photo-2.jpg (100x160, no metadata) with fields written by exiftool:
#
#   xmp-only.jpg       XMP dc:title/description/subject/creator/rights, xmpRights:WebStatement,
#                      xmp:Rating, photoshop:DateCreated
#   iptc-only.jpg      IPTC-IIM 2:05/2:120/2:25/2:80/2:116/2:55/2:60, 1:90 declares UTF-8
#   iptc-latin1.jpg    IPTC-IIM in Latin-1 with no 1:90 (as older software wrote it)
#   exif-only.jpg      EXIF ImageDescription, Artist, Copyright, DateTimeOriginal
#   exif-camera-caption.jpg  EXIF ImageDescription "OLYMPUS DIGITAL CAMERA" (a camera's placeholder)
#   all-three.jpg      different values in XMP, IPTC and EXIF (the MWG's choice: EXIF's caption,
#                      artist, copyright and date; XMP's title; IPTC's keywords, as XMP has none);
#                      see mwg/ for the cases checked against ExifTool
#   lightroom.jpg      Lightroom-style keywords: dc:subject plus lr:hierarchicalSubject, and
#                      older IPTC keywords that must not be mixed in
# Sidecars and index.md files (site/) are written by hand; site/ is a folder-source site:
#   site/photos/beach.jpg (+ beach.md: front matter and Markdown body; embedded XMP title loses)
#   site/photos/cliff.jpg (+ cliff.jpg.xmp: a darktable-style sidecar)
#   site/photos/Iceland/index.md, a.jpg, b.jpg
set -eu
cd "$(dirname "$0")"
base=../images/photo-2.jpg
make() { cp "$base" "$1"; shift_name=$1; shift; exiftool -q -overwrite_original "$@" "$shift_name"; }

make xmp-only.jpg -XMP-dc:Title="XMP title" -XMP-dc:Description="Caption with *stars*, <b>tags</b> & [a link](javascript:x)" \
  -XMP-dc:Subject=sea -XMP-dc:Subject=sky -XMP-dc:Creator="Ana Example" -XMP-dc:Rights="© 2024 Ana Example" \
  -XMP-xmpRights:WebStatement=https://creativecommons.org/licenses/by/4.0/ -XMP-xmp:Rating=4 \
  -XMP-photoshop:DateCreated=2021-06-01T10:20:00+02:00

make iptc-only.jpg -IPTC:CodedCharacterSet=UTF8 -charset iptc=UTF8 -IPTC:ObjectName="Reykjavík harbour" \
  -IPTC:Caption-Abstract="Boats — at dawn" -IPTC:Keywords=Ísland -IPTC:Keywords=boats -IPTC:By-line="Jón Jónsson" \
  -IPTC:CopyrightNotice="© Jón" -IPTC:DateCreated=2020:01:02 -IPTC:TimeCreated=03:04:05+01:00

make iptc-latin1.jpg -charset iptc=Latin -IPTC:ObjectName="Café Ørsted" -IPTC:Keywords=Fußball

make exif-only.jpg -EXIF:ImageDescription="EXIF description" -EXIF:Artist="Exif Artist" \
  -EXIF:Copyright="Exif Copyright" -EXIF:DateTimeOriginal="2019:05:06 07:08:09"

make exif-camera-caption.jpg -EXIF:ImageDescription="OLYMPUS DIGITAL CAMERA         " -EXIF:Artist="Olympus Owner"

make all-three.jpg -XMP-dc:Title="XMP wins" -XMP-dc:Description="XMP caption" \
  -IPTC:ObjectName="IPTC loses" -IPTC:Caption-Abstract="IPTC caption" -IPTC:By-line="IPTC Byline" \
  -IPTC:Keywords=iptc-keyword -EXIF:ImageDescription="EXIF caption" -EXIF:Artist="EXIF Artist" \
  -EXIF:Copyright="EXIF Copyright" -EXIF:DateTimeOriginal="2018:01:01 12:00:00"

make lightroom.jpg -XMP-dc:Title="Lightroom export" -XMP-dc:Subject=Reykjavík -XMP-dc:Subject=Iceland -XMP-dc:Subject=Places \
  -XMP-lr:HierarchicalSubject="Places|Iceland|Reykjavík" -IPTC:Keywords=old-keyword

mkdir -p site/photos/Iceland
make site/photos/beach.jpg -XMP-dc:Title="Embedded beach title" -XMP-dc:Creator="Embedded Creator" \
  -XMP-dc:Subject=embedded-tag
make site/photos/cliff.jpg -IPTC:ObjectName="IPTC cliff title"
cp "$base" site/photos/Iceland/a.jpg
cp "$base" site/photos/Iceland/b.jpg
