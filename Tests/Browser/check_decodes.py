"""Decodes every JPEG in a folder in headless Chromium (the gain-map derivatives of GainMapTests):
each must decode (`HTMLImageElement.decode()`), at its own size, and draw pixels that are not all
one value. Prints {"name": {"width": W, "height": H, "distinct": N, "error": null}, ...} as JSON."""
import json
import os
import sys

import site_support

DECODE_ALL = """
const names = arguments[0], done = arguments[arguments.length - 1];
Promise.all(names.map(async function (name) {
  const image = new Image();
  image.src = name;
  try { await image.decode(); } catch (error) { return [name, {error: String(error)}]; }
  const canvas = document.createElement('canvas');
  canvas.width = image.naturalWidth; canvas.height = image.naturalHeight;
  const context = canvas.getContext('2d');
  context.drawImage(image, 0, 0);
  const pixels = context.getImageData(0, 0, canvas.width, canvas.height).data;
  const seen = new Set();
  for (let i = 0; i < pixels.length; i += 4 * 97) seen.add(pixels[i] << 16 | pixels[i + 1] << 8 | pixels[i + 2]);
  return [name, {width: image.naturalWidth, height: image.naturalHeight, distinct: seen.size, error: null}];
})).then(function (pairs) { done(Object.fromEntries(pairs)); });
"""


def main():
    folder = sys.argv[1]
    names = sorted(name for name in os.listdir(folder) if name.endswith(".jpg"))
    server, base = site_support.serve(folder)
    driver = site_support.browser()
    try:
        driver.set_script_timeout(60)
        driver.get(base)
        print(json.dumps(driver.execute_async_script(DECODE_ALL, names)))
    finally:
        driver.quit()
        server.shutdown()


if __name__ == "__main__":
    main()
