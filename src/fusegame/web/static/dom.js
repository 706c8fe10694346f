// Small DOM helpers: building elements without string concatenation keeps every text escaped.

/**
 * h('button', {class: 'x', onclick: fn, dataset: {testid: 'y'}}, 'label', child...)
 * Attributes that start with "on" become listeners; `false`/`null` attributes are left out.
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === false || v === null || v === undefined) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else if (k === 'class') el.className = Array.isArray(v) ? v.filter(Boolean).join(' ') : v;
    else if (k === 'html') el.innerHTML = v;
    else if (k === 'value') el.value = v;
    else if (k === 'checked' || k === 'disabled' || k === 'selected') el[k] = Boolean(v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else if (c instanceof Node) el.appendChild(c);
    else el.appendChild(document.createTextNode(String(c)));
  }
}

/** Replace every child of `el` with `children`. */
export function mount(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/** Escape text for the few places that build SVG markup as a string. */
export function esc(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;'}[c]));
}

/** m:ss for a time in milliseconds (never negative). */
export function mmss(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** Focus keys survive a re-render: the element with the same data-focus gets the focus back. */
export function rememberFocus() {
  const a = document.activeElement;
  return a && a.dataset ? a.dataset.focus || null : null;
}

export function restoreFocus(key, root = document) {
  if (!key) return;
  const el = root.querySelector(`[data-focus="${CSS.escape(key)}"]`);
  if (el && typeof el.focus === 'function') el.focus({preventScroll: true});
}
