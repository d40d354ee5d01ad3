import fs from 'node:fs';
import path from 'node:path';

/** The parts of dbt's target/manifest.json Basin reads (dbt writes many more fields). */
export interface ManifestColumn {
  name: string;
  description?: string;
  data_type?: string | null;
  tags?: string[];
}
export interface ManifestNode {
  unique_id: string;
  resource_type: string;
  name: string;
  package_name?: string;
  schema?: string;
  database?: string;
  alias?: string | null;
  identifier?: string;
  source_name?: string;
  path?: string;
  original_file_path?: string;
  raw_code?: string;
  raw_sql?: string;
  compiled_code?: string;
  compiled_sql?: string;
  description?: string;
  columns?: Record<string, ManifestColumn>;
  tags?: string[];
  config?: { materialized?: string; [k: string]: unknown };
  depends_on?: { nodes?: string[]; macros?: string[] };
  test_metadata?: { name: string; kwargs?: Record<string, unknown> } | null;
  column_name?: string | null;
  attached_node?: string | null;
}
export interface Manifest {
  metadata?: { dbt_version?: string; generated_at?: string; project_name?: string };
  nodes: Record<string, ManifestNode>;
  sources?: Record<string, ManifestNode>;
}
/** target/catalog.json (dbt docs generate): warehouse types per node */
export interface CatalogJson {
  nodes?: Record<string, { metadata?: { schema?: string; name?: string; type?: string }; columns?: Record<string, { type: string; index: number; name: string; comment?: string | null }> }>;
  sources?: CatalogJson['nodes'];
}
export interface RunResults {
  results?: Array<{ unique_id: string; status: string; failures?: number | null; message?: string | null }>;
  metadata?: { generated_at?: string };
}

export interface DbtArtifacts {
  manifest: Manifest | null;
  catalog: CatalogJson | null;
  runResults: RunResults | null;
  /** problems reading the files (corrupt JSON), reported rather than thrown */
  problems: string[];
}

/**
 * Reads dbt's artifacts from `<tx project>/target/`, re-parsing a file only when its mtime or size
 * changed. A missing file is normal (dbt never ran); a corrupt one is reported in `problems`.
 */
export class ArtifactReader {
  private cache = new Map<string, { stamp: string; value: unknown; problem: string | null }>();

  constructor(
    private readonly targetDir: string,
    /** told once per changed file that cannot be parsed */
    private readonly onProblem: (message: string) => void = () => {},
  ) {}

  private read<T>(file: string): { value: T | null; problem: string | null } {
    const full = path.join(this.targetDir, file);
    let st: fs.Stats;
    try {
      st = fs.statSync(full);
    } catch {
      this.cache.delete(file);
      return { value: null, problem: null };
    }
    const stamp = `${st.mtimeMs}:${st.size}`;
    const hit = this.cache.get(file);
    if (hit && hit.stamp === stamp) return { value: hit.value as T | null, problem: hit.problem };
    let value: T | null = null;
    let problem: string | null = null;
    try {
      value = JSON.parse(fs.readFileSync(full, 'utf8')) as T;
    } catch (e) {
      problem = `${file} could not be read: ${(e as Error).message}`;
      this.onProblem(`dbt artifact ${full} is not valid JSON; the catalog ignores it until dbt rewrites it`);
    }
    this.cache.set(file, { stamp, value, problem });
    return { value, problem };
  }

  load(): DbtArtifacts {
    const m = this.read<Manifest>('manifest.json');
    const c = this.read<CatalogJson>('catalog.json');
    const r = this.read<RunResults>('run_results.json');
    const manifest = m.value && typeof m.value === 'object' && m.value.nodes ? m.value : null;
    const problems = [m.problem, c.problem, r.problem].filter((p): p is string => !!p);
    if (m.value && !manifest) problems.push('manifest.json has no "nodes"');
    return { manifest, catalog: c.value, runResults: r.value, problems };
  }
}
