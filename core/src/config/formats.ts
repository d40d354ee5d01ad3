import { FormatRegistry } from '@sinclair/typebox';

// TypeBox checks string formats only when registered; these are the ones Basin's schemas use.
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/i;
if (!FormatRegistry.Has('date')) FormatRegistry.Set('date', (v) => DATE.test(v) && !Number.isNaN(Date.parse(v)));
if (!FormatRegistry.Has('date-time')) FormatRegistry.Set('date-time', (v) => DATE_TIME.test(v) && !Number.isNaN(Date.parse(v)));
if (!FormatRegistry.Has('email')) FormatRegistry.Set('email', (v) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v));
if (!FormatRegistry.Has('uri')) FormatRegistry.Set('uri', (v) => /^[a-z][a-z0-9+.-]*:\/\//i.test(v));
