import type { Principal } from '@basin/core';

/**
 * Basin → Superset roles (docs/decisions.md), from the caller's dashboard permissions so a custom role
 * maps by what it may do: dashboard.manage → Admin, dashboard.create → Alpha, dashboard.view → Gamma.
 */
export function supersetRole(p: Principal): 'Admin' | 'Alpha' | 'Gamma' {
  if (p.permissions.has('dashboard.manage')) return 'Admin';
  if (p.permissions.has('dashboard.create')) return 'Alpha';
  return 'Gamma';
}

const READ = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Superset administration: databases, users, roles, security, imports. */
const MANAGE = [/^\/bi\/api\/v1\/(database|security|assets\/import)\b/, /^\/bi\/(users|roles|databaseview|rowlevelsecurity)\b/];
/** Superset answers some reads by POST (chart data, SQL Lab results, its own event log). */
const READS_BY_POST = [/^\/bi\/api\/v1\/chart\/data\b/, /^\/bi\/superset\/log\b/, /^\/bi\/api\/v1\/sqllab\//, /^\/bi\/api\/v1\/dashboard\/\d+\/filter_state\b/, /^\/bi\/api\/v1\/explore\//];

/** The Basin permission a proxied request needs (Superset's role then decides the rest). */
export function permissionFor(method: string, pathname: string): 'dashboard.view' | 'dashboard.create' | 'dashboard.manage' {
  if (MANAGE.some((r) => r.test(pathname)) && !READ.has(method)) return 'dashboard.manage';
  if (READ.has(method) || READS_BY_POST.some((r) => r.test(pathname))) return 'dashboard.view';
  return 'dashboard.create';
}
