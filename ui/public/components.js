import { h } from 'preact';
import { useEffect, useState, useCallback } from 'preact/hooks';
import htm from 'htm';
import { api } from './api.js';

export const html = htm.bind(h);

/** Loads an API path; returns {data, error, loading, reload}. A 401 sends the user to /login. */
export function useApi(path) {
  const [state, setState] = useState({ data: null, error: null, loading: true });
  const load = useCallback(() => {
    setState((s) => ({ ...s, loading: true }));
    api(path)
      .then((data) => setState({ data, error: null, loading: false }))
      .catch((error) => {
        if (error.status === 401) location.assign(`/login?next=${encodeURIComponent(location.pathname)}`);
        setState({ data: null, error, loading: false });
      });
  }, [path]);
  useEffect(load, [load]);
  return { ...state, reload: load };
}

export const Pill = ({ value }) => html`<span class=${`pill ${String(value ?? '').toLowerCase()}`}>${String(value ?? '—')}</span>`;

export function fmt(v) {
  if (v === null || v === undefined) return '—';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

/** A plain table of objects; `columns` is a list of keys or {key, label, render}. */
export function DataTable({ rows, columns, empty = 'Nothing here yet.' }) {
  if (!rows?.length) return html`<p class="muted">${empty}</p>`;
  const cols = (columns ?? Object.keys(rows[0])).map((c) => (typeof c === 'string' ? { key: c, label: c.replace(/_/g, ' ') } : c));
  return html`<table>
    <thead><tr>${cols.map((c) => html`<th>${c.label}</th>`)}</tr></thead>
    <tbody>${rows.map((r) => html`<tr>${cols.map((c) => html`<td>${c.render ? c.render(r) : fmt(r[c.key])}</td>`)}</tr>`)}</tbody>
  </table>`;
}

/** Shows an API-backed page body with loading and error states. */
export function ApiView({ path, children }) {
  const { data, error, loading, reload } = useApi(path);
  if (loading && !data) return html`<p class="muted">Loading…</p>`;
  if (error) {
    const hint = error.status === 404 ? 'This feature is not installed on this server.' : error.status === 403 ? 'Your role does not allow this page.' : '';
    return html`<p class="error">${error.message} ${hint}</p>`;
  }
  return children(data, reload);
}
