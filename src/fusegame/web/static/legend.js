// The legend: every symbol of the cards, drawn as on the cards, with its meaning in the page's language.
import {h, mount} from './dom.js';
import {t, getLang} from './i18n.js';

const cache = new Map();

function items(lang) {
  if (!cache.has(lang)) {
    cache.set(lang, fetch(`/api/legend?lang=${encodeURIComponent(lang)}`)
      .then((r) => (r.ok ? r.json() : Promise.reject(new Error(String(r.status)))))
      .catch((e) => {
        cache.delete(lang);
        throw e;
      }));
  }
  return cache.get(lang);
}

let dialog = null;
let opener = null;

/** Open (or close, with false) the legend as a dialog over the page. */
export async function showLegend(open = true) {
  if (!dialog) {
    dialog = h('div', {class: 'overlay legend', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'legend-title',
      hidden: true, dataset: {testid: 'legend'},
      onclick: (e) => { if (e.target === dialog) showLegend(false); },
      onkeydown: (e) => { if (e.key === 'Escape') { e.stopPropagation(); showLegend(false); } }});
    document.body.append(dialog);
  }
  if (!open) {
    dialog.hidden = true;
    if (opener && opener.isConnected) opener.focus();
    return;
  }
  opener = document.activeElement;
  const close = h('button', {type: 'button', class: 'btn', dataset: {testid: 'legend-close'},
    onclick: () => showLegend(false)}, t('help.close'));
  const list = h('ul', {class: 'legend-list'}, h('li', {class: 'muted'}, t('loading')));
  mount(dialog, h('div', {class: 'panel legend-panel'},
    h('div', {class: 'legend-head'}, h('h2', {id: 'legend-title'}, t('legend.title')), close),
    h('p', {class: 'muted small'}, t('legend.intro')), list));
  dialog.hidden = false;
  close.focus();
  try {
    const all = await items(getLang());
    mount(list, all.map((it) => h('li', {class: 'legend-item', dataset: {symbol: it.symbol}},
      h('span', {class: 'legend-pic', html: it.svg}), h('span', {class: 'legend-text'}, it.text))));
  } catch {
    mount(list, h('li', {class: 'error'}, t('legend.failed')));
  }
}

/** The button that opens the legend. */
export function legendButton() {
  return h('button', {type: 'button', class: 'btn ghost small legend-open', dataset: {testid: 'legend-open'},
    onclick: () => showLegend(true)}, t('legend.open'));
}
