// The add-source wizard: a form generated from the chosen type's config_schema (GET /api/sources/types).
import { useEffect, useState } from 'preact/hooks';
import { html, api, useApi, ErrorBox, Modal, useAction } from '@basin/ui/components.js';

/** enum choices of a JSON schema (enum, or anyOf/oneOf of consts) */
function choicesOf(p) {
  if (Array.isArray(p.enum)) return p.enum;
  const alts = p.anyOf ?? p.oneOf;
  if (Array.isArray(alts) && alts.every((a) => a.const !== undefined)) return alts.map((a) => a.const);
  return null;
}

function kindOf(p) {
  if (choicesOf(p)) return 'choice';
  const t = Array.isArray(p.type) ? p.type.find((x) => x !== 'null') : p.type;
  if (t === 'boolean') return 'boolean';
  if (t === 'integer' || t === 'number') return 'number';
  if (t === 'array' && (p.items?.type === 'string' || p.items?.type === 'number')) return 'list';
  if (t === 'string') return 'string';
  return 'json';
}

/** the form's text back to the value the schema wants */
function toValue(kind, raw, p) {
  if (raw === '' || raw === undefined) return undefined;
  if (kind === 'number') return Number(raw);
  if (kind === 'boolean') return !!raw;
  if (kind === 'list') return String(raw).split(',').map((s) => s.trim()).filter(Boolean).map((s) => (p.items?.type === 'number' ? Number(s) : s));
  if (kind === 'json') {
    try {
      return JSON.parse(raw);
    } catch {
      return raw; // the server says what is wrong with it
    }
  }
  return raw;
}

function Field({ name, p, required, value, onInput, error, secrets }) {
  const kind = kindOf(p);
  const id = `f-${name}`;
  const help = [p.description, p.default !== undefined ? `Default: ${JSON.stringify(p.default)}` : null, p.examples?.[0] !== undefined ? `Example: ${JSON.stringify(p.examples[0])}` : null, kind === 'list' ? 'Comma-separated.' : null, kind === 'json' ? 'JSON.' : null]
    .filter(Boolean)
    .join(' ');
  const isEnv = name.endsWith('_env');
  let input;
  if (kind === 'boolean') input = html`<input id=${id} type="checkbox" checked=${value ?? p.default ?? false} onChange=${(e) => onInput(e.target.checked)} />`;
  else if (kind === 'choice')
    input = html`<select id=${id} value=${value ?? p.default ?? ''} onChange=${(e) => onInput(e.target.value)}>${required ? null : html`<option value="">—</option>`}${choicesOf(p).map((c) => html`<option value=${c}>${c}</option>`)}</select>`;
  else if (kind === 'json') input = html`<textarea id=${id} rows="4" value=${value ?? ''} onInput=${(e) => onInput(e.target.value)} placeholder=${p.default !== undefined ? JSON.stringify(p.default) : ''}></textarea>`;
  else
    input = html`<input id=${id} name=${name} type=${kind === 'number' ? 'number' : 'text'} value=${value ?? ''} list=${isEnv ? 'env-vars' : undefined}
      placeholder=${p.default !== undefined ? String(p.default) : isEnv ? 'NAME_OF_VARIABLE' : ''} aria-invalid=${error ? 'true' : undefined} aria-describedby=${error ? `${id}-err` : undefined} onInput=${(e) => onInput(e.target.value)} />`;
  return html`<label for=${id} class=${kind === 'boolean' ? 'inline' : ''}>
    ${kind === 'boolean' ? input : null}<span>${name}${required ? ' *' : ''}</span>
    ${kind === 'boolean' ? null : input}
    ${isEnv ? html`<span class="help">Names an environment variable holding the secret (never the secret itself). ${secrets ? html`Pick one or <a href="/settings/secrets">add a secret</a>.` : 'Add it to the project .env file.'}</span>` : null}
    ${help ? html`<span class="help">${help}</span>` : null}
    ${error ? html`<span class="field-error" id=${`${id}-err`}>${error}</span>` : null}
  </label>`;
}

/** fields of a schema that apply to the choices so far: auth-specific fields only for the chosen auth */
function visibleFields(schema, values) {
  const props = schema.properties ?? {};
  const auth = values.auth_type ?? values.auth ?? props.auth_type?.default ?? props.auth?.default;
  return Object.entries(props).filter(([k]) => {
    if (!auth || typeof auth !== 'string') return true;
    const m = /^(basic|bearer|api_key|oauth2?|token)_/.exec(k);
    return !m || auth.startsWith(m[1]);
  });
}

export function AddSourceWizard({ onClose, onAdded }) {
  const types = useApi('/api/sources/types');
  const [secrets, setSecrets] = useState(null);
  const [type, setType] = useState('');
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [values, setValues] = useState({});
  const [checkResult, setCheckResult] = useState(null);
  useEffect(() => {
    api('/api/secrets').then((s) => setSecrets((Array.isArray(s) ? s : (s?.env ?? s?.variables ?? s?.items ?? [])).map((v) => v.name ?? v.key ?? v).filter((n) => typeof n === 'string')), () => setSecrets(null));
  }, []);
  const def = types.data?.find((t) => t.type === type);
  const schema = def?.config_schema ?? {};
  const required = new Set((schema.required ?? []).filter((k) => schema.properties?.[k]?.default === undefined));
  const config = () => Object.fromEntries(Object.entries(values).map(([k, v]) => [k, toValue(kindOf(schema.properties[k] ?? {}), v, schema.properties[k] ?? {})]).filter(([, v]) => v !== undefined));
  const [save, saving, saveError] = useAction(async () => {
    await api('/api/sources', { method: 'POST', body: { name, type, description: description || undefined, config: config() } });
    onAdded(name);
  });
  const [check, checking, checkError] = useAction(async () => setCheckResult(await api('/api/sources/check', { method: 'POST', body: { name, type, config: config() } })));
  const err = saveError ?? checkError;
  const fieldError = (path) => err?.details?.find?.((d) => d.path === path)?.message;
  const groups = {};
  for (const t of types.data ?? []) if (t.implemented && t.wizard !== false) (groups[t.category] ??= []).push(t);
  return html`<${Modal} title="Add a source" onClose=${onClose}>
    ${types.error ? html`<${ErrorBox} error=${types.error} />` : null}
    <form class="stack wizard" onSubmit=${(e) => (e.preventDefault(), save())}>
      <label for="src-type">Type
        <select id="src-type" name="type" value=${type} onChange=${(e) => (setType(e.target.value), setValues({}), setCheckResult(null))} required>
          <option value="">Choose a source type…</option>
          ${Object.entries(groups).sort().map(([cat, list]) => html`<optgroup label=${cat}>${list.map((t) => html`<option value=${t.type}>${t.title}</option>`)}</optgroup>`)}
        </select>
        ${def?.docs ? html`<span class="help"><a href=${def.docs} target="_blank" rel="noopener">Documentation for ${def.title}</a></span>` : null}
      </label>
      <label for="src-name">Name
        <input id="src-name" name="name" value=${name} onInput=${(e) => setName(e.target.value)} placeholder="e.g. sales_files" pattern="[a-z0-9_]+" required aria-invalid=${fieldError('/name') ? 'true' : undefined} />
        <span class="help">Lowercase letters, digits and underscores; tables land in ${"raw_<name>"}.</span>
        ${fieldError('/name') ? html`<span class="field-error">${fieldError('/name')}</span>` : null}
      </label>
      <label for="src-desc">Description <input id="src-desc" value=${description} onInput=${(e) => setDescription(e.target.value)} /></label>
      ${def
        ? html`<fieldset class="stack"><legend>${def.title} settings</legend>
          ${visibleFields(schema, values).map(([k, p]) => html`<${Field} name=${k} p=${p} required=${required.has(k)} value=${values[k]} secrets=${secrets} error=${fieldError(`/config/${k}`)} onInput=${(v) => setValues({ ...values, [k]: v })} />`)}
        </fieldset>`
        : null}
      ${secrets?.length ? html`<datalist id="env-vars">${secrets.map((s) => html`<option value=${s} />`)}</datalist>` : null}
      <${ErrorBox} error=${err} />
      ${checkResult ? html`<div class=${checkResult.ok ? 'success' : 'error-box'} role="status">${checkResult.ok ? 'Check passed: ' : 'Check failed: '}${checkResult.message}</div>` : null}
      <div class="row">
        <button type="button" class="secondary" disabled=${!def || checking} onClick=${check}>${checking ? 'Checking…' : 'Check connection'}</button>
        <button type="submit" disabled=${!def || saving}>${saving ? 'Saving…' : 'Add source'}</button>
      </div>
    </form>
  <//>`;
}
