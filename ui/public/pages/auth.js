import { useState } from 'preact/hooks';
import { html } from '../components.js';
import { api } from '../api.js';

const next = () => new URLSearchParams(location.search).get('next') || '/';

/** `/login`: e-mail + password, then a TOTP or recovery code when 2FA is on. */
export function Login() {
  const [step, setStep] = useState('password');
  const [error, setError] = useState(new URLSearchParams(location.search).get('error'));
  const [busy, setBusy] = useState(false);
  const submit = async (e) => {
    e.preventDefault();
    const f = Object.fromEntries(new FormData(e.target));
    setBusy(true);
    setError(null);
    try {
      if (step === 'password') {
        const r = await api('/api/auth/login', { method: 'POST', body: { email: f.email, password: f.password } });
        if (r?.requires_2fa || r?.two_factor_required || r?.status === 'partial') return setStep('code');
        if (r?.password_change_required) return location.assign('/setup?change=1');
      } else {
        await api('/api/auth/2fa/verify', { method: 'POST', body: { code: f.code } });
      }
      location.assign(next());
    } catch (err) {
      setError(err.message);
    } finally {
      setBusy(false);
    }
  };
  return html`<div class="center"><div class="panel">
    <h1>Sign in to Basin</h1>
    <form class="stack" onSubmit=${submit}>
      ${step === 'password'
        ? html`<input name="email" type="email" placeholder="E-mail" autocomplete="username" required />
               <input name="password" type="password" placeholder="Password" autocomplete="current-password" required />`
        : html`<input name="code" placeholder="6-digit code or recovery code" autocomplete="one-time-code" required />`}
      <button disabled=${busy}>${step === 'password' ? 'Sign in' : 'Verify'}</button>
      ${error ? html`<p class="error">${error}</p>` : null}
    </form>
  </div></div>`;
}

/** `/setup`: the first admin's account (one-time link) or a required password change. */
export function Setup() {
  const params = new URLSearchParams(location.search);
  const [msg, setMsg] = useState(null);
  const submit = async (e) => {
    e.preventDefault();
    const f = Object.fromEntries(new FormData(e.target));
    try {
      if (params.get('token')) await api('/api/auth/setup', { method: 'POST', body: { token: params.get('token'), email: f.email, password: f.password } });
      else await api('/api/auth/change-password', { method: 'POST', body: { current_password: f.current, new_password: f.password } });
      location.assign('/');
    } catch (err) {
      setMsg(err.message);
    }
  };
  return html`<div class="center"><div class="panel">
    <h1>${params.get('token') ? 'Create the first admin' : 'Choose a new password'}</h1>
    <form class="stack" onSubmit=${submit}>
      ${params.get('token') ? html`<input name="email" type="email" placeholder="E-mail" required />` : html`<input name="current" type="password" placeholder="Current password" required />`}
      <input name="password" type="password" placeholder="New password (8+ characters)" minlength="8" required />
      <button>Continue</button>
      ${msg ? html`<p class="error">${msg}</p>` : null}
    </form>
  </div></div>`;
}

/** `/invite/{token}`: an invited user sets a password. */
export function Invite({ token }) {
  const [msg, setMsg] = useState(null);
  const submit = async (e) => {
    e.preventDefault();
    const f = Object.fromEntries(new FormData(e.target));
    try {
      await api('/api/auth/accept-invite', { method: 'POST', body: { token, password: f.password, display_name: f.display_name || undefined } });
      location.assign('/login');
    } catch (err) {
      setMsg(err.message);
    }
  };
  return html`<div class="center"><div class="panel">
    <h1>Join Basin</h1>
    <form class="stack" onSubmit=${submit}>
      <input name="display_name" placeholder="Your name (optional)" />
      <input name="password" type="password" placeholder="Password (8+ characters)" minlength="8" required />
      <button>Accept invite</button>
      ${msg ? html`<p class="error">${msg}</p>` : null}
    </form>
  </div></div>`;
}
