// HTTP wrappers: every error becomes an Error whose message is the server's one readable line.

export class ApiError extends Error {
  /** `reason` and `params`: which refusal it is and its facts, when the server says (joining a seat). */
  constructor(status, message, reason = null, params = {}) {
    super(message);
    this.status = status;
    this.reason = reason;
    this.params = params;
  }
}

async function call(method, path, body) {
  const init = {method, headers: {Accept: 'application/json'}};
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch (e) {
    throw new ApiError(0, String(e.message || e));
  }
  const text = await res.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!res.ok) {
    let msg = data && data.detail !== undefined ? data.detail : `${res.status} ${res.statusText}`;
    // FastAPI validation errors come as a list of {loc, msg}
    if (Array.isArray(msg)) msg = msg.map((d) => `${(d.loc || []).slice(1).join('.')}: ${d.msg}`).join('; ');
    throw new ApiError(res.status, String(msg), (data && data.reason) || null, (data && data.params) || {});
  }
  return data;
}

export const api = {
  options: () => call('GET', '/api/options'),
  createRoom: (opts) => call('POST', '/api/rooms', opts),
  room: (code) => call('GET', `/api/rooms/${encodeURIComponent(code)}`),
  join: (code, name, seat = null) => call('POST', `/api/rooms/${encodeURIComponent(code)}/join`, {name, seat}),
  log: (filters = {}) => {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(filters)) if (v !== '' && v !== null && v !== undefined) q.set(k, v);
    const qs = q.toString();
    return call('GET', '/api/log' + (qs ? `?${qs}` : ''));
  },
  logEntry: (id) => call('GET', `/api/log/${encodeURIComponent(id)}`),
  replay: (id) => call('GET', `/api/log/${encodeURIComponent(id)}/replay`),
  pace: (id) => call('GET', `/api/log/${encodeURIComponent(id)}/pace`),
  replayStep: (id, step) => call('GET', `/api/log/${encodeURIComponent(id)}/replay/${step}`),
  /** The game's review: {status: 'working', ahead} (202: ask again) or {status: 'ready', review}. */
  review: (id) => call('GET', `/api/log/${encodeURIComponent(id)}/review`),
  /** What to lay out for a game at a real table (`query`: a URLSearchParams string of its options). */
  tableSetup: (query) => call('GET', `/api/computer/setup?${query}`),
  /** A game played at a real table, counted by its players: into the BDT Log. */
  saveTableGame: (body) => call('POST', '/api/log/table', body),
  tutorial: (lang) => call('GET', `/api/tutorial?lang=${encodeURIComponent(lang)}`),
  tryLesson: (id, action, lang = 'en') =>
    call('POST', `/api/tutorial/${encodeURIComponent(id)}/try?lang=${encodeURIComponent(lang)}`, {action}),
};

const svgCache = new Map();

/**
 * A card's SVG markup (fetched once per id; the promise is shared by concurrent callers).
 * `compact`: the table's drawing of a bomb or spark card, with no blank space around its slots;
 * `lang`: the language of the words drawn on it.
 */
export function cardSvg(id, compact = false, lang = 'en') {
  const key = `${id}|${compact}|${lang}`;
  if (!svgCache.has(key)) {
    const p = fetch(`/api/cards/${encodeURIComponent(id)}.svg?lang=${encodeURIComponent(lang)}${compact ? '&compact=true' : ''}`)
      .then((r) => (r.ok ? r.text() : Promise.reject(new ApiError(r.status, `card ${id}: ${r.status}`))))
      .catch((e) => {
        if (e.status !== 404) svgCache.delete(key); // a passing failure: a later render tries again
        throw e;
      });
    svgCache.set(key, p);
  }
  return svgCache.get(key);
}

const wordsCache = new Map();

/** A card in words in `lang` ({id, name, text, points}): fetched once per card and language. */
export function cardWords(id, lang) {
  const key = `${id}|${lang}`;
  if (!wordsCache.has(key)) {
    const p = fetch(`/api/cards/${encodeURIComponent(id)}.json?lang=${encodeURIComponent(lang)}`)
      .then((r) => (r.ok ? r.json() : Promise.reject(new ApiError(r.status, `card ${id}: ${r.status}`))))
      .catch((e) => {
        wordsCache.delete(key);
        throw e;
      });
    wordsCache.set(key, p);
  }
  return wordsCache.get(key);
}

/** Fetch every card in `ids`; resolves to a Map id -> markup (missing on failure). */
export async function preloadCards(ids, compact = false, lang = 'en') {
  const out = new Map();
  await Promise.all([...new Set(ids)].map(async (id) => {
    try {
      out.set(id, await cardSvg(id, compact, lang));
    } catch {
      /* drawn as a plain placeholder */
    }
  }));
  return out;
}
