// Drives a qipu explorer page (`qipu explore INDEX --format html`) in
// headless Chromium and checks the board AS SHOWN: the <use> elements of
// #qp-pieces, their x and y mapped back to points through the frame's
// geometry, make a FEN placement that must be the one `qipu explore
// --format json` gives for the position reached; and the table's rows (move,
// games) against the same answer.
//
// QIPU=qipu node html-explorer-check.mjs PAGE.html INDEX SCREENSHOT.png
// playwright-core is found in $PLAYWRIGHT_DIR (its node_modules' parent).

import { createRequire } from "node:module";
import { execFileSync } from "node:child_process";
import { pathToFileURL } from "node:url";
import path from "node:path";

const [pagePath, index, shot] = process.argv.slice(2);
const require = createRequire(path.join(process.env.PLAYWRIGHT_DIR || process.cwd(), "x.js"));
const { chromium } = require("playwright-core");
const qipu = process.env.QIPU || "qipu";

// What `qipu explore` answers for the position after `moves` (none: the start).
function explore(moves) {
  const args = ["explore", index, "--format", "json"];
  if (moves.length) args.push("--moves", moves.join(" "));
  return JSON.parse(execFileSync(qipu, args, { encoding: "utf8" }));
}
const placement = (fen) => fen.split(" ")[0];

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
    let file = Math.round((parseFloat(use.getAttribute("x")) - x0) / step);
    let rank = 9 - Math.round((parseFloat(use.getAttribute("y")) - y0) / step);
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

// The table as shown: [move, games] a row.
const table = () =>
  Array.from(document.querySelectorAll("#qp-table tbody tr"), (tr) => {
    const cells = tr.querySelectorAll("td");
    return [cells[0].textContent, Number(cells[1].textContent)];
  });

const failures = [];
function check(what, got, want) {
  const [g, w] = [JSON.stringify(got), JSON.stringify(want)];
  const ok = g === w;
  console.log(`${ok ? "ok  " : "FAIL"} ${what}${ok ? "" : `: shown ${g}, qipu ${w}`}`);
  if (!ok) failures.push(what);
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
});
try {
  const page = await (await browser.newContext({ viewport: { width: 1200, height: 760 } })).newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("request", (r) => {
    if (!r.url().startsWith("file:")) errors.push("fetched " + r.url());
  });
  await page.goto(pathToFileURL(path.resolve(pagePath)).href);
  const root = explore([]);
  const rows = (answer) => answer.moves.map((m) => [m.move, m.games]);
  const atRoot = async (what) => {
    check(`${what}: the board`, await page.evaluate(shown), placement(root.fen));
    check(`${what}: the FEN shown`, await page.inputValue("#qp-fen"), root.fen);
    check(`${what}: the table`, await page.evaluate(table), rows(root));
  };
  await atRoot("the start");
  // The most played move, clicked in the table.
  const first = root.moves[0];
  const child = explore([first.iccs]);
  const atChild = async (what) => {
    check(`${what}: the board`, await page.evaluate(shown), placement(child.fen));
    check(`${what}: the table`, await page.evaluate(table), rows(child));
    check(`${what}: the breadcrumb`, (await page.textContent("#qp-path")).includes(first.move), true);
    check(`${what}: the move marked`, await page.locator("#qp-marks rect").count(), 2);
  };
  await page.locator("#qp-table tbody tr").first().click();
  await atChild(`click on ${first.move}`);
  await page.screenshot({ path: shot });
  // Its most played reply with the keys: ArrowRight plays the row chosen.
  await page.keyboard.press("ArrowRight");
  const grandchild = explore([first.iccs, child.moves[0].iccs]);
  check(`ArrowRight: ${child.moves[0].move}`, await page.evaluate(shown), placement(grandchild.fen));
  await page.keyboard.press("ArrowLeft");
  await atChild("ArrowLeft");
  await page.keyboard.press("ArrowLeft");
  await atRoot("ArrowLeft again");
  await page.keyboard.press("ArrowRight");
  await atChild("ArrowRight");
  await page.locator("#qp-back").click();
  await atRoot("the back button");
  // A move the page does not expand (the nearest to the start, from the
  // page's data): clicked to, its position, its games, and the command line
  // to explore from there.
  const data = await page.evaluate(() => JSON.parse(document.getElementById("qp-explore").textContent));
  const queue = [{ node: 0, rows: [], moves: [] }];
  const seen = new Set([0]);
  let leafWay = null;
  while (queue.length && !leafWay) {
    const at = queue.shift();
    data.nodes[at.node].m.forEach((m, k) => {
      if (leafWay) return;
      const way = { rows: at.rows.concat([k]), moves: at.moves.concat([m.i]), text: m.t };
      if (m.c === undefined) leafWay = way;
      else if (!seen.has(m.c)) {
        seen.add(m.c);
        queue.push({ node: m.c, rows: way.rows, moves: way.moves });
      }
    });
  }
  check("the page holds a move it does not expand", leafWay !== null, true);
  const leaf = explore(leafWay.moves);
  for (const k of leafWay.rows) await page.locator("#qp-table tbody tr").nth(k).click();
  const what = `${leafWay.moves.join(" ")} (not expanded)`;
  check(`${what}: the board`, await page.evaluate(shown), placement(leaf.fen));
  check(`${what}: said so`, await page.locator("#qp-unexpanded").isVisible(), true);
  const command = await page.textContent("#qp-unexpanded code");
  check(`${what}: the command line`, command.startsWith("qipu explore ") && command.includes(placement(leaf.fen)), true);
  check(`${what}: its games`, (await page.textContent("#qp-summary")).startsWith(`${leaf.games} game`), true);
  check(`${what}: no table`, await page.evaluate(table), []);
  check(`${what}: the breadcrumb`, await page.locator("#qp-path a").count(), leafWay.rows.length);
  // Back through the breadcrumb's first link.
  await page.locator("#qp-path a").first().click();
  await atRoot("the breadcrumb's start");
  check("no script error, nothing fetched", errors.join("; "), "");
} finally {
  await browser.close();
}
if (failures.length) {
  console.log(`${failures.length} check(s) failed`);
  process.exit(1);
}
console.log("all checks passed");
