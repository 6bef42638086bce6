#!/usr/bin/env python3
"""quality.py GALLERYSSG CORPUS [N]: how close galleryssg's 1600 px previews are to a slow reference.

galleryssg builds the corpus at JPEG quality 100 into a temporary folder, so that what is measured
is the decode shortcut (DCT scaling) and the resampling, not JPEG compression: at the benchmark's
q80, encoding alone scores about 0.93 on the grain-added 12 and 24 MP tiers whatever the resize
does. For each of up to N JPEG originals (default all, every tier), the reference is the original
decoded in full (no DCT scaling), orientation applied, colour converted to sRGB when it carries an
ICC profile, then resized with Pillow's Lanczos3 to exactly the size galleryssg wrote. Two references are made: one filtered on the sRGB values (what most
tools do) and one filtered in linear light (what galleryssg does by default). SSIM is the
Gaussian-window SSIM of Wang et al. (2004) on luma, with the paper's constants.

Prints one line per photo and the minimum and mean; exits 1 if the minimum is below 0.985.
"""
import io
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
from PIL import Image, ImageCms, ImageOps
from scipy.ndimage import gaussian_filter

TARGET = 0.985


def luma(rgb):
    a = np.asarray(rgb, dtype=np.float64)
    return 0.299 * a[..., 0] + 0.587 * a[..., 1] + 0.114 * a[..., 2]


def ssim(x, y):
    c1, c2 = (0.01 * 255) ** 2, (0.03 * 255) ** 2
    blur = lambda a: gaussian_filter(a, 1.5, truncate=3.5)
    mx, my = blur(x), blur(y)
    vx, vy, cov = blur(x * x) - mx * mx, blur(y * y) - my * my, blur(x * y) - mx * my
    m = ((2 * mx * my + c1) * (2 * cov + c2)) / ((mx * mx + my * my + c1) * (vx + vy + c2))
    return float(m[5:-5, 5:-5].mean())


def to_srgb(image):
    icc = image.info.get("icc_profile")
    image = image.convert("RGB") if image.mode not in ("RGB", "CMYK") else image
    if icc:
        try:
            source = ImageCms.ImageCmsProfile(io.BytesIO(icc))
            return ImageCms.profileToProfile(image, source, ImageCms.createProfile("sRGB"),
                                             renderingIntent=ImageCms.Intent.PERCEPTUAL, outputMode="RGB")
        except ImageCms.PyCMSError:
            pass
    return image.convert("RGB")


def resize_linear(image, size):
    a = np.asarray(image, dtype=np.float64) / 255
    linear = np.where(a <= 0.04045, a / 12.92, ((a + 0.055) / 1.055) ** 2.4)
    channels = [np.asarray(Image.fromarray(linear[..., c].astype(np.float32), "F").resize(size, Image.LANCZOS))
                for c in range(3)]
    out = np.clip(np.stack(channels, axis=-1), 0, 1)
    srgb = np.where(out <= 0.0031308, out * 12.92, 1.055 * out ** (1 / 2.4) - 0.055)
    return (srgb * 255).round()


def build(galleryssg, corpus, out):
    config = out.parent / "quality.json"
    config.write_text(json.dumps({
        "title": "quality", "state": str(out.parent / "state"), "source": {"type": "folder", "path": str(corpus)},
        "images": {"thumbnail": 400, "preview": 1600, "widths": [], "quality": 100, "publishOriginals": False, "gridSteps": False}}))
    subprocess.run([galleryssg, "build", "-q", "-j", "2", "-c", str(config), "-o", str(out)], check=True)


def main():
    galleryssg, corpus = sys.argv[1], Path(sys.argv[2])
    limit = int(sys.argv[3]) if len(sys.argv) > 3 else 100000
    out = Path(tempfile.mkdtemp(prefix="galleryssg-quality-")) / "site"
    build(galleryssg, corpus, out)
    originals = sorted(corpus.glob("*/*.jpg"))[:limit]
    rows = []
    for original in originals:
        if max(Image.open(original).size) <= 1600:
            print(f"{original.parent.name}/{original.name}: not larger than 1600 px, nothing to reduce; skipped")
            continue
        slug = re.sub(r"[^a-z0-9]+", "-", f"{original.parent.name}/{original.stem}".lower()).strip("-")
        previews = [p for p in (out / "photos" / slug).glob("*.jpg") if max(Image.open(p).size) == 1600]
        if not previews:
            sys.exit(f"{original.name}: no 1600 px preview in {out / 'photos' / slug}")
        ours = Image.open(previews[0]).convert("RGB")
        full = to_srgb(ImageOps.exif_transpose(Image.open(original)))
        gamma_ref = full.resize(ours.size, Image.LANCZOS)
        linear_ref = resize_linear(full, ours.size)
        s_gamma, s_linear = ssim(luma(ours), luma(gamma_ref)), ssim(luma(ours), luma(linear_ref))
        rows.append((s_gamma, s_linear))
        print(f"{original.parent.name}/{original.name:28} {full.size[0]}x{full.size[1]} -> {ours.size[0]}x{ours.size[1]}  "
              f"SSIM vs sRGB-space reference {s_gamma:.4f}, vs linear-light reference {s_linear:.4f}")
    if not rows:
        sys.exit("no photos compared")
    gamma, linear = np.array(rows).T
    print(f"photos: {len(rows)}; SSIM vs linear-light reference: min {linear.min():.4f}, mean {linear.mean():.4f}; "
          f"vs sRGB-space reference: min {gamma.min():.4f}, mean {gamma.mean():.4f}; target >= {TARGET}")
    sys.exit(0 if linear.min() >= TARGET else 1)


if __name__ == "__main__":
    main()
