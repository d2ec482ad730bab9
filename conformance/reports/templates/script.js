// report.html's only script: copy buttons and the filters of "All clauses". The page reads the
// same without it (the buttons and the filters stay hidden; every clause is shown).
(function () {
  "use strict";
  function copied(button, ok) {
    button.textContent = ok ? "copied" : "select and copy";
    button.classList.toggle("done", ok);
    setTimeout(function () { button.textContent = "copy"; button.classList.remove("done"); }, 1600);
  }
  function fallback(node) {
    var range = document.createRange();
    range.selectNodeContents(node);
    var sel = window.getSelection();
    sel.removeAllRanges();
    sel.addRange(range);
    try { return document.execCommand("copy"); } catch (e) { return false; }
  }
  document.querySelectorAll("button.copy").forEach(function (button) {
    var node = document.getElementById(button.getAttribute("data-copy"));
    if (!node) { return; }
    button.hidden = false;
    button.addEventListener("click", function () {
      var text = node.textContent;
      if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(text).then(function () { copied(button, true); },
          function () { copied(button, fallback(node)); });
      } else {
        copied(button, fallback(node));
      }
    });
  });

  var form = document.querySelector("form.filters");
  if (!form) { return; }
  var rows = Array.prototype.slice.call(document.querySelectorAll("li.clause"));
  var sections = Array.prototype.slice.call(document.querySelectorAll("section.sec"));
  var shown = form.querySelector(".shown");
  function chosen(name) {
    var out = {};
    form.querySelectorAll("input[name=" + name + "]").forEach(function (box) { out[box.value] = box.checked; });
    return out;
  }
  function apply() {
    var outcome = chosen("outcome"), level = chosen("level"), role = chosen("role"), count = 0;
    rows.forEach(function (row) {
      var on = outcome[row.dataset.outcome] && level[row.dataset.level] && role[row.dataset.role];
      row.hidden = !on;
      if (on) { count += 1; }
    });
    sections.forEach(function (sec) { sec.hidden = !sec.querySelector("li.clause:not([hidden])"); });
    shown.textContent = "showing " + count + " of " + rows.length + " clauses";
  }
  form.addEventListener("change", apply);
  form.addEventListener("submit", function (e) { e.preventDefault(); });
  form.hidden = false;
  apply();
}());
