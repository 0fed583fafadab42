// Drives a qipu viewer page in headless Chromium and checks the board AS
// SHOWN: the <use> elements of #qp-pieces, their x and y mapped back to
// points through the frame's geometry, make a FEN placement that must be the
// one `qipu fen` gives for the ply reached.
//
// node html-viewer-check.mjs PAGE.html EXPECTED.json SCREENSHOT.png
// EXPECTED.json: {"main": [placement at ply 0, 1, ...], "variation": placement,
// "nested": placement, "stopped": placement}
// playwright-core is found in $PLAYWRIGHT_DIR (its node_modules' parent).

import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import path from "node:path";

const [pagePath, expectedPath, shot] = process.argv.slice(2);
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
  const page = await browser.newPage({ viewport: { width: 1100, height: 720 } });
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("request", (r) => {
    if (!r.url().startsWith("file:")) errors.push("fetched " + r.url());
  });
  await page.goto(pathToFileURL(path.resolve(pagePath)).href);
  check("ply 0 (start)", await page.evaluate(shown), expected.main[0]);
  let ply = 0;
  for (const n of [10, 37]) {
    for (; ply < n; ply++) await page.keyboard.press("ArrowRight");
    check(`ArrowRight x${n}: ply ${n}`, await page.evaluate(shown), expected.main[n]);
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
  // Flipped: the same placement, read through the flipped geometry.
  await page.locator("#qp-flip").click();
  check("flipped", await page.evaluate(shown), expected.nestedBefore);
  await page.locator("#qp-flip").click();
  // The second game stops at its illegal move.
  await page.selectOption("#qp-games", { index: 1 });
  await page.keyboard.press("End");
  check("game 2, End: the last move that replays", await page.evaluate(shown), expected.stopped);
  const stop = await page.locator(".qp-stop").textContent();
  check("game 2 marks where it stops", stop.includes("no Red piece on h4"), true);
  await page.screenshot({ path: shot.replace(/\.png$/, "-stopped.png") });
  check("no script error, nothing fetched", errors.join("; "), "");
} finally {
  await browser.close();
}
if (failures.length) {
  console.log(`${failures.length} check(s) failed`);
  process.exit(1);
}
console.log("all checks passed");
