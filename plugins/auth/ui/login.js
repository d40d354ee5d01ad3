// /login: e-mail and password, then the TOTP step (or a recovery code); a button per OAuth provider;
// lockout and rate-limit messages say how long to wait.
import { useEffect, useState } from 'preact/hooks';
import { html, api, ErrorBox } from '@basin/ui/components.js';

const nextPath = () => {
  const n = new URLSearchParams(location.search).get('next') || '/';
  return n.startsWith('/') && !n.startsWith('//') ? n : '/';
};

export default function Login() {
  const params = new URLSearchParams(location.search);
  const [step, setStep] = useState('password');
  const [error, setError] = useState(params.get('error') ? { message: params.get('error') } : null);
  const [busy, setBusy] = useState(false);
  const [wait, setWait] = useState(0);
  const [providers, setProviders] = useState([]);
  useEffect(() => {
    api('/api/auth/oauth/providers').then((p) => setProviders(Array.isArray(p) ? p : p?.providers ?? []), () => setProviders([]));
    // already signed in (or auth is off): go on
    api('/api/auth/me').then((me) => (!me.auth_enabled || (!me.partial && me.id)) && location.replace(nextPath()), () => {});
  }, []);
  useEffect(() => {
    if (wait <= 0) return undefined;
    const t = setTimeout(() => setWait(wait - 1), 1000);
    return () => clearTimeout(t);
  }, [wait]);
  const submit = async (e) => {
    e.preventDefault();
    const f = Object.fromEntries(new FormData(e.target));
    setBusy(true);
    setError(null);
    try {
      if (step === 'password') {
        const r = await api('/api/auth/login', { method: 'POST', body: { email: f.email, password: f.password } });
        if (r?.two_factor_required) return setStep('code');
        if (r?.password_change_required) return location.assign('/setup?change=1');
      } else {
        const r = await api('/api/auth/2fa/verify', { method: 'POST', body: { code: f.code.trim() } });
        if (r?.password_change_required) return location.assign('/setup?change=1');
      }
      location.assign(nextPath());
    } catch (err) {
      setError(err);
      if (err.retryAfter) setWait(err.retryAfter);
      if (err.status === 401 && step === 'code' && /session|expired/i.test(err.message)) setStep('password');
    } finally {
      setBusy(false);
    }
  };
  return html`<main class="center"><div class="panel">
    <h1>Sign in to Basin</h1>
    <form class="stack" onSubmit=${submit}>
      ${step === 'password'
        ? html`<label>E-mail <input name="email" type="email" autocomplete="username" required autofocus /></label>
               <label>Password <input name="password" type="password" autocomplete="current-password" required /></label>`
        : html`<p class="muted">Enter the 6-digit code from your authenticator app, or one of your recovery codes.</p>
               <label>Code <input name="code" inputmode="text" autocomplete="one-time-code" required autofocus /></label>`}
      <button disabled=${busy || wait > 0}>${step === 'password' ? 'Sign in' : 'Verify'}</button>
      ${error ? html`<${ErrorBox} error=${wait > 0 ? { ...error, message: error.message, retryAfter: null } : error} />` : null}
      ${wait > 0 ? html`<p class="error" role="status">You can try again in ${wait} s.</p>` : null}
    </form>
    ${providers.length && step === 'password'
      ? html`<div class="stack" style="margin-top:16px"><div class="muted">or</div>
        ${providers.map((p) => html`<a class="button secondary" href=${`/api/auth/oauth/${encodeURIComponent(p.name ?? p.id ?? p)}/login`}>Sign in with ${p.display_name ?? p.title ?? p.name ?? p}</a>`)}</div>`
      : null}
  </div></main>`;
}
