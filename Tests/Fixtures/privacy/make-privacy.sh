#!/usr/bin/env bash
# Remakes camera.jpg: a small JPEG carrying everything a camera or phone writes that must not be
# published (GPS in EXIF and XMP, body and lens serial numbers, owner name, an IPTC block), plus
# what must be kept (orientation 6, an Adobe RGB ICC profile, make, model, copyright), followed by
# a second JPEG image, as an MPO or a phone's trailer would be.
# Needs exiftool (Debian libimage-exiftool-perl). Run from anywhere.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
fixtures=$(dirname "$here")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$fixtures/orientation/orientation-1.jpg" "$tmp/camera.jpg"
exiftool -q -q -icc_profile -b "$fixtures/colour/adobe-rgb.jpg" > "$tmp/adobe.icc"
exiftool -q -q -overwrite_original "-icc_profile<=$tmp/adobe.icc" \
    -EXIF:Orientation#=6 -EXIF:Make=TestCam -EXIF:Model="Test 1" -EXIF:Copyright="(c) Test Person" \
    -ExifIFD:SerialNumber=SN-BODY-12345 -EXIF:LensSerialNumber=SN-LENS-67890 -EXIF:OwnerName="Owner Name" \
    -EXIF:ImageUniqueID=0123456789abcdef0123456789abcdef \
    -EXIF:GPSLatitude=64.1466 -EXIF:GPSLatitudeRef=N -EXIF:GPSLongitude=21.9426 -EXIF:GPSLongitudeRef=W \
    -XMP:GPSLatitude="64,8.796N" -XMP:GPSLongitude="21,56.556W" -XMP-aux:SerialNumber=SN-XMP-555 \
    -XMP-dc:Title="Harbour at dawn" -IPTC:ObjectName="Harbour" -IPTC:City=Reykjavik \
    "$tmp/camera.jpg"
cat "$tmp/camera.jpg" "$fixtures/images/gps.jpg" > "$here/camera.jpg"
echo "wrote $here/camera.jpg"
