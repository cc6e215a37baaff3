// The replay of a deal record (POST /api/replay: frames with every card open), drawn by table.js's render().
"use strict";

async function loadReplay(event) {
  const file = event.target.files[0];
  if (!file) return;
  const reply = await fetch("/api/replay", { method: "POST", body: await file.text() });
  const data = await reply.json();
  event.target.value = "";
  if (!reply.ok) {
    alert(data.error);
    return;
  }
  if (socket) socket.close();
  socket = null;
  replay = { data, index: 0, timer: null };
  $("#replay-controls").hidden = false;
  $("#save-record").hidden = true;
  $("#replay-slider").max = data.frames.length - 1;
  showReplayFrame(0);
}

function showReplayFrame(index) {
  const { data } = replay;
  replay.index = Math.max(0, Math.min(index, data.frames.length - 1));
  const frame = data.frames[replay.index];
  $("#replay-slider").value = replay.index;
  $("#replay-step").textContent = `${replay.index + 1} / ${data.frames.length}: ${frame.title}`;
  document.body.dataset.replay = String(replay.index);
  render({
    type: "table", setup: data.setup, seat: 0, spectator: true, names: data.names, view: frame.view,
    open: frame.open, to_act: frame.seat === undefined ? null : frame.seat, legal: [],
    log: data.frames.slice(Math.max(0, replay.index - 14), replay.index + 1).map((f) => ({ text: f.title })),
    last_trick: [], scores: frame.scores, deals_played: 0, session_over: false,
    settlement: frame.settlement ? { number: frame.title, result: frame.result, lines: frame.settlement } : null,
  });
}

function stopReplay() {
  if (replay && replay.timer) clearInterval(replay.timer);
  replay = null;
  $("#replay-controls").hidden = true;
}

$("#replay-first").addEventListener("click", () => showReplayFrame(0));
$("#replay-prev").addEventListener("click", () => showReplayFrame(replay.index - 1));
$("#replay-next").addEventListener("click", () => showReplayFrame(replay.index + 1));
$("#replay-slider").addEventListener("input", (e) => showReplayFrame(Number(e.target.value)));
$("#replay-play").addEventListener("click", () => {
  if (replay.timer) {
    clearInterval(replay.timer);
    replay.timer = null;
    return;
  }
  replay.timer = setInterval(() => showReplayFrame(replay.index + 1), 700);
});

$("#record-file").addEventListener("change", loadReplay);
