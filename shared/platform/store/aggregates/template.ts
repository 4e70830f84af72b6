import { defineAggregate, type AccessPattern, type ItemKey } from '../aggregate-definition';

/** Key of a template inside its project's partition. */
export const templateKey = (projectId: string, templateId: string): ItemKey => ({ pk: `PROJECT#${projectId}`, sk: `TPL#${templateId}` });

/** Prefix of a project's template items. */
export const TEMPLATE_SK_PREFIX = 'TPL#';

/**
 * Key of a template's list entry: the template without its HTML, plus its lowercased name, written in
 * the transaction of every template write. Its gsi1 attributes (templateListIndex) order the
 * project's templates by update time; the list filters on `name_lc` and answers from the entry.
 */
export const templateEntryKey = (projectId: string, templateId: string): ItemKey => ({ pk: `PROJECT#${projectId}`, sk: `TPLENTRY#${templateId}` });

/** gsi1 attributes of a template's list entry: newest update first, the internal id (zero-padded) breaking ties as before. */
export const templateListIndex = (projectId: string, updatedAt: string, internalId: number) => ({
  gsi1pk: `TPLS#${projectId}`,
  gsi1sk: `${updatedAt}#${String(internalId).padStart(12, '0')}`,
});

/** The gsi1 partition of a project's template entries. */
export const templateListPartition = (projectId: string) => ({ index: 'gsi1', pkName: 'gsi1pk', skName: 'gsi1sk', pk: `TPLS#${projectId}` });

/** Key of the marker that every template of a project written before list entries existed has one now. */
export const templatesIndexedKey = (projectId: string): ItemKey => ({ pk: `PROJECT#${projectId}`, sk: 'TPLINDEXED' });

/** Key of the per-project counter that allocates template internal ids (UpdateItem ADD). */
export const templateCounterKey = (projectId: string): ItemKey => ({ pk: `PROJECT#${projectId}`, sk: 'TPLSEQ' });

/** Key of the lookup from a template's internal id to its uuid. */
export const templateNumberKey = (projectId: string, internalId: number): ItemKey => ({ pk: `PROJECT#${projectId}`, sk: `TPLNUM#${internalId}` });

/** Key of a marker that a campaign or automation step uses a template. */
export const templateUsageKey = (projectId: string, templateId: string, kind: 'campaign' | 'automation', usedById: string): ItemKey => ({
  pk: `PROJECT#${projectId}`,
  sk: `TPLUSE#${templateId}#${kind}#${usedById}`,
});

/** Key of a template's count of usage markers: a non-forced delete checks it in its transaction, so a use recorded concurrently is never lost. */
export const templateUsesKey = (projectId: string, templateId: string): ItemKey => ({ pk: `PROJECT#${projectId}`, sk: `TPLUSES#${templateId}` });

/** Prefix of the usage markers of one template. */
export const templateUsagePrefix = (templateId: string): string => `TPLUSE#${templateId}#`;

/**
 * A template of a project: the template item (written whole under its `version`, in a transaction
 * with its list entry), its list entry, its internal id and the markers of who uses it.
 */
export const template = /* @__PURE__ */ defineAggregate({
  name: 'template',
  keys: { templateKey, TEMPLATE_SK_PREFIX, templateEntryKey, templateListIndex, templateListPartition, templatesIndexedKey, templateCounterKey, templateNumberKey, templateUsageKey, templateUsesKey, templateUsagePrefix },
  indexes: ['gsi1'],
});

/** The access-pattern rows of this file's aggregates (docs/access-patterns.md): data for the document, kept out of the definitions so function bundles leave them out. */
export const templateAccessPatterns: Record<string, readonly AccessPattern[]> = {
  template: [
    { pattern: 'Template of a project', pk: 'PROJECT#<projectId>', sk: 'TPL#<uuid>', operation: 'versioned Put (in a transaction with its list entry), GetItem', wcu: '2 per KB per create or update (transactional)' },
    { pattern: 'Template list entry (no HTML; gsi1)', pk: 'PROJECT#<projectId>', sk: 'TPLENTRY#<uuid>', operation: "Put in each template write's transaction; gsi1pk TPLS#<p>, gsi1sk <updated_at>#<internal id>; Query gsi1 desc", wcu: '2 (transactional) + 1 index per create, update or delete' },
    { pattern: 'Templates indexed marker (backfill)', pk: 'PROJECT#<projectId>', sk: 'TPLINDEXED', operation: 'GetItem per template list; Put once per project', wcu: '1 once' },
    { pattern: 'Template internal-id counter', pk: 'PROJECT#<projectId>', sk: 'TPLSEQ', operation: 'UpdateItem ADD (UPDATED_NEW)', wcu: '1 per create' },
    { pattern: 'Template internal id -> uuid', pk: 'PROJECT#<projectId>', sk: 'TPLNUM#<internalId>', operation: 'conditional Put, GetItem', wcu: '1 per create' },
    { pattern: 'Template usage (campaign, automation)', pk: 'PROJECT#<projectId>', sk: 'TPLUSE#<tpl>#<kind>#<id>', operation: "conditional Put in the user's creation transaction, Query begins_with", wcu: '2 (transactional) per use recorded, 2 per release' },
    { pattern: 'Template use count (delete guard)', pk: 'PROJECT#<projectId>', sk: 'TPLUSES#<tpl>', operation: 'ADD +1/-1 with each marker (same transaction); ConditionCheck uses <= 0 in a delete', wcu: '2 per use recorded or released' },
  ],
};
