/*
 * minttt play page: tic-tac-toe (and its m,n,k cousins) against a minttt lookup table, with no
 * search at all.
 *
 * The first half is the game core, the same conventions as minttt.game (Python):
 *   cells 0..N-1 row-major from the top left; 0 empty, 1 = X (moves first), 2 = O;
 *   hash = sum(cell[i] * 3**i); canonical hash = minimum hash over the symmetries of the board
 *   (8 for a square, 4 for an oblong board), ties to the lowest transform index. Transform t is
 *   3 bits b2 b1 b0: b0 flips rows, b1 flips columns, b2 transposes (applied in that order;
 *   square boards only); SYMMETRIES[t][i] is where cell i goes.
 * makeCore(rows, cols, k) is the core of one board; forGame(name) the core of a table's game
 * ("3x3", "3x3-misere", "mnk:M,N,K[-misere]", at most 16 cells); the module's own functions are
 * the 3x3 core's. It runs under node too (module.exports), so a Python test checks it against
 * minttt.game.
 *
 * The second half drives the page (only when there is a document).
 */
(function (root) {
  "use strict";

  var EMPTY = 0;
  var X = 1;
  var O = 2;
  var SYMBOLS = ".xo";
  var MAX_CELLS = 16;

  /* What each transform does to the board, read as a picture (real board -> canonical board). */
  var ALL_SYMMETRY_NAMES = [
    "identity (no change)",
    "flip top and bottom",
    "flip left and right",
    "rotate 180\u00b0",
    "reflect in the main diagonal (top left to bottom right)",
    "rotate 90\u00b0 clockwise",
    "rotate 90\u00b0 anticlockwise",
    "reflect in the anti-diagonal (top right to bottom left)",
  ];

  var NAMES_3X3 = [
    "top left", "top middle", "top right",
    "middle left", "centre", "middle right",
    "bottom left", "bottom middle", "bottom right",
  ];

  function buildSymmetries(rows, cols) {
    var perms = [];
    var count = rows === cols ? 8 : 4;
    for (var t = 0; t < count; t++) {
      var perm = [];
      for (var i = 0; i < rows * cols; i++) {
        var r = Math.floor(i / cols);
        var c = i % cols;
        if (t & 1) r = rows - 1 - r;
        if (t & 2) c = cols - 1 - c;
        if (t & 4) {
          var s = r;
          r = c;
          c = s;
        }
        perm.push(r * cols + c);
      }
      perms.push(perm);
    }
    return perms;
  }

  /* Every straight run of k cells: rows, columns and both diagonals (as minttt.game.rules). */
  function buildLines(rows, cols, k) {
    var lines = [];
    var steps = [[0, 1], [1, 0], [1, 1], [1, -1]];
    for (var r = 0; r < rows; r++) {
      for (var c = 0; c < cols; c++) {
        steps.forEach(function (d) {
          var line = [];
          for (var s = 0; s < k; s++) {
            var rr = r + d[0] * s;
            var cc = c + d[1] * s;
            if (rr < 0 || rr >= rows || cc < 0 || cc >= cols) return;
            line.push(rr * cols + cc);
          }
          lines.push(line);
        });
      }
    }
    return lines;
  }

  /* The core of one rows x cols board, k in a row. */
  function makeCore(ROWS, COLS, K) {
    var CELLS = ROWS * COLS;
    var SYMMETRIES = buildSymmetries(ROWS, COLS);
    var INVERSES = SYMMETRIES.map(function (perm) {
      var inv = new Array(perm.length);
      perm.forEach(function (j, i) {
        inv[j] = i;
      });
      return inv;
    });
    var SYMMETRY_NAMES = ALL_SYMMETRY_NAMES.slice(0, SYMMETRIES.length);
    var LINES = buildLines(ROWS, COLS, K);
    var CELL_NAMES = [];
    for (var i = 0; i < CELLS; i++) {
      CELL_NAMES.push(CELLS === 9 ? NAMES_3X3[i]
        : "row " + (Math.floor(i / COLS) + 1) + ", column " + ((i % COLS) + 1));
    }
    var BOARD_PATTERN = new RegExp("^[.xo]{" + CELLS + "}$");

    function hash(cells) {
      var h = 0;
      var p = 1;
      for (var i = 0; i < CELLS; i++) {
        h += cells[i] * p;
        p *= 3;
      }
      return h;
    }

    /* The cells after symmetry t: the piece on cell i moves to SYMMETRIES[t][i]. */
    function transform(cells, t) {
      var out = new Array(CELLS);
      var perm = SYMMETRIES[t];
      for (var i = 0; i < CELLS; i++) out[perm[i]] = cells[i];
      return out;
    }

    /* {hash, transform, cells}: the minimum hash over the symmetries, ties to the lowest t. */
    function canonical(cells) {
      var best = null;
      for (var t = 0; t < SYMMETRIES.length; t++) {
        var image = transform(cells, t);
        var h = hash(image);
        if (best === null || h < best.hash) best = { hash: h, transform: t, cells: image };
      }
      return best;
    }

    function inverseTransform(t) {
      var inv = INVERSES[t];
      for (var u = 0; u < SYMMETRIES.length; u++) {
        if (SYMMETRIES[u].every(function (v, i) { return v === inv[i]; })) return u;
      }
      throw new Error("no inverse for transform " + t);
    }

    /* Real board -> canonical board, and back. */
    function mapCell(cell, t) {
      return SYMMETRIES[t][cell];
    }

    function unmapCell(cell, t) {
      return INVERSES[t][cell];
    }

    function winningLine(cells) {
      for (var n = 0; n < LINES.length; n++) {
        var line = LINES[n];
        var first = cells[line[0]];
        if (first !== EMPTY && line.every(function (c) { return cells[c] === first; })) return line;
      }
      return null;
    }

    /* 1 if X has won, 2 if O has, 0 otherwise; in misere the player who makes the line loses. */
    function winner(cells, misere) {
      var line = winningLine(cells);
      if (!line) return EMPTY;
      return misere ? 3 - cells[line[0]] : cells[line[0]];
    }

    function isTerminal(cells) {
      return winningLine(cells) !== null || cells.indexOf(EMPTY) < 0;
    }

    function toMove(cells) {
      var xs = 0;
      var os = 0;
      cells.forEach(function (v) {
        if (v === X) xs++;
        else if (v === O) os++;
      });
      return xs === os ? X : O;
    }

    function boardString(cells) {
      return cells.map(function (v) { return SYMBOLS[v]; }).join("");
    }

    function parseBoard(text) {
      if (text.length !== CELLS) throw new Error("board " + text + " must have " + CELLS + " cells");
      return text.split("").map(function (ch) {
        var v = SYMBOLS.indexOf(ch);
        if (v < 0) throw new Error("board " + text + " has character " + ch);
        return v;
      });
    }

    /* A lookup index over a minttt-table/1 document: canonical hash -> entry, and the opening. */
    function indexTable(table) {
      var byHash = new Map();
      table.entries.forEach(function (e) {
        byHash.set(e.hash, e);
      });
      var opening = table.opening === undefined ? null : table.opening;
      return { byHash: byHash, opening: opening, misere: /-misere$/.test(String(table.game)) };
    }

    function isCell(v) {
      return typeof v === "number" && Number.isInteger(v) && v >= 0 && v < CELLS;
    }

    /* Why the page cannot play the entries of `table` on this board, or null when it can. */
    function entriesProblem(table) {
      if (table.opening !== null && table.opening !== undefined && !isCell(table.opening)) {
        return "the table's opening " + shown(table.opening) + " is not a cell 0-" + (CELLS - 1);
      }
      if (!Array.isArray(table.entries) || table.entries.length === 0) return "the table has no entries";
      for (var i = 0; i < table.entries.length; i++) {
        var e = table.entries[i];
        var where = "entry " + i;
        if (e === null || typeof e !== "object") return where + " is not an object";
        if (typeof e.board !== "string" || !BOARD_PATTERN.test(e.board)) {
          return where + " has no valid board";
        }
        var cells = parseBoard(e.board);
        if (e.hash !== hash(cells) || canonical(cells).hash !== e.hash) {
          return where + " (" + e.board + ") has a wrong or non-canonical hash";
        }
        if (isTerminal(cells)) return where + " (" + e.board + ") is a finished game";
        if (!isCell(e.move) || cells[e.move] !== EMPTY) {
          return where + " (" + e.board + ") plays " + shown(e.move) + ", not an empty cell";
        }
      }
      return null;
    }

    /*
     * The table's move at a real board: {move, entry, canonical, transform, inverse}, or null
     * when the table has no entry. The entry's move is on the canonical board; it is mapped back
     * through the inverse symmetry, as Table.move does in Python. A table with a fixed opening
     * may leave out the empty board: then the opening is played (entry null).
     */
    function tableMove(index, cells) {
      var canon = canonical(cells);
      var entry = index.byHash.get(canon.hash);
      if (!entry) {
        if (index.opening !== null && cells.indexOf(X) < 0 && cells.indexOf(O) < 0) {
          return { move: index.opening, entry: null, canonical: canon, transform: 0, inverse: 0 };
        }
        return null;
      }
      return {
        move: unmapCell(entry.move, canon.transform),
        entry: entry,
        canonical: canon,
        transform: canon.transform,
        inverse: inverseTransform(canon.transform),
      };
    }

    return {
      ROWS: ROWS, COLS: COLS, K: K, CELLS: CELLS, EMPTY: EMPTY, X: X, O: O,
      SYMMETRIES: SYMMETRIES, INVERSES: INVERSES, SYMMETRY_NAMES: SYMMETRY_NAMES, LINES: LINES,
      CELL_NAMES: CELL_NAMES,
      hash: hash, transform: transform, canonical: canonical, inverseTransform: inverseTransform,
      mapCell: mapCell, unmapCell: unmapCell, winner: winner, winningLine: winningLine,
      isTerminal: isTerminal, toMove: toMove, boardString: boardString, parseBoard: parseBoard,
      indexTable: indexTable, tableMove: tableMove, entriesProblem: entriesProblem,
      tableProblem: tableProblem, forGame: forGame, makeCore: makeCore,
    };
  }

  function shown(v) {
    return v === undefined ? "nothing" : JSON.stringify(v);
  }

  /* {rows, cols, k, misere} of a table's game name as minttt writes it, or null. */
  function parseGame(name) {
    var m = /^(3x3|mnk:(\d+),(\d+),(\d+))(-misere)?$/.exec(String(name));
    if (!m) return null;
    var rows = m[2] === undefined ? 3 : Number(m[2]);
    var cols = m[3] === undefined ? 3 : Number(m[3]);
    var k = m[4] === undefined ? 3 : Number(m[4]);
    if (rows < 1 || cols < 1 || rows * cols > MAX_CELLS || k < 1 || k > Math.max(rows, cols)) {
      return null;
    }
    return { rows: rows, cols: cols, k: k, misere: m[5] !== undefined };
  }

  var cores = {};

  /* The core of a table's game (one per board, made once), or null for a game it cannot play. */
  function forGame(name) {
    var game = parseGame(name);
    if (game === null) return null;
    var key = game.rows + "," + game.cols + "," + game.k;
    if (!cores[key]) cores[key] = makeCore(game.rows, game.cols, game.k);
    return cores[key];
  }

  /*
   * Why the page cannot play `table` (a parsed minttt-table/1 document), or null when it can:
   * the checks of minttt.table that matter for playing (game, role, opening, every entry's hash,
   * board and move). The page shows the reason instead of misplaying.
   */
  function tableProblem(table) {
    if (table === null || typeof table !== "object" || Array.isArray(table)) {
      return "the table is not a JSON object";
    }
    if (table.format !== "minttt-table/1") return "the table's format is not minttt-table/1";
    var game = forGame(table.game);
    if (game === null) {
      return "this page plays m,n,k games of at most " + MAX_CELLS + " cells, not " +
        shown(table.game);
    }
    if (["X", "O", "both"].indexOf(table.role) < 0) return "the table's role is not X, O or both";
    return game.entriesProblem(table);
  }

  var core = makeCore(3, 3, 3);
  core.parseGame = parseGame;

  if (typeof module === "object" && module.exports) module.exports = core;
  root.minttt = core;

  if (typeof document === "undefined") return;

  /* ------------------------------------------------------------------ the page */

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === "text") node.textContent = attrs[k];
      else if (k === "className") node.className = attrs[k];
      else node.setAttribute(k, attrs[k]);
    });
    (children || []).forEach(function (c) {
      node.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
    });
    return node;
  }

  function mark(v) {
    return v === X ? "X" : v === O ? "O" : "";
  }

  function valueText(value) {
    if (value > 0) return "X wins with best play";
    if (value < 0) return "O wins with best play";
    return "a draw with best play";
  }

  /* A game's k in words: "three", "four". */
  function word(k) {
    return ["one", "two", "three", "four", "five", "six", "seven", "eight"][k - 1] || String(k);
  }

  function inRow(k) {
    return word(k) + " in a row";
  }

  /* A small read-only board picture; `hot` is the cell to highlight. */
  function miniBoard(cells, hot, label) {
    var grid = el("div", { className: "mini", role: "img", "aria-label": label });
    cells.forEach(function (v, i) {
      var cls = "mini-cell" + (i === hot ? " hot" : "") + (v ? " " + SYMBOLS[v] : "");
      grid.appendChild(el("span", { className: cls, text: mark(v) || String(i) }));
    });
    return grid;
  }

  /* The page cannot play: say why on the page itself, and offer no board. */
  function showBroken(reason) {
    var about = document.getElementById("about");
    about.textContent = "This page cannot play: " + reason + ". Rebuild it with `minttt web`.";
    about.className = "about broken";
    var game = document.getElementById("game");
    game.setAttribute("data-state", "error");
    game.hidden = true;
  }

  /* The footer links to the very table played: a download of the inlined JSON. */
  function linkPlayedTable(text) {
    var link = document.getElementById("table-link");
    if (!link || typeof Blob === "undefined" || !root.URL || !URL.createObjectURL) return;
    link.href = URL.createObjectURL(new Blob([text], { type: "application/json" }));
    link.setAttribute("download", "table.json");
  }

  function start() {
    var text = document.getElementById("minttt-table").textContent;
    var data;
    try {
      data = JSON.parse(text);
    } catch (err) {
      showBroken("the table inlined in it is not valid JSON (" + err.message + ")");
      return;
    }
    var problem = tableProblem(data);
    if (problem !== null) {
      showBroken(problem);
      return;
    }
    var G = forGame(data.game);
    linkPlayedTable(text);
    var index = G.indexTable(data);
    var tableRole = String(data.role);
    var ui = {
      game: document.getElementById("game"),
      board: document.getElementById("board"),
      status: document.getElementById("status"),
      about: document.getElementById("about"),
      roleText: document.getElementById("role-text"),
      playX: document.getElementById("play-x"),
      playO: document.getElementById("play-o"),
      newGame: document.getElementById("new-game"),
      after: document.getElementById("after"),
      log: document.getElementById("log"),
      logEmpty: document.getElementById("log-empty"),
      entries: document.getElementById("entries"),
      showEntries: document.getElementById("show-entries"),
    };
    var state = { cells: null, human: X, over: true, moves: 0 };

    var opening = data.opening === null || data.opening === undefined
      ? "" : ", opening " + G.CELL_NAMES[data.opening];
    var rules = index.misere ? " Mis\u00e8re rules: whoever makes " + inRow(G.K) + " loses." : "";
    ui.about.textContent =
      "The computer plays by a lookup table alone: " + data.entries.length +
      " entries, one per position up to symmetry (" + data.criterion + " moves" + opening +
      "). No search, no rules of thumb." + rules;

    // the board's shape for style.css (CSSOM, which the page's Content-Security-Policy allows)
    ui.game.style.setProperty("--cols", String(G.COLS));
    ui.game.style.setProperty("--rows", String(G.ROWS));
    ui.game.setAttribute("data-game", String(data.game));
    if (G.CELLS !== 9 || G.K !== 3) {
      var heading = G.ROWS + "x" + G.COLS + " m,n,k (" + inRow(G.K) + ") against a lookup table";
      document.querySelector("header h1").textContent = heading;
      document.title = heading + " \u00b7 minttt";
    }
    var cellButtons = [];
    for (var i = 0; i < G.CELLS; i++) {
      var b = el("button", { type: "button", className: "cell", "data-cell": String(i) });
      b.addEventListener("click", onCellClick.bind(null, i));
      cellButtons.push(b);
      ui.board.appendChild(b);
    }

    if (tableRole === "both") {
      ui.roleText.textContent = "You play:";
    } else {
      var computer = tableRole === "X" ? X : O;
      var human = 3 - computer;
      ui.roleText.textContent =
        "This table plays " + tableRole + ", so you play " + mark(human) +
        (human === X ? " (you move first)." : " (the computer moves first).");
      (human === X ? ui.playO : ui.playX).hidden = true;
    }
    ui.playX.addEventListener("click", function () { newGame(X); });
    ui.playO.addEventListener("click", function () { newGame(O); });
    ui.newGame.addEventListener("click", function () { newGame(state.human); });
    ui.showEntries.addEventListener("change", function () {
      ui.entries.hidden = !ui.showEntries.checked;
    });

    function setStatus(text, kind) {
      ui.status.textContent = text;
      ui.status.className = "status " + (kind || "");
    }

    function render(lastComputer) {
      var line = G.winningLine(state.cells);
      cellButtons.forEach(function (btn, i) {
        var v = state.cells[i];
        btn.textContent = mark(v);
        btn.className = "cell" + (v ? " " + SYMBOLS[v] : "") +
          (i === lastComputer ? " last" : "") + (line && line.indexOf(i) >= 0 ? " win" : "");
        var free = v === EMPTY && !state.over;
        btn.setAttribute("aria-label", G.CELL_NAMES[i] + ": " + (mark(v) || (free ? "empty, click to play" : "empty")));
        btn.classList.toggle("free", free);
      });
      ui.board.setAttribute("data-board", G.boardString(state.cells));
      ui.game.setAttribute("data-state", state.over ? "over" : "your-turn");
      ui.game.setAttribute("data-human", SYMBOLS[state.human]);
    }

    function finish(result, text, kind) {
      state.over = true;
      ui.game.setAttribute("data-result", result);
      setStatus(text, kind);
      ui.after.hidden = false;
    }

    function checkEnd() {
      var w = G.winner(state.cells, index.misere);
      if (w !== EMPTY) {
        var how = index.misere
          ? word(G.K) + " " + mark(3 - w) + "s in a row, and in mis\u00e8re that loses."
          : word(G.K) + " " + mark(w) + "s in a row.";
        if (w === state.human) finish(SYMBOLS[w], "You win: " + how, "win");
        else finish(SYMBOLS[w], "The computer wins: " + how, "loss");
        return true;
      }
      if (state.cells.indexOf(EMPTY) < 0) {
        finish("draw", "Draw: the board is full and nobody has " + inRow(G.K) + ".", "draw");
        return true;
      }
      return false;
    }

    function logComputerMove(found, player) {
      var e = found.entry;
      var item = el("li", { className: "entry" });
      var heading = "Move " + state.moves + ": computer (" + mark(player) + ") plays " +
        G.CELL_NAMES[found.move] + " (cell " + found.move + ")";
      item.appendChild(el("p", { className: "entry-head", text: heading }));
      if (!e) {
        item.appendChild(el("p", {
          className: "entry-text",
          text: "The table fixes X's opening at cell " + found.move + ", so it needs no entry " +
            "for the empty board.",
        }));
        addLog(item);
        return;
      }
      var pictures = el("div", { className: "pictures" }, [
        el("figure", {}, [
          miniBoard(found.canonical.cells, e.move, "canonical board " + e.board),
          el("figcaption", {}, ["table entry (canonical)", el("br"), "move " + e.move]),
        ]),
        el("div", { className: "arrow", "aria-hidden": "true", text: "\u2192" }),
        el("figure", {}, [
          miniBoard(state.cells.slice(0, G.CELLS).map(function (v, i) {
            return i === found.move ? EMPTY : v;
          }), found.move, "real board before the move"),
          el("figcaption", {}, ["real board", el("br"), "move " + found.move]),
        ]),
      ]);
      item.appendChild(pictures);
      var symmetry = found.inverse === 0
        ? "The real board is the canonical board itself (identity), so the move is used as is."
        : "Canonical \u2192 real: " + G.SYMMETRY_NAMES[found.inverse] + " (transform " + found.inverse +
          "; real \u2192 canonical is transform " + found.transform + "), which takes canonical cell " +
          e.move + " to real cell " + found.move + ".";
      item.appendChild(el("p", {
        className: "entry-text",
        text: "Entry for hash " + e.hash + ", board " + e.board + ": move " + e.move +
          ", value " + e.value + " (" + valueText(e.value) + "). " + symmetry,
      }));
      addLog(item);
    }

    function addLog(item) {
      ui.log.insertBefore(item, ui.log.firstChild);
      ui.logEmpty.hidden = true;
    }

    function computerMove() {
      var found = G.tableMove(index, state.cells);
      if (!found || state.cells[found.move] !== EMPTY) {
        render(-1);
        finish("no-entry", "The table has no usable entry for this position, so the computer " +
          "cannot move (hash " + G.canonical(state.cells).hash + ").", "loss");
        return;
      }
      var player = G.toMove(state.cells);
      state.moves++;
      state.cells[found.move] = player;
      logComputerMove(found, player);
      var ended = checkEnd();
      render(found.move);
      if (!ended) {
        setStatus("Your move (you are " + mark(state.human) + "). The computer played " +
          G.CELL_NAMES[found.move] + ".", "");
      }
    }

    function newGame(human) {
      state = { cells: new Array(G.CELLS).fill(EMPTY), human: human, over: false, moves: 0 };
      ui.game.removeAttribute("data-result");
      ui.playX.setAttribute("aria-pressed", String(human === X));
      ui.playO.setAttribute("aria-pressed", String(human === O));
      ui.log.textContent = "";
      ui.logEmpty.hidden = false;
      ui.after.hidden = true;
      if (human === O) {
        computerMove();
      } else {
        render(-1);
        setStatus("Your move (you are X): click an empty square.", "");
      }
    }

    function onCellClick(cell) {
      if (state.over || state.cells[cell] !== EMPTY) return;
      state.moves++;
      state.cells[cell] = state.human;
      if (checkEnd()) {
        render(-1);
        return;
      }
      computerMove();
    }

    newGame(tableRole === "X" ? O : X);
    ui.game.setAttribute("data-ready", "1");
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})(typeof window !== "undefined" ? window : globalThis);
