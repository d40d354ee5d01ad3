// /setup: the first admin's account (from the one-time setup link), or a required password change.
import { useEffect, useState } from 'preact/hooks';
import { html, api, ErrorBox } from '@basin/ui/components.js';

export default function Setup() {
  const params = new URLSearchParams(location.search);
  const token = params.get('token');
  const [state, setState] = useState(null);
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (token) api('/api/auth/setup').then(setState, () => setState({}));
  }, []);
  const submit = async (e) => {
    e.preventDefault();
    const f = Object.fromEntries(new FormData(e.target));
    if (f.password !== f.confirm) return setError({ message: 'The two passwords differ; type the same password twice.' });
    setBusy(true);
    setError(null);
    try {
      if (token) await api('/api/auth/setup', { method: 'POST', body: { token, email: f.email, password: f.password } });
      else await api('/api/auth/change-password', { method: 'POST', body: { current_password: f.current, new_password: f.password } });
      location.assign('/');
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const done = token && state && state.needs_setup === false;
  return html`<main class="center"><div class="panel">
    <h1>${token ? 'Create the first admin' : 'Choose a new password'}</h1>
    ${done ? html`<div class="notice">The first admin already exists. <a href="/login">Sign in</a>.</div>` : null}
    ${!token ? html`<p class="muted">Your account needs a new password before you continue.</p>` : null}
    <form class="stack" onSubmit=${submit}>
      ${token ? html`<label>E-mail <input name="email" type="email" autocomplete="username" required autofocus /></label>` : html`<label>Current password <input name="current" type="password" autocomplete="current-password" required autofocus /></label>`}
      <label>New password <input name="password" type="password" autocomplete="new-password" minlength="8" required /><span class="help">At least 8 characters; a long phrase is best.</span></label>
      <label>Repeat it <input name="confirm" type="password" autocomplete="new-password" minlength="8" required /></label>
      <button disabled=${busy}>${token ? 'Create admin' : 'Change password'}</button>
      <${ErrorBox} error=${error} />
    </form>
  </div></main>`;
}
