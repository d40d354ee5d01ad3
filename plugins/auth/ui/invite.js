// /invite/{token}: an invited user (or one with a reset link) sets a password and is signed in.
import { useEffect, useState } from 'preact/hooks';
import { html, api, ErrorBox } from '@basin/ui/components.js';

export default function Invite({ params }) {
  const token = params.token;
  const [info, setInfo] = useState(null);
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    api(`/api/auth/invite/${encodeURIComponent(token)}`).then(setInfo, (e) => setInfo({ invalid: e }));
  }, [token]);
  const submit = async (e) => {
    e.preventDefault();
    const f = Object.fromEntries(new FormData(e.target));
    if (f.password !== f.confirm) return setError({ message: 'The two passwords differ; type the same password twice.' });
    setBusy(true);
    setError(null);
    try {
      await api('/api/auth/accept-invite', { method: 'POST', body: { token, password: f.password, display_name: f.display_name || undefined } });
      location.assign('/');
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  if (!info) return html`<main class="center"><p class="muted">Checking the link…</p></main>`;
  if (info.invalid) return html`<main class="center"><div class="panel"><h1>This link does not work</h1><${ErrorBox} error=${info.invalid} hint="Ask an admin for a new invite link." /></div></main>`;
  return html`<main class="center"><div class="panel">
    <h1>${info.purpose === 'reset' || info.kind === 'reset' ? 'Reset your password' : 'Join Basin'}</h1>
    ${info.email ? html`<p class="muted">For ${info.email}</p>` : null}
    <form class="stack" onSubmit=${submit}>
      <label>Your name (optional) <input name="display_name" autocomplete="name" /></label>
      <label>Password <input name="password" type="password" autocomplete="new-password" minlength="8" required autofocus /></label>
      <label>Repeat it <input name="confirm" type="password" autocomplete="new-password" minlength="8" required /></label>
      <button disabled=${busy}>Set password and sign in</button>
      <${ErrorBox} error=${error} />
    </form>
  </div></main>`;
}
