// The scenario builder, enhanced: move a card with its up/down buttons (keyboard) or by dragging,
// remove it, then let htmx send the builder so the JSON and the preview follow. Without this
// file the same buttons post the form and the server moves the card.
(function () {
  "use strict";

  var refocus = null; // after the server's re-render: the card and the button to focus again

  function builder() {
    return document.getElementById("builder");
  }

  function cardRows(list) {
    return Array.prototype.filter.call(list.children, function (row) {
      return row.classList.contains("card-row") && !row.classList.contains("is-new");
    });
  }

  function entryOf(row) {
    var input = row.querySelector("input[list]");
    return input ? input.value : "";
  }

  // The words come from the page (data-moved-up, data-moved-down, data-removed on the status),
  // in the page's language, with {card}, {position} and {count} filled in here.
  function announce(kind, values) {
    var status = document.getElementById("builder-status");
    if (!status) return;
    status.textContent = (status.dataset[kind] || "").replace(/\{(\w+)\}/g, function (whole, name) {
      return name in values ? values[name] : whole;
    });
  }

  function changed() {
    edits.builder += 1; // a move or removal is an edit, as typing is
    var element = builder();
    if (element && window.htmx) window.htmx.trigger(element, "change");
  }

  function moved(row, list, how) {
    var rows = cardRows(list);
    announce(how === "moved up" ? "movedUp" : "movedDown", {
      card: entryOf(row), position: rows.indexOf(row) + 1, count: rows.length
    });
    refocus = { zone: list.dataset.zone, entry: entryOf(row), move: how === "moved up" ? "up" : "down" };
    changed();
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("#builder button[data-move], #builder button[data-remove]");
    if (!button) return;
    event.preventDefault();
    var row = button.closest(".card-row");
    var list = row.parentElement;
    if (button.hasAttribute("data-remove")) {
      announce("removed", { card: entryOf(row) });
      row.remove();
      refocus = { zone: list.dataset.zone, entry: "", move: "" };
      changed();
      return;
    }
    var rows = cardRows(list);
    var index = rows.indexOf(row);
    if (button.dataset.move === "up" && index > 0) {
      list.insertBefore(row, rows[index - 1]);
      button.focus();
      moved(row, list, "moved up");
    } else if (button.dataset.move === "down" && index < rows.length - 1) {
      list.insertBefore(row, rows[index + 1].nextSibling);
      button.focus();
      moved(row, list, "moved down");
    }
  });

  // A step's or a choice's new row is filled field by field and added with its button (or kept
  // when anything else sends the builder): its own changes don't send it, so the server's copy
  // never comes back while the row is half typed.
  document.addEventListener("change", function (event) {
    if (event.target.closest && event.target.closest("#builder [data-new-row]")) {
      event.stopPropagation();
    }
  }, true);

  function firstField(row) {
    return row && row.querySelector("input, select");
  }

  document.addEventListener("click", function (event) {
    var take = event.target.closest("#builder button[data-take]");
    if (take) { // the tick takes the engine's claim, then the builder goes as for any change
      event.preventDefault();
      var tick = take.parentElement.querySelector("input[name='b-ask']");
      if (tick) tick.value = take.dataset.take;
      changed();
      return;
    }
    var add = event.target.closest("#builder button[data-add-row]");
    if (add) {
      event.preventDefault();
      refocusRow = add.id; // after the reply: the fresh new row's first field
      changed();
      return;
    }
    var remove = event.target.closest("#builder button[data-remove-row]");
    if (remove) {
      event.preventDefault();
      var row = remove.parentElement;
      var part = row.parentElement;
      announce("rowRemoved", {});
      row.remove();
      var next = firstField(part.querySelector("[data-new-row]"));
      if (next) next.focus();
      changed();
    }
  });

  var refocusRow = null;
  document.addEventListener("htmx:afterSettle", function () {
    if (!refocusRow) return;
    var button = document.getElementById(refocusRow);
    refocusRow = null;
    var field = button && firstField(button.closest("[data-new-row]"));
    if (field) field.focus();
  });

  var dragged = null;
  document.addEventListener("dragstart", function (event) {
    var row = event.target.closest && event.target.closest("#builder .card-row:not(.is-new)");
    if (!row) return;
    dragged = row;
    event.dataTransfer.effectAllowed = "move";
    event.dataTransfer.setData("text/plain", entryOf(row));
  });
  document.addEventListener("dragover", function (event) {
    var row = dragged && event.target.closest && event.target.closest(".card-row");
    if (row && row.parentElement === dragged.parentElement) event.preventDefault();
  });
  document.addEventListener("drop", function (event) {
    var row = dragged && event.target.closest && event.target.closest(".card-row");
    if (!row || row === dragged || row.parentElement !== dragged.parentElement) return;
    event.preventDefault();
    var list = row.parentElement;
    var rows = cardRows(list);
    var before = rows.indexOf(dragged) > rows.indexOf(row) || row.classList.contains("is-new");
    list.insertBefore(dragged, before ? row : row.nextSibling);
    var item = dragged;
    dragged = null;
    moved(item, list, "moved");
  });
  document.addEventListener("dragend", function () {
    dragged = null;
  });

  // A reply re-renders the builder and the JSON box out of band; one edited while the request
  // was on its way keeps what was typed (its own change sends it next).
  var edits = { builder: 0, "document-box": 0 };
  var editsWhenSent = null;
  document.addEventListener("input", function (event) {
    if (!event.target.closest) return;
    if (event.target.closest("#builder")) edits.builder += 1;
    if (event.target.closest("#document-box")) edits["document-box"] += 1;
  });
  document.addEventListener("htmx:beforeRequest", function () {
    editsWhenSent = { builder: edits.builder, "document-box": edits["document-box"] };
  });
  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var id = event.detail.target && event.detail.target.id;
    if (editsWhenSent && id in editsWhenSent && edits[id] !== editsWhenSent[id]) {
      event.detail.shouldSwap = false;
    } else if (id in edits) {
      keepCaret(event.detail.target);
    }
  });

  // htmx gives focus back to the field being edited after the swap, but drops its caret and
  // selection when they start at 0 (it tests the start for truth): keys typed over a selected
  // field then went in before the server's copy ("rampant-grovemy-new-scenario"). Kept here.
  var caret = null;
  function keepCaret(target) {
    var active = document.activeElement;
    if (!active || !active.id || !target.contains(active)) return; // another part swapped
    try {
      if (active.selectionStart === null) return; // a checkbox or a number: no text selection
      caret = { id: active.id, start: active.selectionStart, end: active.selectionEnd,
                direction: active.selectionDirection };
    } catch (error) {
      caret = null;
    }
  }
  document.addEventListener("htmx:afterSwap", function () {
    var kept = caret;
    caret = null;
    if (!kept) return;
    var field = document.getElementById(kept.id);
    if (!field || field !== document.activeElement) return;
    try {
      field.setSelectionRange(kept.start, kept.end, kept.direction);
    } catch (error) {
      // a field type without a selection: nothing to put back
    }
  });

  // The server re-renders the builder: put focus back on the moved card's button.
  document.addEventListener("htmx:afterSettle", function () {
    if (!refocus) return;
    var list = document.querySelector('#builder ol[data-zone="' + refocus.zone + '"]');
    var target = null;
    if (list) {
      var rows = cardRows(list);
      var row = rows.filter(function (r) { return entryOf(r) === refocus.entry; })[0];
      if (row && refocus.move) {
        target = row.querySelector('button[data-move="' + refocus.move + '"]:not([disabled])') ||
          row.querySelector("button[data-move]:not([disabled])") || row.querySelector("input[list]");
      }
      if (!target) target = list.querySelector(".is-new input[list]");
    }
    refocus = null;
    if (target) target.focus();
  });
})();
