// qipu's game viewer: shows the positions qipu computed (each move's FEN in
// the page's data); it knows no rule of play.
(function () {
  "use strict";
  var SVG = "http://www.w3.org/2000/svg";
  var box = document.getElementById("qp-board");
  var other = document.getElementById("qp-board-other");
  var chooser = document.getElementById("qp-games");
  var sources = document.querySelectorAll("script.qp-game");
  var movesBox = document.getElementById("qp-moves");
  var tagsBox = document.getElementById("qp-tags");
  var status = document.getElementById("qp-status");
  var note = document.getElementById("qp-comment");
  var errorBox = document.getElementById("qp-error");
  var playButton = document.getElementById("qp-play");
  var inVariation = document.getElementById("qp-in-var");
  var fenBox = document.getElementById("qp-fen");
  var copied = document.getElementById("qp-copied");
  var search = document.getElementById("qp-search");
  var found = document.getElementById("qp-found");
  var PLAY_MS = 1000; // autoplay: one move a second
  var timer = null;
  var game = null; // {data, kids: [[child ids]], spans: [span by id]}
  var current = 0;

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  }

  function node(id) {
    return game.data.nodes[id - 1];
  }

  function fenOf(id) {
    return id === 0 ? game.data.start : node(id).f;
  }

  // "12." before Red's move, "12…" before Black's, from the FEN it is played in.
  function numberOf(id) {
    var fen = fenOf(node(id).p) || "";
    var fields = fen.split(" ");
    var full = fields.length > 5 ? fields[5] : "1";
    return fields[1] === "b" ? full + "\u2026" : full + ".";
  }

  // The board: the frame's geometry from the <svg>'s data attributes.
  function geometry() {
    var svg = box.querySelector("svg");
    return {
      svg: svg,
      x0: parseFloat(svg.getAttribute("data-x0")),
      y0: parseFloat(svg.getAttribute("data-y0")),
      step: parseFloat(svg.getAttribute("data-step")),
      flip: svg.getAttribute("data-flip") === "1"
    };
  }

  function point(g, file, rank) {
    return g.flip
      ? [g.x0 + g.step * (8 - file), g.y0 + g.step * rank]
      : [g.x0 + g.step * file, g.y0 + g.step * (9 - rank)];
  }

  function drawBoard() {
    var g = geometry();
    var pieces = g.svg.querySelector("#qp-pieces");
    var marks = g.svg.querySelector("#qp-marks");
    while (pieces.firstChild) pieces.removeChild(pieces.firstChild);
    while (marks.firstChild) marks.removeChild(marks.firstChild);
    var fen = fenOf(current);
    if (!fen) return;
    var rows = fen.split(" ")[0].split("/");
    for (var i = 0; i < rows.length && i < 10; i++) {
      var file = 0;
      for (var j = 0; j < rows[i].length && file < 9; j++) {
        var c = rows[i].charAt(j);
        if (c >= "1" && c <= "9") {
          file += c.charCodeAt(0) - 48;
          continue;
        }
        var at = point(g, file, 9 - i);
        var use = document.createElementNS(SVG, "use");
        use.setAttribute("href", "#qp-" + c);
        use.setAttribute("x", at[0]);
        use.setAttribute("y", at[1]);
        pieces.appendChild(use);
        file++;
      }
    }
    var m = current > 0 ? node(current).m : null;
    if (m) {
      for (var k = 0; k < 2; k++) {
        var p = point(g, m.charCodeAt(2 * k) - 97, m.charCodeAt(2 * k + 1) - 48);
        var size = g.step * 0.92;
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

  // On the main line: every move from the start is its parent's first child.
  function onMainLine(id) {
    for (; id > 0; id = node(id).p) {
      if (game.kids[node(id).p][0] !== id) return false;
    }
    return true;
  }

  // Where the line shown leaves the main line: the position before its
  // first move off it.
  function branchPoint(id) {
    var at = 0;
    for (; id > 0; id = node(id).p) {
      if (game.kids[node(id).p][0] !== id) at = node(id).p;
    }
    return at;
  }

  function go(id) {
    if (game.spans[current]) game.spans[current].classList.remove("qp-current");
    current = id;
    var span = game.spans[id];
    if (span) {
      span.classList.add("qp-current");
      var top = span.offsetTop - movesBox.offsetTop;
      if (top < movesBox.scrollTop || top + span.offsetHeight > movesBox.scrollTop + movesBox.clientHeight) {
        movesBox.scrollTop = top - movesBox.clientHeight / 3;
      }
    }
    drawBoard();
    fenBox.value = fenOf(id) || "";
    copied.textContent = "";
    inVariation.hidden = onMainLine(id);
    var here = id === 0 ? null : node(id);
    status.textContent = here ? numberOf(id) + " " + here.t + (here.a ? " " + here.a : "") : "\u5f00\u5c40 start";
    note.textContent = here ? here.c || "" : game.data.comment || "";
    var next = game.kids[id][0];
    if (next && node(next).x) {
      status.textContent += "  \u2014 next " + node(next).t + ": " + node(next).x;
    }
  }

  function moveSpan(id, numbered) {
    var n = node(id);
    var span = el("span", n.x ? "qp-move qp-bad" : "qp-move");
    span.textContent = (numbered || numberOf(id).slice(-1) === "." ? numberOf(id) + " " : "") + n.t + (n.a ? n.a : "");
    span.setAttribute("data-node", id);
    if (n.x) span.title = n.x;
    game.spans[id] = span;
    return span;
  }

  // Variations are set in boxes one inside another down to this depth;
  // deeper ones sit in brackets beside their parent's moves, so that the
  // page's tree of elements stays shallow (a browser lays out and finds
  // clicks in it by recursion) however deep the record nests.
  var NESTED_BOXES = 8;

  // A line from `id` on: each move, then its alternatives in brackets, then
  // the main continuation. Variations are written from a list of work left
  // to do, not by calling itself: a record nested thousands of levels deep
  // shows whole.
  function line(into, id, numbered) {
    var work = [{ into: into, before: null, id: id, numbered: numbered, depth: 0 }];
    while (work.length) writeLine(work.pop(), work);
  }

  // The moves of one line, put into `task.into` before `task.before` (at
  // its end when null). Each variation's brackets are placed at once and
  // its moves written later, from `work`, between them.
  function writeLine(task, work) {
    var into = task.into, before = task.before, id = task.id, numbered = task.numbered;
    var later = [];
    function put(child) {
      into.insertBefore(child, before);
    }
    while (id) {
      var n = node(id);
      if (n.b) put(el("span", "qp-note", n.b));
      put(moveSpan(id, numbered));
      numbered = false;
      if (n.x) {
        var stop = "\u2717 " + n.x + (n.k ? " (" + n.k + (n.k === 1 ? " more move" : " more moves") + " not shown)" : "");
        put(el("span", "qp-stop", stop));
      }
      if (n.c) {
        put(el("span", "qp-note", n.c));
        numbered = true;
      }
      var siblings = game.kids[n.p];
      if (siblings[0] === id) {
        for (var i = 1; i < siblings.length; i++) {
          var box = into;
          if (task.depth < NESTED_BOXES) {
            box = el("span", "qp-var");
            put(box);
          }
          var open = el("span", "qp-bracket", "(");
          var close = el("span", "qp-bracket", ")");
          if (box === into) {
            put(open);
            put(close);
          } else {
            box.appendChild(open);
            box.appendChild(close);
          }
          later.push({ into: box, before: close, id: siblings[i], numbered: true, depth: task.depth + 1 });
          numbered = true;
        }
      }
      if (n.x) break;
      id = game.kids[id][0];
    }
    // The first variation met is written first (the list gives the last
    // pushed first).
    for (var k = later.length - 1; k >= 0; k--) work.push(later[k]);
  }

  function showTags(data) {
    while (tagsBox.firstChild) tagsBox.removeChild(tagsBox.firstChild);
    data.tags.forEach(function (tag) {
      var row = el("tr");
      row.appendChild(el("th", null, tag[0]));
      row.appendChild(el("td", null, tag[1]));
      tagsBox.appendChild(row);
    });
  }

  function stopPlaying() {
    if (timer === null) return;
    clearInterval(timer);
    timer = null;
    playButton.textContent = "\u25b7 play";
    playButton.setAttribute("aria-label", "play");
    playButton.setAttribute("aria-pressed", "false");
  }

  // The next move of the line shown, if it replays.
  function nextOf(id) {
    var next = game.kids[id][0];
    return next && !node(next).x ? next : 0;
  }

  function play() {
    if (!game || timer !== null) return;
    if (!nextOf(current)) return;
    playButton.textContent = "\u2016 pause";
    playButton.setAttribute("aria-label", "pause");
    playButton.setAttribute("aria-pressed", "true");
    timer = setInterval(function () {
      var next = nextOf(current);
      if (next) go(next);
      if (!next || !nextOf(next)) stopPlaying();
    }, PLAY_MS);
  }

  function load(index) {
    stopPlaying();
    var data = JSON.parse(sources[index].textContent);
    var kids = [[]];
    data.nodes.forEach(function (n, i) {
      kids.push([]);
      kids[n.p].push(i + 1);
    });
    game = { data: data, kids: kids, spans: [] };
    showTags(data);
    errorBox.textContent = data.error ? "\u26a0 " + data.error : "";
    errorBox.hidden = !data.error;
    while (movesBox.firstChild) movesBox.removeChild(movesBox.firstChild);
    var start = el("span", "qp-move qp-start", "\u5f00\u5c40");
    start.setAttribute("data-node", 0);
    game.spans[0] = start;
    movesBox.appendChild(start);
    if (data.comment) movesBox.appendChild(el("span", "qp-note", data.comment));
    if (kids[0].length) {
      var first = kids[0][0];
      line(movesBox, first, true);
    }
    if (data.result) movesBox.appendChild(el("span", "qp-result", data.result));
    current = 0;
    go(0);
  }

  function step(key) {
    if (!game) return false;
    if (key === "p") {
      if (timer === null) play();
      else stopPlaying();
      return true;
    }
    var id = current;
    if (key === "ArrowRight") {
      var next = game.kids[id][0];
      if (next && !node(next).x) go(next);
    } else if (key === "ArrowLeft") {
      if (id > 0) go(node(id).p);
    } else if (key === "Home") {
      go(0);
    } else if (key === "End") {
      for (;;) {
        var n = game.kids[id][0];
        if (!n || node(n).x) break;
        id = n;
      }
      go(id);
    } else {
      return false;
    }
    stopPlaying();
    return true;
  }

  movesBox.addEventListener("click", function (e) {
    var t = e.target.closest ? e.target.closest("[data-node]") : null;
    if (!t) return;
    var id = parseInt(t.getAttribute("data-node"), 10);
    stopPlaying();
    // A move that does not replay shows the position it stops in.
    go(id > 0 && node(id).x ? node(id).p : id);
  });
  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.target === chooser && (e.key === "ArrowUp" || e.key === "ArrowDown")) return;
    // Typing in a text box (the search, the FEN) is not a command.
    if (e.target && e.target.tagName === "INPUT") return;
    if (step(e.key)) e.preventDefault();
  });
  document.querySelectorAll("button[data-key]").forEach(function (b) {
    b.addEventListener("click", function () {
      step(b.getAttribute("data-key"));
    });
  });
  playButton.addEventListener("click", function () {
    step("p");
  });
  document.getElementById("qp-main").addEventListener("click", function () {
    stopPlaying();
    go(branchPoint(current));
  });
  document.getElementById("qp-copy").addEventListener("click", function () {
    var fen = fenBox.value;
    function fallback() {
      // No clipboard (a page opened from a file, an old browser): select the
      // FEN for the reader to copy.
      fenBox.focus();
      fenBox.select();
      var done = false;
      try {
        done = document.execCommand("copy");
      } catch (err) {
        done = false;
      }
      copied.textContent = done ? "copied" : "selected: press Ctrl+C to copy";
    }
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(fen).then(function () {
        copied.textContent = "copied";
      }, fallback);
    } else {
      fallback();
    }
  });
  // The search box: case-insensitive substring matching over each game's
  // name and tag values, full-width ASCII read as ASCII.
  function folded(text) {
    return text
      .replace(/[\uff01-\uff5e]/g, function (c) {
        return String.fromCharCode(c.charCodeAt(0) - 0xfee0);
      })
      .replace(/\u3000/g, " ")
      .toLowerCase();
  }
  if (search && chooser) {
    // Each game's name and tag values; only the tags of its data are read
    // (they come first, up to `],"result":`, which no escaped value holds).
    var haystacks = Array.prototype.map.call(chooser.options, function (o, i) {
      var text = sources[i].textContent;
      var end = text.indexOf('],"result":');
      var values = [];
      try {
        values = JSON.parse(text.slice(0, end) + "]}").tags.map(function (t) {
          return t[1];
        });
      } catch (err) {
        values = [];
      }
      return folded(o.textContent + "\n" + values.join("\n"));
    });
    search.addEventListener("input", function () {
      var words = folded(search.value).trim().split(/\s+/).filter(Boolean);
      var shown = 0;
      var first = -1;
      Array.prototype.forEach.call(chooser.options, function (o, i) {
        var hit = words.every(function (w) {
          return haystacks[i].indexOf(w) >= 0;
        });
        o.hidden = !hit;
        if (hit) {
          shown++;
          if (first < 0) first = i;
        }
      });
      found.textContent = words.length ? shown + " of " + chooser.options.length + " games" : "";
      // The game shown stays until a match is chosen; the first match is
      // offered when the game shown does not match.
      if (first >= 0 && chooser.options[chooser.selectedIndex].hidden) {
        chooser.selectedIndex = first;
        load(first);
      }
    });
  }
  document.getElementById("qp-flip").addEventListener("click", function () {
    // The other orientation's frame waits in a <template>: swap them.
    var shown = box.querySelector("svg");
    var waiting = other.content.querySelector("svg");
    other.content.appendChild(shown);
    box.appendChild(waiting);
    drawBoard();
  });
  if (chooser) {
    chooser.addEventListener("change", function () {
      load(chooser.selectedIndex);
      chooser.blur();
    });
  }
  if (sources.length) {
    load(0);
  } else {
    status.textContent = "no game";
  }
})();
