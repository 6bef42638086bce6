#!/usr/bin/env bash
# Multi-core scaling on a many-core machine: galleryssg -j N against Pillow pipelines (sigal-like full
# decode, and a vips-like shrink-on-load with draft() keeping 2x), same job: 1600 preview + 400 thumb,
# q80 progressive. Made by device-bundle.sh; needs python3 with Pillow and numpy on the machine.
# env: N photos (default 160, each 24 MP, made from the seeds with grain), JOBS list (default "1 2 4 8 16");
#      GALLERYSSG and SEEDS run it on this machine instead, with a built binary and a folder of seed
#      photos (Benchmarks/scaling.sh does that).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
W=${SCALE_DIR:-/tmp/scale}; rm -rf $W; mkdir -p $W; cd $W
if [ -n "${GALLERYSSG:-}" ]; then
  mkdir -p $W/bundle; ln -s "$(readlink -f "$GALLERYSSG")" $W/bundle/galleryssg
else
  tar xJf "$here/bundle.tar.xz"
fi
B=$W/bundle; export LD_LIBRARY_PATH=$B/lib
seeds=${SEEDS:-$here/seeds}
"$B/galleryssg" --help 2>&1 | head -2
PY=$(command -v python3)
N=${N:-160}
$PY - "$seeds" "$W/corpus" "$N" <<'PY'
import os, sys, random
from multiprocessing import Pool
from PIL import Image
import numpy as np
seeds, out, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
os.makedirs(out, exist_ok=True)
files = sorted(os.listdir(seeds))
def make(i):
    f = files[i % len(files)]
    im = Image.open(os.path.join(seeds, f)).convert('RGB')
    w, h = im.size
    s = (24e6 / (w * h)) ** 0.5
    im = im.resize((int(w * s), int(h * s)), Image.LANCZOS)
    a = np.asarray(im).astype(np.int16)
    rng = np.random.default_rng(i)
    a = np.clip(a + rng.normal(0, 3, a.shape[:2])[..., None].astype(np.int16), 0, 255).astype(np.uint8)
    Image.fromarray(a).save(os.path.join(out, f'p{i:04d}.jpg'), quality=95, subsampling=2)
with Pool(os.cpu_count()) as p: p.map(make, range(n))
print('corpus', len(os.listdir(out)), 'files', sum(os.path.getsize(os.path.join(out, f)) for f in os.listdir(out)) // 2**20, 'MiB')
PY
cat > $W/pil.py <<'PY'
import os, sys, time
from multiprocessing import Pool
from PIL import Image
mode, src, dst, jobs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
os.makedirs(dst, exist_ok=True)
def one(f):
    im = Image.open(os.path.join(src, f))
    if mode == 'draft':
        w, h = im.size; m = max(w, h)  # shrink-on-load, keeping >= 2x the preview on the long edge like libvips
        im.draft('RGB', (-(-3200 * w // m), -(-3200 * h // m)))
    im = im.convert('RGB')
    big = im.copy(); big.thumbnail((1600, 1600), Image.LANCZOS)
    big.save(os.path.join(dst, f + '-1600.jpg'), quality=80, progressive=True, optimize=True)
    small = big.copy(); small.thumbnail((400, 400), Image.LANCZOS)
    small.save(os.path.join(dst, f + '-400.jpg'), quality=80, progressive=True, optimize=True)
files = sorted(os.listdir(src))
with Pool(jobs) as p: p.map(one, files, chunksize=1)
PY
cat > $W/gconf.json <<JSON
{ "title": "scale", "pageSize": 24, "state": "$W/state",
  "source": { "type": "folder", "path": "$W/corpus" },
  "images": { "thumbnail": 400, "preview": 1600, "widths": [], "quality": 80, "publishOriginals": false, "gridSteps": false } }
JSON
timeit() {  # timeit LABEL CMD... -> prints LABEL wall cpu maxrss
  $PY - "$@" <<'PY'
import resource, subprocess, sys, time
label, cmd = sys.argv[1], sys.argv[2:]
t = time.time(); r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE); wall = time.time() - t
u = resource.getrusage(resource.RUSAGE_CHILDREN)
print(f"{label}\twall={wall:.2f}\tcpu={u.ru_utime + u.ru_stime:.1f}\tmaxrss_mb={u.ru_maxrss / 1024:.0f}\trc={r.returncode}", flush=True)
if r.returncode: print(r.stderr.decode()[-400:])
PY
}
for j in ${JOBS:-1 2 4 8 16}; do
  rm -rf $W/state $W/g-out; timeit "galleryssg-j$j" "$B/galleryssg" build -q -j $j -c $W/gconf.json -o $W/g-out
done
for j in ${JOBS:-1 2 4 8 16}; do
  rm -rf $W/p-out; timeit "pillow-draft-j$j" $PY $W/pil.py draft $W/corpus $W/p-out $j
  [ $j -eq 1 ] || [ $j -eq 16 ] && { rm -rf $W/p-out; timeit "pillow-full-j$j" $PY $W/pil.py full $W/corpus $W/p-out $j; }
done
top=$(echo ${JOBS:-1 2 4 8 16} | awk '{print $NF}')
rm -rf $W/state $W/g-out; "$B/galleryssg" build -q -j $top -c $W/gconf.json -o $W/g-out --report $W/r.json >/dev/null 2>&1
$PY -c "import json;r=json.load(open('$W/r.json'));print('j$top images',round(r['stepSeconds']['images'],2),'s; peakJobs',r['peakJobs'],'peakPixelsInFlight',r['peakPixelsInFlight'],'pixelBudget',r['pixelBudget'],'; photoSeconds',{k:round(v,1) for k,v in r['photoSeconds'].items()})"
nproc
