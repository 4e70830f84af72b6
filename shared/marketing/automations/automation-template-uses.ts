import { listTemplateUsage, recordTemplateUsage, releaseTemplateUsage } from '../../mail-pipeline/templates/template-repository';
import type { Needs } from '../../platform/core/dependencies';
import { automationInvalid } from './automation-validation';
import type { Step } from './definition';

/**
 * The template uses of an automation (docs/automations.md, "Template in use"): each send_email step
 * of its active version holds a usage marker on its template (kind `automation`, id
 * `<automation_id>:<step_id>`), so `DELETE /v1/templates/:id` answers 409 TEMPLATE_IN_USE naming
 * the step. The automation item keeps the list it recorded (`<template_id>:<step_id>`), which an
 * edit or a re-activation brings to the new version's and the archive releases.
 */

/** The uses a version's steps need: `<template_id>:<step_id>` per send_email step. */
export const templateUsesOf = (steps: readonly Step[]): string[] => steps.flatMap((s) => (s.type === 'send_email' ? [`${s.template_id}:${s.id}`] : []));

const parts = (use: string) => {
  const cut = use.indexOf(':');
  return { templateId: use.slice(0, cut), stepId: use.slice(cut + 1) };
};

/**
 * Records the uses not recorded yet; a template deleted since the checks is a 409 naming the step
 * (the uses this call recorded are released first). A marker already there (an attempt that crashed
 * after recording it) counts as recorded. Returns the uses this call recorded.
 */
export async function recordTemplateUses(deps: Needs<'db' | 'clock'>, projectId: string, automationId: string, uses: readonly string[]): Promise<string[]> {
  const recorded: string[] = [];
  for (const use of uses) {
    const { templateId, stepId } = parts(use);
    const usedBy = `${automationId}:${stepId}`;
    if (await recordTemplateUsage(deps.db, projectId, templateId, 'automation', usedBy, deps.clock.now())) {
      recorded.push(use);
      continue;
    }
    const markers = await listTemplateUsage(deps.db, projectId, templateId);
    if (markers.some((m) => m.kind === 'automation' && m.id === usedBy)) continue;
    await releaseTemplateUses(deps, projectId, automationId, recorded);
    throw automationInvalid({ step: stepId, message: `Step "${stepId}": template ${templateId} does not exist` });
  }
  return recorded;
}

/** Releases uses (idempotent: a marker already gone changes nothing). */
export async function releaseTemplateUses(deps: Needs<'db'>, projectId: string, automationId: string, uses: readonly string[]): Promise<void> {
  for (const use of uses) {
    const { templateId, stepId } = parts(use);
    await releaseTemplateUsage(deps.db, projectId, templateId, 'automation', `${automationId}:${stepId}`);
  }
}
