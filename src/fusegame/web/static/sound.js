// Sounds from WebAudio oscillators (no audio files) and the ship's computer voice.
import {getLang} from './i18n.js';

const MUTE_KEY = 'fuse.mute';
let muted = false;
try {
  muted = localStorage.getItem(MUTE_KEY) === '1';
} catch {
  /* default: sound on */
}
const muteListeners = new Set();

export const isMuted = () => muted;

export function setMuted(value) {
  muted = Boolean(value);
  try {
    localStorage.setItem(MUTE_KEY, muted ? '1' : '0');
  } catch {
    /* not persisted */
  }
  if (muted && 'speechSynthesis' in window) window.speechSynthesis.cancel();
  for (const f of muteListeners) f(muted);
}

export function onMuteChange(f) {
  muteListeners.add(f);
  return () => muteListeners.delete(f);
}

let ctx = null;
let gestured = false;

/** Whether the page has had a click or a key press: before that a browser refuses audio. */
function activated() {
  return gestured || Boolean(navigator.userActivation && navigator.userActivation.hasBeenActive);
}

function audio() {
  if (muted) return null;
  // an AudioContext made before any gesture stays suspended and the console complains about it
  if (!activated()) return null;
  const AC = window.AudioContext || window.webkitAudioContext;
  if (!AC) return null;
  if (!ctx) {
    try {
      ctx = new AC();
    } catch {
      return null;
    }
  }
  if (ctx.state === 'suspended') ctx.resume().catch(() => {});
  return ctx;
}

// Browsers only start audio after a user gesture: wake the context on the first one.
for (const ev of ['pointerdown', 'keydown']) {
  window.addEventListener(ev, () => {
    gestured = true;
    if (!muted) audio();
  }, {once: true, capture: true});
}

/** One tone: frequency (Hz, or [from, to] for a glide), start offset and length in seconds. */
function tone(ac, {freq, at = 0, len = 0.12, type = 'sine', gain = 0.18}) {
  const t0 = ac.currentTime + at;
  const osc = ac.createOscillator();
  const g = ac.createGain();
  osc.type = type;
  if (Array.isArray(freq)) {
    osc.frequency.setValueAtTime(freq[0], t0);
    osc.frequency.exponentialRampToValueAtTime(freq[1], t0 + len);
  } else {
    osc.frequency.setValueAtTime(freq, t0);
  }
  g.gain.setValueAtTime(0.0001, t0);
  g.gain.exponentialRampToValueAtTime(gain, t0 + 0.01);
  g.gain.exponentialRampToValueAtTime(0.0001, t0 + len);
  osc.connect(g).connect(ac.destination);
  osc.start(t0);
  osc.stop(t0 + len + 0.02);
}

const SOUNDS = {
  roll: (ac) => {
    for (let i = 0; i < 7; i++) {
      tone(ac, {freq: 180 + Math.random() * 420, at: i * 0.045 + Math.random() * 0.02, len: 0.04,
        type: 'square', gain: 0.07});
    }
  },
  place: (ac) => tone(ac, {freq: [660, 880], len: 0.07, type: 'triangle', gain: 0.12}),
  defuse: (ac) => [523, 659, 784, 1047].forEach((f, i) => tone(ac, {freq: f, at: i * 0.09, len: 0.16,
    type: 'triangle'})),
  alarm: (ac) => {
    for (let i = 0; i < 4; i++) tone(ac, {freq: i % 2 ? [620, 880] : [880, 620], at: i * 0.22, len: 0.2,
      type: 'sawtooth', gain: 0.1});
  },
  error: (ac) => tone(ac, {freq: [220, 150], len: 0.18, type: 'square', gain: 0.08}),
  won: (ac) => [523, 659, 784, 659, 784, 1047].forEach((f, i) => tone(ac, {freq: f, at: i * 0.12, len: 0.22,
    type: 'triangle'})),
  lost: (ac) => [392, 330, 262, 196].forEach((f, i) => tone(ac, {freq: f, at: i * 0.22, len: 0.3,
    type: 'sawtooth', gain: 0.1})),
  tick: (ac) => tone(ac, {freq: 1200, len: 0.03, type: 'square', gain: 0.05}),
};

/** Play a named sound (roll, place, defuse, alarm, error, won, lost, tick) unless muted. */
export function play(name) {
  const ac = audio();
  if (!ac || !SOUNDS[name]) return;
  try {
    SOUNDS[name](ac);
  } catch {
    /* sound is decoration */
  }
}

/** Speak a line in the UI's language with the ship computer's voice, unless muted. */
export function say(text) {
  if (muted || !('speechSynthesis' in window) || !text || !activated()) return;
  try {
    const u = new SpeechSynthesisUtterance(text);
    const lang = getLang() === 'es' ? 'es-ES' : 'en-GB';
    u.lang = lang;
    const voice = window.speechSynthesis.getVoices().find((v) => v.lang && v.lang.startsWith(lang.slice(0, 2)));
    if (voice) u.voice = voice;
    u.rate = 1.05;
    u.pitch = 0.8;
    window.speechSynthesis.speak(u);
  } catch {
    /* no voice */
  }
}
