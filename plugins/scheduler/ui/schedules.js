// /schedules: schedules with next and last run, history, run now, cancel a running job, enable or
// disable; webhooks (from the notifications API) with a test send and the delivery log.
import { useState } from 'preact/hooks';
import { html, api, useApi, DataTable, Pill, ErrorBox, ago, useSession, useLiveEvent, useAction } from '@basin/ui/components.js';

const enc = encodeURIComponent;

function History({ name }) {
  const { data, error } = useApi(name ? `/api/schedules/${enc(name)}/history?limit=20` : '/api/schedules/history/recent?limit=20');
  if (error) return html`<${ErrorBox} error=${error} />`;
  return html`<${DataTable} rows=${data?.items ?? []} empty="No runs yet." columns=${[
    { key: 'schedule', label: 'schedule', render: (j) => j.schedule ?? j.schedule_name ?? name },
    { key: 'status', label: 'status', render: (j) => html`<${Pill} value=${j.status} />` },
    { key: 'started_at', label: 'started', render: (j) => ago(j.started_at ?? j.queued_at) },
    { key: 'attempt', label: 'attempt', render: (j) => j.attempt ?? 1 },
    { key: 'error', label: 'error', render: (j) => (j.error ? html`<span class="error">${j.error}</span>` : '') },
  ]} />`;
}

function Webhooks() {
  const { can } = useSession();
  const config = useApi('/api/notifications/config');
  const deliveries = useApi('/api/notifications/deliveries?limit=20');
  const [result, setResult] = useState(null);
  const [test, testing, testError] = useAction(async () => {
    setResult(await api('/api/notifications/test', { method: 'POST' }));
    deliveries.reload();
  });
  if (config.error?.status === 404) return html`<p class="muted">Webhook notifications are not installed on this server.</p>`;
  const hooks = config.data?.webhooks ?? [];
  return html`<h2>Webhooks</h2>
    <${ErrorBox} error=${config.error ?? testError} />
    <${DataTable} rows=${hooks} empty="No webhooks configured: add them under notifications.webhooks in .basin/schedules.yml." columns=${[
      { key: 'url', label: 'URL (tokens masked)', render: (w) => html`<code>${w.url ?? w}</code>` }, { key: 'format', label: 'format', render: (w) => w.format ?? w.type ?? '—' },
    ]} />
    ${config.data ? html`<p class="muted">Sent on: ${['failure', 'success', 'stale', 'governance', 'analysis'].filter((k) => config.data[`on_${k}`]).join(', ')} · stale after ${config.data.stale_threshold_hours} h</p>` : null}
    ${can('scheduler.manage') && hooks.length ? html`<button class="secondary" onClick=${test} disabled=${testing}>${testing ? 'Sending…' : 'Send a test message'}</button>` : null}
    ${result ? html`<div class="notice" role="status">${(result.results ?? result.deliveries ?? []).map((r) => html`<div>${r.url ?? ''}: <${Pill} value=${r.ok ? 'ok' : 'failed'} /> ${r.status ?? ''} ${r.error ?? ''}</div>`)}</div>` : null}
    <h3>Delivery log</h3>
    <${DataTable} rows=${deliveries.data?.items ?? []} empty="No deliveries yet." columns=${[
      { key: 'at', label: 'when', render: (r) => ago(r.at ?? r.created_at ?? r.sent_at) }, { key: 'event', label: 'event' },
      { key: 'url', label: 'to', render: (r) => html`<code>${r.url}</code>` }, { key: 'status', label: 'status', render: (r) => html`<${Pill} value=${r.ok === false || r.error ? 'failed' : 'ok'} label=${String(r.status ?? r.http_status ?? (r.ok ? 'ok' : 'failed'))} />` },
      { key: 'error', label: 'error' },
    ]} />`;
}

export default function Schedules() {
  const { can } = useSession();
  const { data, error, reload } = useApi('/api/schedules');
  const [selected, setSelected] = useState(null);
  const [act, , actError] = useAction(async (fn) => (await fn(), reload()));
  useLiveEvent(['sync_started', 'sync_completed', 'sync_failed', 'tx_run_completed'], () => reload());
  return html`<div class="page-head"><h1>Schedules</h1>
      <div class="actions">${can('scheduler.manage') ? html`<button class="secondary" onClick=${() => act(() => api('/api/schedules/reload', { method: 'POST' }))}>Reload schedules.yml</button>` : null}</div></div>
    <${ErrorBox} error=${error ?? actError} />
    <${DataTable} rows=${data ?? []} empty="No schedules: add them to .basin/schedules.yml." columns=${[
      { key: 'name', label: 'schedule', render: (s) => html`<button class="ghost" onClick=${() => setSelected(s.name === selected ? null : s.name)} aria-expanded=${s.name === selected}>${s.name}</button><div class="muted">${s.type}${s.sources?.length ? `: ${s.sources.join(', ')}` : ''}</div>` },
      { key: 'cron', label: 'when', render: (s) => html`<code>${s.cron_expression ?? s.cron}</code><div class="muted">${s.timezone ?? ''}</div>` },
      { key: 'enabled', label: 'state', render: (s) => html`<${Pill} value=${s.enabled ? 'enabled' : 'disabled'} />${s.active_jobs?.length ? html` <${Pill} value="running" />` : null}` },
      { key: 'next_run', label: 'next run', render: (s) => (s.enabled ? ago(s.next_run) : '—') },
      { key: 'last_run', label: 'last run', render: (s) => (s.last_run ? html`<${Pill} value=${s.last_run.status} /> ${ago(s.last_run.finished_at ?? s.last_run.started_at)}` : 'never') },
      {
        key: 'act', label: 'actions',
        render: (s) => html`<div class="row">
          ${can('source.sync') ? html`<button class="secondary small" onClick=${() => act(() => api(`/api/schedules/${enc(s.name)}/trigger`, { method: 'POST' }))}>Run now</button>` : null}
          ${can('scheduler.manage') ? (s.active_jobs ?? []).map((j) => html`<button class="secondary small" onClick=${() => act(() => api(`/api/schedules/jobs/${enc(j.id ?? j.job_id)}/cancel`, { method: 'POST' }))}>Cancel run</button>`) : null}
          ${can('scheduler.manage') ? html`<button class="secondary small" onClick=${() => act(() => api(`/api/schedules/${enc(s.name)}`, { method: 'PATCH', body: { enabled: !s.enabled } }))}>${s.enabled ? 'Disable' : 'Enable'}</button>` : null}
        </div>`,
      },
    ]} />
    <h2>${selected ? `History of ${selected}` : 'Recent runs'}</h2>
    <${History} name=${selected} />
    <${Webhooks} />`;
}
