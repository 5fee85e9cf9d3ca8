// Regelwerk – players/scan.js: reading a QR code with the camera (the phone's answer code, on
// the game master's device).
//
// Owns: the camera (getUserMedia, the back camera where there is one), a video in the box it
// is given, and the decoder: the browser's BarcodeDetector where it reads QR codes, otherwise
// jsQR (npm, Apache-2.0) – bundled as a script of its own (assets/regelwerk/qr-decoder.js,
// players/qr-decoder.js; ≈ 130 kB), loaded only when the scanner opens (common/scripts.js): a
// classic script (file://) that hands its function over in the event „regelwerk:qr-decoder“
// (no global name). Frames are read every SCAN_MS, downscaled to at most FRAME_MAX pixels wide.
// Problems come back as German text; the camera is always released.

import { loadScript } from "../common/scripts.js";
import { el } from "../common/util.js";

const SCAN_MS = 150;
const FRAME_MAX = 640;
const DECODER = "qr-decoder.js";
const EVENT = "regelwerk:qr-decoder";

export function cameraAvailable() {
  return Boolean(navigator.mediaDevices && typeof navigator.mediaDevices.getUserMedia === "function");
}

let decoderLoad = null;

// The decoder script beside the page's own (assets/regelwerk/regelwerk.js).
function loadDecoder() {
  if (decoderLoad) return decoderLoad;
  decoderLoad = new Promise((resolve, reject) => {
    document.addEventListener(EVENT, (event) => resolve(event.detail), { once: true });
    loadScript(DECODER).catch(reject);
  });
  decoderLoad.catch(() => {
    decoderLoad = null; // the next try loads it again
  });
  return decoderLoad;
}

async function nativeDetector() {
  if (typeof BarcodeDetector !== "function") return null;
  try {
    const formats = await BarcodeDetector.getSupportedFormats();
    if (!formats.includes("qr_code")) return null;
    const detector = new BarcodeDetector({ formats: ["qr_code"] });
    return async (video) => {
      const codes = await detector.detect(video);
      return codes.length ? codes[0].rawValue : null;
    };
  } catch (error) {
    return null;
  }
}

async function jsqrReader() {
  const decode = await loadDecoder();
  const canvas = document.createElement("canvas");
  const context = canvas.getContext("2d", { willReadFrequently: true });
  return async (video) => {
    const scale = Math.min(1, FRAME_MAX / (video.videoWidth || FRAME_MAX));
    canvas.width = Math.max(1, Math.round(video.videoWidth * scale));
    canvas.height = Math.max(1, Math.round(video.videoHeight * scale));
    context.drawImage(video, 0, 0, canvas.width, canvas.height);
    const image = context.getImageData(0, 0, canvas.width, canvas.height);
    const code = decode(image.data, image.width, image.height, { inversionAttempts: "dontInvert" });
    return code && code.data ? code.data : null;
  };
}

function cameraProblem(error) {
  const name = error && error.name;
  if (name === "NotAllowedError" || name === "SecurityError") return "Kein Zugriff auf die Kamera – bitte im Browser erlauben oder den Antwort-Code als Text einfügen.";
  if (name === "NotFoundError" || name === "OverconstrainedError") return "Keine Kamera gefunden – bitte den Antwort-Code als Text einfügen.";
  return "Die Kamera ließ sich nicht starten – bitte den Antwort-Code als Text einfügen.";
}

// Opens the camera in ``box``; ``found(text)`` gets the first code read, ``failed(problem)``
// a German problem. → stop(): closes the camera (also called after found or failed).
export function scan(box, found, failed) {
  let stream = null;
  let timer = null;
  let stopped = false;
  const video = el("video", "rw-live-video");
  video.muted = true;
  video.playsInline = true;
  video.setAttribute("aria-label", "Kamerabild zum Scannen des Antwort-Codes");
  const stop = () => {
    stopped = true;
    clearTimeout(timer);
    if (stream) stream.getTracks().forEach((t) => t.stop());
    video.remove();
  };
  (async () => {
    try {
      stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment" }, audio: false });
    } catch (error) {
      stop();
      failed(cameraProblem(error));
      return;
    }
    if (stopped) return stop();
    let read;
    try {
      read = (await nativeDetector()) || (await jsqrReader());
    } catch (error) {
      stop();
      failed("Der QR-Leser ließ sich nicht laden – bitte den Antwort-Code als Text einfügen.");
      return;
    }
    if (stopped) return stop();
    video.srcObject = stream;
    box.appendChild(video);
    await video.play().catch(() => {});
    const tick = async () => {
      if (stopped) return;
      let text = null;
      try {
        if (video.readyState >= 2) text = await read(video);
      } catch (error) {
        text = null; // a frame that could not be read: the next one
      }
      if (stopped) return;
      if (text) {
        stop();
        found(text);
      } else timer = setTimeout(tick, SCAN_MS);
    };
    tick();
  })();
  return stop;
}
