// The shared building blocks of every page: html, data loading, tables, errors, charts, dialogs.
import { h, createContext } from 'preact';
import { useEffect, useState, useCallback, useContext, useRef } from 'preact/hooks';
import htm from 'htm';
import { api } from './api.js';
import { onEvent } from './live.js';

export { api, upload, ApiError } from './api.js';
export const html = htm.bind(h);

/** who is signed in: {user, can(permission), authEnabled} (provided by the shell) */
export const Session = createContext({ user: null, authEnabled: false, can: () => true });
export const useSession = () => useContext(Session);

/** Loads an API path; returns {data, error, loading, reload}. A 401 sends the user to /login. Pass null to skip. */
export function useApi(path) {
  const [state, setState] = useState({ data: null, error: null, loading: !!path });
  const load = useCallback(() => {
    if (!path) return;
    setState((s) => ({ ...s, loading: true }));
    api(path)
      .then((data) => setState({ data, error: null, loading: false }))
      .catch((error) => {
        if (error.status === 401) location.assign(`/login?next=${encodeURIComponent(location.pathname + location.search)}`);
        setState({ data: null, error, loading: false });
      });
  }, [path]);
  useEffect(load, [load]);
  return { ...state, reload: load };
}

/** calls fn for each /ws event of one of `types` */
export function useLiveEvent(types, fn) {
  const ref = useRef(fn);
  ref.current = fn;
  useEffect(() => onEvent((ev) => types.includes(ev.type) && ref.current(ev)), [types.join(',')]);
}

/** runs an async action with busy and error state: const [run, busy, error] = useAction(fn) */
export function useAction(fn) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(null);
  const run = async (...args) => {
    setBusy(true);
    setError(null);
    try {
      return await fn(...args);
    } catch (e) {
      setError(e);
      return undefined;
    } finally {
      setBusy(false);
    }
  };
  return [run, busy, error, setError];
}

export const Pill = ({ value, label }) => html`<span class=${`pill ${String(value ?? '').toLowerCase().replace(/\s+/g, '_')}`}>${label ?? String(value ?? '—')}</span>`;

export function fmt(v) {
  if (v === null || v === undefined || v === '') return '—';
  if (typeof v === 'number') return v.toLocaleString('en');
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

/** "3 min ago" for an ISO time; "in 5 min" for a future one */
export function ago(iso) {
  if (!iso) return '—';
  const t = new Date(iso).getTime();
  if (Number.isNaN(t)) return String(iso);
  const s = Math.round((Date.now() - t) / 1000);
  const a = Math.abs(s);
  const txt = a < 60 ? `${a} s` : a < 3600 ? `${Math.round(a / 60)} min` : a < 86400 ? `${Math.round(a / 3600)} h` : `${Math.round(a / 86400)} d`;
  return s >= 0 ? `${txt} ago` : `in ${txt}`;
}

export function bytes(n) {
  if (n === null || n === undefined) return '—';
  const u = ['B', 'KB', 'MB', 'GB', 'TB'];
  let i = 0;
  while (n >= 1024 && i < u.length - 1) (n /= 1024), i++;
  return `${n.toFixed(i ? 1 : 0)} ${u[i]}`;
}

/** An API error as the user should read it: the server's message, the wait time, the field details. */
export function ErrorBox({ error, hint }) {
  if (!error) return null;
  const msg = typeof error === 'string' ? error : error.message;
  const details = Array.isArray(error.details) ? error.details : null;
  return html`<div class="error-box" role="alert">
    <strong>${msg}</strong>
    ${error.retryAfter ? html`<div>Try again in ${error.retryAfter} s.</div>` : null}
    ${details?.length ? html`<ul>${details.map((d) => html`<li><code>${d.path}</code> ${d.message}</li>`)}</ul>` : null}
    ${hint ? html`<div class="muted">${hint}</div>` : null}
  </div>`;
}

/** A plain table of objects; `columns` is a list of keys or {key, label, render}. */
export function DataTable({ rows, columns, empty = 'Nothing here yet.', caption }) {
  if (!rows?.length) return html`<p class="muted">${empty}</p>`;
  const cols = (columns ?? Object.keys(rows[0])).map((c) => (typeof c === 'string' ? { key: c, label: c.replace(/_/g, ' ') } : c));
  return html`<div class="table-wrap" tabindex="0" role="region" aria-label=${caption ?? 'table (scrolls sideways on a narrow screen)'}><table>
    ${caption ? html`<caption>${caption}</caption>` : null}
    <thead><tr>${cols.map((c) => html`<th scope="col">${c.label}</th>`)}</tr></thead>
    <tbody>${rows.map((r) => html`<tr>${cols.map((c) => html`<td>${c.render ? c.render(r) : fmt(r[c.key])}</td>`)}</tr>`)}</tbody>
  </table></div>`;
}

/** Shows an API-backed body with loading and error states; children(data, reload). */
export function ApiView({ path, children, notInstalled }) {
  const { data, error, loading, reload } = useApi(path);
  if (loading && !data) return html`<p class="muted" aria-busy="true">Loading…</p>`;
  if (error) {
    const hint = error.status === 404 && notInstalled ? notInstalled : error.status === 403 ? 'Your role does not allow this; an admin can change your role.' : null;
    return html`<${ErrorBox} error=${error} hint=${hint} />`;
  }
  return children(data, reload);
}

export function Tabs({ tabs, active, onChange }) {
  return html`<div class="tabs" role="tablist">${tabs.map(
    ([id, label]) => html`<button role="tab" aria-selected=${id === active} class=${id === active ? 'tab active' : 'tab'} onClick=${() => onChange(id)}>${label}</button>`,
  )}</div>`;
}

export function Progress({ value, label }) {
  const pct = value === null || value === undefined ? null : Math.max(0, Math.min(100, Math.round(value * 100)));
  return html`<div class="progress" role="progressbar" aria-label=${label ?? 'progress'} aria-valuemin="0" aria-valuemax="100" aria-valuenow=${pct ?? undefined}>
    <div class=${pct === null ? 'bar indeterminate' : 'bar'} style=${pct === null ? '' : `width:${pct}%`}></div>
  </div>`;
}

/** A modal dialog (native <dialog>: focus is trapped and Escape closes it). */
export function Modal({ title, onClose, children }) {
  const ref = useRef(null);
  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
    const close = () => onClose?.();
    d?.addEventListener('close', close);
    return () => d?.removeEventListener('close', close);
  }, []);
  return html`<dialog ref=${ref} class="modal" aria-label=${title}>
    <div class="modal-head"><h2>${title}</h2><button class="ghost" aria-label="Close" onClick=${() => ref.current?.close()}>✕</button></div>
    ${children}
  </dialog>`;
}

/** Copies text and says so. */
export function CopyButton({ text, label = 'Copy' }) {
  const [done, setDone] = useState(false);
  return html`<button class="secondary" onClick=${async () => {
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      /* the text stays visible to copy by hand */
    }
    setDone(true);
    setTimeout(() => setDone(false), 1500);
  }}>${done ? 'Copied' : label}</button>`;
}

let uplotPromise = null;
/** loads uPlot (bundled at build time) and its stylesheet once */
export function loadUplot() {
  if (!uplotPromise) {
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = '/ui/vendor/uplot.css';
    document.head.appendChild(link);
    uplotPromise = import('/ui/vendor/charts.js').then((m) => m.uPlot);
  }
  return uplotPromise;
}

/**
 * A uPlot chart. x: numbers (unix seconds for time), series: [{label, values, color}], bars draws bars.
 * The chart follows its container's width.
 */
export function Chart({ x, series, height = 200, bars = false, time = true, title }) {
  const ref = useRef(null);
  useEffect(() => {
    let chart = null;
    let observer = null;
    let cancelled = false;
    loadUplot().then((uPlot) => {
      if (cancelled || !ref.current) return;
      const width = ref.current.clientWidth || 600;
      const paths = bars ? uPlot.paths.bars({ size: [0.7, 40] }) : undefined;
      chart = new uPlot(
        {
          width,
          height,
          scales: { x: { time } },
          legend: { show: series.length > 1 },
          axes: [{ stroke: '#5d6b7a' }, { stroke: '#5d6b7a', size: 60 }],
          series: [{}, ...series.map((s) => ({ label: s.label, stroke: s.color ?? '#1f6feb', fill: bars ? `${s.color ?? '#1f6feb'}99` : `${s.color ?? '#1f6feb'}22`, width: bars ? 0 : 2, paths, points: { show: !bars && x.length < 40 } }))],
        },
        [x, ...series.map((s) => s.values)],
        ref.current,
      );
      observer = new ResizeObserver(() => ref.current && chart.setSize({ width: ref.current.clientWidth, height }));
      observer.observe(ref.current);
    });
    return () => {
      cancelled = true;
      observer?.disconnect();
      chart?.destroy();
    };
  }, [JSON.stringify(x), JSON.stringify(series.map((s) => s.values))]);
  return html`<figure class="chart" aria-label=${title ?? 'chart'}><div ref=${ref}></div></figure>`;
}

/** the page's URL query as an object, and a setter that keeps it in the address bar (back/forward work) */
export function useQueryState() {
  const read = () => Object.fromEntries(new URLSearchParams(location.search));
  const [q, setQ] = useState(read);
  useEffect(() => {
    const onPop = () => setQ(read());
    addEventListener('popstate', onPop);
    return () => removeEventListener('popstate', onPop);
  }, []);
  const update = (patch, { replace = false } = {}) => {
    const next = { ...read(), ...patch };
    for (const k of Object.keys(next)) if (next[k] === undefined || next[k] === null || next[k] === '') delete next[k];
    const qs = new URLSearchParams(next).toString();
    history[replace ? 'replaceState' : 'pushState'](null, '', `${location.pathname}${qs ? `?${qs}` : ''}`);
    setQ(next);
  };
  return [q, update];
}

/** a value that follows `value` after `ms` without changes (search boxes) */
export function useDebounced(value, ms) {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}
