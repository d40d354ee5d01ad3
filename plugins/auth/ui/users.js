// /settings/users (admin): invite (copy the link), change role, deactivate or reactivate, unlock, reset password, reset 2FA.
import { useState } from 'preact/hooks';
import { html, api, useApi, DataTable, Pill, ErrorBox, ago, useSession, useAction, CopyButton } from '@basin/ui/components.js';

const ROLES = ['admin', 'editor', 'viewer'];

export default function Users() {
  const { user: me } = useSession();
  const { data, error, reload } = useApi('/api/admin/users');
  const [link, setLink] = useState(null);
  const [invite, inviting, inviteError] = useAction(async (e) => {
    e.preventDefault();
    const f = Object.fromEntries(new FormData(e.target));
    const r = await api('/api/admin/users', { method: 'POST', body: { email: f.email, role: f.role } });
    setLink({ email: f.email, url: r.invite_url, kind: 'invite' });
    e.target.reset();
    reload();
  });
  const [act, , actError] = useAction(async (fn) => {
    const r = await fn();
    if (r?.invite_url || r?.reset_url) setLink({ email: r.user?.email, url: r.invite_url ?? r.reset_url, kind: r.invite_url ? 'invite' : 'reset' });
    reload();
  });
  const id = (u) => encodeURIComponent(u.id);
  return html`<h1>Users</h1>
    <form class="row" onSubmit=${invite} aria-label="Invite a user">
      <label>E-mail <input name="email" type="email" required /></label>
      <label>Role <select name="role">${ROLES.map((r) => html`<option value=${r} selected=${r === 'viewer'}>${r}</option>`)}</select></label>
      <button disabled=${inviting}>Invite</button>
    </form>
    ${link ? html`<div class="success" role="status"><strong>${link.kind === 'invite' ? 'Invite' : 'Password reset'} link for ${link.email}</strong> (single use, valid 72 hours; send it yourself):
      <div class="secret invite-link">${link.url}</div><div class="row"><${CopyButton} text=${link.url} label="Copy link" /><button class="ghost" onClick=${() => setLink(null)}>Done</button></div></div>` : null}
    <${ErrorBox} error=${error ?? inviteError ?? actError} />
    <${DataTable} rows=${data ?? []} columns=${[
      { key: 'email', label: 'user', render: (u) => html`${u.email}${u.display_name ? html`<div class="muted">${u.display_name}</div>` : null}` },
      {
        key: 'role', label: 'role',
        render: (u) => (u.id === me?.id ? u.role : html`<select aria-label=${`Role of ${u.email}`} value=${u.role} onChange=${(e) => act(() => api(`/api/admin/users/${id(u)}/role`, { method: 'PUT', body: { role: e.target.value } }))}>${ROLES.map((r) => html`<option value=${r}>${r}</option>`)}</select>`),
      },
      { key: 'status', label: 'status', render: (u) => html`<${Pill} value=${u.status} />${u.locked ? html` <${Pill} value="locked" />` : null}` },
      { key: 'two_factor_enabled', label: '2FA', render: (u) => (u.two_factor_enabled ? 'on' : 'off') },
      { key: 'last_login_at', label: 'last login', render: (u) => ago(u.last_login_at) },
      {
        key: 'act', label: 'actions',
        render: (u) => (u.id === me?.id
          ? html`<span class="muted">you</span>`
          : html`<div class="row">
            ${u.status === 'invited' ? html`<button class="secondary small" onClick=${() => act(() => api(`/api/admin/users/${id(u)}/reinvite`, { method: 'POST' }))}>New invite link</button>` : null}
            ${u.status === 'active' ? html`<button class="secondary small" onClick=${() => act(() => api(`/api/admin/users/${id(u)}/reset-password`, { method: 'POST' }))}>Reset password</button>` : null}
            ${u.locked ? html`<button class="secondary small" onClick=${() => act(() => api(`/api/admin/users/${id(u)}/unlock`, { method: 'POST' }))}>Unlock</button>` : null}
            ${u.two_factor_enabled ? html`<button class="secondary small" onClick=${() => confirm(`Remove two-factor authentication of ${u.email}? Their sessions end; they can set it up again.`) && act(() => api(`/api/admin/users/${id(u)}/reset-2fa`, { method: 'POST' }))}>Reset 2FA</button>` : null}
            ${u.status === 'deactivated'
              ? html`<button class="secondary small" onClick=${() => act(() => api(`/api/admin/users/${id(u)}/reactivate`, { method: 'POST' }))}>Reactivate</button>`
              : html`<button class="secondary small" onClick=${() => confirm(`Deactivate ${u.email}? Their sessions end at once.`) && act(() => api(`/api/admin/users/${id(u)}/deactivate`, { method: 'POST' }))}>Deactivate</button>`}
          </div>`),
      },
    ]} />
  `;
}
