#!/usr/bin/env python3
"""avif_compare.py: the tables of Benchmarks/avif.sh, from the sites it built under --out.

full-jpeg, full-webp, full-avif: cold builds of every default size at the configured quality (their
derivative bytes and the CPU seconds /usr/bin/time measured). curve-Q: the 1600 px previews alone at
quality Q, as JPEG, WebP and AVIF; curve-100's JPEG is the reference every score is taken against.

Equal quality, per photo: each format's bytes where its score (linear between the curve's points)
equals the JPEG's score at the configured quality; the sum over the photos against the JPEG's bytes.
SSIM is the Gaussian-window SSIM of Wang et al. (2004) on luma (as Benchmarks/quality.py);
SSIMULACRA 2 (higher is better, 90 is visually lossless) is the ssimulacra2 package's.
"""
import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parent))
import quality  # noqa: E402  (its SSIM, so both benchmarks score alike)

ssim = quality.ssim

FORMATS = ("jpg", "webp", "avif")
NAMES = {"jpg": "JPEG", "webp": "WebP", "avif": "AVIF"}


def luma(path):
    return quality.luma(Image.open(path).convert("RGB"))


def derivatives(site):
    """{(photo folder, stem): {extension: path}} for a site's derivatives (no originals)."""
    files = {}
    for path in (site / "public" / "photos").glob("*/*x*.*"):
        if path.suffix[1:] in FORMATS:
            files.setdefault((path.parent.name, path.stem), {})[path.suffix[1:]] = path
    return files


def at_score(points, target):
    """Bytes where a format's (score, bytes) curve reaches `target`, linear between points; None off the curve."""
    points = sorted(points)
    for (s0, b0), (s1, b1) in zip(points, points[1:]):
        if s0 <= target <= s1:
            return b0 + (b1 - b0) * (0 if s1 == s0 else (target - s0) / (s1 - s0))
    return None


def equal_quality(curves, reference_q, metric):
    """Sum over the photos of each format's bytes at the JPEG's score at `reference_q`."""
    totals, missed = {f: 0.0 for f in FORMATS}, {f: 0 for f in FORMATS}
    for photo, by_q in curves.items():
        target = by_q[reference_q]["jpg"][metric]
        for f in FORMATS:
            b = at_score([(by_q[q][f][metric], by_q[q][f]["bytes"]) for q in by_q], target)
            if b is None:
                missed[f] += 1
                b = by_q[reference_q][f]["bytes"]   # off the curve: counted at the configured quality
            totals[f] += b
    return totals, missed


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--photos", type=int, required=True)
    ap.add_argument("--quality", type=int, required=True)
    ap.add_argument("--qualities", type=int, nargs="+", required=True)
    ap.add_argument("--cpu", type=float, nargs=3, required=True)
    ap.add_argument("--speeds", type=int, nargs="*", default=[])
    ap.add_argument("--s2", type=int, default=1)
    ap.add_argument("--avif-quality", type=int, default=0)
    args = ap.parse_args()
    out, n = args.out, args.photos
    s2 = None
    if args.s2:
        try:
            from ssimulacra2 import compute_ssimulacra2 as s2
        except ImportError:
            print("(ssimulacra2 is not importable: SSIM only)")

    # 1. Every default size at the configured quality.
    print(f"\n## Every default size at quality {args.quality} ({n} photos, cold builds)\n")
    print("| format | derivative bytes | against JPEG | build CPU s | encode CPU s per photo over the JPEG build |")
    print("|---|---|---|---|---|")
    sizes = {}
    for f, site, cpu in zip(FORMATS, ("full-jpeg", "full-webp", "full-avif"), args.cpu):
        files = derivatives(out / site)
        sizes[f] = sum(p[f].stat().st_size for p in files.values() if f in p)
        extra = "" if f == "jpg" else f"+{(cpu - args.cpu[0]) / n:.2f}"
        print(f"| {NAMES[f]} | {sizes[f]:,} | {sizes[f] / sizes['jpg']:.0%} | {cpu:.1f} | {extra} |")

    # 2. The previews' curves against the q100 reference.
    reference = {key[0]: paths["jpg"] for key, paths in derivatives(out / "curve-100").items()}
    refs = {photo: luma(path) for photo, path in reference.items()}
    curves = {photo: {} for photo in reference}
    for q in args.qualities:
        for (photo, _), paths in derivatives(out / f"curve-{q}").items():
            entry = {}
            for f in FORMATS:
                scores = {"bytes": paths[f].stat().st_size, "ssim": ssim(refs[photo], luma(paths[f]))}
                if s2:
                    scores["s2"] = s2(str(reference[photo]), str(paths[f]))
                entry[f] = scores
            curves[photo][q] = entry
    metrics = ["ssim"] + (["s2"] if s2 else [])
    print(f"\n## 1600 px previews: mean score against the quality-100 JPEG, and total bytes ({n} photos)\n")
    print("| quality | " + " | ".join(f"{NAMES[f]} SSIM" + (f" / S2" if s2 else "") + f" | {NAMES[f]} bytes" for f in FORMATS) + " |")
    print("|---" * (1 + 2 * len(FORMATS)) + "|")
    for q in args.qualities:
        cells = []
        for f in FORMATS:
            vals = [curves[p][q][f] for p in curves]
            score = f"{np.mean([v['ssim'] for v in vals]):.4f}" + (f" / {np.mean([v['s2'] for v in vals]):.1f}" if s2 else "")
            cells += [score, f"{sum(v['bytes'] for v in vals):,}"]
        print(f"| {q} | " + " | ".join(cells) + " |")
    for metric in metrics:
        totals, missed = equal_quality(curves, args.quality, metric)
        label = "SSIM" if metric == "ssim" else "SSIMULACRA 2"
        print(f"\nAt the JPEG's {label} at quality {args.quality}, photo by photo: "
              + ", ".join(f"{NAMES[f]} {totals[f]:,.0f} B ({totals[f] / totals['jpg']:.0%})"
                          + (f", {missed[f]} off the curve" if missed[f] else "") for f in FORMATS))

    # 3. libaom's speed: CPU, bytes and SSIM on the reference previews at the configured quality's AVIF quality.
    if args.speeds:
        encoder = out / "avif-encode"
        print(f"\n## libaom speed (previews, the AVIF quality that quality {args.quality} maps to)\n")
        print("| speed | encode CPU s per preview | bytes | mean SSIM |")
        print("|---|---|---|---|")
        avif_q = args.avif_quality
        with tempfile.TemporaryDirectory() as tmp:
            for speed in args.speeds:
                cpu, size, scores = 0.0, 0, []
                for photo, path in reference.items():
                    ppm, avif = Path(tmp) / "in.ppm", Path(tmp) / "out.avif"
                    Image.open(path).convert("RGB").save(ppm)
                    result = subprocess.run([str(encoder), str(ppm), str(avif), str(avif_q), str(speed)],
                                            check=True, capture_output=True, text=True)
                    cpu += float(result.stdout)
                    size += avif.stat().st_size
                    scores.append(ssim(refs[photo], luma(avif)))
                print(f"| {speed} | {cpu / len(reference):.2f} | {size:,} | {np.mean(scores):.4f} |")


if __name__ == "__main__":
    main()
