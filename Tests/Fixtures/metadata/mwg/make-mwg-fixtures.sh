#!/bin/sh
# Remakes the MWG fixtures and ExifTool's own reading of them (needs exiftool and python3).
# Made with ExifTool 12.57 (MWG.pm 1.24, whose rules are those of ExifTool's current MWG.pm);
# the JSON records the version it came from. Each file carries different values in EXIF, IPTC-IIM
# and XMP, so which one wins shows; exiftool.json is `exiftool -j -G -MWG:all` plus the raw IPTC
# tags and the digests (exiftool-iptc.json: the IRB-only TIFF's IPTC, read without the MWG module),
# and Tests/GalleryTests/Metadata/MWGTests.swift compares our reading with them.
# Bases: ../../images/photo-2.jpg, ../../formats/tiff-rgb8.tif, ../../formats/gif-transparent.gif.
#
#   jpeg-all-three.jpg       EXIF, IPTC and XMP all set, no IPTC digest: EXIF wins description,
#                            creator, copyright and date (DateTimeOriginal + SubSec + OffsetTime);
#                            XMP wins keywords and title
#   jpeg-no-digest.jpg       IPTC and XMP, no digest: XMP wins (the MWG trusts XMP without a digest)
#   jpeg-current-digest.jpg  IPTC and XMP, digest matches the IPTC: XMP wins; XMP has no rights, so
#                            the IPTC copyright shows
#   jpeg-stale-digest.jpg    IPTC and XMP, digest does not match: the IPTC was edited after the XMP,
#                            so the IPTC wins; XMP's rights are ignored even though the IPTC has none
#   jpeg-truncated.jpg       stale digest, IPTC by-line and keyword cut at their IIM limits (32 and
#                            64 bytes) from longer XMP values: the XMP values are recovered
#   jpeg-headline.jpg        no title anywhere, IPTC and XMP headlines (the XMP one wins, no digest);
#                            EXIF Artist "Ana Example; Ben Example", the MWG's list in one string
#   tiff-iptc-tag.tif        IPTC in tag 33723, XMP in tag 700, stale digest in Photoshop's IRB (34377)
#   tiff-current-digest.tif  the same with a matching digest: XMP wins
#   tiff-irb.tif             IPTC only inside the IRB (resource 0x0404), no XMP; ExifTool reads these
#                            IPTC tags but its MWG tags leave them out (not the standard place)
#   gif-xmp.gif              XMP in GIF's "XMP DataXMP" application extension
set -eu
cd "$(dirname "$0")"
jpeg=../../images/photo-2.jpg
tiff=../../formats/tiff-rgb8.tif
gif=../../formats/gif-transparent.gif
stale=0123456789abcdef0123456789abcdef

write() { exiftool -q -overwrite_original -api Compact=NoPadding "$@"; }
exif() {
  write -EXIF:ImageDescription="EXIF description" -EXIF:Artist="EXIF Artist" -EXIF:Copyright="EXIF copyright" \
    -EXIF:DateTimeOriginal="2019:05:06 07:08:09" -EXIF:SubSecTimeOriginal=25 -EXIF:OffsetTimeOriginal=+02:00 "$@"
}
iptc() {
  write -IPTC:CodedCharacterSet=UTF8 -IPTC:ObjectName="IPTC title" -IPTC:Caption-Abstract="IPTC caption" \
    -IPTC:By-line="IPTC By-line" -IPTC:CopyrightNotice="IPTC copyright" -IPTC:Keywords=iptc-one \
    -IPTC:Keywords=iptc-two -IPTC:DateCreated=2020:01:02 -IPTC:TimeCreated=03:04:05+01:00 "$@"
}
xmp() {
  write -XMP-dc:Title="XMP title" -XMP-dc:Description="XMP description" -XMP-dc:Creator="XMP Creator" \
    -XMP-dc:Creator="Second Creator" -XMP-dc:Rights="XMP rights" -XMP-dc:Subject=xmp-one -XMP-dc:Subject=xmp-two \
    -XMP-photoshop:DateCreated="2021:06:01 10:20:00+02:00" "$@"
}

cp "$jpeg" jpeg-all-three.jpg && iptc jpeg-all-three.jpg && xmp jpeg-all-three.jpg && exif jpeg-all-three.jpg
cp "$jpeg" jpeg-no-digest.jpg && iptc jpeg-no-digest.jpg && xmp jpeg-no-digest.jpg
cp "$jpeg" jpeg-current-digest.jpg && iptc jpeg-current-digest.jpg && xmp -XMP-dc:Rights= jpeg-current-digest.jpg
write -IPTCDigest=new jpeg-current-digest.jpg
cp "$jpeg" jpeg-stale-digest.jpg && iptc -IPTC:CopyrightNotice= jpeg-stale-digest.jpg
xmp -IPTCDigest=$stale jpeg-stale-digest.jpg
cp "$jpeg" jpeg-truncated.jpg
write -IPTC:By-line="Maria Example-Longname de la Cru" \
  -IPTC:Keywords="a keyword that is longer than the sixty-four bytes IIM allows fo" -IPTC:Keywords=short \
  -XMP-dc:Creator="Maria Example-Longname de la Cruz y Fernandez" \
  -XMP-dc:Subject="a keyword that is longer than the sixty-four bytes IIM allows for it" -XMP-dc:Subject=other \
  -IPTCDigest=$stale jpeg-truncated.jpg
cp "$jpeg" jpeg-headline.jpg
write -IPTC:Headline="IPTC headline" -XMP-photoshop:Headline="XMP headline" -IPTC:Caption-Abstract="IPTC caption" \
  -EXIF:Artist="Ana Example; Ben Example" jpeg-headline.jpg

cp "$tiff" tiff-iptc-tag.tif && iptc tiff-iptc-tag.tif && xmp -IPTCDigest=$stale tiff-iptc-tag.tif
cp "$tiff" tiff-current-digest.tif && iptc tiff-current-digest.tif && xmp tiff-current-digest.tif
write -IPTCDigest=new tiff-current-digest.tif

# Photoshop's IRB holding the IPTC: ExifTool writes IPTC only to tag 33723 and cannot write the IRB
# whole, so the IIM it wrote there is wrapped in an 8BIM resource 0x0404 (big-endian, as Photoshop
# writes resources) and added to a copy of the base's IFD0 as tag 34377.
cp "$tiff" irb-source.tif
write -IPTC:ObjectName="IRB title" -IPTC:Caption-Abstract="IRB caption" -IPTC:By-line="IRB By-line" \
  -IPTC:Keywords=irb-one -IPTC:Keywords=irb-two irb-source.tif
exiftool -b -IPTC-NAA irb-source.tif > irb-iim.bin
python3 -c '
import struct, sys
iim = open("irb-iim.bin", "rb").read().rstrip(b"\0")
irb = b"8BIM" + struct.pack(">HHI", 0x0404, 0, len(iim)) + iim + b"\0" * (len(iim) % 2)
tiff = bytearray(open(sys.argv[1], "rb").read())
assert tiff[:4] == b"II*\0"
ifd = struct.unpack_from("<I", tiff, 4)[0]
count = struct.unpack_from("<H", tiff, ifd)[0]
entries = [bytes(tiff[ifd + 2 + 12 * i:ifd + 14 + 12 * i]) for i in range(count)]
following = struct.unpack_from("<I", tiff, ifd + 2 + 12 * count)[0]
tiff += b"\0" * (len(tiff) % 2)
entries.append(struct.pack("<HHII", 34377, 7, len(irb), len(tiff)))
entries.sort(key=lambda entry: struct.unpack_from("<H", entry)[0])
tiff += irb + b"\0" * (len(irb) % 2)
struct.pack_into("<I", tiff, 4, len(tiff))
tiff += struct.pack("<H", len(entries)) + b"".join(entries) + struct.pack("<I", following)
open(sys.argv[2], "wb").write(tiff)
' "$tiff" tiff-irb.tif
rm irb-source.tif irb-iim.bin

cp "$gif" gif-xmp.gif && xmp gif-xmp.gif

exiftool -j -G -a -MWG:all -IPTC:all -XMP-dc:Title -XMP-photoshop:Headline -IPTCDigest -CurrentIPTCDigest \
  -ExifToolVersion -fileOrder FileName -ext jpg -ext tif -ext gif . > exiftool.json
# Without the MWG module (whose strict mode skips IPTC outside tag 33723), ExifTool reads the IRB's IPTC.
exiftool -j -G -IPTC:all -ExifToolVersion tiff-irb.tif > exiftool-iptc.json
