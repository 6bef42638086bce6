#!/usr/bin/env bash
# Benchmarks/search-vs-pagefind.sh: galleryssg's sharded search index beside Pagefind on the same site.
#
#   Benchmarks/search-vs-pagefind.sh     generate a manifest of N photos (default 100,000) over the six
#                                        small photos of Tests/Fixtures/images (so only six are decoded),
#                                        with captions drawn from a 3,000-word vocabulary and 1,000
#                                        albums (one "Basque Country"); build it with galleryssg; index
#                                        its photo pages with Pagefind; then, in headless Chromium, run
#                                        the same queries through both and count the bytes each loads
#
# Index build time: galleryssg's `searchIndexSeconds` from `build --report` (the index alone, inside
# the build), and Pagefind's wall time for `pagefind --site public --glob 'photos/**/*.html'`.
# Bytes per query: every search file the browser fetched (encodedBodySize, no compression: the
# server is python's http.server) until the first 24 results were shown (galleryssg's search box),
# or until Pagefind's search() and the data() of its first 24 results resolved (Pagefind's own JS
# API, its default UI being one more download). Both start with an empty cache.
#
# env: N (100000), WORK (/tmp/galleryssg-search), GALLERYSSG (.build/debug/galleryssg; a release
#      build is faster), PYTHON (python3 with selenium and pagefind-bin: pip install selenium pagefind-bin).
# Needs chromium and chromium-driver (apt-get install chromium chromium-driver).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(dirname "$HERE")
N=${N:-100000} WORK=${WORK:-/tmp/galleryssg-search}
GALLERYSSG=${GALLERYSSG:-$REPO/.build/debug/galleryssg} PYTHON=${PYTHON:-python3}
"$PYTHON" -c 'import selenium, pagefind_bin' 2>/dev/null || { echo "needs: pip install selenium pagefind-bin" >&2; exit 1; }
[ -x "$GALLERYSSG" ] || { echo "no galleryssg at $GALLERYSSG: swift build first" >&2; exit 1; }

mkdir -p "$WORK/photos"
cp "$REPO"/Tests/Fixtures/images/photo-[1-6].jpg "$WORK/photos/"
"$PYTHON" - "$WORK" "$N" <<'PY'
import json, random, sys
work, n = sys.argv[1], int(sys.argv[2])
rng = random.Random(14)
syllables = ["ka", "lo", "mi", "ne", "ru", "sa", "to", "vi", "be", "do", "fu", "ga", "hi", "ja", "ko", "le", "mo", "pa", "ri", "su"]
words = sorted({"".join(rng.choice(syllables) for _ in range(rng.randint(2, 4))) for _ in range(4000)})[:3000]
weights = [1 / (rank + 1) for rank in range(len(words))]          # Zipf-like: a few words are everywhere
photos = []
for i in range(n):
    caption = " ".join(rng.choices(words, weights, k=12))
    album = "Spain/Basque Country" if i % 1000 == 7 else "Trips/Album %d" % (i % 1000)
    photos.append({"id": "p%d" % i, "title": "Photo %d %s" % (i, rng.choice(words)), "description": caption,
                   "album": album, "tags": [rng.choice(words)], "image": "photos/photo-%d.jpg" % (i % 6 + 1)})
json.dump({"photos": photos}, open(work + "/manifest.json", "w"))
json.dump({"title": "Search benchmark", "pageSize": 24, "output": "public",
           "source": {"type": "manifest", "path": "manifest.json"},
           "images": {"thumbnail": 64, "preview": 120, "widths": [80], "gridSteps": False}}, open(work + "/site-config.json", "w"))
json.dump({"rare": words[-1], "common": words[0], "album": "basque", "two": words[0] + " " + words[40]},
          open(work + "/queries.json", "w"))
PY

echo "galleryssg build of $N photos ($GALLERYSSG)"
rm -rf "$WORK/public" "$WORK/.galleryssg"
start=$(date +%s.%N)
"$GALLERYSSG" build --config "$WORK/site-config.json" --report "$WORK/report.json" >/dev/null
end=$(date +%s.%N)
echo "  whole build: $(echo "$end - $start" | bc) s"
"$PYTHON" -c "import json; r = json.load(open('$WORK/report.json')); print('  search index: %.2f s' % r['searchIndexSeconds'])"
du -sb "$WORK/public/search.json" "$WORK/public/search" | sed 's/^/  /'

echo "pagefind $("$PYTHON" -m pagefind_bin --version) over the photo pages"
rm -rf "$WORK/public/pagefind"
start=$(date +%s.%N)
"$PYTHON" -m pagefind_bin --site "$WORK/public" --glob 'photos/**/*.html' >"$WORK/pagefind.log"
end=$(date +%s.%N)
echo "  index: $(echo "$end - $start" | bc) s"
du -sb "$WORK/public/pagefind" | sed 's/^/  /'

"$PYTHON" "$HERE/search_bytes.py" "$WORK/public" "$WORK/queries.json"
