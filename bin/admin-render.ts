import type { AdminResult, PartnerKeyView } from '../shared/platform/organizations/admin-commands';
import type { ProjectQuotaResult } from '../shared/mail-pipeline/quota/quota-admin';
import type { presentImport } from '../shared/audience/imports/lead-import';

/**
 * How `npm run admin` prints the results of the operator commands (shared/ returns them as data):
 * pretty JSON for `--json`, otherwise a few lines with their labels in one padded column.
 */

/** The result as JSON, without the internal `kind`. */
function asJson(result: AdminResult | ProjectQuotaResult): string {
  const { kind: _kind, ...body } = result;
  return JSON.stringify(body, null, 2);
}

/** The result as printed: pretty JSON (without the internal `kind`) or a few aligned lines. */
export function renderProjectQuota(result: ProjectQuotaResult, options: { json: boolean }): string {
  if (options.json) return asJson(result);
  const setting = result.monthly_quota === null ? 'deployment default (DEFAULT_MONTHLY_QUOTA)' : String(result.monthly_quota);
  const lines = [row('Project', result.project_id), row('Monthly quota', setting), row(`Sent ${result.month}`, `${result.sent_this_month}${result.monthly_quota === 'unlimited' ? ' (not counted while unlimited)' : ''}`)];
  if (typeof result.monthly_quota === 'number' && result.sent_this_month >= result.monthly_quota) {
    lines.push('', 'The quota is used up: further sends this month fail with quota_exceeded.');
  }
  return lines.join('\n');
}

/** The result as printed: pretty JSON (without the internal `kind`) or a few aligned lines. */
export function render(result: AdminResult, options: { json: boolean }): string {
  if (options.json) return asJson(result);
  switch (result.kind) {
    case 'org create': {
      const o = result.organization;
      const lines = [
        row('Organization', o.id),
        row('Name', o.name),
        row('Max projects', quotaText(o.max_projects)),
        row('Partner key', result.partner_key.key),
        row('Key id', result.partner_key.key_id),
      ];
      if (result.root_project) {
        const p = result.root_project;
        lines.push(row('Root project', `${p.id} (${p.name}, not counted in the quota)`), row('Live key', p.live_key), row('Test key', p.test_key));
      }
      lines.push('', 'The keys are shown only now: store them.');
      return lines.join('\n');
    }
    case 'org show': {
      const o = result.organization;
      return [
        row('Organization', o.id),
        row('Name', o.name),
        row('Created', o.created_at),
        row('Max projects', `${quotaText(o.max_projects)} (${o.active_projects} active)`),
        row('Root project', o.root_project_id ?? 'none'),
        ...keyLines(result.partner_keys),
      ].join('\n');
    }
    case 'key issue':
      return [row('Partner key', result.key), row('Key id', result.key_id), row('Organization', result.organization_id), '', 'The key is shown only now: store it.'].join('\n');
    case 'key list':
      return keyLines(result.partner_keys).join('\n');
    case 'key revoke':
      return `Revoked ${result.key_id}; it stops working at once.`;
    case 'quota set': {
      const text = `Max projects of ${result.organization_id}: ${quotaText(result.max_projects)} (${result.active_projects} active)`;
      const over = result.max_projects !== null && result.active_projects > result.max_projects;
      return over ? `${text}\nAbove the new quota: existing projects keep working, new ones are refused.` : text;
    }
  }
}

/** The partner keys, one per line, under one label. */
function keyLines(keys: PartnerKeyView[]): string[] {
  if (keys.length === 0) return [row('Partner keys', 'none')];
  return keys.map((k, i) => row(i === 0 ? 'Partner keys' : '', `${k.key_id}  (created ${k.created_at})`));
}

/** A label padded to one column, then its value. */
function row(label: string, value: string): string {
  return `${label.padEnd(14)}${value}`;
}

/** A project quota as text. */
function quotaText(max: number | null): string {
  return max === null ? 'unlimited' : String(max);
}

/** A finished `leads import`: pretty JSON, or its counts and where the failed rows are. */
export function renderImport(result: ReturnType<typeof presentImport>, options: { json: boolean }): string {
  if (options.json) return JSON.stringify(result, null, 2);
  const lines = [
    row('Import', result.id),
    row('Status', result.status + (result.error ? ` (${result.error})` : '')),
    row('Rows', String(result.rows_processed)),
    row('Leads created', String(result.leads_created)),
    row('Leads updated', String(result.leads_updated)),
    row('Duplicates merged', String(result.duplicates)),
    row('Rows failed', String(result.rows_failed)),
  ];
  if (result.warnings.length > 0) lines.push(row('Unknown segments', result.warnings.join(', ')));
  if (result.rows_failed > 0) lines.push('', `Failed rows: GET ${result.errors_url} (CSV of row, email, error)`);
  return lines.join('\n');
}
