/** An automation as stored (automation-gateway.ts) and shown (the API's `Automation`). */
import type { AutomationDefinition, AutomationStatus, ExitRule, Trigger } from './definition';

/** The automation item: who owns it, its status and its current version (the definition is in the version item). */
export interface Automation {
  id: string;
  project_id: string;
  name: string;
  status: AutomationStatus;
  /** The version new runs start on. */
  version: number;
  /** Whether a run ever started on `version`: an edit then writes a new version instead of replacing it. */
  version_used?: boolean;
  /** The trigger's type, for lists and the console. */
  trigger_type: Trigger['type'];
  created_at: string;
  updated_at: string;
  activated_at?: string;
  paused_at?: string;
  archived_at?: string;
  /**
   * The template uses recorded for it (`<template_id>:<step_id>`, each a usage marker
   * `<automation_id>:<step_id>` of that template): written at activation and active edits, released
   * at archive, so a template a step of the active version sends cannot be deleted unforced.
   */
  template_uses?: string[];
  /** Bumped by every status move and every edit: the fence of the API's writes. */
  revision: number;
}

/** One stored version: the definition a run follows. */
export interface AutomationVersion extends AutomationDefinition {
  automation_id: string;
  project_id: string;
  version: number;
  created_at: string;
}

/**
 * An active automation's row in its project's trigger table: what the dispatcher needs to route a
 * lead signal without reading the automation (the trigger, its version, its exit rules and the
 * events its wait_for_event steps listen for).
 */
export interface TriggerEntry {
  automation_id: string;
  project_id: string;
  version: number;
  trigger: Trigger;
  exit: ExitRule[];
  /** Event names of its wait_for_event steps. */
  wait_events: string[];
}
