// After htmx swaps in the feedback, move focus to its heading so keyboard and screen reader
// users land on the verdict (the heading has tabindex="-1").
document.addEventListener("htmx:afterSwap", function (event) {
  if (event.detail.target && event.detail.target.id === "feedback") {
    var heading = document.getElementById("feedback-title");
    if (heading) heading.focus();
  }
});
