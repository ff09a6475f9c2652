// Sun mode (issue 29): high contrast and large type for a phone read in sunlight, switched
// with the header's toggle (one tap) and kept on this device (localStorage).
//
// A classic script loaded in <head>, not a module: it runs before the body is painted, so a
// page opened in sun mode never flashes in the normal colours first. The toggle is wired once
// the document is parsed. No inline script: the CSP allows this site's files only.
(function () {
  "use strict";
  var KEY = "pace.sun";
  var root = document.documentElement;

  function stored() {
    try {
      return window.localStorage.getItem(KEY) === "on";
    } catch (e) {
      return false; // storage refused (a private window): the normal colours
    }
  }

  function apply(on) {
    root.classList.toggle("sun", on);
    var toggle = document.getElementById("sun-toggle");
    if (toggle) toggle.setAttribute("aria-pressed", on ? "true" : "false");
  }

  apply(stored());

  function wire() {
    var toggle = document.getElementById("sun-toggle");
    if (!toggle) return;
    apply(root.classList.contains("sun"));
    toggle.addEventListener("click", function () {
      var on = !root.classList.contains("sun");
      try {
        window.localStorage.setItem(KEY, on ? "on" : "off");
      } catch (e) {
        // not kept, but switched for this page all the same
      }
      apply(on);
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", wire);
  else wire();
})();
