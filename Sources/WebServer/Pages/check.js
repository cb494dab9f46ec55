// The check page: starts a check (POST /checks), polls its state (GET /checks/{id}) and shows
// each step's prompt, each cue the moment it arrives ("Blink now"), a progress ring per step
// and the verdict. URL parameters challenge, seed and step_timeout_s are passed on (e.g.
// /check?challenge=blink,smile).
"use strict";
const words = {
  "blink": "Blink", "blink:2": "Blink twice", "smile": "Smile", "open_mouth": "Open your mouth",
  "turn_left": "Turn your head left", "turn_right": "Turn your head right", "nod": "Nod",
};
const adjustments = {
  no_face: "Look at the camera", move_closer: "Come closer", more_light: "Find more light",
  face_camera: "Face the camera", one_face_only: "Only one face, please",
};
const cueWords = {
  "blink": "Blink now", "blink:2": "Blink twice now", "smile": "Smile now", "open_mouth": "Open your mouth now",
  "turn_left": "Turn left now", "turn_right": "Turn right now", "nod": "Nod now",
};
// While waiting for a blink cue the eyes must stay open: a blink before the cue counts against
// the step, and people blink every few seconds unless they are told not to.
function holdWords(step) {
  return step.startsWith("blink") ? "Keep still, eyes open" : "Keep still";
}
const reasons = {
  timeout: "the cues were not answered in time", early_response: "the steps came before their cues",
  unsteady_timing: "the answers did not follow the cues at a steady pace",
  flat_face: "the turns moved like a flat picture", no_face: "no face was seen", multiple_faces: "more than one face",
  face_lost: "the face was lost", face_swapped: "another face took over",
  too_small: "the face was too small", too_dark: "too dark", turned_away: "the face was turned away",
  stream_ended: "the camera stopped",
};
const video = document.getElementById("video");
video.addEventListener("error", () => document.getElementById("video-box").classList.add("is-off"));
const startButton = document.getElementById("start");
const circumference = 2 * Math.PI * 42;
let poll = null;
let concluded = false;
let challenge = [];
// The step shown now and the number of cues already shown (cues are shown the moment they arrive:
// the person answers them within a second).
let current = null;
let cuesShown = 0;
let cueTimer = null;

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
  if (current) ring(current.index, 1, "done");
  current = p;
  text("prompt", holdWords(p.step));
  text("hint", `Step ${p.index + 1} of ${p.of}: ${(words[p.step] || p.step).toLowerCase()} each time you are told`);
}

function showCue(cue) {
  const prompt = document.getElementById("prompt");
  prompt.textContent = cueWords[cue.step] || cue.step;
  prompt.classList.add("cue");
  if (current) ring(current.index, (cue.trial - 1) / cue.of);
  clearTimeout(cueTimer);
  cueTimer = setTimeout(() => {
    prompt.classList.remove("cue");
    if (!concluded) prompt.textContent = current ? holdWords(current.step) : "Keep still";
  }, 1000 * cue.window_s[1]);
}

function update(check) {
  const outputs = check.outputs;
  const last = outputs[outputs.length - 1];
  outputs.filter((o) => o.type === "prompt" && o.step !== "adjust").forEach((p) => {
    if (!current || p.index > current.index) showPrompt(p);
  });
  const cues = outputs.filter((o) => o.type === "cue");
  if (cues.length > cuesShown) {
    cuesShown = cues.length;
    showCue(cues[cues.length - 1]);
  }
  const verdict = outputs.find((o) => o.type === "verdict");
  if (verdict && !concluded) {
    concluded = true;
    clearInterval(poll);
    showVerdict(verdict);
  } else if (!verdict && last && last.type === "prompt" && last.step === "adjust") {
    text("hint", adjustments[last.reason] || last.reason);
  }
}

function showVerdict(verdict) {
  current = null;
  clearTimeout(cueTimer);
  document.getElementById("prompt").classList.remove("cue");
  verdict.steps.forEach((s, i) => ring(i, 1, s.result === "done" ? "done" : (s.result === "not_done" ? null : "failed")));
  text("prompt", verdict.pass ? "Thank you" : "Check failed");
  text("hint", verdict.pass ? "All steps done." : "Because " + (reasons[verdict.reason] || verdict.reason) + ".");
  const box = document.getElementById("verdict");
  box.textContent = verdict.pass ? "PASSED" : "FAILED";
  box.className = "verdict " + (verdict.pass ? "pass" : "fail");
  startButton.disabled = false;
  startButton.textContent = "Again";
}

async function start() {
  const params = new URLSearchParams(location.search);
  const body = {};
  if (params.has("challenge")) body.challenge = params.get("challenge");
  if (params.has("seed")) body.seed = Number(params.get("seed"));
  if (params.has("step_timeout_s")) body.step_timeout_s = Number(params.get("step_timeout_s"));
  startButton.disabled = true;
  concluded = false;
  current = null;
  cuesShown = 0;
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
  poll = setInterval(refresh, 100);
}

startButton.addEventListener("click", start);
