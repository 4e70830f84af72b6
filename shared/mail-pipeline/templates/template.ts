/** A stored template (part 2, Template). `html` is kept exactly as sent. */
export interface Template {
  id: string;
  project_id: string;
  /** Short number, unique per project, allocated without races; accepted wherever an id is. */
  internal_id: number;
  name: string;
  subject: string | null;
  description: string | null;
  preheader: string | null;
  html: string;
  /** Bumped on every update: the rendering cache is keyed by (id, version). */
  version: number;
  created_at: string;
  updated_at: string;
}

/**
 * What a render produces, which decides how `{{expression}}` values are written: `html` escapes
 * them for HTML (`{{{raw}}}` stays raw); `text` writes them as given (a text/plain part); `header`
 * writes them as given and folds every CR and LF of the result into a space (a Subject), so no
 * variable can start a header of its own.
 */
export type RenderFormat = 'html' | 'text' | 'header';

/** The contract of the rendering engine (shared/mail-pipeline/templates/render.ts). */
export interface RenderOptions {
  /** Required: only the HTML part escapes variables; a Subject escaped for HTML reads `O&#x27;Brien`. */
  format: RenderFormat;
  /** Dry-run previews keep a variable without a value as `{{variable}}`. */
  preview?: boolean;
  /** `${templateId}:${version}`: compiled once per version and reused (used_cached_html). */
  cacheKey?: string;
  /** The request field the source came from (`html`, `subject`, `text`), named in errors; `html` by default. */
  field?: string;
}

export interface RenderResult {
  output: string;
  /** True when the compiled template came from the cache. */
  usedCache: boolean;
}
