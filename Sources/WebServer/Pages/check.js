// The check page: starts a check (POST /checks), polls its state (GET /checks/{id}) and shows
// the prompt, a progress ring per step and the verdict. URL parameters challenge, seed and
// step_timeout_s are passed on (e.g. /check?challenge=blink,smile).
"use strict";
const words = {
  "blink": "Blink", "blink:2": "Blink twice", "smile": "Smile", "open_mouth": "Open your mouth",
  "turn_left": "Turn your head left", "turn_right": "Turn your head right", "nod": "Nod",
};
const adjustments = {
  no_face: "Look at the camera", move_closer: "Come closer", more_light: "Find more light",
  face_camera: "Face the camera", one_face_only: "Only one face, please",
};
const reasons = {
  timeout: "a step was not done in time", no_face: "no face was seen", multiple_faces: "more than one face",
  face_lost: "the face was lost", face_swapped: "another face took over", out_of_order: "a step came before it was asked",
  too_small: "the face was too small", too_dark: "too dark", turned_away: "the face was turned away",
  stream_ended: "the camera stopped",
};
const video = document.getElementById("video");
video.addEventListener("error", () => document.getElementById("video-box").classList.add("is-off"));
const startButton = document.getElementById("start");
const circumference = 2 * Math.PI * 42;
let poll = null;
let prompts = [];
// What the page shows next: each prompt stays up at least `hold` ms, so a step done at once
// (the second blink of a pair) still shows its prompt before the next one or the verdict.
const hold = 700;
let display = [];
let shownAt = 0;
let concluded = false;
let challenge = [];
let current = null;

function text(id, value) { document.getElementById(id).textContent = value; }

function drawSteps() {
  const box = document.getElementById("steps");
  box.innerHTML = "";
  challenge.forEach((step, i) => {
    const div = document.createElement("div");
    div.className = "step";
    div.id = "step-" + i;
    div.innerHTML = `<svg viewBox="0 0 100 100"><circle class="track" cx="50" cy="50" r="42" fill="none" stroke-width="10"/>` +
      `<circle class="ring" cx="50" cy="50" r="42" fill="none" stroke-width="10" stroke-dasharray="${circumference}" ` +
      `stroke-dashoffset="${circumference}" transform="rotate(-90 50 50)"/></svg><div class="label">${words[step] || step}</div>`;
    box.append(div);
  });
}

function ring(i, fraction, state) {
  const div = document.getElementById("step-" + i);
  if (!div) return;
  div.querySelector("circle.ring").style.strokeDashoffset = circumference * (1 - Math.max(0, Math.min(1, fraction)));
  if (state) div.classList.add(state);
}

function showPrompt(p) {
  if (current) ring(current.prompt.index, 1, "done");
  current = { prompt: p, shown: performance.now() };
  text("prompt", words[p.step] || p.step);
  text("hint", `Step ${p.index + 1} of ${p.of}`);
}

function pump() {
  if (display.length && performance.now() - shownAt >= hold) {
    display.shift()();
    shownAt = performance.now();
  }
}

function update(check) {
  const outputs = check.outputs;
  const stepPrompts = outputs.filter((o) => o.type === "prompt" && o.step !== "adjust");
  const last = outputs[outputs.length - 1];
  stepPrompts.forEach((p) => {
    if (!prompts.some((q) => q.index === p.index)) { prompts.push(p); display.push(() => showPrompt(p)); }
  });
  const verdict = outputs.find((o) => o.type === "verdict");
  if (verdict && !concluded) {
    concluded = true;
    clearInterval(poll);
    display.push(() => showVerdict(verdict));
  } else if (!verdict && display.length === 0 && last && last.type === "prompt" && last.step === "adjust") {
    text("hint", adjustments[last.reason] || last.reason);
  }
}

function showVerdict(verdict) {
  current = null;
  verdict.steps.forEach((s, i) => ring(i, 1, s.result === "done" ? "done" : (s.result === "not_done" ? null : "failed")));
  text("prompt", verdict.pass ? "Thank you" : "Check failed");
  text("hint", verdict.pass ? "All steps done." : "Because " + (reasons[verdict.reason] || verdict.reason) + ".");
  const box = document.getElementById("verdict");
  box.textContent = verdict.pass ? "PASSED" : "FAILED";
  box.className = "verdict " + (verdict.pass ? "pass" : "fail");
  startButton.disabled = false;
  startButton.textContent = "Again";
}

function tick() {
  if (!current) return;
  const elapsed = (performance.now() - current.shown) / 1000;
  ring(current.prompt.index, elapsed / current.prompt.timeout_s);
}

async function start() {
  const params = new URLSearchParams(location.search);
  const body = {};
  if (params.has("challenge")) body.challenge = params.get("challenge");
  if (params.has("seed")) body.seed = Number(params.get("seed"));
  if (params.has("step_timeout_s")) body.step_timeout_s = Number(params.get("step_timeout_s"));
  startButton.disabled = true;
  prompts = [];
  display = [];
  concluded = false;
  current = null;
  text("verdict", "");
  text("hint", "Hold still while the camera finds you…");
  text("prompt", "Get ready");
  const response = await fetch("/checks", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const reply = await response.json();
  if (!response.ok) {
    text("prompt", response.status === 409 ? "Busy" : "Cannot start");
    text("hint", reply.error);
    startButton.disabled = false;
    return;
  }
  challenge = reply.challenge.split(",");
  drawSteps();
  const refresh = async () => {
    const state = await fetch("/checks/" + reply.id);
    if (state.ok) update(await state.json());
  };
  poll = setInterval(refresh, 150);
}

startButton.addEventListener("click", start);
setInterval(tick, 100);
setInterval(pump, 50);
