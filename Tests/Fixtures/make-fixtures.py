#!/usr/bin/env python3
"""Regenerates the small hand-made image fixtures (needs Pillow: pip install pillow).

orientation/orientation-N.jpg  An upright 48x32 picture with four coloured quadrants
                               (red top-left, green top-right, blue bottom-left, white
                               bottom-right), stored transformed and tagged with EXIF
                               Orientation N so that a correct reader shows it upright.
images/*.jpg, *.png            Small photos for whole-site fixture builds, plus broken files;
                               images/gps.jpg carries an EXIF GPS position. images/arithmetic.jpg is
                               photo-1.jpg re-encoded with arithmetic coding by libjpeg-turbo's cjpeg
                               (djpeg images/photo-1.jpg | cjpeg -arithmetic -quality 90), made by hand.
scaling/path-crop.jpg          A 1021x717 crop of Samples/photos/Path.jpg (CC-BY-4.0, see Samples/CREDITS.md),
                               q92: sharp detail whose DCT-scaled sizes end in partial blocks.
colour/                        An Adobe RGB (1998) JPEG, a CMYK JPEG and a ProPhoto RGB PNG (iCCP),
                               with the sRGB values Pillow/LittleCMS give them in colour/expected.json
                               (needs Debian's colord-data for the Adobe RGB and ProPhoto profiles).
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


def gps_fixture():
    """A photo whose EXIF holds a GPS position, to prove derivatives carry none."""
    exif = Image.Exif()
    exif[0x010F] = "TestCam"
    gps = exif.get_ifd(0x8825)
    gps.update({1: "N", 2: (51.0, 13.0, 40.0), 3: "W", 4: (0.0, 7.0, 39.0)})
    Image.new("RGB", (120, 80), (30, 90, 160)).save(os.path.join(HERE, "images", "gps.jpg"), quality=90, exif=exif)


def colour_fixtures():
    """An Adobe RGB photo and a CMYK photo, with the sRGB values Pillow's LittleCMS gives them."""
    import json
    from PIL import ImageCms
    candidates = ["/usr/share/color/icc/colord/AdobeRGB1998.icc",
                  "/usr/share/color/icc/compatibleWithAdobeRGB1998.icc"]
    adobe_path = next(p for p in candidates if os.path.exists(p))
    adobe = ImageCms.getOpenProfile(adobe_path)
    srgb = ImageCms.createProfile("sRGB")
    image = Image.new("RGB", (64, 32), (180, 60, 40))
    image.paste((40, 140, 200), (32, 0, 64, 32))
    os.makedirs(os.path.join(HERE, "colour"), exist_ok=True)
    path = os.path.join(HERE, "colour", "adobe-rgb.jpg")
    image.save(path, quality=98, subsampling=0, icc_profile=adobe.tobytes())
    converted = ImageCms.profileToProfile(Image.open(path).convert("RGB"), adobe, srgb,
                                          renderingIntent=ImageCms.Intent.PERCEPTUAL)
    cmyk = Image.new("CMYK", (64, 32), (0, 200, 200, 0))          # a strong red
    cmyk.paste((200, 0, 0, 60), (32, 0, 64, 32))                  # a darkened cyan
    cmyk_path = os.path.join(HERE, "colour", "cmyk.jpg")
    cmyk.save(cmyk_path, quality=98)
    back = Image.open(cmyk_path).convert("RGB")
    expected = {
        "adobe-rgb.jpg": {"stored": [list(image.getpixel((8, 16))), list(image.getpixel((48, 16)))],
                          "srgb": [list(converted.getpixel((8, 16))), list(converted.getpixel((48, 16)))],
                          "profile": os.path.basename(adobe_path)},
        "cmyk.jpg": {"srgb": [list(back.getpixel((8, 16))), list(back.getpixel((48, 16)))]},
    }
    with open(os.path.join(HERE, "colour", "expected.json"), "w") as handle:
        json.dump(expected, handle, indent=2)


def png_colour_fixture():
    """A ProPhoto RGB PNG (profile in iCCP), with the sRGB values LittleCMS gives it."""
    import json
    from PIL import ImageCms
    prophoto = ImageCms.getOpenProfile("/usr/share/color/icc/colord/ProPhotoRGB.icc")
    image = Image.new("RGB", (64, 32), (150, 70, 50))
    image.paste((60, 110, 170), (32, 0, 64, 32))
    path = os.path.join(HERE, "colour", "prophoto.png")
    image.save(path, icc_profile=prophoto.tobytes())
    converted = ImageCms.profileToProfile(image, prophoto, ImageCms.createProfile("sRGB"),
                                          renderingIntent=ImageCms.Intent.PERCEPTUAL)
    expected_path = os.path.join(HERE, "colour", "expected.json")
    with open(expected_path) as handle:
        expected = json.load(handle)
    expected["prophoto.png"] = {"stored": [list(image.getpixel((8, 16))), list(image.getpixel((48, 16)))],
                                "srgb": [list(converted.getpixel((8, 16))), list(converted.getpixel((48, 16)))],
                                "profile": "ProPhotoRGB.icc"}
    with open(expected_path, "w") as handle:
        json.dump(expected, handle, indent=2)


def scaling_fixture():
    """A sharp photo whose width and height are not multiples of 8, for the DCT-scaling tests."""
    source = Image.open(os.path.join(HERE, "..", "..", "Samples", "photos", "Path.jpg"))
    os.makedirs(os.path.join(HERE, "scaling"), exist_ok=True)
    source.crop((500, 300, 1521, 1017)).save(os.path.join(HERE, "scaling", "path-crop.jpg"), quality=92)


if __name__ == "__main__":
    orientation_fixtures()
    photo_fixtures()
    gps_fixture()
    colour_fixtures()
    png_colour_fixture()
    scaling_fixture()
    print("fixtures written")
