// Caravan at a live table (the service's page): which card of the hand a legal move
// (as CVN writes it: 7H>A, KS>D2, discard 4C, disband B) uses, where it goes on the
// picture (a caravan, or a card of one), and the end in words. No rule is decided here:
// the moves are the view's legal ones.
window.PitbossTable.games.caravan = (function () {
  "use strict";
  function caravan(letter) { return 'g.caravan[data-caravan="' + letter + '"]'; }
  function owner(view, letter) {
    var c = (view.table.caravans || {})[letter];
    if (!c) { return ""; }
    return c.owner === view.seat ? " (yours)" : " (" + c.owner + "\u2019s)";
  }
  function slot(view, letter, n) {
    var s = (view.table[letter] || [])[n - 1];
    return s ? s.replace(/\(.*$/, "") : letter + n;
  }
  function move(text, view) {
    var m = /^discard\s+(\S+)$/i.exec(text);
    if (m) { return {cards: [m[1].toUpperCase()], target: null, words: "Discard it"}; }
    m = /^disband\s+([A-F])$/i.exec(text);
    if (m) { return {cards: [], target: caravan(m[1].toUpperCase()), words: "Disband caravan " + m[1].toUpperCase()}; }
    m = /^(\S+?)>([A-F])(\d+)?$/i.exec(text);
    if (m) {
      var card = m[1].toUpperCase(), letter = m[2].toUpperCase();
      if (m[3]) {
        return {cards: [card], target: 'g.card[data-where="' + letter + m[3] + '"]',
                words: "On " + slot(view, letter, +m[3]) + " in caravan " + letter + owner(view, letter)};
      }
      return {cards: [card], target: caravan(letter), words: "Onto caravan " + letter + owner(view, letter)};
    }
    return {cards: [], target: null, words: text};
  }
  function phase(view) { return view.table && view.table.opening ? "Opening" : ""; }
  function end(view) {
    var r = view.result, names = view.seats.map(function (s) { return s.name; });
    var loser = names[0] === r.winner ? names[1] : names[0];
    var why = {lanes: "all three lanes are decided", out: loser + " ran out of cards",
               "no-move": loser + " had no legal move", forfeit: loser + " ran out of time"}[r.end] || r.end;
    var score = r.score.split("-");
    var values = view.table.caravans || {};
    return {
      winner: r.winner,
      title: r.winner + " wins",
      you: view.seat === r.winner ? "You won." : "You lost.",
      score: names[0] + " " + score[0] + " \u2013 " + score[1] + " " + names[1],
      lines: ["The game ended because " + why + "."],
      table: {head: ["Lane", "Held by", "Values"], rows: r.lanes.map(function (l) {
        var ab = l.lane.split("/"), a = values[ab[0]], b = values[ab[1]];
        return [l.lane, l.holder || "nobody", a && b ? a.value + " \u2013 " + b.value : ""];
      })}
    };
  }
  return {move: move, phase: phase, end: end};
})();
