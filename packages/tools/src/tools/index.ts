import type { ToolDefinition } from '../tool-definition.js';
import { appendTextFile } from './append-text-file.js';
import { applyPatch } from './apply-patch.js';
import { copyFile } from './copy-file.js';
import { createObjectFromFile } from './create-object-from-file.js';
import { deleteDirectory } from './delete-directory.js';
import { deleteFile } from './delete-file.js';
import { editTextFile } from './edit-text-file.js';
import { findFiles } from './find-files.js';
import { getWorkingDirectory } from './get-working-directory.js';
import { moveFile } from './move-file.js';
import { readDirectory } from './read-directory.js';
import { readMediaFile } from './read-media-file.js';
import { readTextFile } from './read-text-file.js';
import { searchFiles } from './search-files.js';
import { setWorkingDirectory } from './set-working-directory.js';
import { writeDirectory } from './write-directory.js';
import { writeObjectToFile } from './write-object-to-file.js';
import { writeTextFile } from './write-text-file.js';

/** Every built-in tool, in the order `runtime.tools` publishes them; a tuple, so `process.call` is typed from it. */
export const BUILTIN_TOOLS = [
  getWorkingDirectory,
  setWorkingDirectory,
  readDirectory,
  readTextFile,
  readMediaFile,
  writeTextFile,
  editTextFile,
  applyPatch,
  appendTextFile,
  searchFiles,
  findFiles,
  writeDirectory,
  deleteFile,
  deleteDirectory,
  moveFile,
  copyFile,
  createObjectFromFile,
  writeObjectToFile,
] as const satisfies readonly ToolDefinition[];
