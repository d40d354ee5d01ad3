/**
 * Roles and permissions as data (SPEC "Roles and permissions"). Plugins may contribute further
 * permissions through their manifest; core's 29 are fixed here so the matrix is reviewable in one place.
 */
export const ROLES = ['admin', 'editor', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

export interface PermissionSpec {
  name: string;
  /** roles granted this permission; admin always holds every permission */
  roles: Role[];
  description?: string;
}

const V: Role[] = ['viewer', 'editor', 'admin'];
const E: Role[] = ['editor', 'admin'];
const A: Role[] = ['admin'];

export const CORE_PERMISSIONS: PermissionSpec[] = [
  { name: 'source.view', roles: V }, { name: 'source.view_credentials', roles: A }, { name: 'source.sync', roles: E },
  { name: 'source.manage', roles: E }, { name: 'csv.upload', roles: E }, { name: 'csv.delete', roles: E },
  { name: 'tx.view', roles: V }, { name: 'tx.run', roles: E }, { name: 'tx.manage', roles: E },
  { name: 'dashboard.view', roles: V }, { name: 'dashboard.create', roles: E }, { name: 'dashboard.manage', roles: A },
  { name: 'query.execute', roles: E }, { name: 'health.view', roles: V }, { name: 'logs.view', roles: V },
  { name: 'platform.manage', roles: A }, { name: 'config.view', roles: E }, { name: 'config.manage', roles: A },
  { name: 'users.view', roles: A }, { name: 'users.manage', roles: A }, { name: 'auth.manage', roles: A },
  { name: 'audit.view', roles: A }, { name: 'notebooks.view', roles: V }, { name: 'notebooks.execute', roles: E },
  { name: 'notebooks.manage', roles: E }, { name: 'governance.view', roles: V }, { name: 'governance.manage', roles: A },
  { name: 'scheduler.view', roles: V }, { name: 'scheduler.manage', roles: A },
];

/** Route access levels besides a permission name. */
export type RouteAccess = 'public' | 'auth' | (string & {});

export class PermissionRegistry {
  private readonly perms = new Map<string, PermissionSpec>();

  constructor(initial: PermissionSpec[] = CORE_PERMISSIONS) {
    for (const p of initial) this.add(p, 'core');
  }

  add(spec: PermissionSpec, owner: string): void {
    if (!/^[a-z_]+\.[a-z_]+$/.test(spec.name)) throw new Error(`Permission "${spec.name}" from ${owner} must look like <domain>.<action>`);
    const existing = this.perms.get(spec.name);
    if (existing) {
      if (existing.roles.join() !== spec.roles.join()) throw new Error(`Permission "${spec.name}" from ${owner} conflicts with an existing definition`);
      return;
    }
    this.perms.set(spec.name, { ...spec, roles: [...new Set<Role>([...spec.roles, 'admin'])] });
  }

  has(name: string): boolean {
    return this.perms.has(name);
  }

  all(): PermissionSpec[] {
    return [...this.perms.values()];
  }

  forRole(role: Role): string[] {
    return this.all().filter((p) => p.roles.includes(role)).map((p) => p.name).sort();
  }

  roleHas(role: Role, permission: string): boolean {
    return this.perms.get(permission)?.roles.includes(role) ?? false;
  }
}

export const isRole = (r: unknown): r is Role => typeof r === 'string' && (ROLES as readonly string[]).includes(r);
