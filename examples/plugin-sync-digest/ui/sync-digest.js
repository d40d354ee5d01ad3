import { h } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import htm from 'htm';

const html = htm.bind(h);

/** The sync digest page: one row per source that completed a sync since the server started. */
export default function SyncDigest() {
  const [data, setData] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    fetch('/api/sync-digest', { headers: { 'x-requested-with': 'XMLHttpRequest' } })
      .then((r) => (r.ok ? r.json() : r.json().then((b) => Promise.reject(new Error(b.error?.message ?? r.statusText)))))
      .then(setData, (e) => setError(String(e.message ?? e)));
  }, []);
  if (error) return html`<h1>Sync digest</h1><p class="error">${error}</p>`;
  if (!data) return html`<h1>Sync digest</h1><p class="muted">Loading…</p>`;
  return html`<h1>Sync digest</h1>
    ${data.sources.length === 0
      ? html`<p class="muted">No sync completed since the server started.</p>`
      : html`<table id="digest"><thead><tr><th>Source</th><th>Syncs</th><th>Rows</th><th>Last</th></tr></thead><tbody>
          ${data.sources.map((s) => html`<tr><td>${s.source}</td><td>${s.syncs}</td><td>${s.rows}</td><td>${s.last_completed_at}</td></tr>`)}
        </tbody></table>`}`;
}
