import type { TextEdit } from '../fixes/edit';
import type { Path } from '../manifest/path';

/**
 * Deployment units rendered by the user's own tools (a Helm chart, a Kustomize root): what the cluster
 * will run, with a way back from every rendered field to the line a person edits.
 */
export type RenderTool = 'helm' | 'kustomize';

/** A place in a file a person edits (a template, a values file, a base, a patch). Lines are 0-based. */
export interface SourceLocation {
  path: string;
  line: number;
  character?: number;
  endCharacter?: number;
}

/** What a fix changes in one rendered resource, found by comparing the resource before and after the fix. */
export type FieldChange =
  | { kind: 'set'; path: Path; value: unknown }
  | { kind: 'remove'; path: Path }
  | { kind: 'add-resource'; object: unknown };

/** Edits of source files that carry a fix out: existing files edited, new files created. */
export interface SourceEdits {
  /** Each file's edits, offsets into `against`: the text they were computed on (a file holding anything else by then is not edited). */
  edits: { path: string; edits: TextEdit[]; against: string }[];
  creates: { path: string; text: string }[];
  /** What the fix does in words a person reads in the lightbulb ("set replicaCount: 2 in values-prod.yaml"). */
  title?: string;
  /**
   * The same change written into the shared base the field comes from, instead of a patch in this root:
   * the right fix only when every root that deploys the base wants it (decided where the roots are seen together).
   */
  sharedBase?: SourceEdits;
  /** Other rendered resources the edit changes too (a values key they print as well, a patch they take): said, and the fix is unsafe. */
  alsoChanges?: { resources: string[]; count: number; by: string };
}

/** A problem of the unit as a whole (a render error, dependencies not vendored), shown where it is caused. */
export interface RenderProblem {
  location: SourceLocation;
  message: string;
  severity: 'error' | 'warning' | 'info';
}

/** Maps a rendered unit back to its sources. Document indexes are those of `RenderedUnit.text`. */
export interface SourceMapper {
  /** Where a field is written, most precise first (a Helm values key also shows on its values line); never empty. */
  locate(documentIndex: number, path: Path): SourceLocation[];
  /** A phrase naming where a field's value comes from, for messages and hovers ("values key replicaCount"). */
  origin?(documentIndex: number, path: Path): string | undefined;
  /** The edits that make the source render what the fix wants; undefined when they cannot be written, and `refuse` told why. */
  translateFix(documentIndex: number, changes: FieldChange[], refuse?: (reason: string) => void): SourceEdits | undefined;
  /** The rendered documents' values as the analysis parsed them: a mapper that reads them need not parse the stream again. */
  useRendered?(values: readonly unknown[]): void;
}

export interface RenderedUnit {
  tool: RenderTool;
  /** The chart folder or the Kustomize root. */
  root: string;
  /** Every rendered resource, one YAML stream, with the tools' own bookkeeping annotations stripped. */
  text: string;
  mapper: SourceMapper;
  problems: RenderProblem[];
  /** It failed for a reason of the moment (the tool did not finish in time): the same files may render next time. */
  transient?: boolean;
  /** Where it is installed (`helm --namespace`): its resources that name no namespace go there, not to `default`. */
  namespace?: string;
}
