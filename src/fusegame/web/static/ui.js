// Page-wide pieces: the transient toast, the keyboard help overlay, the page markers for tests.
import {h, mount} from './dom.js';
import {t} from './i18n.js';

let toastTimer = null;

/** A short message for this player only (server errors, failed requests). */
export function toast(message, kind = 'error') {
  let el = document.querySelector('[data-testid="error-toast"]');
  if (!el) {
    el = h('div', {class: 'toast', role: 'alert', dataset: {testid: 'error-toast'}});
    document.body.append(el);
  }
  el.className = `toast show ${kind}`;
  el.textContent = message;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => {
    el.classList.remove('show');
  }, kind === 'error' ? 4500 : 2500);
}

/** data-page and data-status on the app root so tests can wait for a page. */
export function markPage(page, status = '') {
  const el = document.getElementById('app');
  if (!el) return;
  el.dataset.page = page;
  if (status) el.dataset.status = status;
  else delete el.dataset.status;
}

let helpEl = null;
let helpFrom = null; // what had the keyboard before the help opened: it gets it back

export function helpOpen() {
  return Boolean(helpEl && !helpEl.hidden);
}

/** Show or hide the keyboard help overlay. */
export function toggleHelp(force) {
  if (!helpEl) {
    helpEl = h('div', {class: 'overlay help', role: 'dialog', 'aria-modal': 'true', hidden: true,
      dataset: {testid: 'help'}, onclick: (e) => { if (e.target === helpEl) toggleHelp(false); }});
    document.body.append(helpEl);
  }
  const open = force === undefined ? helpEl.hidden : force;
  if (open) {
    if (helpEl.hidden) helpFrom = document.activeElement;
    const keys = [['1 – 9', 'help.digits'], ['← → ↑ ↓ / Tab', 'help.arrows'], ['Enter', 'help.enter'],
      ['D', 'help.done'], ['T', 'help.take'], ['A', 'help.choice'], ['Esc', 'help.escape'], ['H / ?', 'help.help']];
    const close = h('button', {type: 'button', class: 'btn', onclick: () => toggleHelp(false)}, t('help.close'));
    mount(helpEl, h('div', {class: 'panel'},
      h('h2', {id: 'help-title'}, t('help.title')),
      h('p', {}, t('help.intro')),
      h('table', {class: 'keys'}, h('tbody', {}, keys.map(([k, d]) => h('tr', {}, h('th', {}, h('kbd', {}, k)), h('td', {}, t(d)))))),
      h('p', {class: 'muted'}, t('help.mouse')),
      close));
    helpEl.setAttribute('aria-labelledby', 'help-title');
    helpEl.hidden = false;
    close.focus();
  } else if (!helpEl.hidden) {
    helpEl.hidden = true;
    const back = helpFrom && helpFrom.isConnected && helpFrom !== document.body ? helpFrom
      : document.querySelector('[data-testid="help-button"]');
    if (back) back.focus({preventScroll: true});
    helpFrom = null;
  }
}
