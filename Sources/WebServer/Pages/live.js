// The live page: the annotated video, EAR/MAR from `frame` events and the event log, over SSE.
"use strict";
const logBox = document.getElementById("log");
const statusText = document.getElementById("status");
const video = document.getElementById("video");
video.addEventListener("error", () => document.getElementById("video-box").classList.add("is-off"));

function show(id, value) {
  document.getElementById(id).textContent = value;
}

function addLine(event, text) {
  const line = document.createElement("div");
  line.className = event.type;
  line.textContent = text;
  logBox.prepend(line);
  while (logBox.childElementCount > 300) logBox.lastElementChild.remove();
}

const source = new EventSource("/events");
source.onopen = () => { statusText.textContent = "live"; };
source.onerror = () => { statusText.textContent = "reconnecting…"; };
source.onmessage = (message) => {
  const event = JSON.parse(message.data);
  if (event.type === "frame") {
    show("faces", event.faces.length);
    const face = event.faces[0];
    show("ear-left", face ? face.ear_left.toFixed(3) : "–");
    show("ear-right", face ? face.ear_right.toFixed(3) : "–");
    show("mar", face ? face.mar.toFixed(3) : "–");
    return;
  }
  if (event.type === "nose") return;  // 30 a second: kept out of the log
  addLine(event, message.lastEventId + "  " + message.data);
};
