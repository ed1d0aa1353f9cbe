// The lobby: the tables (kept fresh from /v1/tables), and the form that starts a new one.
// A new table's seat links carry each token in the link's fragment (#token=...), which a
// browser never sends to a server; they are shown to the creator only, and remembered in
// this browser's own storage so that the creator can come back to them.
(function () {
  "use strict";
  var config = JSON.parse(document.getElementById("config").textContent);
  var games = config.games, BOTS = config.bots, STORE = "pitboss.seats";
  var $ = function (id) { return document.getElementById(id); };
  var next = null;

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined && text !== null) { e.textContent = text; }
    return e;
  }
  function chosen() { return games.filter(function (g) { return g.name === $("game").value; })[0]; }

  // ------------------------------------------------------------------ the tables

  function row(t) {
    var tr = el("tr"), link = el("a", "", t.id);
    link.href = "/tables/" + encodeURIComponent(t.id);
    var first = el("td");
    first.dataset.label = "table";
    first.appendChild(link);
    tr.appendChild(first);
    [["game", t.game], ["rules", t.rules], ["seats", t.seats.join(", ")]].forEach(function (c) {
      var td = el("td", "", c[1]);
      td.dataset.label = c[0];
      tr.appendChild(td);
    });
    var status = el("td");
    status.dataset.label = "status";
    status.appendChild(el("span", "badge " + t.status, t.status));
    tr.appendChild(status);
    return tr;
  }
  async function refresh(more) {
    try {
      var r = await fetch("/v1/tables" + (more && next ? "?cursor=" + encodeURIComponent(next) : ""));
      if (!r.ok) { return; }
      var page = await r.json(), rows = $("rows");
      if (!more) { rows.textContent = ""; }
      page.tables.forEach(function (t) { rows.appendChild(row(t)); });
      next = page.next;
      $("more").hidden = next === null;
      if ($("none")) { $("none").hidden = rows.children.length > 0; }
    } catch (err) { /* the next refresh tries again */ }
  }
  $("more").onclick = function () { refresh(true); };
  setInterval(function () { if (!next || $("rows").children.length <= 50) { refresh(false); } }, 10000);
  refresh(false);

  // ------------------------------------------------------------------ the form

  function fillGames() {
    games.forEach(function (g) {
      var o = el("option", "", g.title);
      o.value = g.name;
      $("game").appendChild(o);
    });
  }
  function fillRules() {
    var g = chosen(), select = $("rules");
    select.textContent = "";
    g.rule_sets.forEach(function (r) {
      var o = el("option", "", r.name + (r.name === g.default ? " (default)" : ""));
      o.value = r.name;
      select.appendChild(o);
    });
    select.value = g.default;
    $("rounds-box").hidden = !g.rounds;
    fillOptions();
    fillSeats(true);
  }
  function fillOptions() {
    var g = chosen(), box = $("options"), preset = (g.presets || {})[$("rules").value] || {};
    var about = g.rule_sets.filter(function (r) { return r.name === $("rules").value; })[0];
    $("rules-about").textContent = about ? about.about : "";
    box.textContent = "";
    $("options-box").hidden = !g.options.length;
    g.options.forEach(function (o) {
      var line = el("label", "opt"), value = preset[o.name], input;
      if (o.kind === "bool") {
        input = el("input");
        input.type = "checkbox";
        input.checked = !!value;
      } else {
        input = el("select");
        var words = o.kind === "choice" ? o.choices : ["off", "3", "4", "5", "6", "7"];
        words.forEach(function (w) { var op = el("option", "", w); op.value = w; input.appendChild(op); });
        input.value = value === null || value === undefined ? "off" : String(value);
      }
      input.dataset.option = o.name;
      input.dataset.kind = o.kind;
      line.appendChild(input);
      line.appendChild(el("span", "", o.title));
      box.appendChild(line);
    });
  }
  // The options as the Options tag writes them: what differs from the preset.
  function optionsText() {
    var g = chosen(), preset = (g.presets || {})[$("rules").value] || {}, out = [];
    Array.prototype.forEach.call($("options").querySelectorAll("[data-option]"), function (input) {
      var name = input.dataset.option, was = preset[name];
      if (input.dataset.kind === "bool") {
        if (input.checked !== !!was) { out.push((input.checked ? "+" : "-") + name); }
      } else if (input.dataset.kind === "length") {
        var now = input.value === "off" ? null : parseInt(input.value, 10);
        if (now !== (was === undefined ? null : was)) { out.push(now === null ? "-" + name : name + "=" + now); }
      } else if (input.value !== was) {
        out.push(name + "=" + input.value);
      }
    });
    return out.join(" ");
  }
  function counts() { return chosen().seats[$("rules").value] || [2]; }
  function seatRow(name, kind) {
    var div = el("div", "seatrow"), input = el("input"), select = el("select"), remove = el("button", "", "\u2715");
    input.type = "text";
    input.value = name;
    input.maxLength = 32;
    input.setAttribute("aria-label", "player name");
    input.className = "seat-name";
    [["human", "a person"]].concat(BOTS.map(function (b) { return [b, "bot: " + b]; })).forEach(function (k) {
      var o = el("option", "", k[1]);
      o.value = k[0];
      select.appendChild(o);
    });
    select.value = kind;
    select.className = "seat-kind";
    select.setAttribute("aria-label", "who plays this seat");
    remove.type = "button";
    remove.title = "remove this seat";
    remove.setAttribute("aria-label", "remove this seat");
    remove.onclick = function () { if ($("seats").children.length > Math.min.apply(null, counts())) { div.remove(); seatButtons(); } };
    div.appendChild(input);
    div.appendChild(select);
    div.appendChild(remove);
    return div;
  }
  function fillSeats(fresh) {
    var g = chosen(), allowed = counts(), box = $("seats");
    var want = allowed.indexOf(box.children.length) >= 0 && !fresh ? box.children.length
      : Math.max(Math.min.apply(null, allowed), Math.min(Math.max.apply(null, allowed), 5));
    if (fresh) { box.textContent = ""; }
    while (box.children.length > want) { box.lastChild.remove(); }
    while (box.children.length < want) {
      var i = box.children.length;
      box.appendChild(seatRow(g.names[i] || "Player " + (i + 1), i === 0 ? "human" : (BOTS[BOTS.length - 1] || "human")));
    }
    seatButtons();
  }
  function seatButtons() {
    var allowed = counts(), n = $("seats").children.length;
    $("add-seat").hidden = n >= Math.max.apply(null, allowed);
  }
  $("add-seat").onclick = function () {
    var g = chosen(), i = $("seats").children.length;
    $("seats").appendChild(seatRow(g.names[i] || "Player " + (i + 1), BOTS[BOTS.length - 1] || "human"));
    seatButtons();
  };
  $("game").onchange = fillRules;
  $("rules").onchange = function () { fillOptions(); fillSeats(false); };

  $("create").onsubmit = async function (e) {
    e.preventDefault();
    $("create-error").textContent = "";
    var g = chosen(), seats = [], bots = {};
    Array.prototype.forEach.call($("seats").children, function (r) {
      var name = r.querySelector(".seat-name").value.trim(), kind = r.querySelector(".seat-kind").value;
      seats.push(name);
      if (kind !== "human") { bots[name] = kind; }
    });
    var body = {game: g.name, rules: $("rules").value, seats: seats, bots: bots};
    var options = optionsText();
    if (options) { body.options = options; }
    if ($("clock").value) { body.clock = {move_seconds: Number($("clock").value)}; }
    if (g.rounds && $("rounds").value) { body.rounds = parseInt($("rounds").value, 10); }
    if ($("seed").value) { body.seed = parseInt($("seed").value, 10); }
    $("start").disabled = true;
    try {
      var r = await fetch("/v1/tables", {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
      var answer = await r.json();
      if (r.status !== 201) {
        $("create-error").textContent = answer.error + (answer.detail && typeof answer.detail === "string" ? ": " + answer.detail : "");
        return;
      }
      var mine = {id: answer.id, game: g.title, rules: answer.rules, options: answer.options, seats: answer.seats};
      remember(mine);
      show($("links"), mine, true);
      $("new").hidden = true;
      $("created").hidden = false;
      $("created").scrollIntoView({block: "nearest"});
      refresh(false);
    } catch (err) {
      $("create-error").textContent = "the table was not started: " + err;
    } finally { $("start").disabled = false; }
  };

  // ------------------------------------------------------------------ seat links

  function seatUrl(id, token) { return location.origin + "/tables/" + encodeURIComponent(id) + "#token=" + encodeURIComponent(token); }
  function show(box, t, fresh) {
    if (fresh) { box.textContent = ""; }
    var head = el("p", "", t.game + " \u00b7 " + t.rules + (t.options ? " " + t.options : "") + " \u00b7 table ");
    var watch = el("a", "watch", t.id);
    watch.href = "/tables/" + encodeURIComponent(t.id);
    head.appendChild(watch);
    box.appendChild(head);
    t.seats.forEach(function (s) {
      var div = el("div", "seatlink");
      div.dataset.seat = s.name;
      div.appendChild(el("b", "", s.name));
      if (s.bot) {
        div.appendChild(el("span", "", " \u2014 played by the server (" + s.bot + ")"));
      } else {
        var input = el("input"), rowDiv = el("div", "row"), copy = el("button", "secondary", "Copy the link"),
          open = el("a", "play", "Play this seat here");
        input.readOnly = true;
        input.value = seatUrl(t.id, s.token);
        input.setAttribute("aria-label", "the seat link of " + s.name);
        copy.type = "button";
        copy.onclick = function () {
          input.select();
          var done = function () { copy.textContent = "Copied"; };
          if (navigator.clipboard) { navigator.clipboard.writeText(input.value).then(done, function () { document.execCommand("copy"); done(); }); }
          else { document.execCommand("copy"); done(); }
        };
        open.href = input.value;
        rowDiv.appendChild(copy);
        rowDiv.appendChild(open);
        div.appendChild(input);
        div.appendChild(rowDiv);
      }
      box.appendChild(div);
    });
  }
  function stored() {
    try { return JSON.parse(localStorage.getItem(STORE) || "[]"); } catch (err) { return []; }
  }
  function remember(t) {
    var all = [t].concat(stored().filter(function (x) { return x.id !== t.id; })).slice(0, 20);
    try { localStorage.setItem(STORE, JSON.stringify(all)); } catch (err) { /* private mode: shown once */ }
    listMine(t.id);
  }
  // the seat links this browser started earlier (the one just started is shown above)
  function listMine(fresh) {
    var all = stored().filter(function (t) { return t.id !== fresh; }), box = $("my-links");
    box.textContent = "";
    $("my-seats").hidden = all.length === 0;
    all.forEach(function (t) {
      var human = t.seats.filter(function (s) { return !s.bot; });
      if (human.length) { show(box, {id: t.id, game: t.game, rules: t.rules, options: t.options, seats: human}, false); }
    });
  }
  $("another").onclick = function () {
    $("created").hidden = true;
    $("new").hidden = false;
    $("new").scrollIntoView({block: "nearest"});
  };
  $("forget").onclick = function () {
    try { localStorage.removeItem(STORE); } catch (err) { /* nothing kept */ }
    listMine(null);
  };

  fillGames();
  fillRules();
  listMine(null);
})();
