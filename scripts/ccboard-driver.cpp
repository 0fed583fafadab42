// ccboard-driver: asks chessdb.cn's ccboard (noobpwnftw/chessdb, extensions/ccboard,
// public domain) for its repetition ruling on game records, as an oracle for qipu's
// repetition judge. This file is qipu's own (MIT OR Apache-2.0); ccboard's sources are
// not committed: scripts/build-ccboard.sh extracts xiangqi.cpp and xiangqi.h into
// target/ccboard/src and compiles them with this driver.
//
// Input, one case a line on stdin:   FEN <TAB> move move move ...
// (moves in ICCS coordinates with ranks 0-9, e.g. h2e2; the FEN is the usual 10-rank one).
// Output, one line per input line:
//   none | draw | red-loses check | red-loses chase | black-loses check |
//   black-loses chase | error [reason]
//
// The replay does what ccboard.cpp's ccbrulecheck does with verify = true:
// from_fen, key = pos_key(), then for every move move_is_pseudo and
// pseudo_is_legal(_incheck) before move_do (an illegal move gives `error`).
// Then rep_check(check_times, win_turn, win_flags) is asked once, after the last move.
//
// check_times: rep_check walks back two plies at a time over the history of moves
// without capture, counts the earlier positions with the current key (same side to
// move), and rules when that count reaches check_times (it also returns Rep_None when
// fewer than 4 * check_times plies were played). So check_times = N rules at the
// (N+1)-th occurrence of the current position; ccbrulecheck's default 1 rules at the
// second occurrence. We want the ruling at the THIRD occurrence, so the default here is
// check_times = 2; a different value may be given as the first argument. Checked by
// experiment: a cycle of 4 plies played once (2nd occurrence) gives `none` with 2 and a
// ruling with 1; played twice (3rd occurrence, 8 plies) gives the ruling with 2.
//
// Sides: rep_check returns Rep_Me_Ban when the side to move now broke the rules (it
// loses), Rep_Opp_Ban when the side that just moved did; win_flags is Long_Check_Win
// (perpetual check) or Long_Chase_Win (perpetual chase); Rep_Draw is a draw.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <sstream>
#include <string>

#include "xiangqi.h"

static bool valid_square(const std::string& s, size_t i) {
  return s[i] >= 'a' && s[i] <= 'i' && s[i + 1] >= '0' && s[i + 1] <= '9';
}

static std::string judge(const std::string& line, int check_times) {
  size_t tab = line.find('\t');
  std::string fen = tab == std::string::npos ? line : line.substr(0, tab);
  std::string moves = tab == std::string::npos ? "" : line.substr(tab + 1);
  Position pos;
  if (!pos.from_fen(fen.c_str())) return "error fen";
  pos.key = pos.pos_key();
  std::istringstream in(moves);
  std::string m;
  int ply = 0;
  while (in >> m) {
    ply++;
    if (m.size() != 4 || !valid_square(m, 0) || !valid_square(m, 2))
      return "error move " + std::to_string(ply) + " " + m;
    int move = move_from_string(m.c_str());
    bool ok = pos.move_is_pseudo(move) &&
              (pos.in_check(pos.turn) ? pos.pseudo_is_legal_incheck(move) : pos.pseudo_is_legal(move));
    if (!ok) return "error illegal " + std::to_string(ply) + " " + m;
    pos.move_do(move);
  }
  int win_turn = ColorNone, win_flags = 0;
  int rep = pos.rep_check(check_times, win_turn, win_flags);
  if (rep == Rep_None) return "none";
  if (rep == Rep_Draw) return "draw";
  // The loser is the side that does not win.
  int loser;
  if (rep == Rep_Me_Ban)
    loser = pos.turn;
  else if (rep == Rep_Opp_Ban)
    loser = pos.turn ^ 1;
  else
    return "error rep " + std::to_string(rep);
  if (win_turn != ColorNone && win_turn == loser) return "error win_turn";
  std::string who = loser == White ? "red-loses" : "black-loses";
  std::string kind = win_flags == Long_Check_Win ? "check" : win_flags == Long_Chase_Win ? "chase" : "unknown";
  return who + " " + kind;
}

int main(int argc, char** argv) {
  int check_times = argc > 1 ? std::atoi(argv[1]) : 2;
  init();
  std::string line;
  while (std::getline(std::cin, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    std::cout << judge(line, check_times) << "\n" << std::flush;
  }
  return 0;
}
