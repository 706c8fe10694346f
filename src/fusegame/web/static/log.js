// #/log: the BDT Log, every finished game with filters, and the best scores (ranked games only:
// timed, dealt at random, every seat played by a person from start to end).
import {h, mount, mmss} from './dom.js';
import {t, getLang} from './i18n.js';
import {api} from './api.js';
import {markPage, toast} from './ui.js';
import {gameTitle} from './words.js';

const GAMES = ['fuse', 'countdown', 'integrated', 'epic'];
const DIFFICULTIES = ['training', 'standard', 'expert', 'elite', 'insane', 'heroic'];
/** The kinds of game the log can show, each the server's filter that picks them. */
const KINDS = {
  ranked: {ranked: 'true'},
  bots: {bots: 'true'},
  seeded: {seeded: 'true'},
  practice: {official: 'false'},
};
/** What the best scores hold for each choice of where the games were played. */
const BEST_NOTE = {table: 'log.bestNoteTable', all: 'log.bestNoteBoth'};
const KIND_WORDS = {ranked: 'log.kindRanked', bots: 'log.kindBots', seeded: 'log.kindSeeded', practice: 'log.kindPractice'};

export function formatDate(iso) {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toLocaleString(getLang() === 'es' ? 'es-ES' : 'en-GB', {dateStyle: 'medium', timeStyle: 'short'});
}

export function timeLeft(ms) {
  return ms === null || ms === undefined ? t('log.untimed') : mmss(ms);
}

function playersText(e) {
  // who played each seat, said once: a bot's seat and a seat a bot took over each say so beside
  // the name (older games do not know who played: their count of bots stands for it)
  const played = e.played_by || [];
  const names = (e.names || []).map((n, i) => {
    if (played[i] === 'person_then_bot') return `${n} (${t('log.thenBot')})`;
    if (played[i] === 'bot' && !/\bbot\b/i.test(n)) return `${n} (${t('log.aBot')})`;
    return n;
  }).filter(Boolean).join(', ');
  return `${e.players}${names ? ` — ${names}` : ''}`;
}

/** The count of bots, for the games whose record does not say who played which seat. */
function botsNote(e) {
  if (!e.bots || (e.played_by || []).length) return null;
  return h('span', {class: 'muted small'}, ` (${e.bots === 1 ? t('log.bots_one') : t('log.bots', {n: e.bots})})`);
}

export class LogPage {
  constructor(root) {
    this.root = root;
    this.filters = {source: '', game: '', players: '', difficulty: '', won: '', kind: ''};
    this.data = null;
    this.error = null;
    this.load();
  }

  async load() {
    this.loading = true;
    try {
      const {kind, ...filters} = this.filters;
      this.data = await api.log({...filters, ...(KINDS[kind] || {}), limit: 50});
      this.error = null;
    } catch (e) {
      this.error = e.message;
      toast(e.message);
    }
    this.loading = false;
    this.render();
  }

  render() {
    markPage('log');
    const f = this.filters;
    const sel = (key, items, labelKey) => h('div', {class: 'field'},
      h('label', {for: `f-${key}`}, t(labelKey)),
      h('select', {id: `f-${key}`, dataset: {testid: `filter-${key}`}, onchange: (e) => {
        f[key] = e.target.value;
        this.load();
      }}, h('option', {value: ''}, t('log.all')), items.map(([v, label]) => h('option', {value: v, selected: f[key] === v}, label))));
    const players = [];
    for (let n = 1; n <= 9; n++) players.push([String(n), String(n)]);
    // where the game was played: in this app, or at a real table with the box (the Ship's Computer)
    const filters = h('form', {class: 'filters', onsubmit: (e) => e.preventDefault()},
      sel('source', [['digital', t('log.sourceDigital')], ['table', t('log.sourceTable')], ['all', t('log.sourceBoth')]],
        'log.source'),
      sel('game', GAMES.map((g) => [g, t(`game.${g}`)]), 'opt.game'),
      sel('players', players, 'opt.players'),
      sel('difficulty', DIFFICULTIES.map((d) => [d, t(`difficulty.${d}`)]), 'opt.difficulty'),
      sel('won', [['true', t('log.won')], ['false', t('log.lost')]], 'log.result'),
      sel('kind', Object.keys(KINDS).map((k) => [k, t(KIND_WORDS[k])]), 'log.kind'));
    const games = this.data ? this.data.games || [] : [];
    const best = this.data ? this.data.best || [] : [];
    mount(this.root, h('div', {class: 'log-page'},
      h('h1', {}, t('log.title')),
      h('p', {class: 'lead'}, t('log.lead')),
      h('section', {class: 'panel'}, filters),
      this.error ? h('p', {class: 'error'}, this.error) : null,
      h('div', {class: 'log-grid'},
        h('section', {class: 'panel'}, h('h2', {}, t('log.games')), this.data ? this.gamesTable(games)
          : h('p', {class: 'muted'}, t('loading'))),
        h('section', {class: 'panel'}, h('h2', {}, t('log.best')),
          h('p', {class: 'muted small', dataset: {testid: 'best-note'}}, t(BEST_NOTE[f.source] || 'log.bestNote')),
          this.bestTable(best)))));
  }

  gamesTable(games) {
    if (!games.length) return h('p', {class: 'muted', dataset: {testid: 'log-empty'}}, t('log.none'));
    return h('div', {class: 'table-scroll'}, h('table', {class: 'data stacked', dataset: {testid: 'log-table'}},
      h('thead', {}, h('tr', {}, ['log.date', 'log.game', 'log.players', 'opt.difficulty', 'log.result', 'log.timeLeft', 'log.score']
        .map((k) => h('th', {scope: 'col'}, t(k))))),
      h('tbody', {}, games.map((e) => this.row(e)))));
  }

  row(e) {
    const open = () => { location.hash = `#/log/${e.id}`; };
    return h('tr', {class: ['clickable', e.won ? 'won' : 'lost'], tabindex: 0, dataset: {testid: 'log-row', id: e.id},
      onclick: open, onkeydown: (ev) => { if (ev.key === 'Enter') open(); }},
    // each cell carries its column's name: on a phone the rows are drawn as cards, one cell a line
    h('td', {dataset: {label: t('log.date')}}, formatDate(e.finished_at)),
    h('td', {dataset: {label: t('log.game')}}, h('a', {href: `#/log/${e.id}`, tabindex: -1}, gameTitle(e.options || {game: e.game}, e.title || e.game)),
      e.table ? h('span', {class: 'tag at-table', dataset: {testid: 'tag-table'}}, t('log.tableGame')) : null,
      e.official === false ? h('span', {class: 'tag'}, t('log.practice')) : null,
      e.seeded ? h('span', {class: 'tag', dataset: {testid: 'tag-seeded'}}, t('log.seeded')) : null,
      e.ranked ? h('span', {class: 'tag done', dataset: {testid: 'tag-ranked'}}, t('log.ranked')) : null),
    h('td', {dataset: {label: t('log.players')}}, playersText(e), botsNote(e)),
    h('td', {dataset: {label: t('opt.difficulty')}}, t(`difficulty.${e.difficulty}`)),
    h('td', {dataset: {label: t('log.result')}}, h('span', {class: ['pill', e.won ? 'ok' : 'bad']}, e.won ? t('log.won') : t('log.lost'))),
    h('td', {dataset: {label: t('log.timeLeft')}}, timeLeft(e.time_left_ms)),
    h('td', {class: 'num', dataset: {label: t('log.score')}}, e.score ? e.score.total : ''));
  }

  bestTable(best) {
    // "no games yet" beside a list of games would be false: no game here is ranked yet
    if (!best.length) return h('p', {class: 'muted', dataset: {testid: 'best-empty'}}, t('log.noneRanked'));
    const cols = ['#', t('log.score'), t('log.game'), t('log.players'), t('opt.difficulty')];
    // a cell with its column's name, as in the games' table: cards on a phone
    const cell = (i, attrs, ...content) => h('td', {...attrs, dataset: {label: cols[i]}}, ...content);
    return h('table', {class: 'data best stacked', dataset: {testid: 'best-table'}},
      h('thead', {}, h('tr', {}, cols.map((k) => h('th', {scope: 'col'}, k)))),
      h('tbody', {}, best.map((e, i) => h('tr', {class: 'clickable', tabindex: 0, dataset: {testid: 'best-row', id: e.id},
        onclick: () => { location.hash = `#/log/${e.id}`; },
        onkeydown: (ev) => { if (ev.key === 'Enter') location.hash = `#/log/${e.id}`; }},
      cell(0, {}, i + 1), cell(1, {class: 'num'}, h('b', {}, e.score ? e.score.total : '')),
      cell(2, {}, gameTitle(e.options || {game: e.game}, e.title || e.game)), cell(3, {}, playersText(e)),
      cell(4, {}, t(`difficulty.${e.difficulty}`))))));
  }
}
