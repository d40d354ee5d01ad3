import { render, h } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { html, Session, ErrorBox } from './components.js';
import { api, ApiError } from './api.js';
import { startLive, onLiveState } from './live.js';

/**
 * The app shell. It knows no feature: the pages, their navigation sections and permissions come from
 * GET /api/ui/pages (each plugin registers its pages with ctx.page); the shell routes to the page
 * module, shows who is signed in, and keeps the /ws connection.
 */
const SECTION_ORDER = ['Data', 'Operate', 'Settings', 'Extensions'];

/** '/invite/:token' matches '/invite/abc' with {token: 'abc'} */
function match(pattern, path) {
  const a = pattern.split('/');
  const b = path.split('/');
  if (a.length !== b.length) return null;
  const params = {};
  for (let i = 0; i < a.length; i++) {
    if (a[i].startsWith(':')) params[a[i].slice(1)] = decodeURIComponent(b[i]);
    else if (a[i] !== b[i]) return null;
  }
  return params;
}

/** page modules by URL, imported once (the current page's import starts before the user is known) */
const modules = new Map();
const loadModule = (url) => (modules.has(url) ? modules.get(url) : modules.set(url, import(url)).get(url));

/** the answer of GET /api/auth/me, from the request the HTML shell started early when there is one */
async function whoAmI() {
  const early = window.basinMe;
  window.basinMe = null;
  if (!early) return api('/api/auth/me');
  const res = await early;
  const body = await res.json().catch(() => null);
  if (!res.ok) throw new ApiError(res.status, body);
  return body;
}

function PageModule({ page, params }) {
  const [Comp, setComp] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    loadModule(page.module).then((m) => setComp(() => m.default), (e) => setError(String(e)));
  }, [page.module]);
  if (error) return html`<${ErrorBox} error=${`This page failed to load: ${error}`} hint="Reload the page; if it persists, the server log says more." />`;
  return Comp ? h(Comp, { params }) : html`<p class="muted" aria-busy="true">Loading…</p>`;
}

function LiveIndicator() {
  const [state, setState] = useState('connecting');
  useEffect(() => onLiveState(setState), []);
  if (state === 'open') return html`<span class="live ok" title="Live updates are on">● Live</span>`;
  return html`<span class="live down" role="status">${state === 'reconnecting' ? 'Live updates lost; reconnecting…' : 'Connecting…'}</span>`;
}

function Shell({ pages, session, path, children }) {
  const [open, setOpen] = useState(false);
  const nav = pages.filter((p) => p.nav && !p.path.includes(':') && p.layout !== 'bare');
  const sections = [...new Set([...SECTION_ORDER, ...nav.map((p) => p.section)])].filter((s) => nav.some((p) => p.section === s));
  const logout = async () => {
    await api('/api/auth/logout', { method: 'POST' }).catch(() => {});
    location.assign('/login');
  };
  const user = session.user;
  return html`<div class=${open ? 'layout nav-open' : 'layout'}>
    <a class="skip" href="#main">Skip to content</a>
    <header class="topbar">
      <button class="ghost menu" aria-label="Menu" aria-expanded=${open} onClick=${() => setOpen(!open)}>☰</button>
      <a class="brand" href="/">Basin</a>
      <span class="spacer"></span>
      <${LiveIndicator} />
      ${user ? html`<a class="who" href="/settings/account">${user.display_name || user.email} · ${user.role}</a><button class="ghost" onClick=${logout}>Log out</button>` : html`<span class="who muted">auth disabled (local)</span>`}
    </header>
    <nav class="side" aria-label="Main">
      ${sections.map(
        (s) => html`<div class="section">${s}</div>
          ${nav.filter((p) => p.section === s).sort((a, b) => a.order - b.order).map((p) => html`<a href=${p.path} aria-current=${p.path === path ? 'page' : undefined} class=${p.path === path ? 'active' : ''}>${p.title}</a>`)}`,
      )}
      <div class="section">Tools</div>
      <a href="/bi/">Dashboards</a><a href="/tx-docs/">dbt docs</a><a href="/api/docs">API docs</a>
    </nav>
    <main id="main" tabindex="-1">${children}</main>
  </div>`;
}

function App() {
  const path = location.pathname.replace(/\/+$/, '') || '/';
  const [state, setState] = useState(null);
  useEffect(() => {
    // the server puts the page list into the shell; the API is the fallback (a cached or hand-made shell)
    const embedded = document.getElementById('basin-pages');
    const pages = embedded ? Promise.resolve(JSON.parse(embedded.textContent)) : api('/api/ui/pages');
    const path = location.pathname.replace(/\/+$/, '') || '/';
    // start the page's module (and its imports) now, alongside the question of who is signed in
    pages.then((list) => {
      const p = list.find((x) => x.module && match(x.path, path));
      if (p) loadModule(p.module).catch(() => {});
    }, () => {});
    Promise.all([pages, whoAmI().then((me) => ({ me }), (e) => ({ error: e }))]).then(
      ([pages, me]) => setState({ pages, me }),
      (error) => setState({ error }),
    );
  }, []);
  if (!state) return html`<p class="muted boot" aria-busy="true">Loading…</p>`;
  if (state.error) return html`<main class="center"><${ErrorBox} error=${state.error} hint="The Basin server did not answer; check that it runs, then reload." /></main>`;
  const found = state.pages.map((p) => ({ p, params: match(p.path, path) })).find((x) => x.params);
  const me = state.me.me;
  const bare = found?.p.layout === 'bare';
  // not signed in: app pages go to the login page (which comes back here after)
  if (!me && !bare && state.me.error?.status === 401) {
    location.assign(`/login?next=${encodeURIComponent(location.pathname + location.search)}`);
    return null;
  }
  if (me?.password_change_required && path !== '/setup') {
    location.assign('/setup?change=1');
    return null;
  }
  const authEnabled = !!me?.auth_enabled;
  const user = authEnabled ? me : null;
  const perms = new Set(me?.permissions ?? []);
  const session = { user, authEnabled, can: (perm) => !authEnabled || perms.has(perm), me };
  if (!bare && me && !me.partial) startLive();
  const body = found?.p.module
    ? html`<${PageModule} page=${found.p} params=${found.params} />`
    : html`<h1>Not found</h1><p class="muted">No page at ${path}${found ? ': the plugin that provides it has no page module' : ''}. A page comes from the plugin that owns its feature; if that plugin is not installed, this page is not either.</p>`;
  return html`<${Session.Provider} value=${session}>${bare ? body : html`<${Shell} pages=${state.pages} session=${session} path=${path}>${body}<//>`}<//>`;
}

render(html`<${App} />`, document.getElementById('app'));
