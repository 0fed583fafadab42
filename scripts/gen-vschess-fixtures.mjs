// Writes the 鹏飞 PFC and 广东象棋网 DHJHtmlXQ fixtures with vschess, an
// independent program, and checks them by reading them back with it.
//
//   node scripts/gen-vschess-fixtures.mjs VSCHESS_FUNCTION_JS GAMES.dhtmlxq OUT_DIR [QIPU_PFC_DIR]
//
// VSCHESS_FUNCTION_JS is vschess's function library (`vschess/vschess.function.js`
// of FastLight126/vschess), loaded as it is: nothing of it is copied here.
// GAMES.dhtmlxq holds the source games as DhtmlXQ blocks (vschess's PGN reader
// drops variations; its DhtmlXQ reader keeps them). For game K (from 1) this
// writes OUT_DIR/game-K.pfc (vschess's PFC exporter, `nodeToData_PengFei`) and
// OUT_DIR/game-K.dhj.txt (its DHJHtmlXQ exporter, `nodeToData_DHJHtmlXQ`, which
// writes the main line and its comments), then reads each back with vschess's
// own reader of that format and fails unless the moves and comments are those
// of the source game. With QIPU_PFC_DIR, the PFC files qipu wrote there from
// the same games (`qipu convert --to pfc`, source-K.pfc) are read with
// vschess's PFC reader too, and must hold the same moves, comments, start
// and fields.

import { createRequire } from "node:module";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const [vschessPath, sourcePath, outDir, qipuPfcDir] = process.argv.slice(2);
if (!outDir) {
  console.error("usage: gen-vschess-fixtures.mjs VSCHESS_FUNCTION_JS GAMES.dhtmlxq OUT_DIR");
  process.exit(2);
}

const require = createRequire(import.meta.url);
const vschess = require(path.resolve(vschessPath));

// vschess reads PFC through jQuery (`$(html)`, `.attr`, `.children("div")`,
// `.each`), after turning `<n …>` into `<div …>`. This stand-in parses that
// markup into elements with those four operations, and nothing more.
function decodeEntities(text) {
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|quot|amp|lt|gt|apos);/g, (_, e) => {
    if (e[0] === "#") {
      return String.fromCodePoint(e[1] === "x" ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10));
    }
    return { quot: '"', amp: "&", lt: "<", gt: ">", apos: "'" }[e];
  });
}

function parseMarkup(html) {
  const root = { name: "#root", attrs: {}, children: [] };
  const stack = [root];
  const tag = /<(\/?)([A-Za-z][\w-]*)((?:\s+[^\s=>]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+))?)*)\s*(\/?)>/g;
  const attr = /([^\s=>]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g;
  let m;
  while ((m = tag.exec(html))) {
    const [, closing, name, attrText, selfClosing] = m;
    if (closing) {
      if (stack.length > 1) stack.pop();
      continue;
    }
    const element = { name: name.toLowerCase(), attrs: {}, children: [] };
    let a;
    attr.lastIndex = 0;
    while ((a = attr.exec(attrText))) {
      element.attrs[a[1].toLowerCase()] = decodeEntities(a[2] ?? a[3] ?? a[4] ?? "");
    }
    stack[stack.length - 1].children.push(element);
    if (!selfClosing) stack.push(element);
  }
  return root.children;
}

function wrap(elements) {
  return {
    length: elements.length,
    attr: (name) => (elements[0] ? elements[0].attrs[name.toLowerCase()] : undefined),
    children: (selector) => wrap(elements.flatMap((e) => e.children.filter((c) => c.name === selector))),
    each(fn) {
      elements.forEach((e, i) => fn.call(e, i, e));
      return this;
    },
  };
}

globalThis.$ = (input) => (typeof input === "string" ? wrap(parseMarkup(input)) : wrap([input]));

// The moves and comments of a vschess node tree, as one comparable text:
// each node's move and comment, its children in order, depth first.
function treeText(node, mainLineOnly) {
  const out = [];
  // The main line is long: walked without recursion on it.
  const stack = [[node, 0]];
  while (stack.length) {
    const [n, depth] = stack.pop();
    out.push(`${depth}:${n.move ?? "start"}:${JSON.stringify(n.comment || "")}`);
    const next = mainLineOnly ? n.next.slice(0, 1) : n.next;
    for (let i = next.length - 1; i >= 0; --i) stack.push([next[i], depth + 1]);
  }
  return out.join("\n");
}

function check(what, got, want) {
  if (got !== want) {
    console.error(`${what}: vschess reads back other moves or comments than the source's`);
    console.error(`--- source\n${want}\n--- read back\n${got}`);
    process.exit(1);
  }
}

const source = readFileSync(sourcePath, "utf8");
const blocks = source.match(/\[DhtmlXQ\][\s\S]*?\[\/DhtmlXQ\]/g) || [];
if (blocks.length === 0) {
  console.error(`${sourcePath}: no DhtmlXQ block`);
  process.exit(1);
}

blocks.forEach((block, i) => {
  const name = `game-${i + 1}`;
  const node = vschess.dataToNode(block, "DhtmlXQ");
  const info = vschess.dataToInfo(block, "DhtmlXQ");
  const result = info.result || "*";

  // PFC: vschess's exporter, read back by vschess's PFC reader.
  const pfc = vschess.nodeToData_PengFei(node, info, result);
  const pfcBack = vschess.dataToNode(pfc, "pfc");
  check(`${name}.pfc`, treeText(pfcBack, false), treeText(node, false));
  if (pfcBack.fen !== node.fen) {
    console.error(`${name}.pfc: start ${pfcBack.fen}, not ${node.fen}`);
    process.exit(1);
  }
  writeFileSync(path.join(outDir, `${name}.pfc`), pfc + "\n");

  // DHJHtmlXQ: vschess's exporter (the main line and its comments), read
  // back by vschess's DHJHtmlXQ reader.
  const dhj = vschess.nodeToData_DHJHtmlXQ(node, info);
  const dhjBack = vschess.dataToNode(dhj, "DHJHtmlXQ");
  check(`${name}.dhj.txt`, treeText(dhjBack, true), treeText(node, true));
  const board = (fen) => fen.split(" ").slice(0, 2).join(" ");
  if (board(dhjBack.fen) !== board(node.fen)) {
    console.error(`${name}.dhj.txt: start ${dhjBack.fen}, not ${node.fen}`);
    process.exit(1);
  }
  writeFileSync(path.join(outDir, `${name}.dhj.txt`), dhj + "\n");
  console.log(`${name}: .pfc and .dhj.txt written and read back by vschess ${vschess.version}`);

  if (qipuPfcDir) {
    const written = path.join(qipuPfcDir, `source-${i + 1}.pfc`);
    const text = readFileSync(written, "utf8");
    const back = vschess.dataToNode(text, "pfc");
    check(written, treeText(back, false), treeText(node, false));
    if (back.fen !== node.fen) {
      console.error(`${written}: start ${back.fen}, not ${node.fen}`);
      process.exit(1);
    }
    const fields = vschess.dataToInfo(text, "pfc");
    for (const key of ["event", "red", "black", "round"]) {
      if ((fields[key] || "") !== (info[key] || "")) {
        console.error(`${written}: ${key} "${fields[key]}", not "${info[key]}"`);
        process.exit(1);
      }
    }
    console.log(`${written}: qipu's PFC read by vschess as the source game`);
  }
});
