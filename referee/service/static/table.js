// A live table: watched by anyone, played by a seat opened with its link (#token=...).
// The position is drawn by the game's SVG renderer (/v1/tables/ID/picture); the table is
// followed over its WebSocket. What a seat may do is the view's `legal` list, each move as
// the notation writes it; the game's script (window.PitbossTable.games[GAME]) says which
// cards of the hand a move uses, where it goes on the picture and how the end reads.
(function () {
  "use strict";
  var config = JSON.parse(document.getElementById("config").textContent);
  var TABLE = config.id;
  var game = window.PitbossTable.games[config.game];
  var params = new URLSearchParams(location.hash.slice(1) || location.search.slice(1));
  var token = params.get("token");
  var auth = token ? {"Authorization": "Bearer " + token} : {};
  var view = null, picked = null, drawn = null, lastSeat = null, busy = false, retry = 500, closed = false;
  var moves = [];       // the seat's legal moves, each {text, cards, target, words}
  var targets = [];     // [element, [moves]] on the picture for the picked card
  var $ = function (id) { return document.getElementById(id); };
  var GLYPH = {S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663"};

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined && text !== null) { e.textContent = text; }
    return e;
  }
  // A card as notation writes it (10H, JK) -> rank, suit glyph, colour class.
  function face(card) {
    if (card === "JK") { return {rank: "JK", pip: "\u2605", cls: "joker"}; }
    var suit = card.slice(-1), rank = card.slice(0, -1);
    return {rank: rank, pip: GLYPH[suit] || suit, cls: (suit === "H" || suit === "D") ? "red" : ""};
  }
  function chip(card) {
    var f = face(card);
    return el("span", "chip " + f.cls, f.rank + (card === "JK" ? "" : f.pip));
  }
  window.PitbossTable.chip = chip;

  // ------------------------------------------------------------------ words

  function progress(v) {
    var parts = [];
    var count = v.round_ply !== undefined ? v.round_ply : v.ply;
    if (v.contest) { parts.push("contest table " + v.contest.table + ", game " + v.round + " of " + v.contest.games); }
    else if (v.round !== null && v.round !== undefined) {
      var total = game.rounds ? game.rounds(v) : null;
      parts.push("round " + v.round + (total ? " of " + total : ""));
    }
    parts.push("move " + count);
    return parts.join(" \u00b7 ");
  }
  function banner(v) {
    if (v.status === "finished") {
      var end = game.end(v);
      return {text: "Game over \u2014 " + (end.short || end.title), cls: "over"};
    }
    if (v.status === "interrupted") { return {text: "Interrupted: this table stopped before its end", cls: ""}; }
    if (v.status === "waiting") { return {text: "Waiting for the players to open their seat links", cls: ""}; }
    var mine = v.seat && (v.legal || []).length;
    if (mine) { return {text: v.to_move ? "Your turn, " + v.seat : "Your move, " + v.seat + ": " + (game.phase(v) || ""), cls: "mine"}; }
    if (v.to_move) { return {text: v.to_move + " to move", cls: ""}; }
    var phase = game.phase(v);
    return {text: phase ? phase + ": waiting for the other players" : "Waiting for the other players", cls: ""};
  }

  // ------------------------------------------------------------------ drawing the page

  function render() {
    if (!view) { return; }
    document.body.dataset.ply = String(view.ply);
    document.body.dataset.status = view.status;
    $("what").textContent = config.title + " \u00b7 " + view.rules + (view.options ? " " + view.options : "");
    $("seat").textContent = view.seat ? "you are " + view.seat : "spectator";
    var b = banner(view);
    $("banner-text").textContent = b.text;
    $("banner").className = b.cls;
    document.title = (b.cls === "mine" ? "\u25b6 " : "") + b.text + " \u2014 Pitboss";
    clock();
    var status = $("status");
    status.textContent = progress(view) + (view.seat ? "" : " \u00b7 spectator");
    var last = view.moves.length ? view.moves[view.moves.length - 1] : null;
    if (last && (view.round_ply === undefined || view.round_ply > 0)) {
      status.appendChild(document.createTextNode(" \u00b7 last: "));
      status.appendChild(el("span", "last", (lastSeat && last.indexOf(lastSeat + ":") !== 0 && last.indexOf(lastSeat + " ->") !== 0 ? lastSeat + ": " : "") + last));
    }
    $("reports").textContent = (view.reports || []).map(function (r) {
      return "player " + r.player + " (" + r.name + "): " + r.kind + ": " + r.message +
        (r.game ? " (game " + r.game + (r.turn ? ", turn " + r.turn : "") + ")" : "");
    }).join("\n");
    $("moves").textContent = view.moves.map(function (m, i) { return (i + 1) + ". " + m; }).join("\n");
    $("moves").scrollTop = 1e9;
    renderResult();
    renderMine();
  }

  function renderResult() {
    var box = $("result");
    box.textContent = "";
    if (view.status !== "finished" || !view.result) { box.hidden = true; return; }
    box.hidden = false;
    var end = game.end(view);
    box.appendChild(el("h2", "", "\u2605 " + end.title));
    if (end.you && view.seat) { box.appendChild(el("p", "you", end.you)); }
    if (end.score) { box.appendChild(el("p", "score", end.score)); }
    (end.lines || []).forEach(function (line) { box.appendChild(el("p", "", line)); });
    if (end.table) {
      var t = el("table"), head = el("tr");
      end.table.head.forEach(function (h) { head.appendChild(el("th", "", h)); });
      t.appendChild(head);
      end.table.rows.forEach(function (row) {
        var tr = el("tr");
        row.forEach(function (cell) { tr.appendChild(el("td", "", cell)); });
        t.appendChild(tr);
      });
      box.appendChild(t);
    }
    var actions = el("div", "actions");
    [["Replay move by move", "/tables/" + TABLE + "/replay", "replay"], ["The record", "/v1/tables/" + TABLE + "/record", "record"],
     ["A new table", "/", "lobby"]].forEach(function (a) {
      var link = el("a", a[2], a[0]);
      link.href = a[1];
      actions.appendChild(link);
    });
    box.appendChild(actions);
  }

  function uses(card) { return moves.filter(function (m) { return m.cards.indexOf(card) >= 0; }); }

  function renderMine() {
    var mine = $("mine");
    if (!view.seat || view.status === "finished") { mine.hidden = true; drawn = null; return; }
    mine.hidden = false;
    moves = (view.legal || []).map(function (text) {
      var m = game.move(text, view);
      m.text = text;
      return m;
    });
    if (picked && (view.hand || []).indexOf(picked) < 0) { picked = null; }
    if (picked && !uses(picked).length) { picked = null; }
    var hand = $("hand");
    hand.textContent = "";
    $("hand-title").textContent = "Your hand (" + (view.hand || []).length + ")" +
      (view.deck_left !== undefined ? " \u00b7 deck " + view.deck_left : "");
    (view.hand || []).forEach(function (c) {
      var f = face(c), b = el("button", "card " + f.cls);
      var usable = uses(c).length > 0;
      if (picked === c) { b.className += " picked"; }
      if (moves.length && !usable) { b.className += " idle"; }
      if (usable) { b.dataset.usable = "1"; }
      b.type = "button";
      b.dataset.card = c;
      b.setAttribute("aria-pressed", picked === c ? "true" : "false");
      b.setAttribute("aria-label", c);
      b.appendChild(el("span", "rank", f.rank));
      b.appendChild(el("span", "pip", f.pip));
      b.onclick = function () {
        if (!uses(c).length) { picked = null; }
        else { picked = picked === c ? null : c; }
        renderMine();
        markTargets();
      };
      hand.appendChild(b);
    });
    var legal = $("legal"), hint = $("hint");
    legal.textContent = "";
    hint.textContent = "";
    if (drawn) { hint.appendChild(el("span", "drawn", "You drew " + drawn + ". ")); }
    var shown = picked ? uses(picked) : [];
    var cardless = moves.filter(function (m) { return !m.cards.length; });
    if (!moves.length) {
      hint.appendChild(document.createTextNode(view.status === "playing" ? "Not your turn: waiting for " + (view.to_move || "the others") + "." : ""));
    } else if (picked) {
      var places = {};
      shown.forEach(function (m) { if (m.target) { places[m.target] = (places[m.target] || 0) + 1; } });
      var one = Object.keys(places).some(function (t) { return places[t] === 1; });
      hint.appendChild(document.createTextNode("Where does " + picked + " go? " +
        (one ? "Click a lit place on the table, or a move below." : "Pick a move below.")));
    } else if (moves.length > cardless.length) {
      hint.appendChild(document.createTextNode("Pick a card from your hand to see where it can go."));
    } else {
      hint.appendChild(document.createTextNode("No card of yours can be played now."));
    }
    shown.concat(cardless).forEach(function (m) { legal.appendChild(moveButton(m)); });
  }

  function moveButton(m) {
    var b = el("button", "move" + (m.cards.length ? "" : " quiet"));
    b.type = "button";
    b.dataset.move = m.text;
    var words = el("span", "words");
    if (m.cards.length > 1 || (m.cards.length === 1 && m.chips)) {
      m.cards.forEach(function (c) { words.appendChild(chip(c)); });
      words.appendChild(document.createTextNode(" "));
    }
    words.appendChild(document.createTextNode(m.words));
    b.appendChild(words);
    b.appendChild(el("span", "notation", m.text));
    b.onclick = function () { play(m.text); };
    b.onmouseenter = b.onfocus = function () { light(m, true); };
    b.onmouseleave = b.onblur = function () { light(m, false); };
    return b;
  }

  // the cards and the place a move names, lit while the pointer is on its button
  function light(m, on) {
    Array.prototype.forEach.call($("hand").children, function (c) {
      c.classList.toggle("lit", on && m.cards.indexOf(c.dataset.card) >= 0 && c.dataset.card !== picked);
    });
    if (m.target) {
      Array.prototype.forEach.call($("picture").querySelectorAll(m.target), function (t) { t.classList.toggle("hover", on); });
    }
  }

  // the places on the picture where the picked card may go
  function markTargets() {
    var svg = $("picture").querySelector("svg");
    targets = [];
    if (!svg) { return; }
    Array.prototype.forEach.call(svg.querySelectorAll(".target"), function (t) { t.classList.remove("target"); });
    if (!picked) { return; }
    uses(picked).forEach(function (m) {
      if (!m.target) { return; }
      Array.prototype.forEach.call(svg.querySelectorAll(m.target), function (t) {
        t.classList.add("target");
        var known = targets.filter(function (x) { return x[0] === t; })[0];
        if (known) { known[1].push(m); } else { targets.push([t, [m]]); }
      });
    });
  }

  $("picture").addEventListener("click", function (e) {
    var t = e.target.closest ? e.target.closest(".target") : null;
    if (!t) { return; }
    var found = targets.filter(function (x) { return x[0] === t; })[0];
    if (!found) { return; }
    if (found[1].length === 1) { play(found[1][0].text); return; }
    // several moves go there (combinations): the buttons say which
    Array.prototype.forEach.call($("legal").children, function (b) {
      b.classList.toggle("go", found[1].some(function (m) { return m.text === b.dataset.move; }));
    });
  });

  // ------------------------------------------------------------------ the clock

  function clock() {
    var span = $("clock");
    if (!view || !view.clock || view.status === "finished") { span.textContent = ""; return; }
    var left = Math.max(0, Math.ceil(view.clock.deadline - Date.now() / 1000));
    span.textContent = left + " s left to move";
  }
  setInterval(clock, 1000);

  // ------------------------------------------------------------------ the picture

  function crop(svg) {
    // the page says the heading (game, rules, move) itself, in words and in one count:
    // the picture starts below it (its felt, the document's first rectangle, with it)
    svg.setAttribute("preserveAspectRatio", "xMidYMin meet");
    var heading = svg.querySelector("text.heading"), felt = svg.querySelector("svg > rect");
    if (!heading) { return; }
    var box = heading.getBBox(), vb = svg.viewBox.baseVal, top = box.y + box.height + 2;
    if (vb && top > vb.y && top < vb.y + vb.height / 3) {
      var height = vb.y + vb.height - top;
      heading.style.display = "none";
      svg.setAttribute("viewBox", vb.x + " " + top + " " + vb.width + " " + height);
      if (felt) { felt.setAttribute("y", String(top)); felt.setAttribute("height", String(height)); }
    }
  }
  async function drawPicture() {
    var r = await fetch("/v1/tables/" + TABLE + "/picture", {headers: auth});
    if (!r.ok) { return; }
    var picture = $("picture");
    picture.innerHTML = await r.text();
    var svg = picture.querySelector("svg");
    if (svg) {
      svg.removeAttribute("width");
      svg.removeAttribute("height");
      crop(svg);
    }
    markTargets();
  }
  // one picture at a time, at most ten a second (a contest table moves faster than that)
  var drawing = false, redraw = false, drawnPly = -1;
  async function schedulePicture() {
    if (drawing) { redraw = true; return; }
    drawing = true;
    try {
      do {
        redraw = false;
        var ply = view ? view.ply : -1;
        await drawPicture();
        drawnPly = ply;
        document.body.dataset.picture = String(ply);
        await new Promise(function (r) { setTimeout(r, 100); });
      } while (redraw);
    } finally { drawing = false; }
  }

  // ------------------------------------------------------------------ moves and events

  async function play(move) {
    if (busy) { return; }
    busy = true;
    $("error").textContent = "";
    try {
      var r = await fetch("/v1/tables/" + TABLE + "/moves", {method: "POST",
        headers: Object.assign({"Content-Type": "application/json"}, auth), body: JSON.stringify({move: move, ply: view.ply})});
      var answer = await r.json();
      if (r.status !== 200) { $("error").textContent = answer.message || answer.error || ("error " + r.status); return; }
      picked = null;
      drawn = answer.drawn || null;
      if (answer.counted_as) { $("error").textContent = "counted as a " + answer.counted_as + ": " + answer.message; }
    } catch (err) {
      $("error").textContent = "the move was not sent: " + err;
    } finally { busy = false; }
  }

  function connect() {
    var scheme = location.protocol === "https:" ? "wss" : "ws";
    var socket = new WebSocket(scheme + "://" + location.host + "/v1/tables/" + TABLE + "/events" +
      (token ? "?token=" + encodeURIComponent(token) : ""));
    socket.onmessage = function (e) {
      var m = JSON.parse(e.data);
      retry = 500;
      if (m.type === "view") { view = m; }
      else if (m.type === "move") {  // its view leaves the history out: m.move is its new entry
        var moves = view ? view.moves : [];
        if (m.move !== null) moves.push(m.move);
        view = m.view; view.moves = moves; lastSeat = m.seat;
      }
      else if (m.type === "end") { view.result = m.result; }
      else if (m.view) { view = m.view; }
      render();
      schedulePicture();
    };
    socket.onclose = function (e) {
      if (e.code === 4401 || e.code === 4404) {
        closed = true;
        $("banner-text").textContent = e.reason === "unknown token for this table"
          ? "This seat link is not one of this table's: ask for the link again" : (e.reason || "no such table");
        return;
      }
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 8000);
    };
  }
  if (!game) { $("banner-text").textContent = "This page cannot draw a table of " + config.game; return; }
  connect();
})();
