/**
 * A small glob matcher for file_pattern: `*` and `?` stay inside one path segment, `**` crosses
 * segments, `{a,b}` alternates, `[abc]` is a class. Patterns are matched against the path relative
 * to the source's directory with `/` separators.
 */
export function globToRegExp(pattern: string): RegExp {
  let re = '';
  let i = 0;
  let braces = 0;
  while (i < pattern.length) {
    const c = pattern[i]!;
    if (c === '*') {
      if (pattern[i + 1] === '*') {
        // `**/` matches zero or more directories; a trailing `**` matches everything below
        const slash = pattern[i + 2] === '/';
        re += slash ? '(?:.*/)?' : '.*';
        i += slash ? 3 : 2;
        continue;
      }
      re += '[^/]*';
    } else if (c === '?') re += '[^/]';
    else if (c === '{') {
      braces++;
      re += '(?:';
    } else if (c === '}' && braces > 0) {
      braces--;
      re += ')';
    } else if (c === ',' && braces > 0) re += '|';
    else if (c === '[') {
      const end = pattern.indexOf(']', i + 1);
      if (end === -1) re += '\\[';
      else {
        const body = pattern.slice(i + 1, end).replace(/\\/g, '\\\\');
        re += `[${body.startsWith('!') ? `^${body.slice(1)}` : body}]`;
        i = end;
      }
    } else re += /[.+^$()|\\]/.test(c) ? `\\${c}` : c;
    i++;
  }
  return new RegExp(`^${re}$`);
}

/** A pattern without `/` or `**` only looks at the directory's own files (no recursion). */
export function isRecursivePattern(pattern: string): boolean {
  return pattern.includes('/') || pattern.includes('**');
}
