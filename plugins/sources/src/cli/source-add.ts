import fs from 'node:fs';
import path from 'node:path';
import { isMap, isSeq, parse as parseYaml, parseDocument, YAMLSeq } from 'yaml';
import { checkAgainstSchema, CliExit, EXIT, formatIssue, runningServer, validateProject, writeFileAtomic, type CliContext } from '@basin/core';
import { SOURCE_NAME } from '../config.js';
import { addProjectSources, loadSourceRegistry } from '../registry.js';
import { Prompter } from './prompter.js';
import { SourceWizard, type Answers } from './wizard.js';

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
      const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : 'version: "1.0"\nsources: []\n';
      const doc = parseDocument(text);
      const existing = ((doc.toJS() as any)?.sources ?? []) as Array<{ name: string }>;
      let answers: Answers;
      if (o.name && o.type) answers = { name: o.name, type: o.type, block: sets, description: o.description };
      else {
        const prompter = new Prompter(process.stdin, cli.stdout);
        try {
          await registry.load(registry.types());
          const got = await new SourceWizard(cli, prompter, projectDir, registry.all(), existing.map((s) => s.name)).run({ name: o.name, type: o.type, block: sets, description: o.description });
          if (!got) throw new CliExit(EXIT.config, 'basin source add: not saved; nothing was written.');
          answers = got;
        } finally {
          prompter.close();
        }
      }

      const problems: string[] = [];
      if (!new RegExp(SOURCE_NAME).test(answers.name)) problems.push(`name "${answers.name}" must be lowercase letters, digits and underscores`);
      const def = registry.get(answers.type);
      if (!def) problems.push(`unknown source type "${answers.type}"; available: ${registry.types().join(', ')}`);
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
      await tellRunningServer(projectDir, answers.name, out);
    });
}

/** A running server takes sources.yml edits in on its own (validated first): say whether it has this source now. */
async function tellRunningServer(projectDir: string, name: string, out: (s: string) => void): Promise<void> {
  const server = runningServer(projectDir);
  if (!server) return;
  try {
    const res = await fetch(`${server.url}/api/sources`, { signal: AbortSignal.timeout(5000) });
    const list = res.ok ? ((await res.json()) as Array<{ name: string }>) : [];
    if (list.some((s) => s.name === name)) out(`The running server (pid ${server.pid}) has taken the new source in; no restart needed.`);
    else out(`The running server (pid ${server.pid}) does not list "${name}" yet; GET /api/health/platform shows sources_config_error, or see the server log.`);
  } catch {
    out(`A Basin server (pid ${server.pid}) is registered for this project but does not answer at ${server.url}; it reloads sources.yml when it next reads it.`);
  }
}
