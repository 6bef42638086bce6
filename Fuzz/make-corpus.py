#!/usr/bin/env python3
"""Writes the seed corpora of Fuzz/Corpus/<harness>/ from the project's own test fixtures.

Every seed is a fixture (Tests/Fixtures: made by the project, PngSuite under its licence, recorded
API answers), a piece cut out of one (an APP13 block, a few rows of an API answer), or a small
hand-written document. Run it from anywhere; it replaces the seed folders it writes.
"""
import json
import pathlib
import shutil

ROOT = pathlib.Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "Tests" / "Fixtures"
CORPUS = ROOT / "Fuzz" / "Corpus"


def fixture(path):
    return (FIXTURES / path).read_bytes()


def segments(jpeg):
    """(marker, body) of a JPEG's header segments, up to the start of scan."""
    offset, found = 2, []
    while offset + 4 <= len(jpeg) and jpeg[offset] == 0xFF:
        marker = jpeg[offset + 1]
        if marker in (0xDA, 0xD9):
            break
        length = jpeg[offset + 2] << 8 | jpeg[offset + 3]
        found.append((marker, jpeg[offset + 4:offset + 2 + length]))
        offset += 2 + length
    return found


def write(harness, seeds):
    folder = CORPUS / harness
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    for name, data in seeds.items():
        (folder / name).write_bytes(data if isinstance(data, bytes) else data.encode())


def rows(path, *keys, count=3):
    """The document at `path` with the list found under `keys` cut to its first `count` items."""
    document = json.loads(fixture(path))
    holder = document
    for key in keys[:-1]:
        holder = holder[key]
    holder[keys[-1]] = holder[keys[-1]][:count]
    return json.dumps(document, ensure_ascii=False)


JPEGS = ["images/gps.jpg", "images/truncated.jpg", "images/arithmetic.jpg", "metadata/all-three.jpg",
         "metadata/iptc-only.jpg", "metadata/xmp-only.jpg", "colour/cmyk.jpg", "formats/jpeg-extraneous.jpg",
         "formats/jpeg-truncated.jpg", "formats/mpo-stereo.mpo"]
write("jpeg-segments", {pathlib.Path(p).name: fixture(p) for p in JPEGS + ["colour/adobe-rgb.jpg"]})
write("gps-stripper", {pathlib.Path(p).name: fixture(p) for p in JPEGS + ["privacy/camera.jpg", "metadata/lightroom.jpg"]})

iptc = {}
for path in ["metadata/iptc-only.jpg", "metadata/iptc-latin1.jpg", "metadata/all-three.jpg"]:
    name = pathlib.Path(path).stem
    for marker, body in segments(fixture(path)):
        if marker == 0xED and body.startswith(b"Photoshop 3.0\0"):
            iptc[name + ".app13"] = body
            resources = body[len(b"Photoshop 3.0\0"):]
            iptc[name + ".8bim"] = resources
            start = resources.find(b"\x1c\x01") if b"\x1c\x01" in resources else resources.find(b"\x1c\x02")
            if start >= 0:
                iptc[name + ".iim"] = resources[start:]
write("iptc", iptc)

PNGS = ["formats/png-metadata.png", "colour/prophoto.png", "images/half-transparent.png", "pngsuite/ctzn0g04.png",
        "pngsuite/cten0g04.png", "pngsuite/ct1n0g04.png", "pngsuite/basn2c08.png", "pngsuite/basi3p02.png"]
write("png-chunks", {pathlib.Path(p).name: fixture(p) for p in PNGS})
HEADERS = ["formats/avif-irot.avif", "formats/heic-exif6.heic", "formats/gif-animated.gif", "formats/gif-transparent.gif",
           "formats/tiff-rgb8.tif", "formats/tiff-grey8.tif", "formats/webp-lossy.webp", "formats/webp-alpha.webp",
           "formats/png-metadata.png", "metadata/all-three.jpg", "images/gps.jpg", "colour/cmyk.jpg",
           "pngsuite/basn0g16.png"]
write("image-headers", {pathlib.Path(p).name: fixture(p) for p in HEADERS})
JPEGS = ["formats/jpeg-extraneous.jpg", "formats/mpo-stereo.mpo", "colour/adobe-rgb.jpg", "colour/cmyk.jpg",
         "metadata/all-three.jpg", "orientation/orientation-1.jpg", "orientation/orientation-6.jpg"]
write("jpeg-rows", {pathlib.Path(p).name: fixture(p) for p in JPEGS})
write("raw", {name: fixture("raw/" + name) for name in ["lone.dng", "rotated.dng", "preview.dng", "jpeg-preview.dng"]}
      | {"cr2-header.cr2": b"II*\x00\x10\x00\x00\x00CR\x02\x00"})

manifest = json.loads((ROOT / "Samples" / "manifest.json").read_text())
manifest["photos"] = manifest["photos"][:3]
write("manifest", {
    "sample.json": json.dumps(manifest, ensure_ascii=False, indent=1),
    "bare-array.json": '[{"id": "p1", "image": "p1.jpg", "tags": "a, b"}, {"id": 7, "image": "https://x.example/7.jpg"}, 3]',
    "albums.json": '{"albums": {"2024/Iceland": {"title": "Iceland", "cover": "p1", "sort": "-name", "showInHome": false},'
                   ' "../x": {}}, "photos": [{"id": "p1", "image": "p1.jpg", "album": "2024/Iceland",'
                   ' "location": {"lat": 64.1, "lon": -21.9}, "takenAt": "2024-06-01T10:00:00Z"}], "extra": [1, {"a": null}]}',
    "utf16.json": '{"photos": [{"id": "\u00e9t\u00e9", "image": "e.jpg", "title": "\\u00e9\\ud83d\\ude00"}]}'.encode("utf-16"),
    "escapes.json": '{"photos": [{"id": "a\\"b", "image": "a\\/b.jpg", "description": "line\\nnext \\t 1e308 -0.0"}],}',
})

write("front-matter", {
    "beach.md": fixture("metadata/site/photos/beach.md"),
    "index.md": fixture("metadata/site/photos/Iceland/index.md"),
    "anchors.md": "---\ntitle: &t Aliased\nname: *t\ntags:\n  - one\n  - [nested]\nhidden: yes\n...\nBody text\r\n",
    "plain.md": "\ufeffNo front matter, only **Markdown**.\n",
    "sigal-index.md": "Title: An example gallery\nThumbnail: 11.jpg\nOrder: 03\nAuthor: Ada\n    Lovelace\n\nLorem *ipsum*.\n",
    "hugo-bundle.md": '+++\ntitle = "Harbour \\"walk\\""\ndate = 2024-06-01T10:20:00+02:00\nweight = 3\ndraft = false\ntags = ["sea", \'boats\', ]\nparams.mood = { light = "low", warm = true }\ndescription = """\nTwo lines \\\n    joined."""\n\n[[resources]]\nsrc = "IMG_*.jpg"\ntitle = "Boats"\n[resources.params]\ndescription = "At dawn."\n+++\nBody.\n',
})

write("s3-xml", {
    "list.xml": '<?xml version="1.0" encoding="UTF-8"?><ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">'
                '<Name>b</Name><IsTruncated>true</IsTruncated><NextContinuationToken>t&amp;1</NextContinuationToken>'
                '<Contents><Key>a &amp; b.html</Key><ETag>&quot;0cc175b9c0f1b6a831c399e269772661&quot;</ETag><Size>1</Size>'
                '<Owner><ID>x</ID></Owner></Contents><Contents><Key>c.jpg</Key><ETag>"abc-2"</ETag><Size>20</Size></Contents>'
                '</ListBucketResult>',
    "error.xml": "<Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>",
    "delete.xml": "<DeleteResult><Error><Key>k</Key><Code>AccessDenied</Code><Message>no</Message></Error></DeleteResult>",
})

flickr_feed = json.loads(fixture("api/flickr/feed-photos_public-2024.json"))
write("mappers", {
    "flickr-search.json": rows("api/flickr/search-all-url-extras-2012.json", "photos", "photo"),
    "flickr-feed.json": rows("api/flickr/feed-photos_public-2024.json", "items", count=2),
    "flickr-jsonp.jsonp": fixture("api/flickr/search-jsonp-wrapped-2012.jsonp"),
    "flickr-error.json": fixture("api/flickr/error-invalid-api-key-2012.json"),
    "500px.json": rows("api/500px/popular-2019.json", "photos", count=2),
    "parse.json": fixture("api/parse/resource-rows-handmade.json"),
    "parse-error.json": fixture("api/parse/error-101-object-not-found-2017.json"),
})

write("html-text", {
    **{f"flickr-feed-{i}.html": item["description"] for i, item in enumerate(flickr_feed["items"][:3])},
    "handmade.html": '<p>A <b>bold</b> [claim] &amp; <a href="https://example.com/x?a=1&amp;b=2">a link</a><br/>'
                     '<a href="javascript:alert(1)">no</a> &#x1F600; &eacute; *stars* _under_ `tick`</p><ul><li>one</li></ul>',
})

write("config", {
    "site-config.json": (ROOT / "site-config.json").read_bytes(),
    "flickr.json": '{"title": "T", "output": "out", "source": {"type": "flickr", "apiKey": "${FLICKR_KEY}",'
                   ' "method": "flickr.photos.search", "params": {"user_id": "me", "tags": "a,b"}, "limit": 50},'
                   ' "deploy": {"target": "s3://bucket/site", "region": "eu-west-1"}}',
    "folder.json": '{"title": "Folder", "source": {"type": "folder", "path": "${HOME}/photos"}, "pageSize": 24,'
                   ' "images": {"widths": [320, 640], "quality": 90, "formats": ["webp", "jpeg"]}, "strict": true}',
})
