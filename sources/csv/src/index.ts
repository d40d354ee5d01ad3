import { projectDirectorySource } from '@basin/sdk';

/** `csv`: the older name of `local_files` restricted to `*.csv` by default; hidden from the wizard. */
export default projectDirectorySource({
  type: 'csv',
  title: 'CSV files',
  wizard: false,
  defaultPattern: '*.csv',
  docs: 'Loads the CSV files of a project directory into one raw table (same behaviour as local_files, default pattern *.csv).',
});
