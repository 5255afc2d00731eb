// Shows each <time data-local-time datetime="..."> in the viewer's own time zone, to the second.
// Without JavaScript the server's text (UTC) stays. Runs again on content htmx swaps in, such as
// the exam clock refreshing itself.
(function () {
  "use strict";

  function localise(root) {
    root.querySelectorAll("time[data-local-time]").forEach(function (element) {
      var when = new Date(element.getAttribute("datetime"));
      if (isNaN(when.getTime())) {
        return;
      }
      element.textContent = when.toLocaleTimeString([], {
        hour: "2-digit",
        minute: "2-digit",
        second: "2-digit",
        timeZoneName: "short",
      });
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    localise(document);
  });
  document.addEventListener("htmx:load", function (event) {
    localise(event.target);
  });
})();
