/** The folders where version control keeps its own files: they change with every `git status`, and are no one's manifests. */
export const VERSION_CONTROL_FOLDERS: ReadonlySet<string> = new Set(['.git', '.hg', '.svn']);

/** Whether `path` lies inside one of those folders. */
export function insideVersionControl(path: string): boolean {
  return path.split(/[\\/]/).some((part) => VERSION_CONTROL_FOLDERS.has(part));
}
