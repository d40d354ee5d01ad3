// luxon's Settings, required the way cron-parser requires luxon (its CommonJS build), so both see one
// instance, also once bundled: an ES import would get luxon's ES build, a second copy whose settings
// cron-parser never reads.
'use strict';
module.exports = require('luxon').Settings;
