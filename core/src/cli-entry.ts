// The `basin` binary's first module: it answers `--version` and the top-level `--help` from package
// manifests (no plugin, DuckDB or fastify import), and hands every other command to the full CLI.
// Built as its own small entry (dist/cli-entry.js) so importing it does not import core's index.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { discoverWorkspacePackages, type DiscoveredPackage } from './plugin/discovery.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const requireHere = createRequire(import.meta.url);
// required, not imported: an ESM import of node:fs builds its module facade, which reads every export
// and so loads fs's streams (node:stream and its parts, 8-18 ms on the path of --version and --help)
const fs = requireHere('node:fs') as typeof import('node:fs');

/** the version in core's package.json (BASIN_VERSION), read without importing core */
export function basinVersion(): string {
  return JSON.parse(fs.readFileSync(path.join(here, '..', 'package.json'), 'utf8')).version;
}

/** A plugin's CLI commands as its package.json declares them: `{"<help term>": "<description>"}`, in registration order. */
export type CommandManifest = Record<string, string>;

export const PROGRAM_DESCRIPTION = 'Basin: load, transform, explore and govern your data in one process.';
export const PROGRAM_EPILOGUE = '\nExit codes: 0 ok, 1 the operation failed, 2 usage or configuration error.\nEvery command takes --help (with examples); read commands take --json.\n';

/** the bundled plugins whose commands `basin` offers, in the order --help lists them (discovery order) */
export function bundledPluginPackages(): DiscoveredPackage[] {
  return discoverWorkspacePackages().filter((p) => p.kind === 'plugin' && p.meta.optIn !== true);
}

/**
 * Every command of the install from the plugins' manifests, or null when they cannot tell: a plugin
 * without a `commands` manifest, or a project that adds plugins (`plugins:` in project.yml) whose
 * commands only their code knows. Then the caller imports the plugins instead.
 */
export function manifestCommands(projectDir: string): Array<{ term: string; description: string }> | null {
  try {
    const project = fs.readFileSync(path.join(projectDir, '.basin', 'project.yml'), 'utf8');
    if (/^plugins\s*:/m.test(project)) return null;
  } catch {
    /* no project here: the bundled plugins only */
  }
  const out: Array<{ term: string; description: string }> = [];
  for (const pkg of bundledPluginPackages()) {
    const commands = pkg.meta.commands as CommandManifest | undefined;
    if (!commands || typeof commands !== 'object') return null;
    for (const [term, description] of Object.entries(commands)) out.push({ term, description });
  }
  return out;
}

/**
 * The bundled plugin package whose manifest declares the command `argv` runs (its first word), or
 * null when the manifests cannot tell (no command, `help`, a project that adds plugins, an unknown word).
 */
export function commandPackage(argv: string[], projectDir: string): DiscoveredPackage | null {
  const word = argv[0];
  if (!word || word.startsWith('-') || word === 'help') return null;
  if (manifestCommands(projectDir) === null) return null;
  const owners = bundledPluginPackages().filter((p) => Object.keys((p.meta.commands as CommandManifest | undefined) ?? {}).some((term) => term.split(' ')[0] === word));
  // a command that walks every command (completion scripts) says so in `basin.commandsNeedingAll`
  if (owners.length !== 1 || ((owners[0]!.meta.commandsNeedingAll as string[] | undefined) ?? []).includes(word)) return null;
  return owners[0]!;
}

/**
 * The top-level help, as commander prints it for the full program, from the manifests. The text is
 * kept in a file beside the built bundle (else in ~/.cache/basin/cli-help) with everything it was made from (the
 * version, the commands, the terminal's width, commander's version), so a later `--help` with the
 * same inputs prints it without importing commander (which requires node:child_process: ~40 ms of
 * CPU, a third of the command).
 */
export async function manifestHelp(projectDir: string): Promise<string | null> {
  const commands = manifestCommands(projectDir);
  if (!commands) return null;
  const width = process.stdout.isTTY ? process.stdout.columns : undefined;
  const inputs = JSON.stringify([basinVersion(), PROGRAM_DESCRIPTION, PROGRAM_EPILOGUE, commands, width ?? null, commanderVersion()]);
  const files = helpCacheFiles(width);
  for (const f of files) {
    try {
      const kept = JSON.parse(fs.readFileSync(f, 'utf8')) as { inputs?: unknown; text?: unknown };
      if (kept.inputs === inputs && typeof kept.text === 'string') return kept.text;
    } catch {
      /* none kept, or unreadable: render it */
    }
  }
  const text = await renderHelp(commands);
  // imported on a miss only: fsutil imports node:fs, whose facade a hit avoids
  const { writeFileAtomic } = await import('./fsutil.js');
  for (const f of files) {
    try {
      writeFileAtomic(f, JSON.stringify({ inputs, text }));
      break;
    } catch {
      /* a folder that is not writable: the next one, else no reuse */
    }
  }
  return text;
}

async function renderHelp(commands: Array<{ term: string; description: string }>): Promise<string> {
  const { Command, Help } = await import('commander');
  const terms = new Map<import('commander').Command, string>();
  const program = new Command('basin').description(PROGRAM_DESCRIPTION).version(basinVersion(), '-v, --version').addHelpText('after', PROGRAM_EPILOGUE);
  for (const c of commands) terms.set(program.command(c.term.split(' ')[0]!).description(c.description), c.term);
  const base = new Help();
  program.configureHelp({ subcommandTerm: (cmd) => terms.get(cmd) ?? base.subcommandTerm(cmd) });
  let text = '';
  program.configureOutput({ writeOut: (s) => (text += s) });
  program.outputHelp();
  return text;
}

/** commander's version: its layout of the help is part of what the kept text was made from */
function commanderVersion(): string {
  try {
    return JSON.parse(fs.readFileSync(path.join(path.dirname(requireHere.resolve('commander')), 'package.json'), 'utf8')).version;
  } catch {
    return 'unknown';
  }
}

function helpCacheFiles(width: number | undefined): string[] {
  const name = `cli-help.${width ?? 'pipe'}.json`;
  const home = process.env.HOME || process.env.USERPROFILE;
  // beside the built bundle only (run from source, as the tests do, `here` is core/src)
  const beside = path.basename(here) === 'dist' ? [path.join(here, '.cli-help', name)] : [];
  return [...beside, ...(home ? [path.join(home, '.cache', 'basin', 'cli-help', name)] : [])];
}

function projectDirOf(argv: string[]): string {
  const i = argv.indexOf('--project');
  return path.resolve(i >= 0 && argv[i + 1] ? argv[i + 1]! : process.cwd());
}

/** Entry point of the `basin` binary: the fast answers, else the full CLI (core's runCli). Returns the exit code. */
export async function main(argv: string[], fullCli: () => Promise<(argv: string[]) => Promise<number>>): Promise<number> {
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v')) {
    process.stdout.write(`${basinVersion()}\n`);
    return 0;
  }
  if (argv.length === 1 && (argv[0] === '--help' || argv[0] === '-h')) {
    const help = await manifestHelp(projectDirOf(argv));
    if (help !== null) {
      process.stdout.write(help);
      return 0;
    }
  }
  return (await fullCli())(argv);
}
