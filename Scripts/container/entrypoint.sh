#!/bin/sh
# The image's entrypoint: runs galleryssg with the arguments given to `docker run`/`podman run`.
#
# Files written into the mounted site folder belong to that folder's owner, never to root, with no
# --user flag to remember: when the container runs as root (docker's default) and the working
# folder belongs to someone else, galleryssg runs as that user and group (setpriv, from
# util-linux). Rootless podman maps the caller to root inside, so there the folder is root's and
# stays so: the files are the caller's outside. `--user` given to docker run is kept as it is.
#
#   docker run --rm -v "$PWD:/site" galleryssg build        galleryssg build
#   docker run --rm -v "$PWD:/site" galleryssg galleryssg-action   the GitHub Action's script
set -eu

case "${1:-}" in
    galleryssg) shift; set -- galleryssg "$@" ;;
    galleryssg-action) ;;
    *) set -- galleryssg "$@" ;;
esac

if [ "$(id -u)" = 0 ]; then
    owner=$(stat -c %u .)
    group=$(stat -c %g .)
    if [ "$owner" != 0 ]; then
        exec setpriv --reuid="$owner" --regid="$group" --clear-groups -- "$@"
    fi
fi
exec "$@"
