// report_layout.js — what a reader of the page sees in a 1,400 px window, measured by
// the browser (tests/cli_report.sh appends this to a copy of the page, then reads the
// DOM headless Chromium dumps): the comparison table fits the window, and in every
// figure no text is drawn outside the figure or over another text (clipped legends,
// overlapping bar labels). A page with a training step (--job) must draw its figure
// whole within the window, with a legend entry per phase (the columns of its numbers) and a
// label per bar (the ideal and every family of the step table). One line per failure in a
// pre element, id layout-result.
(function () {
  var fails = [];
  var t = document.getElementById("compare-table");
  if (!t) fails.push("no comparison table");
  else if (t.getBoundingClientRect().right > window.innerWidth + 0.5)
    fails.push("comparison table is " + Math.round(t.getBoundingClientRect().width) +
               " px wide, ends at " + Math.round(t.getBoundingClientRect().right) +
               " px in a " + window.innerWidth + " px window");
  if (document.documentElement.scrollWidth > window.innerWidth + 0.5)
    fails.push("page scrolls sideways: " + document.documentElement.scrollWidth + " px");
  var figs = document.querySelectorAll("figure");
  for (var f = 0; f < figs.length; f++) {
    var svg = figs[f].querySelector("svg");
    if (!svg) continue;
    var box = svg.getBoundingClientRect(), texts = svg.querySelectorAll("text"), r = [];
    for (var i = 0; i < texts.length; i++) {
      var b = texts[i].getBoundingClientRect();
      // markers are one-glyph texts: data points may coincide, labels may not
      if (texts[i].textContent.trim().length < 2 || b.width == 0) continue;
      if (b.left < box.left - 1 || b.right > box.right + 1 || b.top < box.top - 1 ||
          b.bottom > box.bottom + 1)
        fails.push(figs[f].id + ": text '" + texts[i].textContent + "' outside the figure");
      for (var j = 0; j < r.length; j++) {
        var a = r[j].b, w = Math.min(a.right, b.right) - Math.max(a.left, b.left),
            h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
        if (w > 1 && h > 1)
          fails.push(figs[f].id + ": '" + r[j].s + "' and '" + texts[i].textContent +
                     "' overlap");
      }
      r.push({ b: b, s: texts[i].textContent });
    }
  }
  if (document.getElementById("training-step")) {
    var sf = document.getElementById("step"), st = document.getElementById("step-table");
    var nums = document.getElementById("data-step");
    if (!sf || !sf.querySelector("svg") || !st || !nums)
      fails.push("training step: figure, its numbers or the step table missing");
    else {
      var sb = sf.querySelector("svg").getBoundingClientRect(), drawn = {};
      if (sb.width < 300 || sb.left < -0.5 || sb.right > window.innerWidth + 0.5)
        fails.push("step: figure spans " + Math.round(sb.left) + ".." + Math.round(sb.right) +
                   " px in a " + window.innerWidth + " px window");
      var ts = sf.querySelectorAll("svg text");
      for (var k = 0; k < ts.length; k++)
        if (ts[k].getBoundingClientRect().width > 0) drawn[ts[k].textContent.trim()] = 1;
      var want = ["ideal"], head = nums.rows[0].cells;
      for (var c = 1; c < head.length; c++) want.push(head[c].textContent);  // phases
      for (var r = 1; r < st.rows.length; r++) want.push(st.rows[r].cells[0].textContent);
      for (var w = 0; w < want.length; w++)
        if (!drawn[want[w]]) fails.push("step: '" + want[w] + "' is not drawn in the figure");
    }
  }
  var pre = document.createElement("pre");
  pre.id = "layout-result";
  pre.textContent = fails.length ? fails.join("\n") : "layout ok";
  document.body.appendChild(pre);
})();
