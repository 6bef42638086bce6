/* galleryssg vault: opens protected albums in the browser with Web Crypto (crypto.subtle), the
   reading half of Sources/GalleryVault (format: docs/protected-albums.md). It fetches an album's
   key file, derives the password's key with PBKDF2-HMAC-SHA256, unwraps the album's content key,
   and decrypts files chunk by chunk into Blobs and blob: URLs. Nothing here asks for a password:
   pages call window.GalleryVault. Every failure rejects with an Error whose `code` is one of
   VaultError.Kind's in Swift (wrong-password, tampered, truncated, unknown-version, bad-key-file)
   or "insecure-context" (Web Crypto exists only on https:, file: and loopback pages). */
(function () {
  "use strict";
  var HEADER = 24, TAG = 16, NONCE = 12, KEY = 32;
  var MAGIC = "GSVF", VERSION = 1, FORMAT = "galleryssg-vault-key", KDF = "PBKDF2-HMAC-SHA256";
  var STORE = "galleryssg-vault:";
  var words = {
    "wrong-password": "Wrong password.",
    "tampered": "This file was changed or does not belong here; it was not opened.",
    "truncated": "This file is incomplete; it was not opened.",
    "unknown-version": "This album was made by a newer galleryssg; this page cannot open it.",
    "bad-key-file": "The album's key file could not be read.",
    "insecure-context": "This browser allows decryption only on https: pages."
  };

  function fail(code, detail) {
    var error = new Error(words[code] || code);
    error.name = "VaultError";
    error.code = code;
    error.detail = detail || null;
    return error;
  }
  function subtle() {
    var c = window.crypto;
    if (!c || !c.subtle) { throw fail("insecure-context"); }
    return c.subtle;
  }
  function utf8(text) { return new TextEncoder().encode(text); }
  function concat(parts) {
    var length = 0, at = 0, out;
    parts.forEach(function (p) { length += p.length; });
    out = new Uint8Array(length);
    parts.forEach(function (p) { out.set(p, at); at += p.length; });
    return out;
  }
  function u32(n) { return new Uint8Array([n >>> 24 & 255, n >>> 16 & 255, n >>> 8 & 255, n & 255]); }
  function fromBase64(text) {
    var binary = atob(text), out = new Uint8Array(binary.length), i;
    for (i = 0; i < binary.length; i += 1) { out[i] = binary.charCodeAt(i); }
    return out;
  }
  function toBase64(bytes) {
    var binary = "", i;
    for (i = 0; i < bytes.length; i += 1) { binary += String.fromCharCode(bytes[i]); }
    return btoa(binary);
  }

  /* A key file's JSON (text or parsed) checked as KeyFile(json:) checks it in Swift. */
  function parseKeyFile(json) {
    var file, salt, wrapped;
    try { file = typeof json === "string" ? JSON.parse(json) : json; } catch (e) { throw fail("bad-key-file"); }
    if (!file || file.format !== FORMAT) { throw fail("bad-key-file"); }
    if (file.version !== VERSION) { throw fail("unknown-version", "key file version " + file.version); }
    try { salt = fromBase64(file.salt); wrapped = fromBase64(file.wrappedKey); } catch (e) { throw fail("bad-key-file"); }
    if (file.kdf !== KDF || !(file.iterations > 0) || salt.length < 16 || wrapped.length !== NONCE + KEY + TAG) {
      throw fail("bad-key-file");
    }
    return { iterations: file.iterations, salt: salt, wrapped: wrapped };
  }
  function fetchKeyFile(url) {
    return fetch(url, { cache: "no-cache" }).then(function (response) {
      if (!response.ok) { throw fail("bad-key-file", url + ": HTTP " + response.status); }
      return response.text();
    }).then(parseKeyFile);
  }

  /* The content key made usable: its raw bytes (to remember) and the HMAC key that gives each
     file its AES key (HKDF-SHA256, empty salt, info "galleryssg-vault/1 file-key"). */
  function openKey(raw, keyFile) {
    var s = subtle();
    return s.importKey("raw", raw, "HKDF", false, ["deriveBits"]).then(function (ikm) {
      return s.deriveBits({ name: "HKDF", hash: "SHA-256", salt: new Uint8Array(0), info: utf8("galleryssg-vault/1 file-key") }, ikm, 256);
    }).then(function (bits) {
      return s.importKey("raw", bits, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    }).then(function (fileKey) {
      return { raw: new Uint8Array(raw), fileKey: fileKey, wrapped: keyFile ? toBase64(keyFile.wrapped) : null };
    });
  }

  /* The password's key (PBKDF2-HMAC-SHA256 of its NFC UTF-8, as Swift derives it), then the
     content key it unwraps. Resolves to a key for decrypt(); a wrong password rejects. */
  function unlock(keyFile, password) {
    var s;
    try { s = subtle(); } catch (e) { return Promise.reject(e); }
    return s.importKey("raw", utf8(String(password).normalize("NFC")), "PBKDF2", false, ["deriveKey"]).then(function (base) {
      return s.deriveKey({ name: "PBKDF2", hash: "SHA-256", salt: keyFile.salt, iterations: keyFile.iterations },
        base, { name: "AES-GCM", length: 256 }, false, ["decrypt"]);
    }).then(function (kek) {
      return s.decrypt({ name: "AES-GCM", iv: keyFile.wrapped.subarray(0, NONCE), additionalData: utf8("galleryssg-vault/1 key-wrap") },
        kek, keyFile.wrapped.subarray(NONCE)).then(null, function () { throw fail("wrong-password"); });
    }).then(function (raw) { return openKey(new Uint8Array(raw), keyFile); });
  }

  /* One file's chunk opener from its header: the file's AES key is HMAC(file key, synthetic IV). */
  function opener(key, header, path) {
    var s = subtle(), name = "";
    if (header.length < HEADER) { return Promise.reject(fail("truncated", "no header")); }
    for (var i = 0; i < 4; i += 1) { name += String.fromCharCode(header[i]); }
    if (name !== MAGIC) { return Promise.reject(fail("tampered", "not a galleryssg vault file")); }
    if (header[4] !== VERSION) { return Promise.reject(fail("unknown-version", "version " + header[4])); }
    if (header[5] < 12 || header[5] > 24 || header[6] || header[7]) { return Promise.reject(fail("tampered", "header")); }
    var iv = header.slice(8, HEADER), pathBytes = utf8(path);
    var aad = concat([header.slice(0, HEADER), u32(pathBytes.length), pathBytes, new Uint8Array(1)]);
    return s.sign("HMAC", key.fileKey, iv).then(function (bits) {
      return s.importKey("raw", bits, "AES-GCM", false, ["decrypt"]);
    }).then(function (aes) {
      function attempt(sealed, index, final) {
        aad[aad.length - 1] = final ? 1 : 0;
        return s.decrypt({ name: "AES-GCM", iv: concat([iv.subarray(0, 8), u32(index)]), additionalData: aad.slice() }, aes, sealed);
      }
      return {
        block: (1 << header[5]) + TAG,
        /* A last chunk that opens only as a middle one: the file was cut at a chunk boundary. */
        open: function (sealed, index, final) {
          if (sealed.length < TAG) { return Promise.reject(fail("truncated")); }
          return attempt(sealed, index, final).then(null, function () {
            if (!final) { throw fail("tampered"); }
            return attempt(sealed, index, false).then(function () { throw fail("truncated", "the final chunk is missing"); },
              function () { throw fail("tampered"); });
          });
        }
      };
    });
  }

  /* Decrypts a whole encrypted file (ArrayBuffer or Uint8Array) made for `path`: resolves to a
     Blob of `type`. Chunks are opened in parallel; any refusal rejects the whole file. */
  function decrypt(key, data, path, type) {
    var bytes = new Uint8Array(data);
    return opener(key, bytes.subarray(0, HEADER), path).then(function (o) {
      var jobs = [], at = HEADER, index = 0;
      do {
        var end = Math.min(at + o.block, bytes.length);
        jobs.push(o.open(bytes.subarray(at, end), index, end === bytes.length));
        at = end;
        index += 1;
      } while (at < bytes.length);
      return Promise.all(jobs);
    }).then(function (parts) { return new Blob(parts, { type: type || "" }); });
  }

  /* Fetches and decrypts `url` as it arrives, a chunk at a time (a large file never sits in
     memory twice); resolves to a Blob. Falls back to the whole body where streams are missing. */
  function fetchDecrypted(key, url, path, type) {
    return fetch(url).then(function (response) {
      if (!response.ok) { throw new Error(url + ": HTTP " + response.status); }
      if (!response.body || !response.body.getReader) {
        return response.arrayBuffer().then(function (buffer) { return decrypt(key, buffer, path, type); });
      }
      var reader = response.body.getReader(), pending = new Uint8Array(0), o = null, index = 0, parts = [], pieces = [], waiting = 0;
      /* Cuts the next chunk off now; opens it when the returned step runs (in order). */
      function take(size, final) {
        var chunk = pending.slice(0, size), at = index;
        pending = pending.slice(size);
        index += 1;
        return function () { return o.open(chunk, at, final).then(function (plain) { parts.push(plain); }); };
      }
      /* A chunk is known not to be the last only once a byte after it has arrived. */
      function drain(done) {
        var chain = Promise.resolve();
        while (pending.length > o.block) { chain = chain.then(take(o.block, false)); }
        return chain.then(done ? take(pending.length, true) : pump);
      }
      function pump() {
        return reader.read().then(function (step) {
          if (!step.done) {
            pieces.push(step.value);
            waiting += step.value.length;
            /* Joined only once a header or a chunk and a byte have come, so small pieces are copied once. */
            if (pending.length + waiting < (o ? o.block + 1 : HEADER)) { return pump(); }
          }
          pending = concat([pending].concat(pieces));
          pieces = [];
          waiting = 0;
          if (o) { return drain(step.done); }
          return opener(key, pending.slice(0, HEADER), path).then(function (made) {
            o = made;
            pending = pending.slice(HEADER);
            return drain(step.done);
          });
        });
      }
      return pump().then(function () { return new Blob(parts, { type: type || "" }); });
    });
  }

  function blobURL(key, url, path, type) {
    return fetchDecrypted(key, url, path, type).then(function (blob) { return URL.createObjectURL(blob); });
  }

  /* The content key kept for this tab (sessionStorage) or, when asked, on this device
     (localStorage), under the album's id: a reload does not ask again. The wrapped key it came
     from is kept beside it, so that once the album's key file changes (a new password or a new
     content key) a kept key is dropped and the reader asked again. */
  function storage(name) { try { return window[name]; } catch (e) { return null; } }
  function remember(album, key, device) {
    var text = JSON.stringify({ key: toBase64(key.raw), wrapped: key.wrapped });
    [storage("sessionStorage"), device ? storage("localStorage") : null].forEach(function (store) {
      try { if (store) { store.setItem(STORE + album, text); } } catch (e) { /* full or refused: ask again next time */ }
    });
  }
  /* Resolves to the kept key, or null; with `keyFile` (parsed), null also when it has changed. */
  function recall(album, keyFile) {
    var text = null, kept = null, raw = null;
    ["sessionStorage", "localStorage"].forEach(function (name) {
      var store = storage(name);
      try { text = text || (store && store.getItem(STORE + album)); } catch (e) { /* unavailable */ }
    });
    if (!text) { return Promise.resolve(null); }
    try { kept = JSON.parse(text); raw = fromBase64(kept.key); } catch (e) { raw = null; }
    if (!raw || raw.length !== KEY || (keyFile && kept.wrapped !== toBase64(keyFile.wrapped))) {
      forget(album);
      return Promise.resolve(null);
    }
    return openKey(raw, kept.wrapped ? { wrapped: fromBase64(kept.wrapped) } : null);
  }
  function forget(album) {
    ["sessionStorage", "localStorage"].forEach(function (name) {
      var store = storage(name);
      try { if (store) { store.removeItem(STORE + album); } } catch (e) { /* unavailable */ }
    });
  }

  window.GalleryVault = {
    words: words, parseKeyFile: parseKeyFile, fetchKeyFile: fetchKeyFile, unlock: unlock, openKey: openKey,
    decrypt: decrypt, fetchDecrypted: fetchDecrypted, blobURL: blobURL, remember: remember, recall: recall, forget: forget,
    opener: opener, concat: concat, HEADER: HEADER, TAG: TAG
  };
})();
