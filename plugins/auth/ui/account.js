// /settings/account: sessions with revoke, API keys (the key shown once), TOTP enrollment with a QR
// code rendered in the page, recovery codes, password change.
import { useState } from 'preact/hooks';
import { html, api, useApi, DataTable, Pill, ErrorBox, ago, useSession, useAction, CopyButton } from '@basin/ui/components.js';

function Sessions() {
  const { data, error, reload } = useApi('/api/auth/sessions');
  const [revoke, , revokeError] = useAction(async (s) => (await api(`/api/auth/sessions/${encodeURIComponent(s.id)}`, { method: 'DELETE' }), reload()));
  return html`<h2>Sessions</h2><${ErrorBox} error=${error ?? revokeError} />
    <${DataTable} rows=${data ?? []} columns=${[
      { key: 'method', label: 'method' }, { key: 'created_at', label: 'signed in', render: (r) => ago(r.created_at) }, { key: 'last_seen_at', label: 'last seen', render: (r) => ago(r.last_seen_at) },
      'ip', { key: 'user_agent', label: 'browser', render: (r) => html`<span class="muted">${(r.user_agent ?? '').slice(0, 60)}</span>` },
      { key: 'act', label: '', render: (r) => (r.current ? html`<${Pill} value="active" label="this session" />` : html`<button class="secondary small" onClick=${() => revoke(r)}>Revoke</button>`) },
    ]} />`;
}

function ApiKeys() {
  const { data, error, reload } = useApi('/api/auth/api-keys');
  const [created, setCreated] = useState(null);
  const [create, busy, createError] = useAction(async (e) => {
    e.preventDefault();
    const f = Object.fromEntries(new FormData(e.target));
    const k = await api('/api/auth/api-keys', { method: 'POST', body: { name: f.name, expires_at: f.expires ? new Date(f.expires).toISOString() : null } });
    setCreated(k);
    e.target.reset();
    reload();
  });
  const [revoke, , revokeError] = useAction(async (k) => confirm(`Revoke the key "${k.name}"? Programs using it stop working.`) && (await api(`/api/auth/api-keys/${encodeURIComponent(k.id)}`, { method: 'DELETE' }), reload()));
  return html`<h2>API keys</h2>
    <form class="row" onSubmit=${create}>
      <label>Name <input name="name" required maxlength="100" placeholder="e.g. nightly export" /></label>
      <label>Expires (optional) <input name="expires" type="date" /></label>
      <button disabled=${busy}>Create key</button>
    </form>
    ${created ? html`<div class="success" role="status"><strong>Copy the key now: it is shown only once.</strong>
      <div class="secret api-key">${created.key}</div><div class="row"><${CopyButton} text=${created.key} /><button class="ghost" onClick=${() => setCreated(null)}>Done</button></div>
      <div class="muted">Use it as <code>Authorization: Bearer ${created.prefix}…</code></div></div>` : null}
    <${ErrorBox} error=${error ?? createError ?? revokeError} />
    <${DataTable} rows=${(data ?? []).filter((k) => !k.revoked_at)} empty="No API keys." columns=${[
      'name', { key: 'prefix', label: 'key', render: (r) => html`<code>${r.prefix}…</code>` }, { key: 'created_at', label: 'created', render: (r) => ago(r.created_at) },
      { key: 'last_used_at', label: 'last used', render: (r) => ago(r.last_used_at) }, { key: 'expires_at', label: 'expires', render: (r) => (r.expires_at ? new Date(r.expires_at).toLocaleDateString() : 'never') },
      { key: 'act', label: '', render: (r) => html`<button class="secondary small" onClick=${() => revoke(r)} aria-label=${`Revoke ${r.name}`}>Revoke</button>` },
    ]} />`;
}

/** the otpauth URI as a QR code image, drawn in the page by the bundled generator (the secret never leaves the browser) */
function QrCode({ text }) {
  const [src, setSrc] = useState(null);
  if (!src)
    import('/ui/vendor/qr.js').then(({ qrcode }) => {
      const qr = qrcode(0, 'M');
      qr.addData(text);
      qr.make();
      setSrc(qr.createDataURL(5, 8));
    });
  return src ? html`<img class="qr" src=${src} alt="QR code for your authenticator app" width="220" height="220" />` : html`<p class="muted">Drawing the QR code…</p>`;
}

function TwoFactor() {
  const { me } = useSession();
  const [enabled, setEnabled] = useState(!!me?.two_factor_enabled);
  const [setup, setSetup] = useState(null);
  const [codes, setCodes] = useState(null);
  const [start, busy, startError] = useAction(async (e) => {
    e.preventDefault();
    const s = await api('/api/auth/2fa/setup', { method: 'POST', body: { password: new FormData(e.target).get('password') } });
    setSetup(s);
  });
  const [verify, verifying, verifyError] = useAction(async (e) => {
    e.preventDefault();
    await api('/api/auth/2fa/verify-setup', { method: 'POST', body: { code: String(new FormData(e.target).get('code')).trim() } });
    setCodes(setup.recovery_codes);
    setSetup(null);
    setEnabled(true);
  });
  const [disable, disabling, disableError] = useAction(async (e) => {
    e.preventDefault();
    await api('/api/auth/2fa/disable', { method: 'POST', body: { password: new FormData(e.target).get('password') } });
    setEnabled(false);
  });
  const [regen, regenerating, regenError] = useAction(async (e) => {
    e.preventDefault();
    const f = Object.fromEntries(new FormData(e.target));
    const r = await api('/api/auth/2fa/regenerate-recovery', { method: 'POST', body: { password: f.password, code: f.code.trim() } });
    setCodes(r.recovery_codes ?? r.codes ?? r);
  });
  return html`<h2>Two-factor authentication</h2>
    <p>${enabled ? html`<${Pill} value="enabled" label="on" /> Sign-in asks for a code from your authenticator app.` : html`<${Pill} value="disabled" label="off" /> Protect your account with an authenticator app (TOTP).`}</p>
    ${codes ? html`<div class="success" role="status"><strong>Save these recovery codes now; each works once if you lose your device. They are not shown again.</strong>
      <pre class="recovery-codes">${codes.join('\n')}</pre><div class="row"><${CopyButton} text=${codes.join('\n')} label="Copy codes" /><button class="ghost" onClick=${() => setCodes(null)}>Done</button></div></div>` : null}
    ${!enabled && !setup ? html`<form class="row" onSubmit=${start}><label>Your password <input name="password" type="password" autocomplete="current-password" required /></label><button disabled=${busy}>Set up two-factor</button></form>` : null}
    ${setup ? html`<div class="card stack">
      <p>1. Scan this code with your authenticator app (or type the key).</p>
      <${QrCode} text=${setup.otpauth_uri} />
      <div>Key: <code class="totp-secret">${setup.secret}</code></div>
      <form class="row" onSubmit=${verify}><label>2. The 6-digit code it shows <input name="code" inputmode="numeric" pattern="\\s*[0-9]{6}\\s*" autocomplete="one-time-code" required /></label><button disabled=${verifying}>Turn on</button></form>
    </div>` : null}
    ${enabled ? html`<details><summary>Turn off or new recovery codes</summary>
      <form class="row" onSubmit=${disable}><label>Password <input name="password" type="password" required /></label><button class="danger" disabled=${disabling}>Turn off two-factor</button></form>
      <form class="row" onSubmit=${regen}><label>Password <input name="password" type="password" required /></label><label>Current code <input name="code" required /></label><button class="secondary" disabled=${regenerating}>New recovery codes</button></form>
    </details>` : null}
    <${ErrorBox} error=${startError ?? verifyError ?? disableError ?? regenError} />`;
}

function Password() {
  const [done, setDone] = useState(false);
  const [change, busy, error, setError] = useAction(async (e) => {
    e.preventDefault();
    const f = Object.fromEntries(new FormData(e.target));
    if (f.password !== f.confirm) return setError({ message: 'The two new passwords differ.' });
    await api('/api/auth/change-password', { method: 'POST', body: { current_password: f.current, new_password: f.password } });
    setDone(true);
    e.target.reset();
  });
  return html`<h2>Password</h2>
    <form class="stack" onSubmit=${change}>
      <label>Current password <input name="current" type="password" autocomplete="current-password" required /></label>
      <label>New password <input name="password" type="password" autocomplete="new-password" minlength="8" required /></label>
      <label>Repeat it <input name="confirm" type="password" autocomplete="new-password" minlength="8" required /></label>
      <div><button disabled=${busy}>Change password</button></div>
      ${done ? html`<div class="success" role="status">Password changed; your other sessions were signed out.</div>` : null}
      <${ErrorBox} error=${error} />
    </form>`;
}

export default function Account() {
  const { user, authEnabled } = useSession();
  if (!authEnabled) return html`<h1>Account</h1><div class="notice">Authentication is turned off for this project (auth.enabled: false, loopback only), so there is no account to manage. Turn it on in .basin/project.yml.</div>`;
  return html`<h1>Account</h1>
    <dl class="kv"><dt>E-mail</dt><dd>${user.email}</dd><dt>Role</dt><dd>${user.role}</dd></dl>
    <${TwoFactor} />
    <${ApiKeys} />
    <${Sessions} />
    <${Password} />`;
}
