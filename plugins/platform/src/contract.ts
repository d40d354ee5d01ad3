/** The public face of the platform plugin (`@basin/plugin-platform/contract`): the SPEC permissions it declares, for plugins that guard a route with one of them. */
export { platformPermissions } from './permissions.js';
