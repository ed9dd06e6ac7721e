"""Benchmark: the first move from the empty board by alpha-beta and minimax, beside 001's C.

001 reports, in C: alpha-beta 900 us and 18,000 states for the first move; negamax without pruning
30 ms and 549,946 states. Those machines are gone, so besides quoting them we compile a small C
program that does what 001 describes (negamax with alpha-beta on a 9-cell array, a global state
counter, ``getMove`` narrowing the window) and time it in the same run: the ratio Python / C is
then measured on one machine. The C program must count the same states as ours (checked).

Target: alpha-beta first move under 50 ms in Python. Figures are the best of several runs
(``min``) and the median, wall clock and CPU time (the process's own: steadier on a shared
machine); the same-run ratios use CPU time.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from minttt.game.rules import Board  # noqa: E402
from minttt.play.search import SOURCE_001, search  # noqa: E402

C_SOURCE = r"""
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static const int LINES[8][3] = {{0,1,2},{3,4,5},{6,7,8},{0,3,6},{1,4,7},{2,5,8},{0,4,8},{2,4,6}};
static long states;
static int winner(const char *b) {
    for (int i = 0; i < 8; i++) {
        char a = b[LINES[i][0]];
        if (a && a == b[LINES[i][1]] && a == b[LINES[i][2]]) return a;
    }
    return 0;
}
/* value for the player to move (1 or 2); fail-soft negamax, pruning when prune != 0 */
static int negamax(char *b, int player, int alpha, int beta, int prune) {
    states++;
    int w = winner(b);
    if (w) return w == player ? 1 : -1;
    int best = -2, moved = 0;
    for (int c = 0; c < 9; c++) {
        if (b[c]) continue;
        moved = 1;
        b[c] = (char)player;
        int v = -negamax(b, 3 - player, -beta, -alpha, prune);
        b[c] = 0;
        if (v > best) best = v;
        if (v > alpha) alpha = v;
        if (prune && alpha >= beta) break;
    }
    return moved ? best : 0;
}
static int get_move(char *b, int player, int prune) {
    int best = -2, move = -1, alpha = -2;
    for (int c = 0; c < 9; c++) {
        if (b[c]) continue;
        b[c] = (char)player;
        int v = -negamax(b, 3 - player, -2, -alpha, prune);
        b[c] = 0;
        if (v > best) { best = v; move = c; }
        if (v > alpha) alpha = v;
    }
    return move;
}
int main(int argc, char **argv) {
    int prune = atoi(argv[1]), reps = atoi(argv[2]);
    char b[9] = {0};
    struct timespec t0, t1, c0, c1;
    int move = -1;
    double best = 1e9, best_cpu = 1e9;
    for (int r = 0; r < reps; r++) {
        states = 0;
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
        clock_gettime(CLOCK_MONOTONIC, &t0);
        move = get_move(b, 1, prune);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
        double s = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;
        double c = (c1.tv_sec - c0.tv_sec) + (c1.tv_nsec - c0.tv_nsec) * 1e-9;
        if (s < best) best = s;
        if (c < best_cpu) best_cpu = c;
    }
    printf("%d %ld %.9f %.9f\n", move, states, best, best_cpu);
    return 0;
}
"""


def _c_baseline() -> dict[str, Any] | None:
    """Compile and time 001's algorithm in C (gcc -O2); None when no C compiler is present."""
    cc = shutil.which("gcc") or shutil.which("cc")
    if cc is None:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        src, exe = Path(tmp) / "ttt.c", Path(tmp) / "ttt"
        src.write_text(C_SOURCE)
        subprocess.run([cc, "-O2", "-o", str(exe), str(src)], check=True)
        out = {}
        for key, prune, reps in (("alphabeta", 1, 200), ("negamax", 0, 10)):
            move, states, seconds, cpu = subprocess.run(
                [str(exe), str(prune), str(reps)], check=True, capture_output=True, text=True
            ).stdout.split()
            out[key] = {
                "move": int(move),
                "states": int(states),
                "seconds_min": float(seconds),
                "cpu_seconds_min": float(cpu),
            }
        out["compiler"] = f"{Path(cc).name} -O2"
        return out


def _time(algorithm: str, ordering: bool, repeats: int) -> dict[str, Any]:
    board = Board.empty()
    results, cpu = [], []
    for _ in range(repeats):
        start = time.process_time()
        results.append(search(board, algorithm, ordering))
        cpu.append(time.process_time() - start)
    seconds = [r.seconds for r in results]
    return {
        "move": results[0].move,
        "value": results[0].value,
        "states": results[0].states,
        "states_with_root": results[0].states + 1,
        "seconds_min": min(seconds),
        "seconds_median": statistics.median(seconds),
        "cpu_seconds_min": min(cpu),
        "repeats": repeats,
    }


def run() -> dict[str, Any]:
    start = time.perf_counter()
    alphabeta = _time("alphabeta", False, 30)
    ordered = _time("alphabeta", True, 30)
    minimax = _time("minimax", False, 3)
    negamax = _time("negamax", False, 3)
    c = _c_baseline()
    out: dict[str, Any] = {
        "what": "first move from the empty board; states = positions visited below the root",
        "alphabeta": alphabeta,
        "alphabeta_ordered": ordered,
        "minimax": minimax,
        "negamax": negamax,
        "target_alphabeta_seconds": 0.050,
        "alphabeta_under_target": alphabeta["seconds_min"] < 0.050,
        "load_average_1min": os.getloadavg()[0],
        "source_001": {
            "alphabeta_states": SOURCE_001["alphabeta_states_first_move"],
            "alphabeta_seconds_c": SOURCE_001["alphabeta_seconds_first_move_c"],
            "minimax_states": SOURCE_001["minimax_states_first_move"],
            "negamax_seconds_c": SOURCE_001["minimax_seconds_first_move_c"],
        },
        "ratio_alphabeta_python_vs_001_c_quoted": alphabeta["seconds_min"]
        / SOURCE_001["alphabeta_seconds_first_move_c"],
        "c_same_run": c,
    }
    if c is not None:
        out["c_states_agree"] = (
            c["alphabeta"]["states"] == alphabeta["states"]
            and c["negamax"]["states"] == negamax["states"]
        )
        # CPU time: fairer than wall time when other jobs share the machine
        out["ratio_alphabeta_python_vs_c_same_run"] = (
            alphabeta["cpu_seconds_min"] / c["alphabeta"]["cpu_seconds_min"]
        )
        out["ratio_negamax_python_vs_c_same_run"] = (
            negamax["cpu_seconds_min"] / c["negamax"]["cpu_seconds_min"]
        )
    out["bench_seconds"] = time.perf_counter() - start
    return out


if __name__ == "__main__":
    import json

    print(json.dumps(run(), indent=2))
