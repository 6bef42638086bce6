#!/bin/sh
# galleryssg-action: the GitHub Action's step (action.yml), run inside the image from the
# repository's folder (the runner's workspace, mounted at /site). The runner hands it the Action's
# inputs as INPUT_* variables and a file to write outputs to in GITHUB_OUTPUT:
#
#   INPUT_COMMAND    build (default), deploy or check
#   INPUT_ARGS       more arguments for that command, split at spaces (e.g. "--strict --jobs 2")
#   INPUT_CONFIG     the site's config, relative to INPUT_DIRECTORY (default site-config.json)
#   INPUT_DIRECTORY  the folder holding the config, relative to the workspace (default .)
#   INPUT_SITE       after a build, the folder to upload: the built site without galleryssg's own
#                    bookkeeping, hard-linked (default _site, what upload-pages-artifact uploads)
#   INPUT_SECRET     the site secret (GALLERYSSG_SECRET), from the repository's Actions secrets
#   INPUT_KEYS       the protected albums' keys (the content of the state's album-keys.json);
#                    written for the build and removed after it, so a cache saved later never holds them
#
# The site secret a build makes when none is given (the state's site-secret) is removed after the
# run too: the Actions cache is readable by every workflow of the repository, and the secret makes
# the unlisted albums' links. Files the repository itself holds there are left alone.
#
# Outputs: site (the folder to upload), output (the config's output folder), photos (how many
# were published). The exit status is galleryssg's.
set -eu

fail() { echo "::error::galleryssg action: $*" >&2; exit 2; }

command=${INPUT_COMMAND:-build}
config=${INPUT_CONFIG:-site-config.json}
directory=${INPUT_DIRECTORY:-.}
site=${INPUT_SITE:-_site}

case "$command" in
    build | deploy | check) ;;
    *) fail "command '$command' is not one the Action runs; use build, deploy or check" ;;
esac
cd "$directory" 2>/dev/null || fail "directory '$directory' does not exist in the repository"
[ -f "$config" ] || fail "no '$config' in '$directory'; set the Action's config input to the site's config file"
command -v jq >/dev/null || fail "jq is missing from the image"
jq -e 'type == "object"' "$config" >/dev/null 2>&1 || fail "'$config' is not a JSON object; run galleryssg build locally to see where"

# The state folder as galleryssg finds it: the config's "state", relative to the config's folder.
config_dir=$(dirname "$config")
state=$(jq -r '.state // ".galleryssg"' "$config")
case "$state" in /*) ;; *) state="$config_dir/$state" ;; esac

# What this step writes into the state and removes again when it ends, whatever happened.
made=""
[ -e "$state/site-secret" ] || made="$state/site-secret"
cleanup() { for file in $made; do rm -f "$file"; done; }
trap cleanup EXIT
if [ -n "${INPUT_KEYS:-}" ]; then
    if [ -e "$state/album-keys.json" ]; then
        echo "::warning::galleryssg action: the keys input is ignored: the repository has $state/album-keys.json" >&2
    else
        (umask 077 && mkdir -p "$state" && printf '%s' "$INPUT_KEYS" > "$state/album-keys.json")
        made="$made $state/album-keys.json"
    fi
fi
# An empty secret reaches galleryssg as unset.
GALLERYSSG_SECRET=${INPUT_SECRET:-}
export GALLERYSSG_SECRET

# INPUT_ARGS is split at spaces, never expanded as a pattern.
set -f
# shellcheck disable=SC2086
set -- ${INPUT_ARGS:-}
set +f

report=$(mktemp)
status=0
if [ "$command" = build ]; then
    galleryssg build --config "$config" --report "$report" "$@" || status=$?
else
    galleryssg "$command" --config "$config" "$@" || status=$?
fi

out() { [ -z "${GITHUB_OUTPUT:-}" ] || printf '%s=%s\n' "$1" "$2" >> "$GITHUB_OUTPUT"; }

# The site to upload: every file deploy would send, so not the marker at the output's root.
if [ "$command" = build ] && [ -s "$report" ] && [ "$(jq -r .output "$report")" != null ]; then
    output=$(jq -r .output "$report")
    if [ -d "$output" ] && [ -d "$site" ] && [ "$(realpath "$output")" = "$(realpath "$site")" ]; then
        fail "'$site' is the config's output folder; set the Action's site input to another folder"
    fi
    if [ -e "$site" ] && [ -n "$(ls -A "$site")" ]; then
        fail "'$site' is not empty; galleryssg puts the site to upload there, so set the Action's site input to a new folder"
    fi
    if [ -d "$output" ]; then
        mkdir -p "$site"
        cp -al "$output/." "$site/"
        rm -f "$site/.galleryssg-site" "$site/.galleryssg-files"
        out site "$directory/$site"
        out output "$(realpath --relative-to="$PWD" "$output" 2>/dev/null || echo "$output")"
        out photos "$(jq -r .photosPublished "$report")"
    fi
fi
rm -f "$report"
exit "$status"
