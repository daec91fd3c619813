export type LogFileInfo = { name: string; size: number; modified: string };
export type LogFileList = { files: LogFileInfo[] };
/** GET /api/admin/logs/{name}: the file's tail when it is larger than `shownBytes`. */
export type LogFileContent = {
  name: string;
  content: string;
  size: number;
  shownBytes: number;
  truncated: boolean;
};
