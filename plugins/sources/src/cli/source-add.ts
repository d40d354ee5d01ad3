import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { isMap, isSeq, parse as parseYaml, parseDocument, YAMLSeq } from 'yaml';
import { checkAgainstSchema, CliExit, EXIT, validateProject, writeFileAtomic, type CliContext, formatIssue } from '@basin/core';
import { SOURCE_NAME } from '../config.js';
import { addProjectSources, loadSourceRegistry } from '../registry.js';
import type { SourceDefinition } from '@basin/sdk';

const SOURCES_FILE = '.basin/sources.yml';

/** `a.b=1` -> { a: { b: 1 } }; values are YAML scalars/flow collections (`5`, `true`, `[a, b]`) */
export function parseSets(sets: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const s of sets) {
    const eq = s.indexOf('=');
    if (eq <= 0) throw new CliExit(EXIT.config, `--set ${s}: expected key=value`);
    const keys = s.slice(0, eq).split('.');
    let value: unknown;
    try {
      value = parseYaml(s.slice(eq + 1));
    } catch {
      value = s.slice(eq + 1);
    }
    let obj = out;
    keys.slice(0, -1).forEach((k) => (obj = (obj[k] ??= {}) as Record<string, unknown>));
    obj[keys.at(-1)!] = value ?? '';
  }
  return out;
}

interface Answers {
  name: string;
  type: string;
  block: Record<string, unknown>;
  description?: string;
}

async function wizard(cli: CliContext, defs: SourceDefinition[], preset: Partial<Answers>): Promise<Answers> {
  const rl = readline.createInterface({ input: process.stdin, terminal: false });
  // a line queue rather than rl.question: piped answers arriving before a prompt must not be lost
  const lines: string[] = [];
  const waiters: Array<(l: string | null) => void> = [];
  let ended = false;
  rl.on('line', (l) => (waiters.length ? waiters.shift()!(l) : lines.push(l)));
  rl.on('close', () => {
    ended = true;
    while (waiters.length) waiters.shift()!(null);
  });
  const question = async (prompt: string): Promise<string> => {
    cli.stdout.write(prompt);
    const l = lines.length ? lines.shift()! : ended ? null : await new Promise<string | null>((r) => waiters.push(r));
    if (l === null) throw new CliExit(EXIT.config, '\nbasin source add: input ended before the wizard finished; nothing was written.');
    return l;
  };
  const out = (s: string) => cli.stdout.write(`${s}\n`);
  try {
    let type = preset.type;
    const choices = defs.filter((d) => d.wizard && d.implemented !== false);
    while (!type || !defs.some((d) => d.type === type)) {
      out('Source types:');
      choices.forEach((d, i) => out(`  ${String(i + 1).padStart(2)}. ${d.type} (${d.category})${d.title ? ` - ${d.title}` : ''}`));
      const a = (await question('Type (number or key): ')).trim();
      type = /^\d+$/.test(a) ? choices[Number(a) - 1]?.type : a;
    }
    let name = preset.name;
    while (!name || !new RegExp(SOURCE_NAME).test(name)) name = (await question('Source name (lowercase letters, digits, _): ')).trim();
    const def = defs.find((d) => d.type === type)!;
    const props = ((def.configSchema as any).properties ?? {}) as Record<string, any>;
    // a field with a default is optional to the user even when the schema lists it as required
    const required = new Set<string>(((def.configSchema as any).required ?? []).filter((k: string) => props[k]?.default === undefined));
    const block: Record<string, unknown> = { ...(preset.block ?? {}) };
    for (const [key, p] of Object.entries(props)) {
      if (key in block) continue;
      const hint = [p.description, p.default !== undefined ? `default ${JSON.stringify(p.default)}` : null, required.has(key) ? 'required' : 'optional'].filter(Boolean).join('; ');
      for (;;) {
        const a = (await question(`${key} (${hint}): `)).trim();
        if (!a) {
          if (required.has(key)) continue;
          break;
        }
        block[key] = p.type === 'string' ? a : (parseYaml(a) ?? a);
        break;
      }
    }
    const description = preset.description ?? ((await question('Description (optional): ')).trim() || undefined);
    return { name, type: type!, block, description };
  } finally {
    rl.close();
  }
}

export function registerSourceAdd(cli: CliContext): void {
  const source = cli.program.commands.find((c) => c.name() === 'source') ?? cli.program.command('source').description('Manage sources');
  source
    .command('add')
    .option('--name <name>', 'source name')
    .option('--type <type>', 'source type key')
    .option('--set <key=value>', 'a setting of the source (repeatable; dotted keys nest)', (v: string, acc: string[]) => [...acc, v], [] as string[])
    .option('--description <text>', 'description')
    .option('--disabled', 'add it disabled', false)
    .option('--project <dir>', 'project directory', process.cwd())
    .description('Add a source to .basin/sources.yml (interactive unless --name and --type are given)')
    .action(async (o: { name?: string; type?: string; set: string[]; description?: string; disabled: boolean; project: string }) => {
      const projectDir = path.resolve(o.project);
      const out = (s: string) => cli.stdout.write(`${s}\n`);
      const registry = await loadSourceRegistry();
      const file = path.join(projectDir, SOURCES_FILE);
      if (!fs.existsSync(path.join(projectDir, '.basin', 'project.yml'))) throw new CliExit(EXIT.failure, `${projectDir} is not a Basin project (no .basin/project.yml).`);
      const projectYml = parseYaml(fs.readFileSync(path.join(projectDir, '.basin', 'project.yml'), 'utf8')) as { plugins?: string[] } | null;
      if (Array.isArray(projectYml?.plugins)) await addProjectSources(registry, projectDir, projectYml!.plugins);
      const sets = parseSets(o.set);
      const answers: Answers =
        o.name && o.type ? { name: o.name, type: o.type, block: sets, description: o.description } : await wizard(cli, registry.all(), { name: o.name, type: o.type, block: sets, description: o.description });

      const problems: string[] = [];
      if (!new RegExp(SOURCE_NAME).test(answers.name)) problems.push(`name "${answers.name}" must be lowercase letters, digits and underscores`);
      const def = registry.get(answers.type);
      if (!def) problems.push(`unknown source type "${answers.type}"; available: ${registry.types().join(', ')}`);
      const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : 'version: "1.0"\nsources: []\n';
      const doc = parseDocument(text);
      const existing = ((doc.toJS() as any)?.sources ?? []) as Array<{ name: string }>;
      if (existing.some((s) => s.name === answers.name)) problems.push(`a source named "${answers.name}" already exists`);
      const key = def?.configKey === 'generic' ? 'generic_config' : answers.type;
      if (def) for (const p of checkAgainstSchema(def.configSchema, answers.block).problems) problems.push(`${key}${p.path === '/' ? '' : p.path}: ${p.message}`);
      if (problems.length) throw new CliExit(EXIT.config, `basin source add: the source is not valid:\n${problems.map((p) => `  ${p}`).join('\n')}`);

      const entry: Record<string, unknown> = { name: answers.name, type: answers.type };
      if (answers.description) entry.description = answers.description;
      if (o.disabled) entry.enabled = false;
      entry[key] = answers.block;
      let seq = doc.get('sources');
      if (!isSeq(seq)) {
        seq = new YAMLSeq();
        if (!isMap(doc.contents)) doc.contents = doc.createNode({ version: '1.0' }) as any;
        doc.set('sources', seq);
      }
      (seq as YAMLSeq).flow = false;
      (seq as YAMLSeq).add(doc.createNode(entry));
      const next = doc.toString();
      writeFileAtomic(file, next);
      // the whole project must still validate (e.g. a plugin's cross-file check); otherwise put the old file back
      const issues = (await validateProject(projectDir)).filter((i) => i.severity === 'error');
      if (issues.length) {
        writeFileAtomic(file, text);
        throw new CliExit(EXIT.config, `basin source add: the project would not validate; nothing was changed:\n${issues.map((i) => `  ${formatIssue(i)}`).join('\n')}`);
      }
      out(`Added source "${answers.name}" (${answers.type}) to ${SOURCES_FILE}. Sync it with: basin sync ${answers.name}`);
    });
}
