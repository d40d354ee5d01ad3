// The Trino plugin: the Trino + Iceberg warehouse backend and `basin warehouse up`.
import { definePlugin } from '@basin/core';

export default definePlugin({
  name: 'trino',
});
