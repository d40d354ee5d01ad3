import { coreServices, createServiceRef, definePlugin } from '@basin/core';
import type { AuthLogout } from '@basin/plugin-auth/contract';
import { WS_EVENT_PERMISSIONS, WsHub } from './hub.js';
import { attachUpgrade, WS_PATH } from './upgrade.js';
import { realtimeErrors } from './errors.js';
import { sourcePermissions } from '@basin/plugin-sources/contract';
import { txPermissions } from '@basin/plugin-transform/contract';
import { governancePermissions } from '@basin/plugin-governance/contract';
import { platformPermissions } from '@basin/plugin-platform/contract';

export { WsHub, WS_EVENT_PERMISSIONS, DEFAULT_HUB_OPTIONS, type HubOptions } from './hub.js';
export { WS_PATH } from './upgrade.js';

/** the live feed's hub (this plugin's own; tests read it) */
const wsHubRef = createServiceRef<WsHub>({ id: 'wsHub' });

/** Live platform events over a WebSocket at /ws (SPEC "WebSocket", "WebSocket events"). */
export default definePlugin({
  name: 'realtime',
  // the permissions the event filter checks (WS_EVENT_PERMISSIONS), known even when their owners are not installed
  permissions: [sourcePermissions.view, txPermissions.view, governancePermissions.view, platformPermissions.manage],
  optionalDependsOn: ['auth'],
  register(ctx) {
    const hub = new WsHub(ctx.log);
    ctx.provide(wsHubRef, hub);
    const wss = attachUpgrade({
      server: ctx.http.server,
      hub,
      log: ctx.log,
      permissions: ctx.resolve(coreServices.permissions),
      authenticator: () => ctx.tryResolve(coreServices.authenticator),
    });
    ctx.events.onAny((env) => {
      if (env.type in WS_EVENT_PERMISSIONS) hub.broadcast(env);
    });
    // a logout ends that session's live feed too
    ctx.events.on('auth_logout', ({ session_id, user_id }: AuthLogout) => {
      hub.closeWhere((pr) => (session_id ? pr.sessionId === session_id : pr.userId === user_id), 'logged out');
    });

    // a plain GET (no Upgrade header) lands here; listed so the permission matrix sees /ws
    ctx.routes.get(WS_PATH, { permission: 'auth', errors: [realtimeErrors.upgrade_required], schema: { summary: 'Live platform events (WebSocket; connect with an Upgrade request)' } }, async () => {
      throw realtimeErrors.upgrade_required({ headers: { upgrade: 'websocket' } });
    });

    ctx.health(() => ({ websocket: { clients: hub.size } }));
    ctx.onStop(() => {
      hub.close();
      wss.close();
    });
  },
});
