#!/usr/bin/env bash
# Tests the image `make image` built (galleryssg:latest) the way its users run it, with podman (or
# docker). `make image-test` runs it, with the test venv (moto, the AWS CLI) on PATH:
#
#   1. nothing of a toolchain inside, and --version names the commit the .deb was built from;
#   2. the sample site and a folder of photos with a clip, each in a mounted folder that belongs to
#      another user: every file written there belongs to that user, and the clip is published
#      (H.264, checked with ffprobe);
#   3. serve --watch --host 0.0.0.0 answers through a published port, and a change to the config
#      reaches an open live-reload connection;
#   4. deploy from inside the container to a loopback S3 server (moto) with the AWS_* variables;
#   5. docs/sharding.md's Kubernetes Indexed Job run as the Job would run it: four containers at once,
#      each with its JOB_COMPLETION_INDEX, one shared cache volume, then the final build; its site
#      equals a single build's, byte for byte (the site marker aside).
#
# IMAGE names another image. Exit status 0 when everything passed.
set -euo pipefail
cd "$(dirname "$0")/.."
. Scripts/container/engine.sh

image=${IMAGE:-galleryssg:latest}
work=$(mktemp -d)
containers=()
cleanup() {
    for name in "${containers[@]}"; do engine rm -f "$name" >/dev/null 2>&1 || true; done
    [ -z "${moto_pid:-}" ] || kill "$moto_pid" 2>/dev/null || true
    engine volume rm -f "galleryssg-test-cache-$$" >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "image-test: FAIL: $*" >&2; exit 1; }
step() { echo "image-test: $*"; }
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
# Files below $1 that do not belong to $2 (uid:gid).
foreign_files() { find "$1" \( ! -uid "${2%:*}" -o ! -gid "${2#*:}" \) -print; }

engine image inspect "$image" >/dev/null 2>&1 || fail "no image $image; run make image first"
size=$(engine image inspect "$image" --format '{{.Size}}')
step "$image: $((size / 1000000)) MB"

# 1. No toolchain; the version and commit.
if engine run --rm --entrypoint sh "$image" -c 'for t in swift swiftc clang gcc cc ld; do command -v $t && exit 0; done; exit 1'; then
    fail "a compiler is on the image's PATH"
fi
libs=$(engine run --rm --entrypoint sh "$image" -c 'find / -xdev \( -name "libswift*" -o -name "libFoundation*.so*" \) 2>/dev/null | head -3')
[ -z "$libs" ] || fail "the image holds Swift's libraries: $libs"
version=$(engine run --rm "$image" --version)
step "--version: $version"
commit=$(engine image inspect "$image" --format '{{index .Config.Labels "org.opencontainers.image.revision"}}')
[[ "$version" == *"(commit $commit)" && "$commit" =~ ^[0-9a-f]{7} ]] || fail "--version does not name the commit $commit"

# 2a. The sample site, in a folder that belongs to uid 4242.
owner=4242:4343
mkdir -p "$work/sample"
cp -R site-config.json Samples "$work/sample/"
chown -R "$owner" "$work/sample"
step "building the sample as root in a folder of $owner"
engine run --rm -v "$work/sample:/site" "$image" build --quiet
[ -f "$work/sample/public/index.html" ] || fail "the sample has no public/index.html"
foreign=$(foreign_files "$work/sample" "$owner" | head -5)
[ -z "$foreign" ] || fail "files not owned by $owner: $foreign"
step "sample: $(find "$work/sample/public" -type f | wc -l) files, all owned by $owner"

# 2b. A folder of photos and a clip (made here with ffmpeg: two seconds of a test pattern with sound).
owner=5151:5151
mkdir -p "$work/library/photos/Trip"
cp Samples/photos/Kite.jpg Samples/photos/Path.jpg "$work/library/photos/"
ffmpeg -v error -f lavfi -i testsrc2=size=640x360:rate=25 -f lavfi -i sine=frequency=440 -t 2 \
    -c:v libx264 -pix_fmt yuv420p -c:a aac "$work/library/photos/Trip/clip.mp4"
chown -R "$owner" "$work/library"
engine run --rm -v "$work/library:/site" "$image" init >/dev/null
engine run --rm -v "$work/library:/site" "$image" build --quiet
clips=$(find "$work/library/public" -name '*.mp4')
[ -n "$clips" ] || fail "no clip was published"
codec=$(ffprobe -v error -select_streams v:0 -show_entries stream=codec_name -of csv=p=0 $clips | head -1)
[ "$codec" = h264 ] || fail "the published clip is $codec, not h264"
foreign=$(foreign_files "$work/library" "$owner" | head -5)
[ -z "$foreign" ] || fail "files not owned by $owner: $foreign"
step "library: the clip is published ($(echo "$clips" | wc -l) file(s), $codec), every file owned by $owner"

# 3. serve through a published port, with live reload.
port=$(free_port)
name="galleryssg-test-serve-$$"
containers+=("$name")
engine run -d --name "$name" -p "127.0.0.1:$port:8000" -v "$work/sample:/site" "$image" \
    serve --watch --host 0.0.0.0 >/dev/null
for _ in $(seq 60); do curl -fs "http://127.0.0.1:$port/" -o "$work/served.html" && break; sleep 1; done
[ -s "$work/served.html" ] || { engine logs "$name" | tail -20; fail "serve did not answer on port $port"; }
grep -q '_galleryssg/events' "$work/served.html" || fail "the served page has no live-reload script"
curl -sN --max-time 40 "http://127.0.0.1:$port/_galleryssg/events" > "$work/events" &
listener=$!
sleep 2
# A change the watcher sees: the config, rewritten as its owner (a new title).
sed -i 's/"title": "galleryssg sample gallery"/"title": "galleryssg sample gallery, again"/' "$work/sample/site-config.json"
for _ in $(seq 35); do grep -q '^event: reload' "$work/events" && break; sleep 1; done
kill "$listener" 2>/dev/null || true
grep -q '^event: reload' "$work/events" || { engine logs "$name" | tail -20; fail "no reload event after the config changed"; }
curl -fs "http://127.0.0.1:$port/" | grep -q 'sample gallery, again' || fail "the rebuilt page is not served"
engine rm -f "$name" >/dev/null
step "serve: answered on 127.0.0.1:$port through -p $port:8000, rebuilt and reloaded after a change"

# 4. deploy from inside to a loopback S3 server.
command -v moto_server >/dev/null && command -v aws >/dev/null \
    || fail "moto_server and aws are not on PATH (make image-test puts the test venv there)"
s3port=$(free_port)
moto_server -H 127.0.0.1 -p "$s3port" > "$work/moto.log" 2>&1 &
moto_pid=$!
export AWS_ACCESS_KEY_ID=testing AWS_SECRET_ACCESS_KEY=testing AWS_DEFAULT_REGION=us-east-1
for _ in $(seq 30); do curl -fs "http://127.0.0.1:$s3port/" >/dev/null && break; sleep 1; done
aws --endpoint-url "http://127.0.0.1:$s3port" s3api create-bucket --bucket gallery >/dev/null
engine run --rm --network host -e AWS_ACCESS_KEY_ID -e AWS_SECRET_ACCESS_KEY -v "$work/sample:/site" "$image" \
    deploy s3://gallery/site --endpoint "http://127.0.0.1:$s3port" --path-style
sent=$(aws --endpoint-url "http://127.0.0.1:$s3port" s3 ls --recursive s3://gallery/site/ | wc -l)
built=$(find "$work/sample/public" -type f ! -name .galleryssg-site | wc -l)
[ "$sent" -eq "$built" ] || fail "the bucket holds $sent objects, the site $built files"
step "deploy: $sent objects in s3://gallery/site, as many as the site's files"

# 5. The Kubernetes Indexed Job of docs/sharding.md: the site mounted read-only, a shared cache.
mkdir -p "$work/sharded" "$work/single"
cp -R site-config.json Samples "$work/sharded/"
cp -R site-config.json Samples "$work/single/"
cache="galleryssg-test-cache-$$"
engine volume create "$cache" >/dev/null
pids=()
for index in 0 1 2 3; do
    engine run --rm -e JOB_COMPLETION_INDEX=$index -w /site -v "$work/sharded:/site:ro" -v "$cache:/cache" \
        --entrypoint sh "$image" \
        -c 'galleryssg build --images-only --shard $((JOB_COMPLETION_INDEX + 1))/4 --cache /cache' \
        > "$work/shard-$index.log" 2>&1 &
    pids+=($!)
done
for index in 0 1 2 3; do
    wait "${pids[$index]}" || { cat "$work/shard-$index.log"; fail "shard $((index + 1))/4 failed"; }
    step "$(grep -o 'shard [0-9]/4:.*' "$work/shard-$index.log" | tail -1)"
done
# The site Job's container: its command replaces the entrypoint, as Kubernetes' command does.
engine run --rm -w /site -v "$work/sharded:/site" -v "$cache:/cache" --entrypoint galleryssg "$image" \
    build --cache /cache > "$work/final.log" 2>&1 || { cat "$work/final.log"; fail "the final build failed"; }
summary=$(grep -E '[0-9]+ images \(' "$work/final.log" | tail -1)
[[ "$summary" == *"images (0 made,"* ]] || fail "the final build made images; the shards should have made them all: $summary"
engine run --rm -v "$work/single:/site" "$image" build --quiet
diff -r -x .galleryssg-site "$work/sharded/public" "$work/single/public" > "$work/shard.diff" \
    || { head -20 "$work/shard.diff"; fail "the sharded site differs from a single build's"; }
step "sharding: four shard containers and the final build (0 derivatives made) equal a single build, $(find "$work/single/public" -type f | wc -l) files"

step "PASS"
