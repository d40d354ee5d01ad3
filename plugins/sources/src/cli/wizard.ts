import fs from 'node:fs';
import path from 'node:path';
import { checkAgainstSchema, type CliContext } from '@basin/core';
import { formatFromName, listFiles, type SourceDefinition, type TSchema } from '@basin/sdk';
import { SOURCE_NAME } from '../config.js';
import { readEnvFile, writeEnvVariable } from '../wizard/env-file.js';
import { parseAnswer, sourceTypeGroups, suggestedEnvName, wizardFields, type WizardField } from '../wizard/fields.js';
import { checkAndPreview, formatPreview, wizardContext } from '../wizard/preview.js';
import type { Prompter } from './prompter.js';

export interface Answers {
  name: string;
  type: string;
  block: Record<string, unknown>;
  description?: string;
}

type Def = SourceDefinition & { package: string };

/**
 * The interactive `basin source add`: type (grouped by category), name, then the settings the type's
 * schema asks for given the answers so far, each shown with its format and example and checked as it
 * is typed (a mistake asks again, nothing else is lost); secrets typed hidden into .env (with consent);
 * folders checked with their matching files listed; the source's check and first rows before saving.
 */
export class SourceWizard {
  private readonly out: (s: string) => void;
  private env: Record<string, string | undefined>;

  constructor(
    private readonly cli: CliContext,
    private readonly ask: Prompter,
    private readonly projectDir: string,
    private readonly defs: Def[],
    private readonly existingNames: string[],
  ) {
    this.out = (s) => cli.stdout.write(`${s}\n`);
    this.env = { ...readEnvFile(projectDir), ...process.env };
  }

  async run(preset: Partial<Answers>): Promise<Answers | null> {
    const def = await this.chooseType(preset.type);
    this.current = def;
    const name = await this.chooseName(def, preset.name);
    const block: Record<string, unknown> = { ...(preset.block ?? {}) };
    await this.askSettings(def, name, block);
    const description = preset.description ?? ((await this.ask.ask('Description (optional, Enter to skip): ')).trim() || undefined);
    return (await this.checkBeforeSaving(def, name, block)) ? { name, type: def.type, block, description } : null;
  }

  private async chooseType(preset?: string): Promise<Def> {
    const groups = sourceTypeGroups(this.defs);
    const numbered = groups.flatMap((g) => g.types);
    const found = preset ? this.defs.find((d) => d.type === preset) : undefined;
    if (found) return found;
    if (preset) this.out(`Unknown source type "${preset}".`);
    this.out('Source types:');
    let i = 0;
    for (const g of groups) {
      this.out(`  ${g.category}`);
      for (const d of g.types) this.out(`    ${String(++i).padStart(2)}. ${d.type}${d.title && d.title !== d.type ? ` - ${d.title}` : ''}`);
    }
    for (;;) {
      const a = (await this.ask.ask('Type (number or name): ')).trim();
      const d = /^\d+$/.test(a) ? numbered[Number(a) - 1] : numbered.find((x) => x.type === a);
      if (d) return d;
      this.out(`  "${a}" is not in the list; type a number from 1 to ${numbered.length} or a type name.`);
    }
  }

  private async chooseName(def: Def, preset?: string): Promise<string> {
    let name = preset;
    for (;;) {
      if (name) {
        if (!new RegExp(SOURCE_NAME).test(name)) this.out(`  "${name}" is not a valid name: use lowercase letters, digits and _ (e.g. ${def.type.replace(/[^a-z0-9_]/g, '_')}_main).`);
        else if (this.existingNames.includes(name)) this.out(`  A source named "${name}" already exists; choose another name.`);
        else return name;
      }
      name = (await this.ask.ask(`Source name (lowercase letters, digits, _; e.g. ${def.category === 'files' ? 'invoices' : 'shop_api'}): `)).trim();
    }
  }

  private prompt(f: WizardField, prefix = ''): string {
    const def = f.default !== undefined ? `, Enter for ${typeof f.default === 'string' ? f.default : JSON.stringify(f.default)}` : f.required || f.format.includes('Enter') ? '' : ', Enter to skip';
    const choices = f.choices ? `\n${f.choices.map((c, i) => `    ${i + 1}. ${c}`).join('\n')}\n` : '';
    return `${choices}${prefix}${f.label}${f.description ? ` - ${f.description}` : ''}\n  (${f.format}${def}): `;
  }

  /** asks one setting until its answer validates; returns undefined for a skipped optional one */
  private async askField(f: WizardField, source: string, block: Record<string, unknown>, prefix = ''): Promise<unknown> {
    if (f.kind === 'objects') return this.askObjects(f, source);
    for (;;) {
      const suggestion = f.secretEnv ? suggestedEnvName(source, f.key) : undefined;
      const raw = await this.ask.ask(suggestion ? this.prompt({ ...f, default: f.default ?? suggestion }, prefix) : this.prompt(f, prefix));
      const parsed = parseAnswer(suggestion && !raw.trim() ? { ...f, default: suggestion } : f, raw);
      if (parsed.error) {
        this.out(`  ${parsed.error}. Try again.`);
        continue;
      }
      if (parsed.value === undefined) return undefined;
      if (f.directory) {
        const problem = await this.checkDirectory(f, String(parsed.value), block);
        if (problem) {
          this.out(`  ${problem} Try again.`);
          continue;
        }
      }
      if (f.secretEnv) await this.askSecretValue(String(parsed.value));
      return parsed.value;
    }
  }

  /** a list of objects (rest_api endpoints): each item's settings in turn; an empty first answer ends the list */
  private async askObjects(f: WizardField, source: string): Promise<unknown[]> {
    const items: unknown[] = [];
    const min = Number((f.schema as { minItems?: number }).minItems ?? 0);
    for (;;) {
      const item: Record<string, unknown> = {};
      const fields = f.item ?? [];
      for (const [i, sub] of fields.entries()) {
        const optionalHere = i === 0 && items.length >= min;
        const v = await this.askField(optionalHere ? { ...sub, required: false, format: `${sub.format}; Enter when done` } : sub, source, item, `${f.label} ${items.length + 1} `);
        if (v === undefined && optionalHere) return items;
        if (v !== undefined) item[sub.key] = v;
      }
      const { problems } = checkAgainstSchema((f.schema as TSchema & { items: TSchema }).items, item);
      if (problems.length) {
        this.out(`  ${f.label} ${items.length + 1}: ${problems[0]!.message}; this item was not added.`);
        continue;
      }
      items.push(item);
    }
  }

  private async askSettings(def: Def, source: string, block: Record<string, unknown>): Promise<void> {
    // required settings, re-walked after each answer: a choice (auth type) changes what applies
    for (;;) {
      const next = wizardFields(def, block).required.find((f) => !(f.key in block));
      if (!next) break;
      const v = await this.askField(next, source, block);
      block[next.key] = v === undefined ? next.default : v;
      if (block[next.key] === undefined) delete block[next.key];
      if (next.key === 'file_pattern' || next.key === 'file_glob') await this.listMatching(def, block);
    }
    const optional = wizardFields(def, block).optional.filter((f) => !(f.key in block));
    if (optional.length && (await this.ask.confirm(`Optional settings: ${optional.map((f) => f.key).join(', ')}. Set any?`, false))) {
      for (const f of optional) {
        if (!wizardFields(def, block).optional.some((x) => x.key === f.key)) continue;
        const v = await this.askField({ ...f, required: false, default: undefined, format: f.default !== undefined ? `${f.format}; default ${JSON.stringify(f.default)}` : f.format }, source, block);
        if (v !== undefined) block[f.key] = v;
        if (f.key === 'file_pattern' || f.key === 'file_glob') await this.listMatching(def, block);
      }
    }
    if (def.fileDirectory && !('file_pattern' in block) && !('file_glob' in block)) await this.listMatching(def, block);
  }

  /** the folder of a file source must exist (the wizard offers to create it) and, for local_files, lie inside the project */
  private async checkDirectory(f: WizardField, value: string, block: Record<string, unknown>): Promise<string | null> {
    const dir = this.directoryOf(f, value, block);
    if (!dir) return `"${value}" is not a local directory.`;
    if (dir.insideProject) {
      const rel = path.relative(this.projectDir, dir.abs);
      if (rel.startsWith('..') || path.isAbsolute(rel)) return `"${value}" is outside the project; use a folder inside ${this.projectDir} (or a filesystem source for other places).`;
    }
    if (!fs.existsSync(dir.abs)) {
      if (await this.ask.confirm(`  ${dir.abs} does not exist. Create it?`, false)) {
        fs.mkdirSync(dir.abs, { recursive: true });
        return null;
      }
      return `The folder ${value} does not exist.`;
    }
    if (!fs.statSync(dir.abs).isDirectory()) return `${value} is not a folder.`;
    return null;
  }

  /** the type chosen (its file-directory capability resolves folders) */
  private current: Def | null = null;

  private directoryOf(f: WizardField, value: string, block: Record<string, unknown>): { abs: string; insideProject: boolean } | null {
    const def = this.current;
    if (!def?.fileDirectory) return null;
    const abs = def.fileDirectory.directory({ ...block, [f.key]: value } as never, this.projectDir);
    return abs ? { abs, insideProject: def.fileDirectory.insideProject } : null;
  }

  /** lists the files the source would load with the settings so far */
  private async listMatching(def: Def, block: Record<string, unknown>): Promise<void> {
    if (!def.fileDirectory) return;
    const withDefaults = checkAgainstSchema(def.configSchema, block).value as Record<string, unknown>;
    const dir = def.fileDirectory.directory(withDefaults as never, this.projectDir);
    if (!dir || !fs.existsSync(dir)) return;
    const pattern = def.fileDirectory.pattern(withDefaults as never);
    const files = (await listFiles(dir, { pattern }).catch(() => [])).filter((f) => formatFromName(f.relative));
    if (!files.length) {
      this.out(`  No file in ${path.relative(this.projectDir, dir) || '.'} matches "${pattern}" yet; files you add there later load on the next sync.`);
      return;
    }
    this.out(`  ${files.length} file(s) match "${pattern}":`);
    for (const file of files.slice(0, 10)) this.out(`    ${file.relative} (${file.size} bytes)`);
    if (files.length > 10) this.out(`    ... and ${files.length - 10} more`);
  }

  /** a secret's value: typed hidden, written to .env with consent; never to sources.yml */
  private async askSecretValue(variable: string): Promise<void> {
    if (this.env[variable]) {
      this.out(`  ${variable} is set${process.env[variable] ? ' in the environment' : ' in .env'}.`);
      return;
    }
    const value = (await this.ask.ask(`  ${variable} is not set. Its value (typing is hidden; Enter to set it later): `, { hidden: true })).trim();
    if (!value) {
      this.out(`  Set ${variable} in .env or the environment before syncing.`);
      return;
    }
    this.env[variable] = value;
    if (await this.ask.confirm(`  Write ${variable} to ${path.join(this.projectDir, '.env')} (it stays out of sources.yml)?`, true)) {
      writeEnvVariable(this.projectDir, variable, value);
      this.out(`  ${variable} written to .env.`);
    } else this.out(`  Not written; set ${variable} in the environment before syncing.`);
  }

  /** the whole block against the schema and the type's cross-field rules, then the source's check and first rows */
  private async checkBeforeSaving(def: Def, name: string, block: Record<string, unknown>): Promise<boolean> {
    for (;;) {
      const { value, problems } = checkAgainstSchema(def.configSchema, block);
      const all = problems.length ? problems : (def.validateConfig?.(value as never) ?? []);
      if (!all.length) break;
      // ask again only the settings the problems name; every other answer is kept
      for (const p of all) this.out(`  ${p.path}: ${p.message}`);
      const keys = [...new Set(all.map((p) => p.path.split('/')[1]).filter((k): k is string => !!k))];
      const fields = [...wizardFields(def, block).required, ...wizardFields(def, block).optional];
      const redo = keys.map((k) => fields.find((f) => f.key === k)).filter((f): f is WizardField => !!f);
      if (!redo.length) return false;
      for (const f of redo) {
        delete block[f.key];
        const v = await this.askField({ ...f, required: true }, name, block);
        if (v !== undefined) block[f.key] = v;
      }
    }
    const config = checkAgainstSchema(def.configSchema, block).value as Record<string, unknown>;
    this.out('Checking the source...');
    const preview = await checkAndPreview(def, (signal) => wizardContext({ name, config, projectDir: this.projectDir, env: this.env, signal }));
    if (!preview.check.ok) {
      this.out(`  Check failed: ${preview.check.message ?? 'no reason given'}`);
      return this.ask.confirm('Save the source anyway?', false);
    }
    this.out(`  Check passed${preview.check.message ? `: ${preview.check.message.replace(/\.$/, '')}` : ''}.`);
    if (preview.resources.length) {
      this.out('First rows:');
      for (const r of preview.resources) this.out(formatPreview(r));
    }
    if (preview.error) this.out(`  Reading a preview failed: ${preview.error}`);
    return true;
  }
}
