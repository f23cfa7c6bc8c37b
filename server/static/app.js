/* Zilch Scorer web page: plain JavaScript, no build step.
 *
 * Routes (in the URL fragment, which the browser never sends to the server):
 *   #/                               start screen: preset, players, who starts; recent games
 *   #/game/ID/token/TOKEN            the scorer's link: keeps the token in this browser, then
 *   #/game/ID                        the game: throw screen (scorer) or watch (viewers)
 *   #/game/ID/sheet                  the score sheet
 *   #/game/ID/history                every throw, with thumbnails
 *   #/game/ID/throw/N                the dispute view of one throw
 */
"use strict";

const $app = document.getElementById("app");
const $toast = document.getElementById("toast");
const $role = document.getElementById("role");
let poller = null;
let presetsCache = null;

// ---------------------------------------------------------------- helpers

function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") el.className = v;
    else if (k === "text") el.textContent = v;
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "testid") el.dataset.testid = v;
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

const SVGNS = "http://www.w3.org/2000/svg";
function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") el.setAttribute("class", v);
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v);
  }
  for (const c of children.flat()) if (c) el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return el;
}

const PIPS = {
  1: [[50, 50]], 2: [[27, 27], [73, 73]], 3: [[27, 27], [50, 50], [73, 73]],
  4: [[27, 27], [73, 27], [27, 73], [73, 73]],
  5: [[27, 27], [73, 27], [50, 50], [27, 73], [73, 73]],
  6: [[27, 27], [73, 27], [27, 50], [73, 50], [27, 73], [73, 73]],
};

/** A die face as an SVG picture (with its value for screen readers and tests). */
function die(face, cls = "") {
  const svg = s("svg", { viewBox: "0 0 100 100", class: `die ${cls}`, role: "img",
    "aria-label": String(face), "data-face": String(face) });
  svg.append(s("rect", { x: 4, y: 4, width: 92, height: 92, rx: 16 }));
  for (const [x, y] of PIPS[face] || []) svg.append(s("circle", { cx: x, cy: y, r: 9 }));
  return svg;
}
function diceRow(faces, cls = "", testid = null) {
  const row = h("div", { class: "dice", testid, "data-faces": faces.join("") });
  for (const f of faces) row.append(die(f, cls));
  return row;
}

/** "2 × single 1 + three 5s": the combinations of a keep, repeats counted. */
function comboWords(combos) {
  const counts = new Map();
  for (const c of combos) counts.set(c.name, (counts.get(c.name) || 0) + 1);
  return [...counts].map(([name, n]) => (n > 1 ? `${n} × ${name}` : name)).join(" + ");
}

function fmt(points) {
  if (points === null || points === undefined) return "";
  return Number.isInteger(points) ? String(points) : String(Math.round(points * 100) / 100);
}

function toast(message, kind = "error") {
  $toast.textContent = message;
  $toast.className = `toast ${kind === "error" ? "" : "info"}`;
  $toast.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { $toast.hidden = true; }, kind === "error" ? 6000 : 2500);
}

function tokenFor(id) { return localStorage.getItem(`zilch.token.${id}`); }

async function api(method, path, body, { gameId = null, raw = null, contentType = null } = {}) {
  const headers = {};
  const token = gameId ? tokenFor(gameId) : null;
  if (token) headers.Authorization = `Bearer ${token}`;
  let payload;
  if (raw) { payload = raw; headers["Content-Type"] = contentType || "application/octet-stream"; }
  else if (body !== undefined) { payload = JSON.stringify(body); headers["Content-Type"] = "application/json"; }
  let res;
  try {
    res = await fetch(path, { method, headers, body: payload });
  } catch (e) {
    throw new Error("the server could not be reached (or it refused the upload)");
  }
  const text = await res.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch (e) { data = null; }
  if (!res.ok) throw new Error((data && data.error) || `the server answered ${res.status}`);
  return data;
}

async function presets() {
  if (!presetsCache) presetsCache = await api("GET", "/api/presets");
  return presetsCache;
}

// ---------------------------------------------------------------- routing

function route() {
  clearInterval(poller);
  poller = null;
  const parts = location.hash.replace(/^#\/?/, "").split("/").filter(Boolean);
  if (parts[0] === "game" && parts[1]) {
    const id = decodeURIComponent(parts[1]);
    if (parts[2] === "token" && parts[3]) {
      localStorage.setItem(`zilch.token.${id}`, decodeURIComponent(parts[3]));
      history.replaceState(null, "", `#/game/${id}`);
      return route();
    }
    if (parts[2] === "sheet") return showGame(id, "sheet");
    if (parts[2] === "history") return showGame(id, "history");
    if (parts[2] === "throw" && parts[3]) return showDispute(id, Number(parts[3]));
    return showGame(id, "throw");
  }
  return showStart();
}
window.addEventListener("hashchange", route);

// ---------------------------------------------------------------- start screen

async function showStart() {
  $role.textContent = "";
  const all = await presets().catch((e) => { toast(e.message); return []; });
  const state = { players: ["", ""], starterThrows: {} };
  const select = h("select", { id: "preset", testid: "preset" },
    all.map((p) => h("option", { value: p.name, text: p.name })));
  const summary = h("p", { class: "muted", testid: "preset-summary" });
  const target = h("input", { type: "number", id: "target", min: 1, step: 50, placeholder: "10000", testid: "target" });
  const list = h("ol");
  const starterBox = h("div", { testid: "starter" });

  function current() { return all.find((p) => p.name === select.value) || all[0]; }
  function names() { return state.players.map((n) => n.trim()).filter(Boolean); }

  function drawPlayers() {
    list.replaceChildren(...state.players.map((name, i) => h("li", {},
      h("input", { value: name, placeholder: `Player ${i + 1}`, "aria-label": `player ${i + 1}`,
        testid: `player-${i}`, maxlength: 40,
        oninput: (e) => { state.players[i] = e.target.value; drawStarter(); } }),
      h("button", { type: "button", title: "move up", "aria-label": "move up", disabled: i === 0,
        onclick: () => { [state.players[i - 1], state.players[i]] = [state.players[i], state.players[i - 1]]; drawPlayers(); } }, "↑"),
      h("button", { type: "button", title: "remove", "aria-label": "remove", disabled: state.players.length <= 1,
        onclick: () => { state.players.splice(i, 1); drawPlayers(); } }, "✕"))));
    drawStarter();
  }

  function drawStarter() {
    const p = current();
    if (!p) return;
    const who = names();
    const rule = p.starter_rule;
    if (rule === "any" || who.length < 2) {
      starterBox.replaceChildren(h("p", { class: "muted" },
        rule === "any" ? "Agree who starts, and put that player first." : "Add players to choose who starts."));
      return;
    }
    const how = rule === "one_die"
      ? "Each player throws one die; the highest starts, the tied highest throw again."
      : "Each player rolls, keeping dice, until a zilch; the highest total before the zilch starts.";
    const inputs = who.map((name) => {
      const input = rule === "one_die"
        ? h("select", { "aria-label": `${name}'s die`, testid: `starter-${name}` },
            h("option", { value: "", text: "–" }), [1, 2, 3, 4, 5, 6].map((f) => h("option", { value: f, text: f })))
        : h("input", { type: "number", min: 0, step: 50, "aria-label": `${name}'s points before the zilch`, testid: `starter-${name}` });
      return h("div", { class: "row" }, h("span", { class: "grow" }, name), input);
    });
    const out = h("p", { testid: "starter-result" });
    const go = h("button", { type: "button", onclick: async () => {
      const throws = {};
      who.forEach((name, i) => {
        const v = inputs[i].lastChild.value;
        if (v !== "") throws[name] = Number(v);
      });
      try {
        const r = await api("POST", "/api/starter", { preset: p.name, throws, seating: who });
        if (r.starter) {
          // the engine's playing order: the starter, then those to their left
          state.players = r.order;
          drawPlayers();
          starterBox.append(h("p", { class: "banner good", testid: "starter-result" }, `${r.starter} starts.`));
        } else {
          out.textContent = `${r.throw_again.join(" and ")} tie: throw again.`;
        }
      } catch (e) { toast(e.message); }
    } }, "Who starts?");
    starterBox.replaceChildren(h("p", { class: "muted" }, how), ...inputs, h("div", { class: "row" }, go), out);
  }

  select.addEventListener("change", () => {
    const p = current();
    summary.textContent = p ? p.summary : "";
    target.placeholder = p ? String(p.target) : "";
    drawStarter();
  });

  const create = h("button", { class: "primary", type: "submit", testid: "create" }, "Start the game");
  const form = h("form", { onsubmit: async (e) => {
    e.preventDefault();
    const body = { preset: select.value, players: names() };
    if (target.value) body.target = Number(target.value);
    create.disabled = true;
    try {
      const game = await api("POST", "/api/games", body);
      localStorage.setItem(`zilch.token.${game.id}`, game.token);
      location.hash = `#/game/${game.id}`;
    } catch (err) { toast(err.message); }
    create.disabled = false;
  } },
    h("div", { class: "card" },
      h("h2", {}, "New game"),
      h("label", { for: "preset" }, "Rules"), select, summary,
      h("label", { for: "target" }, "Target (points that end the game)"), target),
    h("div", { class: "card players" },
      h("h2", {}, "Players, in playing order"), list,
      h("button", { type: "button", testid: "add-player",
        onclick: () => { state.players.push(""); drawPlayers(); list.lastChild.querySelector("input").focus(); } }, "+ Add a player")),
    h("div", { class: "card" }, h("h2", {}, "Who starts"), starterBox),
    h("div", { class: "row" }, create));

  const recent = h("div", { class: "card" }, h("h2", {}, "Recent games"));
  api("GET", "/api/games").then((games) => {
    if (!games.length) recent.append(h("p", { class: "muted" }, "None yet."));
    recent.append(h("ul", {}, games.slice(0, 10).map((g) => h("li", {},
      h("a", { href: `#/game/${g.id}`, class: "button" }, `${g.players.join(", ")} · ${g.preset}`),
      tokenFor(g.id) ? " (scorer)" : " (watch)"))));
  }).catch(() => {});

  $app.replaceChildren(h("div", { class: "layout" }, form, recent));
  select.dispatchEvent(new Event("change"));
  drawPlayers();
}

// ---------------------------------------------------------------- the game

async function showGame(id, tab) {
  const scorer = Boolean(tokenFor(id));
  $role.textContent = scorer ? "scorer" : "watching (read-only)";
  $role.dataset.role = scorer ? "scorer" : "viewer";
  const tabs = h("nav", { class: "tabs" },
    h("a", { href: `#/game/${id}`, class: tab === "throw" ? "on" : "", testid: "tab-throw" }, scorer ? "Throw" : "Now"),
    h("a", { href: `#/game/${id}/sheet`, class: tab === "sheet" ? "on" : "", testid: "tab-sheet" }, "Sheet"),
    h("a", { href: `#/game/${id}/history`, class: tab === "history" ? "on" : "", testid: "tab-history" }, "History"));
  const body = h("div", {});
  $app.replaceChildren(tabs, body);

  async function refresh() {
    try {
      const game = await api("GET", `/api/games/${id}`);
      if (tab === "sheet") body.replaceChildren(sheetView(game));
      else if (tab === "history") body.replaceChildren(await historyView(id));
      else body.replaceChildren(await throwView(game, scorer, refresh));
    } catch (e) {
      body.replaceChildren(h("div", { class: "card" }, h("p", {}, e.message), h("a", { href: "#/", class: "button" }, "Start screen")));
    }
  }
  await refresh();
  if (!scorer) poller = setInterval(refresh, 4000); // viewers follow the game
}

function statusBar(game) {
  const st = game.state;
  const cur = st.current;
  if (st.finished) {
    return h("div", { class: "card banner good", testid: "result" }, game.sheet.result || `Winner: ${st.winners.join(", ")}`);
  }
  return h("div", { class: "card status", testid: "status" },
    h("div", {}, h("span", { class: "muted" }, "Turn"), h("b", { testid: "current-player" }, cur.player)),
    h("div", {}, h("span", { class: "muted" }, "This turn"), h("b", { testid: "turn-points" }, fmt(cur.turn_points))),
    h("div", {}, h("span", { class: "muted" }, "Dice left"), h("b", { testid: "dice-left" }, cur.dice_left)));
}

async function throwView(game, scorer, refresh) {
  const id = game.id;
  const st = game.state;
  const cur = st.current;
  const left = h("div", {});
  const right = h("div", {});
  left.append(statusBar(game));

  let pending = null;
  if (game.pending_throw) {
    pending = await api("GET", `/api/games/${id}/throws/${game.pending_throw}`);
  }

  async function act(fn) {
    try { await fn(); await refresh(); } catch (e) { toast(e.message); }
  }

  // the turn's controls: bank, undo
  if (scorer && !st.finished) {
    left.append(h("div", { class: "card row" },
      h("button", { class: "primary grow", testid: "bank", disabled: !cur.can_bank,
        onclick: () => act(() => api("POST", `/api/games/${id}/events`, { bank: true }, { gameId: id })) },
        `Bank ${fmt(cur.turn_points)}`),
      h("button", { testid: "undo", disabled: game.events === 0,
        onclick: () => act(() => api("POST", `/api/games/${id}/events`, { undo: true }, { gameId: id })) },
        "Undo")));
  } else if (scorer && st.finished && game.events) {
    left.append(h("div", { class: "card row" }, h("a", { class: "button", href: `#/game/${id}/sheet` }, "See the sheet")));
  }

  // a photo or typed throw in play
  if (pending) left.append(pendingCard(game, pending, scorer, act));
  else if (game.zilch_throw && st.sheet.length) {
    const lastRow = st.sheet[st.sheet.length - 1];
    left.append(h("div", { class: "banner zilch", testid: "zilch" },
      `Zilch! ${lastRow.player} scores nothing this turn${lastRow.penalty ? ` (−${fmt(lastRow.penalty)} penalty)` : ""}.`));
  }

  // taking a photo, or typing the faces
  if (scorer && !st.finished && !cur.roll) {
    right.append(photoCard(game, act));
    right.append(typeCard(game, act));
  }
  right.append(h("div", { class: "card" }, h("h3", {}, "Totals"), miniTotals(game)));
  return h("div", { class: "layout" }, left, right);
}

function miniTotals(game) {
  const st = game.state;
  return h("table", { class: "kv", testid: "totals" }, st.players.map((p) => h("tr", {},
    h("th", {}, p, p === st.current.player && !st.finished ? " ◀" : ""),
    h("td", { "data-player": p }, fmt(st.totals[p])))));
}

function photoCard(game, act) {
  const input = h("input", { type: "file", accept: "image/jpeg,image/png", capture: "environment",
    class: "hidden-input", id: "photo-input", testid: "photo-input" });
  input.addEventListener("change", () => {
    const file = input.files[0];
    if (!file) return;
    if (file.size > 15 * 1024 * 1024) { toast("the photo is larger than 15 MB"); return; }
    act(() => api("POST", `/api/games/${game.id}/throws`, null,
      { gameId: game.id, raw: file, contentType: file.type === "image/png" ? "image/png" : "image/jpeg" }));
  });
  return h("div", { class: "card" },
    h("h3", {}, `${game.state.current.player}: throw ${game.state.current.dice_left} dice`),
    h("label", { for: "photo-input", class: "button primary", style: "width:100%" }, "Take or upload a photo"),
    input,
    h("a", { href: `live.html#game=${encodeURIComponent(game.id)}`, class: "button", testid: "live-camera",
      style: "width:100%;margin-top:.5em" }, "Live camera: each throw read as it settles"));
}

function typeCard(game, act) {
  const need = game.state.current.dice_left;
  const chosen = [];
  const shown = h("div", { class: "dice", testid: "typed-faces" });
  const go = h("button", { class: "primary", testid: "type-roll", disabled: true }, `Roll these`);
  function draw() {
    shown.replaceChildren(...chosen.map((f, i) => h("button", { class: "facebtn", title: "remove",
      onclick: () => { chosen.splice(i, 1); draw(); } }, die(f))));
    go.disabled = chosen.length !== need;
    go.textContent = chosen.length === need ? `Roll ${chosen.join(" ")}` : `Tap ${need - chosen.length} more`;
  }
  go.addEventListener("click", () => act(() => api("POST", `/api/games/${game.id}/throws/typed`,
    { faces: chosen }, { gameId: game.id })));
  draw();
  return h("div", { class: "card" },
    h("h3", {}, "No photo? Tap the faces"),
    h("div", { class: "picker", testid: "face-picker" }, [1, 2, 3, 4, 5, 6].map((f) =>
      h("button", { class: "facebtn", "aria-label": `face ${f}`, testid: `face-${f}`,
        onclick: () => { if (chosen.length < need) { chosen.push(f); draw(); } } }, die(f)))),
    h("p", { class: "muted" }, "Chosen (tap one to remove):"), shown, h("div", { class: "row" }, go));
}

/** The scorer's answer for an unsure die that is no die at all (a speck, a shadow, a pattern):
 * sent as a null face, and left out of the faces played. */
const NO_DIE = "none";

/** The face the scorer tapped for each die of a throw's reading (NO_DIE: none there), by its
 * standing corrections (one whose roll was undone counts no more). */
function tappedDice(t) {
  const out = {};
  for (const c of t.corrections || []) if (!c.undone) for (const d of c.data.dice || []) out[d.index] = d.value ?? NO_DIE;
  return out;
}

/** The photo with boxes and values drawn over it; uncertain dice can be tapped. */
function photoOverlay(t, fixes, onTap) {
  const r = t.reading;
  const wrap = h("div", { class: "photo", testid: "overlay" });
  wrap.append(h("img", { src: t.photo_url, alt: "the throw" }));
  const svg = s("svg", { class: "boxes", viewBox: `0 0 ${r.width} ${r.height}`, preserveAspectRatio: "none" });
  const fontSize = Math.max(18, Math.round(Math.max(r.width, r.height) / 28));
  r.dice.forEach((d, i) => {
    const [x, y, w, hgt] = d.box;
    const flag = ["cocked", "off_table", "uncertain"].find((f) => d.flags.includes(f)) || "ok";
    const fixed = fixes[i];
    const cls = fixed === NO_DIE ? "nodie" : fixed ? "fixed" : flag;
    let label = fixed === NO_DIE ? "no die" : fixed ? `${fixed}` : d.value === null ? "?" : String(d.value);
    if (flag === "cocked") label += " cocked: throw again";
    else if (flag === "off_table") label += " off table: throw again";
    else if (flag === "uncertain" && !fixed) label += "?";
    const g = s("g", { class: cls, "data-die": i, "data-flag": flag },
      s("rect", { x, y, width: w, height: hgt, rx: 6 }),
      s("text", { x, y: y > fontSize + 4 ? y - 6 : y + hgt + fontSize, "font-size": fontSize }, label));
    if (onTap && flag === "uncertain") g.addEventListener("click", () => onTap(i));
    svg.append(g);
  });
  wrap.append(svg);
  return h("div", {}, wrap, h("div", { class: "legend" },
    h("span", { class: "ok" }, "read"), h("span", { class: "uncertain" }, "unsure: tap it"),
    h("span", { class: "cocked" }, "cocked"), h("span", { class: "off_table" }, "off the table")));
}

function pendingCard(game, t, scorer, act) {
  const id = game.id;
  const card = h("div", { class: "card", testid: "throw", "data-status": t.status });
  card.append(h("h3", {}, `Throw ${t.n}`, t.player ? ` · ${t.player}` : "", " ",
    h("span", { class: `tag ${t.status}`, testid: "throw-status" }, t.status)));
  const fixes = tappedDice(t);
  if (t.reading) {
    const again = t.reading.rethrow;
    const picker = h("div", { class: "picker", testid: "fix-picker" });
    let faceBox = h("div", {});
    const overlayBox = h("div", {});
    function faces() {
      // the faces the scorer confirms: every unflagged die, with the tapped faces for unsure ones
      const out = [];
      t.reading.dice.forEach((d, i) => {
        if (fixes[i] === NO_DIE) return;
        if (fixes[i]) out.push(fixes[i]);
        else if (!d.flags.length && d.value !== null) out.push(d.value);
      });
      return out;
    }
    function draw() {
      overlayBox.replaceChildren(photoOverlay(t, fixes, scorer && t.status !== "rolled" ? ask : null));
      const f = t.status === "rolled" && t.faces ? t.faces : faces();
      faceBox.replaceChildren(h("p", {}, t.status === "rolled" ? "In play: " : "Read: "), diceRow(f, "", "read-faces"));
      if (confirm) confirm.disabled = f.length !== t.dice_expected || again;
      // every unsure die gets its own row of faces to tap (44 px targets, whatever the photo size);
      // none when the throw must be thrown again: nothing of it is played
      picker.replaceChildren(...(scorer && t.status !== "rolled" && !again ? t.reading.dice.map((d, i) => {
        if (!d.flags.includes("uncertain")) return null;
        return h("div", { class: "picker", testid: `fix-die-${i}` },
          h("span", { class: "grow" }, `Die ${i + 1} (amber box, read ${d.value ?? "?"}) shows:`),
          [1, 2, 3, 4, 5, 6].map((v) => h("button", { class: `facebtn ${fixes[i] === v ? "on" : ""}`,
            "aria-label": `die ${i + 1} shows ${v}`, "aria-pressed": fixes[i] === v ? "true" : "false",
            testid: `fix-${i}-${v}`, onclick: () => { fixes[i] = v; draw(); } }, die(v))),
          h("button", { class: `nodiebtn ${fixes[i] === NO_DIE ? "on" : ""}`,
            "aria-label": `die ${i + 1} is no die`, "aria-pressed": fixes[i] === NO_DIE ? "true" : "false",
            testid: `fix-${i}-none`, onclick: () => { fixes[i] = NO_DIE; draw(); } }, "No die"));
      }).filter(Boolean) : []));
    }
    function ask(i) {
      const row = picker.querySelector(`[data-testid=fix-die-${i}] button`);
      if (row) row.focus();
    }
    let confirm = null;
    if (scorer && t.status !== "rolled") {
      confirm = h("button", { class: "primary", testid: "confirm",
        onclick: () => act(() => api("POST", `/api/games/${id}/throws/${t.n}/confirm`, {
          faces: faces(),
          dice: Object.entries(fixes).map(([i, v]) => ({ index: Number(i), value: v === NO_DIE ? null : v })),
        }, { gameId: id })) }, "These are the faces: play them");
    }
    card.append(overlayBox);
    if (again) card.append(h("div", { class: "banner again", testid: "throw-again" }, `${t.problem}. Throw again.`));
    else if (t.problem) card.append(h("div", { class: "banner ask", testid: "problem" }, t.problem));
    card.append(faceBox, picker);
    if (confirm) card.append(h("div", { class: "row" }, confirm));
    draw();
  } else if (t.faces) {
    card.append(h("p", {}, "Typed: "), diceRow(t.faces, "", "read-faces"));
  }

  // the legal keeps, best first, the maximum marked
  if (t.status === "rolled" || (t.options && t.status !== "rolled")) {
    const rolled = t.status === "rolled";
    const keeps = rolled ? game.keeps : (t.options ? t.options.options.map((o) => ({ keep: o.keep, points: o.points })) : []);
    const combos = {};
    (t.options ? t.options.options : []).forEach((o) => { combos[o.keep.join("")] = o; });
    const max = keeps.length ? Math.max(...keeps.map((k) => k.points)) : 0;
    const claim = h("input", { type: "number", step: 50, min: 0, placeholder: "claimed", "aria-label": "claimed score", testid: "claim" });
    const claimOut = h("p", { testid: "claim-result" });
    card.append(h("h3", {}, rolled ? "Keep which dice?" : "What it would score (confirm the faces to keep)"),
      h("p", { testid: "max" }, h("span", { class: "maxmark" }, "★ max "), h("b", { testid: "max-points" }, fmt(max))));
    const advised = t.advice && t.advice.options && t.advice.options.length ? t.advice.options[0] : null;
    if (advised) {
      card.append(h("p", { class: "banner good", testid: "advice" }, "Advice: keep ",
        advised.keep.join(""), advised.then === "bank" ? ", then bank" : ", then roll",
        advised.expected !== undefined ? ` (about ${Math.round(advised.expected)} expected)` : ""));
    }
    card.append(h("ol", { class: "keeps", testid: "keeps" }, keeps.map((k) => {
      const o = combos[k.keep.join("")];
      const isMax = k.points === max;
      return h("li", { class: isMax ? "max" : "" }, h("button", {
        testid: `keep-${k.keep.join("")}`, disabled: !(scorer && rolled),
        onclick: () => act(() => api("POST", `/api/games/${id}/throws/${t.n}/keep`,
          { keep: k.keep, ...(claim.value ? { claim: Number(claim.value) } : {}) }, { gameId: id })),
      }, diceRow(k.keep, "kept"), h("span", { class: "grow" }, o ? h("span", { class: "why" }, comboWords(o.combos), o.hot_dice ? " · hot dice" : "") : ""),
        h("span", { class: "pts" }, isMax ? "★ " : "", fmt(k.points))));
    })));
    if (rolled) {
      card.append(h("div", { class: "row" }, h("span", {}, "Claimed score:"), claim,
        h("button", { testid: "check-claim", onclick: async () => {
          if (!claim.value) return;
          try {
            const r = await api("POST", `/api/games/${id}/throws/${t.n}/claim`, { claim: Number(claim.value) });
            claimOut.textContent = r.message;
            claimOut.className = r.ok ? "banner good" : "banner ask";
          } catch (e) { toast(e.message); }
        } }, "Check")), claimOut);
    }
  }
  return card;
}

// ---------------------------------------------------------------- the score sheet

function sheetTable(sheet, game) {
  const st = game.state;
  const winners = new Set(st.winners);
  const table = h("table", { class: "sheet", testid: "sheet" });
  table.append(h("thead", {}, h("tr", {}, h("th", { class: "round" }, "#"),
    sheet.players.map((p) => h("th", { class: !st.finished && p === st.current.player ? "now" : "", "data-player": p },
      winners.has(p) ? h("span", { class: "winner", testid: "winner" }, p) : p)))));
  const body = h("tbody", {});
  sheet.rows.forEach((row, r) => {
    body.append(h("tr", {}, h("td", { class: "round" }, r + 1), row.map((c, i) => {
      if (!c) return h("td", {});
      const cls = c.zilch && c.points === 0 && c.penalty === 0 ? "z" : c.penalty ? "pen" : "";
      const bits = [];
      if (c.mousehole) bits.push(h("span", { class: `hole ${c.mousehole.startsWith("black") ? "black" : ""}`, title: c.mousehole }));
      let text = c.text.replace(/\^+$/, "").replace(/^\((o|@)\)$/, "");
      if (text) bits.push(text);
      if (c.chevrons) bits.push(h("span", { class: "chev", title: `${c.chevrons} turnover(s)` }, "^".repeat(c.chevrons)));
      return h("td", { class: cls, "data-player": sheet.players[i], "data-round": r + 1,
        title: c.penalty ? `penalty −${fmt(c.penalty)}` : c.zilch ? "zilch" : `+${fmt(c.points)}` }, bits);
    })));
  });
  table.append(body);
  table.append(h("tfoot", {}, h("tr", {}, h("td", { class: "round" }, "Σ"),
    sheet.players.map((p, i) => h("td", { "data-total": p, testid: `total-${p}` },
      winners.has(p) ? h("span", { class: "winner" }, sheet.totals[i]) : sheet.totals[i])))));
  return table;
}

function sheetView(game) {
  const card = h("div", { class: "card" });
  let documentScale = false;
  function draw() {
    const sheet = documentScale && game.sheet_document ? game.sheet_document : game.sheet;
    card.replaceChildren(...[
      h("h2", {}, `Score sheet · ${game.preset}`),
      h("p", { class: "muted" }, game.summary),
      h("div", { class: "sheetwrap" }, sheetTable(sheet, game)),
      game.state.finished ? h("p", { class: "banner good", testid: "result" }, game.sheet.result) : null,
      game.sheet_document ? h("button", { onclick: () => { documentScale = !documentScale; draw(); } },
        documentScale ? "Show game points" : `Show the sheet's own scale (÷${game.sheet_scale}, X = half)`) : null,
      h("p", { class: "muted" }, "Z: a zilch. A penalty shows in the total.",
        game.sheet_document ? " ○ white mousehole: a 5-dice zilch; ● black mousehole: a 6-dice zilch; ^ one per turnover in the zilched turn." : ""),
    ].filter(Boolean));
  }
  draw();
  return h("div", {}, statusBar(game), card);
}

// ---------------------------------------------------------------- history and disputes

async function historyView(id) {
  const hist = await api("GET", `/api/games/${id}/history`);
  const card = h("div", { class: "card" }, h("h2", {}, "Every throw"));
  if (!hist.throws.length) card.append(h("p", { class: "muted" }, "No throw yet."));
  card.append(h("ul", { class: "history", testid: "history" }, hist.throws.slice().reverse().map((t) =>
    h("li", {}, h("a", { href: `#/game/${id}/throw/${t.n}`, testid: `history-${t.n}` },
      t.thumbnail_url ? h("img", { src: t.thumbnail_url, alt: `throw ${t.n}`, loading: "lazy" }) : h("span", { class: "noimg" }, "typed"),
      h("div", { class: "grow" },
        h("div", {}, h("b", {}, `#${t.n} `), t.player || "", " ", h("span", { class: `tag ${t.status}` }, t.status)),
        t.faces ? diceRow(t.faces) : null,
        t.keep ? h("div", { class: "muted" }, `kept ${t.keep.join("")} for ${fmt(t.points)}`) : null))))));
  return card;
}

async function showDispute(id, n) {
  $role.textContent = tokenFor(id) ? "scorer" : "watching (read-only)";
  const back = h("nav", { class: "tabs" },
    h("a", { href: `#/game/${id}/history`, testid: "back" }, "← History"),
    h("a", { href: `#/game/${id}/sheet` }, "Sheet"));
  let t;
  try { t = await api("GET", `/api/games/${id}/throws/${n}`); } catch (e) {
    $app.replaceChildren(back, h("div", { class: "card" }, e.message)); return;
  }
  const card = h("div", { class: "card", testid: "dispute" });
  const title = h("h2", {}, `Throw ${t.n}`, t.player ? ` · ${t.player}` : "", " ", h("span", { class: `tag ${t.status}`, testid: "dispute-status" }, t.status));
  const kv = h("table", { class: "kv" },
    h("tr", {}, h("th", {}, "Taken"), h("td", {}, new Date(t.created_at).toLocaleString())),
    h("tr", {}, h("th", {}, "Source"), h("td", {}, t.source === "photo" ? "photo" : "faces typed by the scorer")),
    t.model_version ? h("tr", {}, h("th", {}, "Read by model"), h("td", { testid: "model-version" }, t.model_version)) : null,
    t.reading ? h("tr", {}, h("th", {}, "Faces read"), h("td", {}, diceRow(t.reading.values, "", "dispute-read"))) : null,
    ...t.corrections.map((c) => h("tr", { class: "diff" }, h("th", {}, "Corrected by the scorer"),
      h("td", { testid: "correction" }, diceRow(c.data.faces), c.undone ? " (taken back)" : ""))),
    t.options ? h("tr", {}, h("th", {}, "Options shown"), h("td", { testid: "dispute-options" },
      `${t.options.options.length} keeps, max ${fmt(t.options.max)}`, t.options.zilch ? " (zilch)" : "")) : null,
    h("tr", {}, h("th", {}, "Kept"), h("td", { testid: "dispute-keep" }, t.keep ? [diceRow(t.keep, "kept"), ` for ${fmt(t.points)}`] : "—")),
    t.claim ? h("tr", {}, h("th", {}, "Claim"), h("td", {}, t.claim.message)) : null);
  const left = h("div", {});
  if (t.overlay_url) {
    left.append(h("div", { class: "photo" }, h("img", { src: `${t.overlay_url}?v=${t.notes.length}`, alt: "the photo with what was read", testid: "overlay-image" })),
      h("p", {}, h("a", { href: t.photo_url, target: "_blank", rel: "noopener", class: "button" }, "The photo as taken")));
  }
  if (t.reading) {
    const tapped = tappedDice(t);
    left.append(h("table", { class: "dice-read" }, h("tr", {}, h("th", {}, "#"), h("th", {}, "face"), h("th", {}, "confidence"), h("th", {}, "flags"), h("th", {}, "scorer")),
      t.reading.dice.map((d, i) => h("tr", {}, h("td", {}, i + 1), h("td", {}, d.value ?? "?"), h("td", {}, d.confidence.toFixed(2)), h("td", {}, d.flags.join(", ") || "—"),
        h("td", { testid: `scorer-said-${i}` }, tapped[i] === NO_DIE ? "no die" : tapped[i] ?? "—")))));
  }
  const reread = h("div", { testid: "reread" });
  if (t.reading) {
    card.append(h("button", { testid: "reread-button", onclick: async () => {
      reread.textContent = "Reading again…";
      try {
        const r = await api("GET", `/api/games/${id}/throws/${n}/reread`);
        reread.replaceChildren(h("p", { class: r.same ? "banner good" : "banner ask", testid: "reread-verdict" },
          r.same ? `The current model (${r.model_version_now}) reads the same.`
            : `The current model (${r.model_version_now}) reads it differently:`),
          r.same ? "" : h("ul", {}, r.changes.map((c) => h("li", {}, `die ${c.index + 1}: ${c.before ?? "?"} → ${c.after ?? "?"}` +
            (c.flags_before.join() !== c.flags_after.join() ? ` (flags ${c.flags_before.join(",") || "none"} → ${c.flags_after.join(",") || "none"})` : ""))),
            r.dice_added ? h("li", {}, `${r.dice_added} more dice found`) : null,
            r.dice_lost ? h("li", {}, `${r.dice_lost} dice no longer found`) : null),
          h("p", {}, "Now: ", diceRow(r.values_now)));
      } catch (e) { reread.textContent = e.message; }
    } }, "Read again with the current model"), reread);
  } else {
    card.append(h("p", { class: "muted" }, "The faces were typed: there is no photo to read again."));
  }
  $app.replaceChildren(back, title, h("div", { class: "layout" }, left, h("div", {}, h("div", { class: "card" }, kv), card)));
}

route();
