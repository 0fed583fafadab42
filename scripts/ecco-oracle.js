// Compares qipu's ECCO codes with xqbase's classifier as vschess implements it, for study.
//
// vschess (LGPL-3.0) is not part of qipu: fetch its classifier yourself, from
// https://github.com/FastLight126/vschess/blob/766813ac6730b63ccd4f0952a7e9b8d0f21bccf4/vschess/develop/module/function.wxfToEcco.js
// Then:
//   cargo run --release --example ecco_wxf -- FILE... > games.tsv
//   node scripts/ecco-oracle.js path/to/function.wxfToEcco.js games.tsv
// Input lines: tag, qipu's code, the first 20 plies in WXF (already mirrored), source.
// Output: the same with xqbase's code inserted third (tag, qipu, xqbase, WXF, source), and a
// summary on standard error.
const fs = require('fs');
const [classifier, games] = process.argv.slice(2);
if (!classifier || !games) {
  console.error('usage: node scripts/ecco-oracle.js function.wxfToEcco.js games.tsv');
  process.exit(2);
}
const vs = {};
eval(fs.readFileSync(classifier, 'utf8'));
let tagged = 0, qipuTag = 0, xqbaseTag = 0, both = 0, all = 0;
for (const line of fs.readFileSync(games, 'utf8').split('\n').filter(Boolean)) {
  const [tag, qipu, wxf, source] = line.split('\t');
  const xqbase = vs.WXF2ECCOIndex(wxf.padEnd(80, ' '));
  console.log([tag, qipu, xqbase, wxf, source].join('\t'));
  all += 1;
  both += qipu === xqbase;
  if (tag !== '-') {
    tagged += 1;
    qipuTag += qipu === tag;
    xqbaseTag += xqbase === tag;
  }
}
console.error(`${all} games: qipu = xqbase on ${both}; of ${tagged} tagged, qipu = tag on ${qipuTag}, xqbase = tag on ${xqbaseTag}`);
