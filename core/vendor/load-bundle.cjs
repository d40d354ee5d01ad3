// core's bundles load through the SDK's code-cache loader: one loader and one status map for the
// process, and the SDK (which depends on nothing of core's) loads its TypeBox bundle with it too.
'use strict';
module.exports = require('@basin/sdk/vendor/load-bundle');
