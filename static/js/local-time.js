// Shows each <time data-local-time datetime="..."> in the viewer's own time zone: a time to the
// second (the exam clock), or with data-local-time="date" a day and a time to the minute (when
// an exam was sat), in the page's language. Without JavaScript the server's text (UTC, said so)
// stays. Runs again on content htmx swaps in, such as the exam clock refreshing itself.
(function () {
  "use strict";

  var TIME = { hour: "2-digit", minute: "2-digit", second: "2-digit", timeZoneName: "short" };
  var DATE = {
    year: "numeric",
    month: "long",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    timeZoneName: "short",
  };

  function localise(root) {
    var language = document.documentElement.lang || [];
    root.querySelectorAll("time[data-local-time]").forEach(function (element) {
      var when = new Date(element.getAttribute("datetime"));
      if (isNaN(when.getTime())) {
        return;
      }
      element.textContent =
        element.getAttribute("data-local-time") === "date"
          ? when.toLocaleString(language, DATE)
          : when.toLocaleTimeString([], TIME);
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    localise(document);
  });
  document.addEventListener("htmx:load", function (event) {
    localise(event.target);
  });
})();
