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

export type DashboardPermission = 'dashboard.view' | 'dashboard.create' | 'dashboard.manage';

/**
 * Which Basin permission each proxied route needs, declared per route so the permission matrix sees
 * it. Reads need dashboard.view; Superset answers some reads by POST (chart data, SQL Lab, its event
 * log, filter state, permalinks), which need dashboard.view too; other writes dashboard.create; writes
 * to databases, users, roles, row-level security and imports dashboard.manage. Paths are under /bi.
 */
export const PROXY_ROUTES: Array<{ methods: string[]; routes: string[]; permission: DashboardPermission }> = [
  { methods: ['GET', 'HEAD', 'OPTIONS'], routes: ['/', '/*'], permission: 'dashboard.view' },
  { methods: ['POST', 'PUT', 'PATCH', 'DELETE'], routes: ['/', '/*'], permission: 'dashboard.create' },
  {
    methods: ['POST'],
    routes: [
      '/api/v1/chart/data',
      '/api/v1/chart/data/*',
      '/superset/log/',
      '/superset/log/*',
      '/api/v1/sqllab/*',
      '/api/v1/explore/*',
      '/api/v1/dashboard/:id/filter_state',
      '/api/v1/dashboard/:id/filter_state/*',
      '/api/v1/dashboard/:id/permalink',
    ],
    permission: 'dashboard.view',
  },
  {
    methods: ['POST', 'PUT', 'PATCH', 'DELETE'],
    routes: ['/api/v1/database/', '/api/v1/database/*', '/api/v1/security/*', '/api/v1/assets/import/', '/api/v1/rowlevelsecurity/*', '/users/*', '/roles/*', '/databaseview/*', '/rowlevelsecurity/*'],
    permission: 'dashboard.manage',
  },
];
