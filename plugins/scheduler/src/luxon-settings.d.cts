import type { Settings } from 'luxon';
declare const settings: typeof Settings;
export = settings;
