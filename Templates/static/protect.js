/* The page a protected album shows before its password (protected.mustache): it asks for the
   password once, unwraps the album's key (vault.js), keeps it for the tab (or the device), and
   hands it to the site's service worker (galleryssg-sw.js), which from then on decrypts the
   album's pages and files as the browser asks for them; then it loads the page again. */
(function () {
  "use strict";
  var box = document.getElementById("protected");
  if (!box) { return; }
  var form = box.querySelector(".protected-form"), status = box.querySelector(".protected-status");
  var error = box.querySelector(".protected-error"), input = form.querySelector("input[type=password]");
  var remember = document.getElementById("protected-remember");
  var folder = box.getAttribute("data-folder"), photos = box.getAttribute("data-photos");
  /* The whole site's shell names what its key does not open; an album's names nothing. */
  var except = box.getAttribute("data-except") ? JSON.parse(box.getAttribute("data-except")) : null;
  var name = except ? "/" : folder;
  var TRIED = "galleryssg-vault-tried:" + location.pathname;
  var keyFile;

  function say(text) { status.textContent = text; status.hidden = !text; }
  function show(text) { error.textContent = text; error.hidden = !text; }
  function failed(e) { return form.getAttribute("data-failed").replace("{reason}", (e && (e.code || e.message)) || String(e)); }
  function session() { try { return window.sessionStorage; } catch (e) { return null; } }
  /* A page that comes back as this shell right after its key was handed over could not be decrypted:
     ask again rather than reload for ever. */
  function justTried() {
    var store = session(), at = store && Number(store.getItem(TRIED));
    if (store) { store.removeItem(TRIED); }
    return at && Date.now() - at < 15000;
  }
  function ask(message) {
    form.hidden = false;
    say("");
    show(message || "");
    input.focus();
  }

  if (!window.isSecureContext || !navigator.serviceWorker || !window.GalleryVault || !window.MessageChannel) {
    say(form.getAttribute("data-insecure"));
    return;
  }
  try { keyFile = window.GalleryVault.parseKeyFile(box.getAttribute("data-key-file")); } catch (e) { say(failed(e)); return; }

  function handOver(key) {
    form.hidden = true;
    say(form.getAttribute("data-opening"));
    var script = new URL(box.getAttribute("data-worker"), location.href);
    script.searchParams.set("vault", new URL(box.getAttribute("data-vault"), location.href).href);
    return navigator.serviceWorker.register(script.href, { scope: new URL(box.getAttribute("data-root") || "./", location.href).href })
      .then(function () { return navigator.serviceWorker.ready; })
      .then(function (registration) {
        return new Promise(function (resolve, reject) {
          var channel = new MessageChannel();
          channel.port1.onmessage = function (event) {
            if (event.data && event.data.ok) { resolve(); } else { reject(new Error(event.data && event.data.error)); }
          };
          registration.active.postMessage({ type: "galleryssg-key", folder: folder, photos: photos, except: except, raw: key.raw },
                                          [channel.port2]);
        });
      })
      .then(function () {
        var store = session();
        if (store) { store.setItem(TRIED, String(Date.now())); }
        location.reload();
      }, function (e) { ask(failed(e)); });
  }

  var retry = justTried();
  window.GalleryVault.recall(name, keyFile).then(function (key) {
    if (key && !retry) { return handOver(key); }
    ask(retry ? failed(new Error("the page did not decrypt")) : "");
  }, function () { ask(""); });

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    show("");
    window.GalleryVault.unlock(keyFile, input.value).then(function (key) {
      window.GalleryVault.remember(name, key, remember.checked);
      return handOver(key);
    }, function (e) {
      show(e && e.code === "wrong-password" ? form.getAttribute("data-wrong") : failed(e));
    });
  });
})();
