// The hash router and the header (language switch, mute, help, navigation).
import {h, mount} from './dom.js';
import {t, getLang, setLang, onLangChange} from './i18n.js';
import {isMuted, setMuted, onMuteChange} from './sound.js';
import {toggleHelp, helpOpen, markPage} from './ui.js';
import {icon} from './icons.js';
import {HomePage} from './home.js';
import {RoomPage} from './room.js';
import {LogPage} from './log.js';
import {ReplayPage} from './replay.js';
import {TutorialPage} from './tutorial.js';
import {TableComputerPage} from './companion.js';

const app = document.getElementById('app');
const top = document.getElementById('top');
let page = null;

/** [Page, its parameter, the address's query] for the hash: `#/log/12?step=40` is step 40 of game 12. */
function route() {
  const [path, search = ''] = location.hash.replace(/^#/, '').split('?');
  const parts = (decodeURIComponent(path) || '/').split('/').filter(Boolean);
  const query = Object.fromEntries(new URLSearchParams(search));
  if (parts[0] === 'room' && parts[1]) return [RoomPage, parts[1].toUpperCase()];
  if (parts[0] === 'log' && parts[1]) return [ReplayPage, parts[1], query];
  if (parts[0] === 'log') return [LogPage, null];
  if (parts[0] === 'tutorial') return [TutorialPage, null];
  if (parts[0] === 'computer') return [TableComputerPage, null];
  return [HomePage, null];
}

function navigate() {
  const [Page, param, query] = route();
  if (page instanceof ReplayPage && Page === ReplayPage && page.id === param && !page.gone) {
    page.goTo(query); // another step of the game shown: the page stays, the table moves
    return;
  }
  if (page) {
    // an answer the server sends the page left behind must not draw over the next one
    page.gone = true;
    if (page.destroy) page.destroy();
  }
  toggleHelp(false);
  mount(app);
  const next = new Page(app, param, query);
  const draw = next.render.bind(next);
  next.render = (...args) => (next.gone ? undefined : draw(...args));
  page = next;
  renderHeader();
  page.render();
  app.focus({preventScroll: true});
}

function renderHeader() {
  document.documentElement.lang = getLang();
  document.title = t('app.title');
  const muteBtn = h('button', {type: 'button', class: 'icon-btn', dataset: {testid: 'mute'},
    'aria-pressed': isMuted() ? 'true' : 'false', 'aria-label': isMuted() ? t('header.unmute') : t('header.mute'),
    title: isMuted() ? t('header.unmute') : t('header.mute'), onclick: () => setMuted(!isMuted())},
  icon(isMuted() ? 'mute' : 'sound'));
  mount(top, h('div', {class: 'bar'},
    h('a', {class: 'brand', href: '#/'}, h('span', {class: 'brand-mark', 'aria-hidden': 'true'}, '✱'), 'FUSE'),
    h('nav', {'aria-label': t('header.nav')},
      h('a', {href: '#/'}, t('nav.home')),
      h('a', {href: '#/log', dataset: {testid: 'nav-log'}}, t('nav.log')),
      h('a', {href: '#/tutorial', dataset: {testid: 'nav-tutorial'}}, t('nav.tutorial')),
      h('a', {href: '#/computer', dataset: {testid: 'nav-computer'}}, t('nav.computer')),
      h('a', {href: '/cards', target: '_blank', rel: 'noopener'}, t('nav.cards'))),
    h('div', {class: 'tools'},
      h('label', {for: 'lang-switch', class: 'sr-only'}, t('header.lang')),
      h('select', {id: 'lang-switch', class: 'lang-btn', dataset: {testid: 'lang-switch'}, title: t('header.lang'),
        onchange: (e) => setLang(e.target.value)},
      h('option', {value: 'en', lang: 'en', selected: getLang() === 'en'}, 'English'),
      h('option', {value: 'es', lang: 'es', selected: getLang() === 'es'}, 'Español')),
      muteBtn,
      h('button', {type: 'button', class: 'icon-btn', dataset: {testid: 'help-button'}, 'aria-label': t('help.title'),
        title: t('help.title'), onclick: () => toggleHelp()}, icon('help')))));
}

onLangChange(() => {
  renderHeader();
  if (page) page.render();
  if (helpOpen()) toggleHelp(true);
});
onMuteChange(() => renderHeader());

document.addEventListener('keydown', (e) => {
  const tag = (e.target && e.target.tagName) || '';
  if (['INPUT', 'TEXTAREA', 'SELECT'].includes(tag) || e.target.isContentEditable) return;
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  if (e.key === 'h' || e.key === 'H' || e.key === '?') {
    toggleHelp();
    e.preventDefault();
    return;
  }
  if (helpOpen()) {
    if (e.key === 'Escape') {
      toggleHelp(false);
      return;
    }
    // the dialog's own keys stay in it; a game key closes the help and is played, never lost
    if (['Tab', 'Enter', ' ', 'Shift'].includes(e.key)) return;
    toggleHelp(false);
  }
  if (page && page.handleKey && page.handleKey(e)) e.preventDefault();
});

window.addEventListener('hashchange', navigate);
markPage('loading');
navigate();
