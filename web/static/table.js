// The rams card table: draws what the server sends (docs/web.md) and sends the person's moves.
// Seats in a message are relative to the viewer: 0 is her own (at the bottom), then clockwise.
"use strict";

const $ = (selector) => document.querySelector(selector);
const SUITS = { c: "\u2663", s: "\u2660", h: "\u2665", d: "\u2666" };
const TOKEN_KEY = "rams-table-token";
const FACT_KEYS = ["phase", "trump", "trump_card", "turned", "stake", "pot", "pot_at_play", "lives", "stock", "talon",
  "contract", "highest_bid", "round", "pinke", "tricks_played", "variant", "declarer"];
let catalog = null;
let socket = null;
let token = null;
let replay = null; // {data, index, timer}

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  for (const child of children) node.append(child);
  return node;
}

function card(code, size = "", extra = "") {
  const suit = code.slice(-1);
  const rank = code.slice(0, -1);
  const colour = suit === "h" || suit === "d" ? "red" : "black";
  const node = el("div", { class: `card ${size} ${colour} ${extra}`, "data-card": code, title: code },
    el("span", {}, rank), el("span", { class: "pip" }, SUITS[suit] || suit));
  return node;
}

function showError(text) {
  const box = $("#error");
  box.textContent = text;
  box.hidden = !text;
}

// ------------------------------------------------------------------ set-up
async function loadCatalog() {
  catalog = await (await fetch("/api/catalog")).json();
  const games = $("#game");
  for (const name of Object.keys(catalog.games)) games.append(el("option", { value: name }, name));
  games.value = "toepen";
  games.addEventListener("change", fillGame);
  $("#players").addEventListener("change", fillSeats);
  fillGame();
}

function fillGame() {
  const info = catalog.games[$("#game").value];
  const preset = $("#preset");
  preset.replaceChildren(...info.presets.map((p) => el("option", { value: p }, p)));
  const players = $("#players");
  players.min = info.players[0];
  players.max = info.players[1];
  players.value = info.default_players;
  $("#agent-specs").replaceChildren(...info.agents.map((a) => el("option", { value: a })));
  fillSeats();
}

function fillSeats() {
  const n = Number($("#players").value);
  const seat = $("#seat");
  const chosen = seat.value;
  seat.replaceChildren(...Array.from({ length: n }, (_, s) => el("option", { value: s }, `seat ${s}`)),
    el("option", { value: "spectate" }, "none: watch the agents"));
  seat.value = chosen && (chosen === "spectate" || Number(chosen) < n) ? chosen : "0";
  const info = catalog.games[$("#game").value];
  const box = $("#opponents");
  const legend = box.querySelector("legend");
  const count = seat.value === "spectate" ? n : n - 1;
  const inputs = Array.from({ length: count }, (_, i) => el("input", {
    name: "opponent", list: "agent-specs", value: info.agents[i % Math.max(1, info.agents.length - 1)],
    "aria-label": `agent ${i + 1}`,
  }));
  box.replaceChildren(legend, ...inputs);
}
$("#seat").addEventListener("change", fillSeats);

async function openTable(event) {
  event.preventDefault();
  const seat = $("#seat").value;
  const body = {
    game: $("#game").value, preset: $("#preset").value, players: Number($("#players").value),
    seat: seat === "spectate" ? null : Number(seat), pace: Number($("#pace").value),
    opponents: [...document.querySelectorAll("#opponents input")].map((i) => i.value.trim()),
    rules: $("#rules").value.trim(),
  };
  if ($("#seed").value !== "") body.seed = Number($("#seed").value);
  const button = $("#open");
  button.disabled = true;
  button.textContent = "Opening the table (a trained agent takes a few seconds to load)...";
  const reply = await fetch("/api/tables", { method: "POST", body: JSON.stringify(body) });
  const data = await reply.json();
  button.disabled = false;
  button.textContent = "Open the table";
  if (!reply.ok) {
    alert(data.error);
    return;
  }
  localStorage.setItem(TOKEN_KEY, data.token);
  connect(data.token);
}

// ------------------------------------------------------------------ the live table
function connect(newToken) {
  stopReplay();
  token = newToken;
  if (socket) socket.close();
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws/${token}`);
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "table") render(message);
    else if (message.type === "error") {
      showError(message.error);
      if (message.error.startsWith("no table")) {
        localStorage.removeItem(TOKEN_KEY);
        showSetup();
      }
    }
  };
  $("#save-record").href = `/api/tables/${token}/record`;
  $("#save-record").hidden = false;
}

function send(message) {
  showError("");
  socket.send(JSON.stringify(message));
}

function showSetup() {
  $("#setup").hidden = false;
  $("#table-view").hidden = true;
}

function showTable() {
  $("#setup").hidden = true;
  $("#table-view").hidden = false;
}

function seatPosition(r, n) {
  const angle = Math.PI / 2 + (2 * Math.PI * r) / n; // 0 at the bottom, then clockwise
  return { x: 50 + 37 * Math.cos(angle), y: 49 + 35 * Math.sin(angle) };
}

function shown(value) {
  if (value === true) return "yes";
  if (Array.isArray(value)) return value.join(" ");
  return String(value);
}

function seatBox(message, r) {
  const { view, setup } = message;
  const n = setup.players;
  const pos = seatPosition(r, n);
  const me = r === 0 && !message.spectator;
  const box = el("div", { class: `seat${message.to_act === r ? " to-act" : ""}${me ? " me" : ""}`,
    "data-seat": r, style: `left:${pos.x}%;top:${r === 0 ? 60 : pos.y}%` });
  box.append(el("div", { class: "name" }, message.names[r]));
  const score = message.scores[r];
  box.append(el("div", {}, el("span", { class: "score" }, `${score > 0 ? "+" : ""}${score} ${setup.unit}`),
    `  \u00b7 tricks ${view.tricks_won ? view.tricks_won[r] : 0}`));
  const badges = el("div", { class: "badges" });
  for (const key of setup.markers) if (view[key] === r) badges.append(el("span", { class: key }, key.replace("_", " ")));
  const facts = [];
  for (const key of [...setup.per_seat, "bids", "signals"]) {
    if (key === "tricks_won" || !Array.isArray(view[key]) || view[key].length !== n) continue;
    if (view[key].every((v) => v === true)) continue; // "in play" for everyone says nothing
    const value = view[key][r];
    if (value === false || value === 0 || value === "none" || value === null) continue;
    facts.push(value === true ? key.replace("_", " ") : `${key.replace("_", " ")} ${shown(value)}`);
  }
  box.append(badges, el("div", { class: "facts" }, facts.join(" \u00b7 ")));
  const cards = el("div", { class: "small-cards" });
  if (message.open && message.open.hands) {
    for (const c of message.open.hands[(message.seat + r) % n] || []) cards.append(card(c, "small"));
  } else if (view.played && view.played[r]) {
    for (const c of view.played[r]) cards.append(card(c, "small", "played"));
  }
  box.append(cards);
  return box;
}

function renderFacts(message) {
  const { view } = message;
  const parts = [];
  for (const key of FACT_KEYS) {
    const value = view[key];
    if (value === undefined || value === null || value === "none") continue;
    parts.push(el("span", {}, `${key.replace(/_/g, " ")} `, el("b", {}, shown(value)), "   "));
  }
  if (message.open) {
    for (const [place, value] of Object.entries(message.open)) {
      if (place === "hands" || value === null || (Array.isArray(value) && !value.flat().length)) continue;
      parts.push(el("span", {}, `${place} `, el("b", {}, shown(Array.isArray(value) ? value.flat() : value)), "   "));
    }
  }
  $("#facts").replaceChildren(...parts);
}

function renderTrick(message) {
  const n = message.setup.players;
  const cards = (message.view.trick || []).map(([r, code]) => {
    const pos = seatPosition(r, n);
    const node = card(code, "", "trick");
    node.style.left = `${50 + (pos.x - 50) * 0.75}%`;
    node.style.top = `${45 + (pos.y - 47) * 0.9}%`;
    return node;
  });
  $("#trick").replaceChildren(...cards);
}

function renderHand(message) {
  const hand = $("#hand");
  const moves = $("#moves");
  if (message.spectator) {
    hand.replaceChildren();
    moves.replaceChildren();
    return;
  }
  const byCard = new Map(message.legal.filter((m) => m.card).map((m) => [m.card, m]));
  hand.replaceChildren(...(message.view.hand || []).map((code) => {
    const move = byCard.get(code);
    const extra = message.legal.length ? (move ? "legal" : "dim") : "";
    const node = card(code, "big", extra);
    if (move) node.title = `${move.label}: ${move.doc}`;
    node.addEventListener("click", () => send({ type: "move", action: move ? move.label : code }));
    return node;
  }));
  moves.replaceChildren(...message.legal.filter((m) => !m.card).map((m) =>
    el("button", { type: "button", title: m.doc, "data-move": m.label, onclick: () => send({ type: "move", action: m.label }) },
      m.label)));
}

function renderStatus(message) {
  const status = $("#status");
  let text;
  if (message.session_over) text = "The session is over";
  else if (message.settlement) text = `Deal ${message.settlement.number} is over`;
  else if (message.legal.length) text = "Your turn";
  else if (message.to_act !== null) text = `${message.names[message.to_act]} to play`;
  else text = "";
  status.textContent = text;
  status.className = message.legal.length ? "mine" : "";
}

function renderSide(message) {
  const done = message.settlement;
  $("#settlement").hidden = !done;
  if (done) {
    const result = done.result.map((x, r) => `${message.names[r]} ${x > 0 ? "+" : ""}${x}`).join(", ");
    $("#settlement-title").textContent = `Deal ${done.number}: ${result}`;
    $("#settlement-lines").replaceChildren(...done.lines.map((line) => el("li", {}, line)));
    $("#next-deal").hidden = message.spectator || message.session_over;
  }
  $("#last-trick").replaceChildren(...(message.last_trick || []).map(([r, code]) => {
    const node = card(code, "small");
    node.title = `${message.names[r]}: ${code}`;
    return node;
  }));
  const log = $("#log");
  log.replaceChildren(...(message.log || []).map((e) =>
    el("li", { class: e.seat === null ? "note" : e.text.includes("takes the trick") ? "trick" : "" }, e.text)));
  log.scrollTop = log.scrollHeight;
  if (message.error) showError(message.error);
  const legend = $("#moves-legend");
  if (legend.dataset.game !== message.setup.game) {
    legend.dataset.game = message.setup.game;
    legend.replaceChildren(...message.setup.moves.flatMap((m) =>
      [el("dt", {}, m.example === m.kind ? m.kind : `${m.kind} (e.g. ${m.example})`), el("dd", {}, m.doc)]));
  }
}

function render(message) {
  showTable();
  const { setup } = message;
  $("#title").textContent = `${setup.game}${setup.preset ? ` (${setup.preset})` : ""}, ${setup.players} players, ` +
    `${setup.rules}${message.deals_played ? `, ${message.deals_played} deal(s) played` : ""}`;
  document.body.dataset.legal = message.legal.map((m) => m.label).join("|");
  document.body.dataset.version = String(Number(document.body.dataset.version || 0) + 1);
  document.body.dataset.state = message.session_over ? "over" : message.settlement ? "settled" :
    message.legal.length ? "mine" : "waiting";
  $("#seats").replaceChildren(...Array.from({ length: setup.players }, (_, r) => seatBox(message, r)));
  renderFacts(message);
  renderTrick(message);
  renderHand(message);
  renderStatus(message);
  renderSide(message);
}

// ------------------------------------------------------------------ start
$("#setup-form").addEventListener("submit", openTable);
$("#new-table").addEventListener("click", () => { stopReplay(); showSetup(); });
$("#next-deal").addEventListener("click", () => send({ type: "next" }));
loadCatalog().then(() => {
  const saved = localStorage.getItem(TOKEN_KEY);
  if (saved) connect(saved); // a reload resumes the table the server keeps
});
