#!/usr/bin/env python3
"""Regenerates the small hand-made image fixtures (needs Pillow: pip install pillow).

orientation/orientation-N.jpg  An upright 48x32 picture with four coloured quadrants
                               (red top-left, green top-right, blue bottom-left, white
                               bottom-right), stored transformed and tagged with EXIF
                               Orientation N so that a correct reader shows it upright.
images/*.jpg, *.png            Small photos for whole-site fixture builds, plus broken files.
"""
import io
import os
from PIL import Image, ImageOps

HERE = os.path.dirname(os.path.abspath(__file__))
QUADRANTS = [((255, 0, 0), (0, 255, 0)), ((0, 0, 255), (255, 255, 255))]


def upright(width=48, height=32):
    image = Image.new("RGB", (width, height))
    for y in range(height):
        for x in range(width):
            image.putpixel((x, y), QUADRANTS[y * 2 // height][x * 2 // width])
    return image


# Transform that turns the upright picture into what a camera with orientation N stores.
STORE = {
    1: None,
    2: Image.Transpose.FLIP_LEFT_RIGHT,
    3: Image.Transpose.ROTATE_180,
    4: Image.Transpose.FLIP_TOP_BOTTOM,
    5: Image.Transpose.TRANSPOSE,
    6: Image.Transpose.ROTATE_90,    # displayed by rotating 90 degrees clockwise
    7: Image.Transpose.TRANSVERSE,
    8: Image.Transpose.ROTATE_270,   # displayed by rotating 90 degrees anticlockwise
}


def orientation_fixtures():
    base = upright()
    for n, transform in STORE.items():
        stored = base if transform is None else base.transpose(transform)
        exif = Image.Exif()
        exif[0x0112] = n
        path = os.path.join(HERE, "orientation", f"orientation-{n}.jpg")
        stored.save(path, quality=95, subsampling=0, exif=exif.tobytes())
        # Cross-check with Pillow's own reading of the tag.
        check = ImageOps.exif_transpose(Image.open(path)).convert("RGB")
        assert check.size == base.size, (n, check.size)
        assert check.getpixel((2, 2))[0] > 200 and check.getpixel((2, 2))[1] < 60, n


def photo_fixtures():
    colours = [(200, 80, 40), (40, 120, 200), (60, 160, 90), (220, 200, 60), (120, 60, 160), (30, 30, 30)]
    sizes = [(160, 100), (100, 160), (200, 100), (120, 120), (150, 100), (100, 150)]
    for index, (colour, size) in enumerate(zip(colours, sizes), start=1):
        image = Image.new("RGB", size, colour)
        for x in range(size[0]):
            image.putpixel((x, size[1] // 2), (255, 255, 255))
        image.save(os.path.join(HERE, "images", f"photo-{index}.jpg"), quality=90)
    rgba = Image.new("RGBA", (80, 60), (255, 0, 0, 0))
    for x in range(40):
        for y in range(60):
            rgba.putpixel((x, y), (0, 0, 255, 255))
    rgba.save(os.path.join(HERE, "images", "half-transparent.png"))
    whole = io.BytesIO()
    Image.new("RGB", (160, 100), (90, 90, 90)).save(whole, format="JPEG", quality=90)
    with open(os.path.join(HERE, "images", "truncated.jpg"), "wb") as handle:
        handle.write(whole.getvalue()[: len(whole.getvalue()) // 2])
    with open(os.path.join(HERE, "images", "not-an-image.jpg"), "w") as handle:
        handle.write("this is a text file with a .jpg name\n")


if __name__ == "__main__":
    orientation_fixtures()
    photo_fixtures()
    print("fixtures written")
