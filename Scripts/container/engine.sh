# Sourced by the container scripts (image.sh, image-test.sh, package-in.sh, test-package.sh):
# picks the container engine and makes Debian base images where no registry can be reached.
#
#   engine ARGS...          podman, or docker where podman is absent (GALLERYSSG_ENGINE names one)
#   base_image RELEASE      prints the name of a debian:RELEASE-slim image, pulling it, or making it
#                           from Debian's packages with mmdebstrap when the registry cannot be reached
#
# Podman on some machines (these development machines among them) cannot use crun, the systemd
# cgroup manager or its default ulimits: crun refuses the cgroup layout and setrlimit fails. Where
# the user has not named a containers.conf of their own (CONTAINERS_CONF) and runc is installed,
# podman gets one that uses runc and cgroupfs and sets no ulimits, which works wherever podman
# runs as root. GALLERYSSG_PODMAN_DEFAULTS=1 keeps podman's own settings instead.

if [ -n "${GALLERYSSG_ENGINE:-}" ]; then
    container_engine=$GALLERYSSG_ENGINE
elif command -v podman >/dev/null; then
    container_engine=podman
elif command -v docker >/dev/null; then
    container_engine=docker
else
    echo "galleryssg: neither podman nor docker is installed (apt-get install podman)" >&2
    exit 1
fi

if [ "$container_engine" = podman ] && [ -z "${CONTAINERS_CONF:-}" ] \
    && [ "${GALLERYSSG_PODMAN_DEFAULTS:-0}" != 1 ] && command -v runc >/dev/null; then
    CONTAINERS_CONF="${TMPDIR:-/tmp}/galleryssg-containers-$(id -u).conf"
    cat > "$CONTAINERS_CONF" <<'CONF'
[containers]
default_ulimits = []

[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"
CONF
    export CONTAINERS_CONF
fi

engine() { "$container_engine" "$@"; }

# The registry's image when it can be pulled; otherwise localhost/galleryssg-base:RELEASE, made once
# with mmdebstrap from deb.debian.org (minbase, without manuals, docs and locales, as Debian's
# -slim images are) and imported. GALLERYSSG_MIRROR names another Debian mirror.
base_image() {
    local release=$1 official="docker.io/library/debian:$1-slim" local_name="localhost/galleryssg-base:$1"
    if engine image inspect "$official" >/dev/null 2>&1; then
        echo "$official"; return
    fi
    if engine image inspect "$local_name" >/dev/null 2>&1; then
        echo "$local_name"; return
    fi
    if timeout 60 "$container_engine" pull -q "$official" >/dev/null 2>&1; then
        echo "$official"; return
    fi
    command -v mmdebstrap >/dev/null || {
        echo "galleryssg: $official cannot be pulled and mmdebstrap is missing (apt-get install mmdebstrap)" >&2
        return 1
    }
    local mirror=${GALLERYSSG_MIRROR:-http://deb.debian.org/debian}
    local security=${GALLERYSSG_SECURITY_MIRROR:-http://deb.debian.org/debian-security}
    local tar
    tar=$(mktemp --suffix=.tar)
    echo "galleryssg: $official cannot be pulled; making $local_name with mmdebstrap" >&2
    mmdebstrap --quiet --variant=minbase --format=tar \
        --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/locale/*' \
        --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-include=/usr/share/doc/*/copyright' \
        --dpkgopt='path-exclude=/usr/share/info/*' \
        "$release" "$tar" \
        "deb $mirror $release main" "deb $mirror $release-updates main" \
        "deb $security $release-security main" >&2 || { rm -f "$tar"; return 1; }
    engine import --change 'CMD ["bash"]' "$tar" "$local_name" >/dev/null || { rm -f "$tar"; return 1; }
    rm -f "$tar"
    echo "$local_name"
}
