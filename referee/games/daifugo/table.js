// Daifugo at a live table (the service's page): which cards of the hand a legal move (a
// DFN move line: "Aki: 3D 3H", "Aki: JK(5D) 5H", "Aki: pass", "Dai -> Aki: 2S JK") uses,
// where a play goes on the picture (the table), and the end in words. No rule is decided
// here: the moves are the view's legal ones.
window.PitbossTable.games.daifugo = (function () {
  "use strict";
  var TITLES = {daifugo: "daifugo (grand millionaire)", fugo: "fugo (millionaire)", heimin: "heimin (commoner)",
                hinmin: "hinmin (poor)", daihinmin: "daihinmin (grand pauper)"};
  function titled(t) { return TITLES[t] || t || ""; }
  function ordinal(n) {
    var s = ["th", "st", "nd", "rd"], v = n % 100;
    return n + (s[(v - 20) % 10] || s[v] || s[0]);
  }
  function move(text) {
    var colon = text.indexOf(":"), head = text.slice(0, colon), rest = text.slice(colon + 1).trim();
    if (rest.toLowerCase() === "pass") { return {cards: [], target: null, words: "Pass"}; }
    var words = rest.split(/\s+/), cards = words.map(function (w) { return w.replace(/\(.*\)$/, "").toUpperCase(); });
    var jokers = words.filter(function (w) { return /\(/.test(w); }).map(function (w) { return w.replace(/^.*\(|\)$/g, ""); });
    var to = head.split("->");
    if (to.length === 2) { return {cards: cards, target: null, chips: true, words: "Give to " + to[1].trim()}; }
    return {cards: cards, target: "rect.table", chips: true,
            words: (cards.length === 1 ? "Play it" : "Play " + cards.length + " cards") +
              (jokers.length ? " (joker as " + jokers.join(", ") + ")" : "")};
  }
  function phase(view) { return view.table && view.table.phase === "exchange" ? "Card exchange" : ""; }
  function rounds(view) { return view.table && view.table.rounds > 1 ? view.table.rounds : null; }
  function end(view) {
    var r = view.result, names = view.seats.map(function (s) { return s.name; });
    var all = r.rounds || [], last = all[all.length - 1] || {finish: [], titles: {}};
    function titleOf(round, name) {
      return Array.isArray(round.titles) ? round.titles[names.indexOf(name)] : round.titles[name];
    }
    var out = {lines: []}, winner = last.finish[0];
    if (r.points) {
      var best = 0;
      r.points.forEach(function (p, i) { if (p > r.points[best]) { best = i; } });
      winner = names[best];
      out.title = winner + " wins on points";
      out.short = out.title;
      out.score = "Points: " + names.map(function (n, i) { return n + " " + r.points[i]; }).join(" \u00b7 ");
    } else {
      out.title = winner + " is " + titled(titleOf(last, winner)) + (all.length > 1 ? " in the last round" : "");
      out.short = winner + " is " + titleOf(last, winner);
    }
    out.winner = winner;
    var place = last.finish.indexOf(view.seat);
    if (place >= 0) { out.you = "You finished " + ordinal(place + 1) + ": " + titled(titleOf(last, view.seat)) + "."; }
    out.table = {head: ["Place", "Player", "Title"], rows: last.finish.map(function (name, i) {
      return [ordinal(i + 1), name, titled(titleOf(last, name))];
    })};
    if (all.length > 1) {
      if (all.length > 6) { out.lines.push("Rounds 1 to " + (all.length - 6) + ": in the record."); }
      all.slice(Math.max(0, all.length - 6), -1).forEach(function (round) {
        out.lines.push("Round " + round.round + ": " + round.finish.join(", "));
      });
      out.lines.push("Round " + last.round + ", the last:");
    }
    return out;
  }
  return {move: move, phase: phase, rounds: rounds, end: end};
})();
