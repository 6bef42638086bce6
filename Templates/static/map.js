/* The map page: every located photo (map/photos.js) on Leaflet, clustered with Leaflet.markercluster;
   a marker's popup links the photo page. `#p-<id>` in the address opens that photo's marker. Without
   JavaScript, or without the libraries, the page keeps its list. */
(function () {
  "use strict";
  var doc = document;
  var element = doc.getElementById("map");
  var photos = window.galleryMapPhotos;
  if (!element || !window.L || !L.markerClusterGroup || !photos || !photos.length) { return; }
  var root = doc.documentElement.getAttribute("data-root") || "";
  var credit = '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors';
  var extra = element.getAttribute("data-attribution");
  if (extra) { var holder = doc.createElement("span"); holder.textContent = extra; credit += " · " + holder.innerHTML; }
  var map = L.map(element, { scrollWheelZoom: false, worldCopyJump: true });
  L.tileLayer(element.getAttribute("data-tiles"), { maxZoom: 19, attribution: credit }).addTo(map);
  var reduce = window.matchMedia && matchMedia("(prefers-reduced-motion: reduce)").matches;
  var cluster = L.markerClusterGroup({ animate: !reduce, chunkedLoading: true });
  var byId = {};
  photos.forEach(function (row) {
    var link = doc.createElement("a");
    link.className = "map-popup";
    link.href = root + row[3];
    var image = doc.createElement("img");
    image.src = root + row[4];
    image.alt = "";
    image.loading = "lazy";
    link.appendChild(image);
    link.appendChild(doc.createTextNode(row[2]));
    var marker = L.marker([row[0], row[1]], { title: row[2], alt: row[2], keyboard: true });
    marker.bindPopup(link);
    byId[row[5]] = marker;
    cluster.addLayer(marker);
  });
  map.addLayer(cluster);
  map.fitBounds(cluster.getBounds(), { maxZoom: 12, padding: [24, 24] });
  function openFromHash() {
    var marker = byId[decodeURIComponent(location.hash.replace(/^#p-/, ""))];
    if (marker && /^#p-/.test(location.hash)) {
      element.scrollIntoView({ block: "start" });
      cluster.zoomToShowLayer(marker, function () { marker.openPopup(); });
    }
  }
  openFromHash();
  window.addEventListener("hashchange", openFromHash);
  window.galleryMap = { map: map, cluster: cluster, count: photos.length };
})();
