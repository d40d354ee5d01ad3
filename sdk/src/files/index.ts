export { globToRegExp, isRecursivePattern } from './glob.js';
export { detectFormat, formatFromName, sniffBytes, sniffFile, type DetectedFormat, type FileFormat, type SniffedKind } from './formats.js';
export { hashFile } from './hash.js';
export { listFiles, resolveProjectDirectory, type ListedFile, type ListOptions } from './list.js';
export { parseFileState, readFileDirectory, sourceFileId, type FileSourceState, type ReadFilesOptions, type TrackedFile } from './incremental.js';
export { createFileSource, directoryConfigSchema, fileResource, malformedRowsSchema, projectDirectorySource, type FileSourceOptions } from './source.js';
