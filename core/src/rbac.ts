/**
 * Roles and the permission registry (SPEC "Roles and permissions"). Core declares no permission: each
 * plugin declares the permissions its routes need in its manifest (`permissions:`), and a plugin that
 * guards a route with another plugin's permission takes the spec from that plugin's `./contract`.
 */
export const ROLES = ['admin', 'editor', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

export interface PermissionSpec {
  name: string;
  /** roles granted this permission; admin always holds every permission */
  roles: Role[];
  description?: string;
  /** a Basin permission beyond SPEC's matrix (e.g. initial_sync.run): not counted among the core permissions */
  beyondSpec?: boolean;
}

/** Role sets for manifests: a permission granted from a role upwards (admin holds every permission anyway). */
export const grantedFrom: Record<Role, Role[]> = {
  viewer: ['viewer', 'editor', 'admin'],
  editor: ['editor', 'admin'],
  admin: ['admin'],
};

/**
 * The permissions the plugins shipped with Basin declare (SPEC's matrix of 29): filled by `loadPlugins`
 * from the bundled plugin packages it discovers, so it is complete once the install's plugins are loaded.
 */
export const CORE_PERMISSIONS: PermissionSpec[] = [];

export function recordBundledPermissions(specs: PermissionSpec[]): void {
  for (const p of specs) if (!p.beyondSpec && !CORE_PERMISSIONS.some((c) => c.name === p.name)) CORE_PERMISSIONS.push(p);
}

/** Route access levels besides a permission name. */
export type RouteAccess = 'public' | 'auth' | (string & {});

export class PermissionRegistry {
  private readonly perms = new Map<string, PermissionSpec>();

  constructor(initial: PermissionSpec[] = []) {
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
