// Drawing dice: colour plus the colour's letter in the corner (legible without colour vision),
// split dice in two halves with a letter each, the number as a large digit.
import {h, esc} from './dom.js';
import {getLang, t} from './i18n.js';

export const COLOURS = ['R', 'B', 'G', 'Y', 'K'];
export const HEX = {R: '#d8403a', B: '#2f6fd6', G: '#2e9c52', Y: '#f1c232', K: '#1d1d22'};
const INK = {R: '#fff', B: '#fff', G: '#fff', Y: '#151515', K: '#fff'};

/** "Blue 5", "Black/Yellow 3", "Blue 4 as Red" ("azul 5" in Spanish). */
export function dieName(die) {
  if (!die) return '';
  const colours = (cs) => String(cs).split('/').map(colourInSentence).join('/');
  let s = `${colours(die.colours)} ${die.face}`;
  if (die.as) s += ' ' + t('die.as', {colour: colours(die.as)});
  return s;
}

// A colour inside a sentence: English capitalises it ("the Blue 4"), Spanish does not ("el dado
// azul 4"), as the log lines made on the server say it.
function colourInSentence(c) {
  const word = t(`colour.${c}`);
  return getLang() === 'es' ? word.toLowerCase() : word;
}

/** The markup of a die in a 100 x 100 box at the origin (for inline SVG, cards included). */
export function dieMarkup(die) {
  const shown = String(die.as || die.colours).split('/');
  const orig = String(die.colours).split('/');
  const parts = [];
  const edge = shown.includes('K') ? '#9aa0ad' : 'rgba(0,0,0,.55)';
  if (shown.length === 1) {
    const c = shown[0];
    parts.push(`<rect x="3" y="3" width="94" height="94" rx="16" fill="${HEX[c]}" stroke="${edge}" stroke-width="3"/>`);
    parts.push(`<text class="die-letter" x="12" y="27" font-size="22" fill="${INK[c]}">${esc(c)}</text>`);
  } else {
    const [a, b] = shown;
    parts.push(`<rect x="3" y="3" width="94" height="94" rx="16" fill="${HEX[b]}"/>`);
    parts.push(`<path d="M50,3 H19 A16,16 0 0 0 3,19 V81 A16,16 0 0 0 19,97 H50 Z" fill="${HEX[a]}"/>`);
    parts.push(`<line x1="50" y1="3" x2="50" y2="97" stroke="rgba(255,255,255,.6)" stroke-width="2"/>`);
    parts.push(`<rect x="3" y="3" width="94" height="94" rx="16" fill="none" stroke="${edge}" stroke-width="3"/>`);
    parts.push(`<text class="die-letter" x="10" y="27" font-size="20" fill="${INK[a]}">${esc(a)}</text>`);
    parts.push(`<text class="die-letter" x="90" y="27" font-size="20" text-anchor="end" fill="${INK[b]}">${esc(b)}</text>`);
  }
  if (die.as) {
    // a role's temporary colour: the die's own colour shows as a dashed ring
    parts.push(`<rect x="9" y="9" width="82" height="82" rx="11" fill="none" stroke="${HEX[orig[0]]}"` +
      ` stroke-width="5" stroke-dasharray="8 6"/>`);
  }
  const ink = shown.length === 1 ? INK[shown[0]] : '#fff';
  const outline = shown.length === 1 ? '' : ' stroke="#111" stroke-width="5" paint-order="stroke"';
  parts.push(`<text class="die-face" x="50" y="${shown.length === 1 ? 72 : 76}" font-size="54" text-anchor="middle"` +
    ` fill="${ink}"${outline}>${esc(die.face)}</text>`);
  return parts.join('');
}

/**
 * A standalone <svg> of a die, for HTML. `named`: a picture with the die's name ("Green 6"), for a
 * control named by its content; otherwise hidden from screen readers.
 */
export function dieSvg(die, named = false) {
  const a11y = named ? `role="img" aria-label="${esc(dieName(die))}"` : 'aria-hidden="true"';
  return `<svg class="die-svg" viewBox="0 0 100 100" ${a11y} focusable="false">${dieMarkup(die)}</svg>`;
}

/** A die as a button (free dice in the roll; the leader's choice of an unused die). */
export function dieButton(die, attrs = {}) {
  const {class: cls, ...rest} = attrs;
  // named by its picture, not by an aria-label over it: the letter and number drawn on the die are
  // then part of the button's name as spoken ("Green 6"), not a visible label the name leaves out
  const b = h('button', {type: 'button', class: ['die', cls], title: dieName(die), ...rest, html: dieSvg(die, true)});
  b.dataset.die = die.id;
  return b;
}

/** A die that cannot be clicked (placed ones in the roll, the bag, the replay). */
export function dieImage(die, cls = '') {
  return h('span', {class: ['die', 'die-static', cls], role: 'img', 'aria-label': dieName(die),
    title: dieName(die), html: dieSvg(die), dataset: {die: die.id}});
}

/** Put a drawn die into a card's slot group (it has data-x, data-y and data-size). */
export function drawDieInSlot(g, die) {
  // the box itself is the surest measure; the data attributes are the fallback
  const box = g.querySelector('rect.slot-box');
  const num = (attr, key, dflt) => {
    for (const v of [box ? box.getAttribute(attr) : null, g.dataset[key]]) {
      const n = parseFloat(v);
      if (Number.isFinite(n)) return n;
    }
    return dflt;
  };
  const x = num('x', 'x', 0);
  const y = num('y', 'y', 0);
  const size = Math.min(num('width', 'size', 40), num('height', 'size', 40));
  const inset = size * 0.05;
  const s = (size - 2 * inset) / 100;
  g.insertAdjacentHTML('beforeend',
    `<g class="die-on-card" data-die="${esc(die.id)}" transform="translate(${x + inset},${y + inset}) scale(${s})">` +
    `<title>${esc(dieName(die))}</title>${dieMarkup(die)}</g>`);
}
