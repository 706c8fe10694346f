// English and Spanish. Every visible string goes through t(key, params); the choice persists.
//
// The words are data, one catalogue per language (src/fusegame/words/en.json and es.json, with the
// refusals of the rules), served at /api/words/{lang}. Both are fetched here, in parallel, before any
// module that imports this one runs (a top-level await), so t() is ready from the first render.

const LANG_KEY = 'fuse.lang';
const LANGS = ['en', 'es'];

/** The catalogue of `code`, asked for twice before giving up; null when it cannot be had. */
async function fetchWords(code) {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const res = await fetch(`/api/words/${code}`, {headers: {Accept: 'application/json'}});
      if (res.ok) return await res.json();
    } catch {
      /* asked again, then given up */
    }
  }
  return null;
}

// The catalogue keeps Python's format specs (`{n:,}`, for the engine's sentences); the page says
// numbers its own way (toLocaleString in words.js), so a placeholder here is `{n}` or `{slot+1}`.
// The terminal's words (`term.`) are the catalogue's too, but not the page's.
const SPEC = /\{(\w+(?:\+1)?):[^{}]*\}/g;

function pageWords(words) {
  const out = {};
  for (const [k, v] of Object.entries(words)) {
    if (!k.startsWith('term.')) out[k] = String(v).replace(SPEC, '{$1}');
  }
  return out;
}

const [enWords, esWords] = await Promise.all(LANGS.map(fetchWords));
if (!enWords && !esWords) {
  // nothing to say anything with: a fixed line in both languages, and no page drawn in raw keys
  const app = document.getElementById('app');
  if (app) {
    app.dataset.page = 'no-words';
    app.textContent = 'The page could not load its words: reload to try again. / '
      + 'La página no pudo cargar sus textos: recarga para volver a intentarlo.';
    app.setAttribute('role', 'alert');
  }
  throw new Error('/api/words: no catalogue could be loaded');
}
// one language missing: the other stands in for it (a page in the wrong language beats raw keys)
const en = pageWords(enWords || esWords);
const es = pageWords(esWords || enWords);

export const DICTS = {en, es};

let lang = 'en';
try {
  const saved = localStorage.getItem(LANG_KEY);
  if (saved && DICTS[saved]) lang = saved;
  else if ((navigator.language || '').toLowerCase().startsWith('es')) lang = 'es';
} catch {
  /* English */
}
const listeners = new Set();

export const getLang = () => lang;

/** Switch the language, remember it and tell every listener (they re-render). */
export function setLang(next) {
  if (!DICTS[next] || next === lang) return;
  lang = next;
  try {
    localStorage.setItem(LANG_KEY, next);
  } catch {
    /* not remembered */
  }
  document.documentElement.lang = next;
  for (const f of listeners) f(next);
}

export function onLangChange(f) {
  listeners.add(f);
  return () => listeners.delete(f);
}

// `{n}`, and `{n:,}` like it: a Python format spec is accepted, and the value said as the page says it
function fill(s, params) {
  if (!params) return s;
  return s.replace(/\{(\w+)(?::[^{}]*)?\}/g, (m, k) => (params[k] !== undefined ? String(params[k]) : m));
}

// `key_one` is the singular form, used when params.n is 1
function lookup(key, params) {
  if (params && Number(params.n) === 1) {
    const one = DICTS[lang][`${key}_one`] ?? en[`${key}_one`];
    if (one !== undefined) return one;
  }
  return DICTS[lang][key] ?? en[key];
}

/** The text for `key` in the current language (English when missing, the key itself last). */
export function t(key, params) {
  const s = lookup(key, params);
  return fill(s === undefined ? key : s, params);
}

/** Like t, but `fallback` when neither dictionary knows the key (server-defined names). */
export function tOr(key, fallback, params) {
  const s = lookup(key, params);
  return fill(s === undefined ? String(fallback) : s, params);
}
