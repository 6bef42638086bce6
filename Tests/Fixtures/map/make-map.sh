#!/usr/bin/env bash
# Remakes the map fixtures: copies of Tests/Fixtures/images/photo-1…6.jpg with EXIF GPS positions,
# four close together in the Basque Country (one cluster on a world map) and two far apart
# (Reykjavik, Tokyo). MapBrowserTests builds a site of them with images.showLocation.
# Needs exiftool (Debian libimage-exiftool-perl). Run from anywhere.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
fixtures=$(dirname "$here")
place() {  # number latitude N|S longitude E|W
    cp "$fixtures/images/photo-$1.jpg" "$here/located-$1.jpg"
    exiftool -q -q -overwrite_original -EXIF:GPSLatitude="$2" -EXIF:GPSLatitudeRef="$3" \
        -EXIF:GPSLongitude="$4" -EXIF:GPSLongitudeRef="$5" "$here/located-$1.jpg"
}
place 1 43.2630 N 2.9350 W    # Bilbao
place 2 43.3183 N 1.9812 W    # Donostia / San Sebastián
place 3 42.8467 N 2.6716 W    # Vitoria-Gasteiz
place 4 43.3390 N 1.7896 W    # Hondarribia
place 5 64.1466 N 21.9426 W   # Reykjavik
place 6 35.6812 N 139.7671 E  # Tokyo
echo "wrote $here/located-1…6.jpg"
