import { render, h } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { html } from './components.js';
import { api } from './api.js';
import { Dashboard } from './pages/dashboard.js';
import { Sources, Models, Health, Logs, Catalog, Schedules, Notebooks, Users, Account, Secrets } from './pages/lists.js';
import { Login, Setup, Invite } from './pages/auth.js';

/** Client-side routes for the server's HTML page routes; the server serves this shell for each. */
const NAV = [
  ['Data', [['/', 'Overview', Dashboard], ['/sources', 'Sources', Sources], ['/models', 'Models', Models], ['/catalog', 'Catalog', Catalog]]],
  ['Operate', [['/schedules', 'Schedules', Schedules], ['/notebooks', 'Notebooks', Notebooks], ['/health', 'Health', Health], ['/logs', 'Logs', Logs]]],
  ['Settings', [['/settings/account', 'Account', Account], ['/settings/users', 'Users', Users], ['/settings/secrets', 'Secrets', Secrets]]],
];
const BARE = { '/login': Login, '/setup': Setup };

/** A page contributed by a plugin: its module's default export is a preact component. */
function ExtensionPage({ module }) {
  const [Comp, setComp] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    import(module).then((m) => setComp(() => m.default), (e) => setError(String(e)));
  }, [module]);
  if (error) return html`<p class="error">This page failed to load: ${error}</p>`;
  return Comp ? h(Comp, {}) : html`<p class="muted">Loading…</p>`;
}

function App() {
  const path = location.pathname.replace(/\/+$/, '') || '/';
  const [extensions, setExtensions] = useState([]);
  useEffect(() => {
    // a plugin page at a path the shell already has is served by the shell's own page
    const builtIn = new Set(NAV.flatMap(([, items]) => items.map(([p]) => p)));
    api('/api/ui/pages').then((pages) => setExtensions(pages.filter((e) => !builtIn.has(e.path))), () => setExtensions([]));
  }, []);
  if (BARE[path]) return html`<${BARE[path]} />`;
  const invite = path.match(/^\/invite\/([^/]+)$/);
  if (invite) return html`<${Invite} token=${decodeURIComponent(invite[1])} />`;
  const page = NAV.flatMap(([, items]) => items).find(([p]) => p === path);
  const ext = extensions.find((e) => e.path === path && e.module);
  const Page = page ? page[2] : ext ? () => html`<${ExtensionPage} module=${ext.module} />` : () => html`<h1>Not found</h1><p class="muted">No page at ${path}.</p>`;
  return html`<div class="layout">
    <nav class="side">
      <div class="brand">Basin</div>
      ${NAV.map(([section, items]) => html`<div class="section">${section}</div>${items.map(([p, label]) => html`<a href=${p} class=${p === path ? 'active' : ''}>${label}</a>`)}`)}
      ${extensions.length ? html`<div class="section">Extensions</div>${extensions.map((e) => html`<a href=${e.path} class=${e.path === path ? 'active' : ''}>${e.title}</a>`)}` : null}
      <div class="section">Tools</div>
      <a href="/bi/">Dashboards</a><a href="/tx-docs/">dbt docs</a><a href="/api/docs">API docs</a>
    </nav>
    <main><${Page} /></main>
  </div>`;
}

render(html`<${App} />`, document.getElementById('app'));
