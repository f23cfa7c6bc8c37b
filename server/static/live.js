/* Zilch Scorer camera view: plain JavaScript, no build step.
 *
 *   live.html                          watch under the default preset
 *   live.html#rules=PRESET             watch under a preset
 *   live.html#game=ID                  watch for a game (the scorer's token is the one this
 *                                      browser keeps for it; or add &token=T)
 *
 * The camera (the rear one on a phone, at most 1280x720) is sent to /api/live as JPEG frames,
 * one at a time: the next frame goes when the answer to the last has come, so nothing queues up
 * on a slow machine or network. The answer says what the table shows; the reading is drawn over
 * the video, and one tap confirms a settled throw into the game.
 */
"use strict";

const JPEG_QUALITY = 0.85; // pips stay sharp; a 1280x720 frame is about 150 kB
const MAX_SIDE = 1280;

const $ = (id) => document.getElementById(id);
const video = $("video");
const overlay = $("overlay");
const stage = $("stage");
const status = $("status");
const result = $("result");

const params = new URLSearchParams(location.hash.replace(/^#/, ""));
const gameId = params.get("game");
let token = params.get("token");
if (gameId && !token) token = localStorage.getItem(`zilch.token.${gameId}`);
if (gameId && params.get("token")) {
  localStorage.setItem(`zilch.token.${gameId}`, params.get("token"));
  history.replaceState(null, "", `${location.pathname}#game=${encodeURIComponent(gameId)}`);
}

if (gameId) document.querySelector(".live-top .brand").href = `./#/game/${encodeURIComponent(gameId)}`;

// What the tests (and a curious player) can look at: every answer, with when its frame was taken.
const live = (window.zilchLive = { log: [], sent: 0, answered: 0, closed: null });

let ws = null;
let lastThrow = null; // the settled throw on show, from the update that read it
let lastThrowBlob = null; // its frame, to store with it when confirmed
let confirmed = 0; // the number of the throw already confirmed
let rulesName = "";
const grab = document.createElement("canvas");

function showError(message) {
  $("error").textContent = message;
  $("error").hidden = false;
}

function setStatus(state, text) {
  status.dataset.state = state;
  status.textContent = text;
}

async function startCamera() {
  if (!navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) {
    throw new Error("this browser cannot open a camera here (it needs https or localhost)");
  }
  const stream = await navigator.mediaDevices.getUserMedia({
    audio: false,
    video: {
      facingMode: { ideal: "environment" },
      width: { ideal: 1280, max: 1280 },
      height: { ideal: 720, max: 720 },
    },
  });
  video.srcObject = stream;
  await video.play();
  await new Promise((resolve) => {
    if (video.videoWidth) resolve();
    else video.addEventListener("loadedmetadata", resolve, { once: true });
  });
  live.videoStart = performance.now();
}

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  ws = new WebSocket(`${proto}://${location.host}/api/live`);
  ws.binaryType = "arraybuffer";
  ws.onopen = () => {
    const hello = gameId ? { game: gameId, token } : { rules: params.get("rules") || undefined };
    ws.send(JSON.stringify(hello));
  };
  ws.onmessage = (ev) => {
    const msg = JSON.parse(ev.data);
    if (msg.type === "ready") {
      rulesName = msg.rules;
      document.querySelector("[data-testid=live-rules]").textContent =
        `rules ${msg.rules}${msg.game ? ` · game ${msg.game}` : ""}`;
      setStatus("empty", "waiting for a throw");
      sendFrame();
    } else if (msg.type === "update") {
      onUpdate(msg);
      sendFrame();
    }
  };
  ws.onclose = (ev) => {
    live.closed = { code: ev.code, reason: ev.reason };
    if (ev.code !== 1000) {
      showError(`the camera view stopped: ${ev.reason || "the connection was lost"} (${ev.code})`);
      setStatus("closed", "stopped");
    }
  };
}

// A frame is sent only once the camera has given a new one: sending the same picture twice
// would look like a table that lies still.
let presented = 0; // frames the video element has shown
let lastSent = -1;
let waiting = false; // a send is due as soon as a new frame comes
if ("requestVideoFrameCallback" in HTMLVideoElement.prototype) {
  const onFrame = (now, meta) => {
    presented = meta.presentedFrames || presented + 1;
    if (waiting) { waiting = false; sendFrame(); }
    video.requestVideoFrameCallback(onFrame);
  };
  video.requestVideoFrameCallback(onFrame);
} else {
  // without the callback: a new frame at the camera's usual 30 frames/s
  setInterval(() => { presented += 1; if (waiting) { waiting = false; sendFrame(); } }, 33);
}

let pending = null; // the frame in flight: when it was taken, and its JPEG
function sendFrame() {
  if (!ws || ws.readyState !== WebSocket.OPEN || !video.videoWidth) {
    setTimeout(sendFrame, 50);
    return;
  }
  if (presented === lastSent) { waiting = true; return; }
  lastSent = presented;
  const scale = Math.min(1, MAX_SIDE / Math.max(video.videoWidth, video.videoHeight));
  grab.width = Math.round(video.videoWidth * scale);
  grab.height = Math.round(video.videoHeight * scale);
  grab.getContext("2d").drawImage(video, 0, 0, grab.width, grab.height);
  const taken = performance.now();
  const videoTime = video.currentTime;
  grab.toBlob((blob) => {
    if (!blob || ws.readyState !== WebSocket.OPEN) return;
    pending = { taken, videoTime, blob };
    live.sent += 1;
    ws.send(blob);
  }, "image/jpeg", JPEG_QUALITY);
}

function faceText(dice) {
  return dice.filter((d) => d.flags.length === 0 && d.value !== null).map((d) => d.value);
}

function onUpdate(msg) {
  live.answered += 1;
  const frame = pending || {};
  if (msg.throw) {
    lastThrow = msg.throw;
    lastThrowBlob = frame.blob;
  }
  const showing = msg.state === "read" && lastThrow ? lastThrow : null;
  live.log.push({
    at: performance.now() - (live.videoStart || 0),
    taken: (frame.taken || 0) - (live.videoStart || 0),
    videoTime: frame.videoTime,
    state: msg.state,
    number: msg.number,
    newThrow: Boolean(msg.throw),
    shown: showing ? [...showing.values] : null,
  });
  drawOverlay(msg.state === "read" ? msg.reading : null, msg);
  if (msg.state === "read" && showing) {
    setStatus("read", `read: ${faceText(showing.dice).join(" ") || "no die to score"}`);
    showResult(showing, msg.number);
  } else {
    setStatus(msg.state, msg.state === "empty" ? "waiting for a throw" : "rolling…");
    result.hidden = true;
  }
  updateFps();
}

function showResult(t, number) {
  result.hidden = false;
  const read = $("read");
  read.textContent = `read: ${faceText(t.dice).join(" ") || "-"}`;
  read.dataset.values = t.values.join("");
  read.dataset.number = String(number);
  const max = $("max");
  const keeps = $("keeps");
  keeps.replaceChildren();
  if (t.rethrow) {
    max.textContent = "";
    max.dataset.max = "";
  } else if (t.needs_confirmation) {
    // the accepted dice alone are not the throw: no score until the unsure ones are told
    max.textContent = "check the dice marked ? first";
    max.dataset.max = "";
  } else if (!t.values.length || !t.options) {
    max.textContent = t.values.length ? "more than six dice: throw again" : "no die read";
    max.dataset.max = "";
  } else if (t.zilch) {
    max.textContent = "ZILCH: nothing scores";
    max.dataset.max = "0";
  } else {
    max.textContent = `max ${t.max}`;
    max.dataset.max = String(t.max);
    for (const [i, o] of (t.options || []).entries()) {
      const li = document.createElement("li");
      if (o.points === t.max) li.className = "best";
      const left = o.hot_dice ? "hot dice" : `${o.dice_left} left`;
      li.textContent = `keep ${o.keep.join(" ")}: ${o.points} (${left}) ${o.combos.map((c) => c.name).join(" + ")}`;
      li.dataset.testid = `live-keep-${i}`;
      keeps.append(li);
    }
  }
  $("rethrow").hidden = !t.rethrow;
  const confirm = $("confirm");
  const canConfirm = gameId && token && t.values.length && !t.rethrow && !t.needs_confirmation &&
    confirmed !== number;
  confirm.hidden = !canConfirm;
  if (canConfirm) {
    confirm.textContent = `confirm ${t.values.join(" ")}`;
    confirm.disabled = false;
    confirm.onclick = () => confirmThrow(t, number, lastThrowBlob);
  }
  if (confirmed === number) return; // the note says it was confirmed: leave it
  $("note").replaceChildren();
  if (t.needs_confirmation) {
    $("note").append("a die marked ? could not be read for sure");
    if (gameId) {
      const link = document.createElement("a");
      link.href = `./#/game/${encodeURIComponent(gameId)}`;
      link.textContent = "take a photo or tap its face on the game page";
      $("note").append(": ", link);
    }
  }
}

async function api(path, body, contentType) {
  const res = await fetch(`/api/games/${encodeURIComponent(gameId)}${path}`, {
    method: "POST",
    headers: { "Content-Type": contentType, Authorization: `Bearer ${token}` },
    body,
  });
  const text = await res.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch (e) { data = null; }
  if (!res.ok) throw new Error((data && data.error) || `the server answered ${res.status}`);
  return data;
}

/** One tap: store the settled frame as the game's throw, then confirm its faces. */
async function confirmThrow(t, number, blob) {
  const button = $("confirm");
  button.disabled = true;
  try {
    const posted = await api("/throws", blob, "image/jpeg");
    const n = posted.throw.n;
    await api(`/throws/${n}/confirm`, JSON.stringify({ faces: t.values }), "application/json");
    confirmed = number;
    button.hidden = true;
    const back = document.createElement("a");
    back.href = `./#/game/${encodeURIComponent(gameId)}`;
    back.textContent = "keep dice on the game page";
    $("note").replaceChildren(`confirmed as throw ${n} of the game: `, back);
    $("note").dataset.confirmed = String(n);
  } catch (e) {
    button.disabled = false;
    $("note").textContent = `not confirmed: ${e.message}`;
  }
}

function drawOverlay(reading, msg) {
  const w = stage.clientWidth;
  const h = stage.clientHeight;
  const dpr = window.devicePixelRatio || 1;
  overlay.width = Math.round(w * dpr);
  overlay.height = Math.round(h * dpr);
  const ctx = overlay.getContext("2d");
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, w, h);
  for (const el of stage.querySelectorAll(".die-label")) el.remove();
  if (!reading) return;
  const sx = w / reading.width;
  const sy = h / reading.height;
  ctx.lineWidth = 3;
  for (const d of reading.dice) {
    const [x, y, bw, bh] = d.box;
    const again = d.flags.includes("cocked") || d.flags.includes("off_table");
    const unsure = d.flags.includes("uncertain");
    ctx.strokeStyle = again ? "#ff5a4a" : unsure ? "#ffd23f" : "#5cff8a";
    ctx.strokeRect(x * sx, y * sy, bw * sx, bh * sy);
    const label = document.createElement("div");
    label.className = "die-label";
    label.dataset.testid = "live-die";
    label.dataset.flags = d.flags.join(" ");
    label.dataset.value = d.value === null ? "" : String(d.value);
    label.textContent = again ? "throw again" : unsure ? `${d.value ?? ""}?` : String(d.value);
    Object.assign(label.style, {
      position: "absolute", left: `${((x + bw / 2) / reading.width) * 100}%`,
      top: `${(y / reading.height) * 100}%`, transform: "translate(-50%, -110%)",
      background: again ? "#b3261e" : unsure ? "#7a5c00" : "#1d5b32", color: "#fff",
      padding: "0 .35em", borderRadius: ".3em", fontWeight: "700", fontSize: "0.95em",
      whiteSpace: "nowrap", pointerEvents: "none",
    });
    stage.append(label);
  }
}

let fpsCount = 0;
let fpsSince = performance.now();
function updateFps() {
  fpsCount += 1;
  const now = performance.now();
  if (now - fpsSince > 1000) {
    document.querySelector("[data-testid=live-fps]").textContent =
      `${((fpsCount * 1000) / (now - fpsSince)).toFixed(1)} frames/s`;
    fpsCount = 0;
    fpsSince = now;
  }
}

(async function main() {
  try {
    await startCamera();
  } catch (e) {
    setStatus("closed", "no camera");
    showError(`the camera cannot be opened: ${e.message || e.name}`);
    return;
  }
  connect();
})();
