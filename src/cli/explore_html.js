// qipu's explorer page: shows the tree of positions qipu computed (each
// node's figures and moves in the page's data); it knows no rule of play.
(function () {
  "use strict";
  var SVG = "http://www.w3.org/2000/svg";
  var data = JSON.parse(document.getElementById("qp-explore").textContent);
  var box = document.getElementById("qp-board");
  var pathBox = document.getElementById("qp-path");
  var summary = document.getElementById("qp-summary");
  var unexpanded = document.getElementById("qp-unexpanded");
  var rows = document.querySelector("#qp-table tbody");
  var fenBox = document.getElementById("qp-fen");
  // The way from the position asked: [{node, via: [parent node, move] | null,
  // leaf: true when the move's position is not expanded}].
  var trail = [{ node: 0, via: null, leaf: false }];
  var chosen = 0; // the row chosen with the arrow keys

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  }

  function moveOf(via) {
    return data.nodes[via[0]].m[via[1]];
  }

  // "12." before Red's move, "12…" before Black's, from the FEN it is played in.
  function numberOf(fen) {
    var fields = fen.split(" ");
    var full = fields.length > 5 ? fields[5] : "1";
    return fields[1] === "b" ? full + "\u2026" : full + ".";
  }

  // The board: the frame's geometry from the <svg>'s data attributes.
  function drawBoard(fen, last) {
    var svg = box.querySelector("svg");
    var x0 = parseFloat(svg.getAttribute("data-x0"));
    var y0 = parseFloat(svg.getAttribute("data-y0"));
    var step = parseFloat(svg.getAttribute("data-step"));
    var flip = svg.getAttribute("data-flip") === "1";
    function point(file, rank) {
      return flip ? [x0 + step * (8 - file), y0 + step * rank] : [x0 + step * file, y0 + step * (9 - rank)];
    }
    var pieces = svg.querySelector("#qp-pieces");
    var marks = svg.querySelector("#qp-marks");
    while (pieces.firstChild) pieces.removeChild(pieces.firstChild);
    while (marks.firstChild) marks.removeChild(marks.firstChild);
    var ranks = fen.split(" ")[0].split("/");
    for (var i = 0; i < ranks.length && i < 10; i++) {
      var file = 0;
      for (var j = 0; j < ranks[i].length && file < 9; j++) {
        var c = ranks[i].charAt(j);
        if (c >= "1" && c <= "9") {
          file += c.charCodeAt(0) - 48;
          continue;
        }
        var at = point(file, 9 - i);
        var use = document.createElementNS(SVG, "use");
        use.setAttribute("href", "#qp-" + c);
        use.setAttribute("x", at[0]);
        use.setAttribute("y", at[1]);
        pieces.appendChild(use);
        file++;
      }
    }
    if (last) {
      for (var k = 0; k < 2; k++) {
        var p = point(last.charCodeAt(2 * k) - 97, last.charCodeAt(2 * k + 1) - 48);
        var size = step * 0.92;
        var r = document.createElementNS(SVG, "rect");
        r.setAttribute("class", k === 0 ? "qp-from" : "qp-to");
        r.setAttribute("x", p[0] - size / 2);
        r.setAttribute("y", p[1] - size / 2);
        r.setAttribute("width", size);
        r.setAttribute("height", size);
        marks.appendChild(r);
      }
    }
  }

  function percent(s) {
    return s === null || s === undefined ? "-" : (s * 100).toFixed(1) + "%";
  }

  function year(y) {
    return y === null || y === undefined ? "-" : String(Math.round(y));
  }

  function figures(t) {
    return t.g + " game" + (t.g === 1 ? "" : "s") + ": Red won " + t.w + ", drew " + t.d + ", lost " + t.l +
      " (Red's score " + percent(t.s) + ", mean year " + year(t.y) + ")";
  }

  function bestGame(m) {
    var g = data.games[m.b];
    var parts = [];
    if (g.r || g.k) parts.push((g.r || "?") + " \u2013 " + (g.k || "?"));
    if (g.e) parts.push(g.e);
    if (g.d) parts.push(g.d);
    if (g.x && g.x !== "*") parts.push(g.x);
    parts.push(g.s + " game " + g.n);
    return parts.join(", ");
  }

  // A shell word: quoted so that a shell reads it back as it is.
  function quoted(word) {
    return /^[A-Za-z0-9_.\/:=@+-]+$/.test(word) ? word : "'" + word.replace(/'/g, "'\\''") + "'";
  }

  function fenHere() {
    var at = trail[trail.length - 1];
    return at.leaf ? moveOf(at.via).f : data.nodes[at.node].f;
  }

  function show() {
    var at = trail[trail.length - 1];
    var fen = fenHere();
    drawBoard(fen, at.via ? moveOf(at.via).i : null);
    fenBox.value = fen;
    // The moves played from the position asked, each a way back there.
    while (pathBox.firstChild) pathBox.removeChild(pathBox.firstChild);
    trail.forEach(function (step, n) {
      if (n > 0) pathBox.appendChild(el("span", "qp-sep", "\u203a"));
      var label = step.via ? numberOf(data.nodes[step.via[0]].f) + " " + moveOf(step.via).t : "\u5f00\u59cb start";
      var link = el(n === trail.length - 1 ? "span" : "a", n === trail.length - 1 ? "qp-here" : null, label);
      if (n < trail.length - 1) {
        link.setAttribute("data-depth", n);
        link.href = "#";
      }
      pathBox.appendChild(link);
    });
    while (rows.firstChild) rows.removeChild(rows.firstChild);
    if (at.leaf) {
      var m = moveOf(at.via);
      summary.textContent = figures(m);
      unexpanded.hidden = false;
      while (unexpanded.firstChild) unexpanded.removeChild(unexpanded.firstChild);
      unexpanded.appendChild(el("span", null, "Not expanded in this page (beyond --depth " + data.depth +
        ", fewer than --min-games " + data.min_games + " or --max-nodes " + data.max_nodes + "). To explore from here:"));
      var command = "qipu explore " + quoted(data.index) + " " + quoted(m.f) + (data.mirror ? " --mirror" : "");
      unexpanded.appendChild(el("code", null, command));
      return;
    }
    unexpanded.hidden = true;
    var node = data.nodes[at.node];
    summary.textContent = figures(node) + (node.e ? "; " + node.e + " end here" : "");
    node.m.forEach(function (m, k) {
      var row = el("tr", m.c === undefined ? "qp-leaf" : null);
      row.setAttribute("data-move", k);
      [m.t, m.g, m.w, m.d, m.l, percent(m.s), year(m.y), bestGame(m)].forEach(function (v) {
        row.appendChild(el("td", null, String(v)));
      });
      if (m.c === undefined) row.title = "not expanded in this page";
      rows.appendChild(row);
    });
    choose(Math.min(chosen, node.m.length - 1));
  }

  function choose(k) {
    var all = rows.querySelectorAll("tr");
    for (var i = 0; i < all.length; i++) all[i].classList.toggle("qp-chosen", i === k);
    chosen = k < 0 ? 0 : k;
  }

  function play(k) {
    var at = trail[trail.length - 1];
    if (at.leaf) return;
    var m = data.nodes[at.node].m[k];
    if (!m) return;
    trail.push(m.c === undefined ? { node: at.node, via: [at.node, k], leaf: true } : { node: m.c, via: [at.node, k], leaf: false });
    chosen = 0;
    show();
  }

  function back(depth) {
    if (trail.length <= 1) return;
    var left = trail[depth + 1];
    trail.length = depth + 1;
    chosen = left && left.via ? left.via[1] : 0;
    show();
  }

  rows.addEventListener("click", function (e) {
    var row = e.target.closest ? e.target.closest("tr[data-move]") : null;
    if (row) play(parseInt(row.getAttribute("data-move"), 10));
  });
  pathBox.addEventListener("click", function (e) {
    var link = e.target.closest ? e.target.closest("a[data-depth]") : null;
    if (!link) return;
    e.preventDefault();
    back(parseInt(link.getAttribute("data-depth"), 10));
  });
  document.getElementById("qp-back").addEventListener("click", function () {
    back(trail.length - 2);
  });
  document.getElementById("qp-root").addEventListener("click", function () {
    back(0);
  });
  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.target && e.target.tagName === "INPUT") return;
    // Enter on a button or a link of the breadcrumb is theirs.
    if (e.key === "Enter" && e.target && (e.target.tagName === "BUTTON" || e.target.tagName === "A")) return;
    var count = rows.querySelectorAll("tr").length;
    if (e.key === "ArrowLeft") back(trail.length - 2);
    else if (e.key === "Home") back(0);
    else if (e.key === "ArrowRight" || e.key === "Enter") play(chosen);
    else if (e.key === "ArrowDown" && count) choose(Math.min(chosen + 1, count - 1));
    else if (e.key === "ArrowUp" && count) choose(Math.max(chosen - 1, 0));
    else return;
    e.preventDefault();
  });
  show();
})();
