// After htmx swaps in the feedback, move focus to its heading so keyboard and screen reader
// users land on the verdict (the heading has tabindex="-1").
document.addEventListener("htmx:afterSwap", function (event) {
  if (event.detail.target && event.detail.target.id === "feedback") {
    var heading = document.getElementById("feedback-title");
    if (heading) heading.focus();
  }
});

// An answer sent back with errors replaces the whole form (views.answer retargets it), and the
// button that had focus goes with it: focus the first field in error, or the form's own error,
// so a keyboard user is not sent back to the top of the page (found walking the app).
document.addEventListener("htmx:afterSettle", function (event) {
  var xhr = event.detail.xhr;
  if (!xhr || xhr.getResponseHeader("HX-Retarget") !== "#answer-form") return;
  var form = document.getElementById("answer-form");
  if (!form) return;
  var wrong = form.querySelector('[aria-invalid="true"]') || form.querySelector(".errors");
  if (!wrong) return;
  if (!wrong.matches("input, select, textarea, button")) wrong.setAttribute("tabindex", "-1");
  wrong.focus();
});

// Printing (a paper quiz, or any page): card texts and grouped cards print open. A paper quiz's
// page opens them at once, so what is printed is what is seen.
function openAllDetails() {
  document.querySelectorAll("details:not([open])").forEach(function (details) {
    details.setAttribute("open", "");
    details.dataset.openedForPrint = "true";
  });
}
window.addEventListener("beforeprint", openAllDetails);
document.addEventListener("DOMContentLoaded", function () {
  if (document.querySelector(".print-quiz")) openAllDetails();
});
