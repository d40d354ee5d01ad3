// CodeMirror 6 with SQL highlighting (the query page)
export { EditorView, basicSetup } from 'codemirror';
export { keymap } from '@codemirror/view';
export { sql } from '@codemirror/lang-sql';
