// Drives a qipu viewer page in headless Chromium and checks the board AS
// SHOWN: the <use> elements of #qp-pieces, their x and y mapped back to
// points through the frame's geometry, make a FEN placement that must be the
// one `qipu fen` gives for the ply reached.
//
// node html-viewer-check.mjs PAGE.html EXPECTED.json SCREENSHOT.png [DEEP.html N]
// (DEEP.html: a game whose N variations are nested one in another)
// EXPECTED.json: {"main": [placement at ply 0, 1, ...], "mainFen": [the whole
// FEN at ply 0, 1, ...], "variation": placement, "nested": placement,
// "nestedBefore": placement, "nestedBeforeFen": FEN, "stopped": placement}
// Besides the board: the FEN field under it (all six fields) and its copy
// button, the variation marker, autoplay (one move a second) and the search
// box over the games.
// playwright-core is found in $PLAYWRIGHT_DIR (its node_modules' parent).

import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import path from "node:path";

const [pagePath, expectedPath, shot, deepPath, deepCount] = process.argv.slice(2);
const require = createRequire(path.join(process.env.PLAYWRIGHT_DIR || process.cwd(), "x.js"));
const { chromium } = require("playwright-core");
const expected = JSON.parse(readFileSync(expectedPath, "utf8"));

// The placement the board shows: each <use> back to its point.
function shown() {
  const svg = document.querySelector("#qp-board svg");
  const x0 = parseFloat(svg.getAttribute("data-x0"));
  const y0 = parseFloat(svg.getAttribute("data-y0"));
  const step = parseFloat(svg.getAttribute("data-step"));
  const flip = svg.getAttribute("data-flip") === "1";
  const board = Array.from({ length: 10 }, () => Array(9).fill(null));
  for (const use of svg.querySelectorAll("#qp-pieces use")) {
    const href = use.getAttribute("href") || use.getAttribute("xlink:href");
    const x = parseFloat(use.getAttribute("x"));
    const y = parseFloat(use.getAttribute("y"));
    let file = Math.round((x - x0) / step);
    let rank = 9 - Math.round((y - y0) / step);
    if (flip) {
      file = 8 - file;
      rank = 9 - rank;
    }
    if (file < 0 || file > 8 || rank < 0 || rank > 9) return "off the board: " + href;
    if (board[rank][file]) return "two pieces on one point";
    board[rank][file] = href.replace("#qp-", "");
  }
  const rows = [];
  for (let rank = 9; rank >= 0; rank--) {
    let row = "";
    let empty = 0;
    for (let file = 0; file < 9; file++) {
      const p = board[rank][file];
      if (!p) {
        empty++;
        continue;
      }
      if (empty) row += empty;
      empty = 0;
      row += p;
    }
    if (empty) row += empty;
    rows.push(row);
  }
  return rows.join("/");
}

const failures = [];
function check(what, got, want) {
  const ok = got === want;
  console.log(`${ok ? "ok  " : "FAIL"} ${what}${ok ? "" : `: shown ${got}, qipu fen ${want}`}`);
  if (!ok) failures.push(what);
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
  ],
});
try {
  const context = await browser.newContext({
    viewport: { width: 1100, height: 720 },
    permissions: ["clipboard-read", "clipboard-write"],
  });
  const page = await context.newPage();
  const fenShown = () => page.inputValue("#qp-fen");
  const marked = () => page.locator("#qp-in-var").isVisible();
  const playing = async () => (await page.getAttribute("#qp-play", "aria-pressed")) === "true";
  const blur = () => page.evaluate(() => document.activeElement && document.activeElement.blur());
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("request", (r) => {
    if (!r.url().startsWith("file:")) errors.push("fetched " + r.url());
  });
  await page.goto(pathToFileURL(path.resolve(pagePath)).href);
  check("ply 0 (start)", await page.evaluate(shown), expected.main[0]);
  check("ply 0: the FEN shown", await fenShown(), expected.mainFen[0]);
  check("ply 0: no variation marker", await marked(), false);
  let ply = 0;
  for (const n of [10, 37]) {
    for (; ply < n; ply++) await page.keyboard.press("ArrowRight");
    check(`ArrowRight x${n}: ply ${n}`, await page.evaluate(shown), expected.main[n]);
    check(`ArrowRight x${n}: the FEN shown`, await fenShown(), expected.mainFen[n]);
  }
  await page.screenshot({ path: shot });
  await page.keyboard.press("ArrowLeft");
  check("ArrowLeft: ply 36", await page.evaluate(shown), expected.main[36]);
  await page.keyboard.press("End");
  check("End: the last ply", await page.evaluate(shown), expected.main[expected.main.length - 1]);
  await page.keyboard.press("Home");
  check("Home: the start", await page.evaluate(shown), expected.main[0]);
  // The last move of the first variation, and of the one inside it.
  await page.locator("#qp-moves > .qp-var > .qp-move").last().click();
  check("click on 2… 马８进７ of the variation", await page.evaluate(shown), expected.variation);
  await page.locator("#qp-moves > .qp-var > .qp-var > .qp-move").last().click();
  check("click on 2… 马８进７ of the nested variation", await page.evaluate(shown), expected.nested);
  const current = await page.locator(".qp-current").textContent();
  check("the move clicked is highlighted", current.trim(), "马８进７");
  await page.keyboard.press("ArrowLeft");
  check("ArrowLeft in the variation: back to 2. 马八进七", await page.evaluate(shown), expected.nestedBefore);
  check("in the variation: the FEN shown", await fenShown(), expected.nestedBeforeFen);
  check("in the variation: the marker shows", await marked(), true);
  // Flipped: the same placement, read through the flipped geometry.
  await page.locator("#qp-flip").click();
  check("flipped", await page.evaluate(shown), expected.nestedBefore);
  await page.locator("#qp-flip").click();
  // Back to the main line: where the outer variation leaves it (ply 1).
  await page.locator("#qp-main").click();
  check("↩ main line: ply 1", await page.evaluate(shown), expected.main[1]);
  check("↩ main line: the marker is gone", await marked(), false);
  check("↩ main line: the FEN shown", await fenShown(), expected.mainFen[1]);
  // Copy: the clipboard holds the FEN shown (else the fallback selected it).
  await page.locator("#qp-copy").click();
  await page.waitForFunction(() => document.getElementById("qp-copied").textContent !== "");
  const said = await page.textContent("#qp-copied");
  if (said === "copied") {
    const clip = await page.evaluate(() => navigator.clipboard.readText());
    check("copy: the clipboard holds the FEN", clip, expected.mainFen[1]);
  } else {
    const selected = await page.evaluate(() => {
      const f = document.getElementById("qp-fen");
      return f.value.slice(f.selectionStart, f.selectionEnd);
    });
    check(`copy without a clipboard (${said}): the FEN is selected`, selected, expected.mainFen[1]);
  }
  await blur();
  // Autoplay from two plies before the end: one move a second, then it stops.
  const last = expected.main.length - 1;
  await page.keyboard.press("End");
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.press("ArrowLeft");
  await page.locator("#qp-play").click();
  check("autoplay: the button says it plays", await playing(), true);
  await page.waitForTimeout(1400);
  check(`autoplay, 1.4 s: ply ${last - 1}`, await page.evaluate(shown), expected.main[last - 1]);
  check(`autoplay, 1.4 s: the FEN shown`, await fenShown(), expected.mainFen[last - 1]);
  await page.waitForTimeout(1000);
  check(`autoplay, 2.4 s: ply ${last}, the end`, await page.evaluate(shown), expected.main[last]);
  check("autoplay stops at the end of the line", await playing(), false);
  await page.waitForTimeout(1100);
  check("after the end: still the last ply", await page.evaluate(shown), expected.main[last]);
  // The key p starts it; a step by hand stops it.
  await blur();
  await page.keyboard.press("Home");
  await page.keyboard.press("p");
  check("p: autoplay", await playing(), true);
  await page.waitForTimeout(1300);
  check("p, 1.3 s: ply 1", await page.evaluate(shown), expected.main[1]);
  await page.keyboard.press("ArrowRight");
  check("ArrowRight stops autoplay", await playing(), false);
  await page.waitForTimeout(1300);
  check("stopped: still ply 2", await page.evaluate(shown), expected.main[2]);
  // The search box: case-insensitive, full-width ASCII read as ASCII, every
  // word must match; the tags' values count, not only the names shown.
  const hidden = () => page.evaluate(() => Array.from(document.querySelectorAll("#qp-games option"), (o) => o.hidden));
  await page.fill("#qp-search", "wang");
  check("search wang: game 1 hidden, game 2 shown", JSON.stringify(await hidden()), "[true,false]");
  check("search wang: the match is shown", await page.evaluate(() => document.getElementById("qp-games").selectedIndex), 1);
  await page.fill("#qp-search", "ＷＡＮＧ");
  check("search ＷＡＮＧ (full width)", JSON.stringify(await hidden()), "[true,false]");
  await page.fill("#qp-search", "hu 1989");
  check("search hu 1989", JSON.stringify(await hidden()), "[false,true]");
  await page.fill("#qp-search", "ronghua");
  check("search ronghua: both", JSON.stringify(await hidden()), "[false,false]");
  await page.fill("#qp-search", "");
  check("search cleared: both", JSON.stringify(await hidden()), "[false,false]");
  await blur();
  // The second game stops at its illegal move.
  await page.selectOption("#qp-games", { index: 1 });
  await page.keyboard.press("End");
  check("game 2, End: the last move that replays", await page.evaluate(shown), expected.stopped);
  const stop = await page.locator(".qp-stop").textContent();
  check("game 2 marks where it stops", stop.includes("no Red piece on h4"), true);
  await page.screenshot({ path: shot.replace(/\.png$/, "-stopped.png") });
  check("no script error, nothing fetched", errors.join("; "), "");
  // A game of variations nested thousands deep is shown whole: every
  // variation in its brackets, the deepest one's moves clickable.
  if (deepPath) {
    const deep = await context.newPage();
    const deepErrors = [];
    deep.on("pageerror", (e) => deepErrors.push(String(e)));
    await deep.goto(pathToFileURL(deepPath).href);
    const counts = await deep.evaluate(() => {
      const box = document.getElementById("qp-moves");
      let deepest = 0;
      for (const e of box.querySelectorAll("*")) {
        let d = 0;
        for (let p = e; p !== box; p = p.parentElement) d++;
        deepest = Math.max(deepest, d);
      }
      return [
        [...box.querySelectorAll(".qp-bracket")].filter((b) => b.textContent === "(").length,
        box.querySelectorAll(".qp-move").length,
        [...box.querySelectorAll(".qp-bracket")].map((b) => b.textContent).join(""),
        deepest,
      ];
    });
    const n = Number(deepCount);
    check("deep: every variation shown", counts[0], n);
    check("deep: every move shown (and the start)", counts[1], 2 * n + 3);
    check("deep: each bracket closed after those it holds", counts[2], "(".repeat(n) + ")".repeat(n));
    check("deep: the page's elements nest shallow", counts[3] <= 12, true);
    await deep.locator("#qp-moves .qp-move").last().click();
    const badge = await deep.evaluate(() => !document.getElementById("qp-in-var").hidden);
    check("deep: the deepest move shows, in a variation", badge, true);
    check("deep: no script error", deepErrors.join("; "), "");
  }
} finally {
  await browser.close();
}
if (failures.length) {
  console.log(`${failures.length} check(s) failed`);
  process.exit(1);
}
console.log("all checks passed");
