#!/usr/bin/env python3
"""Validates configs against docs/site-config.schema.json with jsonschema (draft 2020-12).

Checked: the schema itself; the sample site-config.json; the config and every source example that
`galleryssg init` writes (read from Sources/GalleryPipeline/Maintenance/SiteScaffold.swift); every config or
source block shown as JSON in README.md and docs/; the fuzzer's config seeds; and configs that the
loader refuses, one rule each, which the schema must refuse too, and ones it accepts.

    python3 Tests/Schema/check_config_schema.py REPOSITORY [--loader GALLERYSSG]

With --loader, each config is also given to a built galleryssg (`deploy --dry-run`, which reads
the config and stops before anything else): the schema and the loader must agree on every one.
ConfigSchemaTests runs it (without --loader) in `make test`. Exits 1 on any disagreement.
"""
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

import jsonschema

F = {'type': 'folder', 'path': 'photos'}  # the smallest valid source

REFUSED = {
    'no source': {'title': 'x'},
    'unknown top-level key': {'source': F, 'strict': True},
    'images.qualty': {'source': F, 'images': {'qualty': 80}},
    'pageSize 51': {'source': F, 'pageSize': 51},
    'pageSize 0': {'source': F, 'pageSize': 0},
    'images.quality 101': {'source': F, 'images': {'quality': 101}},
    'images.thumbnail 15': {'source': F, 'images': {'thumbnail': 15}},
    'images.preview 8193': {'source': F, 'images': {'preview': 8193}},
    'images.widths [8]': {'source': F, 'images': {'widths': [8]}},
    'images.sharpen 1.5': {'source': F, 'images': {'sharpen': 1.5}},
    'images.maxPixelsInFlight 999999': {'source': F, 'images': {'maxPixelsInFlight': 999999}},
    'images.publishOriginals "yes"': {'source': F, 'images': {'publishOriginals': 'yes'}},
    'images.exifFields ["shutter"]': {'source': F, 'images': {'exifFields': ['shutter']}},
    'images.background "white"': {'source': F, 'images': {'background': 'white'}},
    'images.webp "yes"': {'source': F, 'images': {'webp': 'yes'}},
    'sort "newest"': {'source': F, 'sort': 'newest'},
    'language "english"': {'source': F, 'language': 'english'},
    'viewer.slideshowSeconds 0.5': {'source': F, 'viewer': {'slideshowSeconds': 0.5}},
    'network.retries 11': {'source': F, 'network': {'retries': 11}},
    'network.connectionsPerHost 65': {'source': F, 'network': {'connectionsPerHost': 65}},
    'network.timeoutSeconds 0': {'source': F, 'network': {'timeoutSeconds': 0}},
    'network.maxDownloadBytes 1023': {'source': F, 'network': {'maxDownloadBytes': 1023}},
    'deploy.pathStyle "yes"': {'source': F, 'deploy': {'pathStyle': 'yes'}},
    'deploy.bucket': {'source': F, 'deploy': {'bucket': 'b'}},
    'map.tiles': {'source': F, 'map': {'tiles': 'x'}},
    'source.type flikr': {'source': {'type': 'flikr'}},
    'folder without path': {'source': {'type': 'folder'}},
    'folder with url': {'source': {'type': 'folder', 'path': 'p', 'url': 'https://x/'}},
    'manifest with path and url': {'source': {'type': 'manifest', 'path': 'p.json', 'url': 'https://x/p.json'}},
    'manifest with neither': {'source': {'type': 'manifest'}},
    'flickr without apiKey': {'source': {'type': 'flickr'}},
    'flickr with empty apiKey': {'source': {'type': 'flickr', 'apiKey': ''}},
    'flickr unknown method': {'source': {'type': 'flickr', 'apiKey': 'k', 'method': 'flickr.photos.getInfo'}},
    'flickr perPage 501': {'source': {'type': 'flickr', 'apiKey': 'k', 'perPage': 501}},
    'flickr limit 0': {'source': {'type': 'flickr', 'apiKey': 'k', 'limit': 0}},
    'flickr params object value': {'source': {'type': 'flickr', 'apiKey': 'k', 'params': {'a': {'b': 1}}}},
    'flickr consumerKey': {'source': {'type': 'flickr', 'apiKey': 'k', 'consumerKey': 'c'}},
    '500px without consumerKey': {'source': {'type': '500px'}},
    '500px perPage 101': {'source': {'type': '500px', 'consumerKey': 'c', 'perPage': 101}},
    'parse without applicationId': {'source': {'type': 'parse'}},
    'parse className a-b': {'source': {'type': 'parse', 'applicationId': 'a', 'className': 'a-b'}},
    'parse columns.camera': {'source': {'type': 'parse', 'applicationId': 'a', 'columns': {'camera': 'c'}}},
    'baseURL example.com': {'source': F, 'baseURL': 'example.com/photos/'},
    'baseURL with a query': {'source': F, 'baseURL': 'https://example.com/?a=1'},
    'manifest url ftp': {'source': {'type': 'manifest', 'url': 'ftp://example.com/p.json'}},
    'manifest url with an ellipsis': {'source': {'type': 'manifest', 'url': 'https://…/photos.json'}},
    'flickr endpoint not a URL': {'source': {'type': 'flickr', 'apiKey': 'k', 'endpoint': 'api.flickr.com'}},
    'deploy.target s3://B': {'source': F, 'deploy': {'target': 's3://B'}},
    'deploy.target ftp': {'source': F, 'deploy': {'target': 'ftp://x/y'}},
    'deploy.target file relative': {'source': F, 'deploy': {'target': 'file://srv/www'}},
    'deploy.endpoint with a path': {'source': F, 'deploy': {'endpoint': 'https://s3.example.com/bucket'}},
    'deploy.region EU': {'source': F, 'deploy': {'region': 'EU'}},
    'deploy.host vercel': {'source': F, 'deploy': {'host': 'vercel'}},
    'deploy.plan pro': {'source': F, 'deploy': {'plan': 'pro'}},
    'map.tileURL without {z}': {'source': F, 'map': {'tileURL': 'https://t.example/{x}/{y}.png'}},
    'map.tileURL ftp': {'source': F, 'map': {'tileURL': 'ftp://t.example/{z}/{x}/{y}.png'}},
    'parse perPage 1001': {'source': {'type': 'parse', 'applicationId': 'a', 'perPage': 1001}},
    'immich without apiKeyEnv': {'source': {'type': 'immich', 'url': 'https://photos.example.com'}},
    'immich without url': {'source': {'type': 'immich', 'apiKeyEnv': 'IMMICH_API_KEY'}},
    'immich apiKeyEnv not a name': {'source': {'type': 'immich', 'url': 'https://p.example', 'apiKeyEnv': '1-KEY'}},
    'immich url ftp': {'source': {'type': 'immich', 'url': 'ftp://p.example', 'apiKeyEnv': 'IMMICH_API_KEY'}},
    'immich apiKey': {'source': {'type': 'immich', 'url': 'https://p.example', 'apiKeyEnv': 'IMMICH_API_KEY', 'apiKey': 'k'}},
}

ACCEPTED = {
    'flickr feed without apiKey': {'source': {'type': 'flickr', 'method': 'feed', 'params': {'tags': 'cats', 'n': 3, 'x': True}}},
    'every top-level key': {'title': 't', 'description': 'd', 'baseURL': 'https://example.com/p/', 'output': 'o', 'templates': 't',
      'state': 's', 'cache': 'c', 'pageSize': 50, 'sort': 'rating', 'language': 'pt-BR', 'source': F,
      'images': {'thumbnail': 16, 'preview': 8192, 'widths': [16, 8192], 'gridSteps': False, 'quality': 1, 'background': '000000',
                 'maxPixels': 2000000000, 'publishOriginals': 'as-is', 'maxPixelsInFlight': 1000000, 'linearLight': False,
                 'sharpen': 1, 'webp': True, 'showLocation': True, 'exifFields': ['iso']},
      'map': {'tileURL': 'https://t.example/{z}/{x}/{y}.png', 'attribution': 'a'}, 'viewer': {'slideshowSeconds': 120},
      'network': {'timeoutSeconds': 3600, 'maxDownloadBytes': 1 << 40, 'connectionsPerHost': 64, 'retries': 0},
      'deploy': {'target': 's3://bucket/x', 'endpoint': 'https://s3.example.com', 'region': 'eu-central-1', 'pathStyle': True,
                 'host': 'cloudflare-pages', 'plan': 'paid'}},
    'parse everything': {'source': {'type': 'parse', 'applicationId': 'a', 'restApiKey': 'r', 'className': 'Photo_1', 'endpoint': 'https://p.example/parse',
      'columns': {'image': 'url', 'license': 'lic'}, 'where': {'published': True}, 'order': 'createdAt', 'perPage': 1000, 'limit': 1000000,
      'allowInsecureHTTP': True}},
    '500px everything': {'source': {'type': '500px', 'consumerKey': 'c', 'feature': 'fresh', 'params': {'only': 'x'}, 'imageSizes': [4],
      'perPage': 100, 'limit': 1, 'endpoint': 'https://api.example/v1', 'allowInsecureHTTP': False}},
    'manifest url': {'source': {'type': 'manifest', 'url': 'https://example.com/p.json', 'allowInsecureHTTP': True}},
    'baseURL from the environment': {'source': F, 'baseURL': '${BASE_URL}'},
    'relative tileURL': {'source': F, 'map': {'tileURL': 'tiles/{z}/{x}/{y}.png'}},
    'deploy to a folder': {'source': F, 'deploy': {'target': 'file:///srv/www', 'endpoint': 'http://127.0.0.1:9000/'}},
    'naming its schema': {'$schema': './site-config.schema.json', 'source': F},
    'publishOriginals stripped': {'source': F, 'images': {'publishOriginals': 'stripped'}},
    'immich everything': {'source': {'type': 'immich', 'url': 'https://photos.example.com/api', 'apiKeyEnv': 'IMMICH_API_KEY',
      'albums': ['Norway 2024', '5f1e0a3c-7b2d-4c8e-9a61-0d3f2b7c9e10'], 'limit': 10, 'allowInsecureHTTP': False}},
}

# The environment the --loader runs get, for the ${NAME} references in the examples.
ENVIRONMENT = {'FLICKR_API_KEY': 'k', 'FLICKR_KEY': 'k', 'PX500_CONSUMER_KEY': 'c', 'PARSE_APP_ID': 'a',
               'PARSE_REST_KEY': 'r', 'IMMICH_API_KEY': 'i', 'HOME': '/tmp', 'BASE_URL': 'https://example.com/photos/'}


def swift_literal(path, name):
    """The text of `static let NAME = \"\"\" … \"\"\"` in a Swift file, as the compiler makes it."""
    text = open(path, encoding='utf-8').read()
    match = re.search(r'static let ' + name + r' = """\n(.*?)\n( *)"""', text, re.S)
    indent = len(match.group(2))
    return '\n'.join(line[indent:] for line in match.group(1).split('\n')).replace('\\\\', '\\')


def cases(root):
    """(name, config, whether the loader accepts it) for everything checked."""
    yield 'site-config.json', json.load(open(f'{root}/site-config.json')), True
    for path in sorted(glob.glob(f'{root}/Fuzz/Corpus/config/*.json')):
        # folder.json holds keys the loader refuses ("formats", "strict"), on purpose.
        yield os.path.relpath(path, root), json.load(open(path)), not path.endswith('folder.json')
    scaffold = f'{root}/Sources/GalleryPipeline/Maintenance/SiteScaffold.swift'
    yield 'init: site-config.json', json.loads(swift_literal(scaffold, 'config')), True
    for key, block in json.loads(swift_literal(scaffold, 'sourceExamples')).items():
        if key != 'about':
            yield f'init: source-examples.json "{key}"', {'source': block}, True
    for path in [f'{root}/README.md'] + sorted(glob.glob(f'{root}/docs/*.md')):
        text = open(path, encoding='utf-8').read()
        name = os.path.relpath(path, root)
        for block in re.findall(r'```json\n(.*?)```', text, re.S) + re.findall(r'`(\{"type": "[^`]*\})`', text):
            try:
                document = json.loads(block)
            except ValueError:
                continue
            if isinstance(document, dict) and 'type' in document and 'photos' not in document:
                document = {'source': document}
            if isinstance(document, dict) and 'source' in document:
                yield f'{name}: {json.dumps(document)[:60]}', document, True
        for snippet in re.findall(r'`("deploy": \{[^`]*\})`', text):
            yield f'{name}: deploy', json.loads('{' + snippet + ', "source": {"type": "folder", "path": "p"}}'), True
    for name, config in REFUSED.items():
        yield f'refused: {name}', config, False
    for name, config in ACCEPTED.items():
        yield f'accepted: {name}', config, True


def loader_accepts(loader, config, folder):
    """Whether galleryssg reads the config without a config error (exit status 2)."""
    path = os.path.join(folder, 'site-config.json')
    with open(path, 'w') as file:
        json.dump(config, file)
    result = subprocess.run([loader, 'deploy', 'file:///nonexistent-galleryssg-check', '--dry-run', '--config', path],
                            capture_output=True, text=True, env=dict(os.environ, **ENVIRONMENT), cwd=folder, timeout=60)
    return result.returncode != 2, result.stderr.strip()


def main():
    root = sys.argv[1] if len(sys.argv) > 1 and not sys.argv[1].startswith('-') else '.'
    loader = sys.argv[sys.argv.index('--loader') + 1] if '--loader' in sys.argv else None
    schema = json.load(open(f'{root}/docs/site-config.schema.json'))
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    folder = tempfile.mkdtemp()
    checked = failures = 0
    for name, config, expected in cases(root):
        checked += 1
        errors = sorted(validator.iter_errors(config), key=lambda error: list(error.path))
        valid = not errors
        line = f'{"ok  " if valid == expected else "FAIL"} {"valid  " if valid else "invalid"} {name}'
        if errors:
            line += f' ({errors[0].json_path}: {errors[0].message[:100]})'
        failures += valid != expected
        if loader:
            accepted, message = loader_accepts(loader, config, folder)
            line += f' | loader {"accepts" if accepted else "refuses"}'
            if accepted != valid:
                failures += 1
                line += f' DISAGREES: {message[:200]}'
        print(line)
    print(f'{checked} configs checked, {failures} failures')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
